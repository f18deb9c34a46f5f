"""The orders of the Borodino referee: a player's reports about his own units, the activation,
the rolls the bot makes (rally, recovery, morale), the return of recovered units. Pure data.

The shared questions and sandbox orders (Status, Log, Help, Dice, Default) are
adjudicator.core.commands; they are re-exported here among the system's orders.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.commands import Default, Dice, Help, Log, Status

ACTIONS = ("moved", "fired", "faced")  # 2.2: any of them makes a unit ineligible to rally


@dataclass(frozen=True)
class At:
    """`at <UNIT> <HEX>`: the unit is (now) in that hex; a unit not yet entered enters there."""

    unit: str
    hex: str


@dataclass(frozen=True)
class Disorder:
    unit: str


@dataclass(frozen=True)
class Rout:
    unit: str


@dataclass(frozen=True)
class Eliminate:
    unit: str


@dataclass(frozen=True)
class Activated:
    """`activated <UNIT> moved|fired|faced`: what a unit did in its activation (rule 2.2)."""

    unit: str
    action: str


@dataclass(frozen=True)
class Dispute:
    """`dispute <UNIT> <TEXT>`: the opponent questions a report; sent to the moderators."""

    unit: str
    text: str


@dataclass(frozen=True)
class Activate:
    """`activate <AG|UNIT>`: an Activation Group's (or an independent unit's, 2.8) activation."""

    group: str


@dataclass(frozen=True)
class ActivateWhich:
    """`activate` with no group: refused by the check (legal.py), naming the groups that may
    be activated now (2.1, 2.8); the grammar cannot know them."""


@dataclass(frozen=True)
class End:
    """Close the Activation Phase (its Rally phase begins) or the Rally phase."""


@dataclass(frozen=True)
class Rally:
    unit: str


@dataclass(frozen=True)
class Recovery:
    """Run the whole Recovery Phase (after the Morale Phase, 6.2)."""


@dataclass(frozen=True)
class Return:
    """`return <UNIT> <HEX>`: place a recovered unit (section 4)."""

    unit: str
    hex: str


@dataclass(frozen=True)
class Morale:
    """The Morale Phase: the collapse check of every Activation Group (6.2, 6.3)."""


REPORTS = (At, Disorder, Rout, Eliminate, Activated)
PLAYER_ORDERS = (*REPORTS, Dispute, Activate, ActivateWhich, End, Rally, Recovery, Return, Morale)
QUERIES = (Status, Log, Help)
MODERATOR_ORDERS = (Dice, Default)

__all__ = [
    "ACTIONS",
    "MODERATOR_ORDERS",
    "PLAYER_ORDERS",
    "QUERIES",
    "REPORTS",
    "Activate",
    "ActivateWhich",
    "Activated",
    "At",
    "Default",
    "Dice",
    "Disorder",
    "Dispute",
    "Eliminate",
    "End",
    "Help",
    "Log",
    "Morale",
    "Rally",
    "Recovery",
    "Return",
    "Rout",
    "Status",
]
