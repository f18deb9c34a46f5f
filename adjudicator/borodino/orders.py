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


# -- a moderator's edits of the position (edit.py; verbs of kind "edit": any game, moderator only)
BOXES = ("withdrawn", "recovery", "recovered", "eliminated", "later")  # 1.5 and its Decision
STATES = ("formed", "disordered", "routed", "eliminated")  # 1.3, 1.6, 1.7
PHASES = ("activations", "activation", "rally", "recovery", "placement")  # state.py


@dataclass(frozen=True)
class Place:
    """`place <UNIT> <HEX|BOX>`: a hex of the map, or withdrawn, recovery, recovered (awaiting
    placement, 4.5), eliminated or later (not yet entered, 6.4)."""

    unit: str
    where: str


@dataclass(frozen=True)
class SetState:
    """`set state <UNIT> formed|disordered|routed|eliminated`."""

    unit: str
    state: str


@dataclass(frozen=True)
class SetLosses:
    """`set losses <GROUP> <N>`: the group's L of rule 6.3."""

    group: str
    losses: int


@dataclass(frozen=True)
class SetCollapsed:
    """`set collapsed <GROUP> yes|no`: the Collapsed marker (6.7)."""

    group: str
    on: bool


@dataclass(frozen=True)
class SetTurn:
    turn: int


@dataclass(frozen=True)
class SetPhase:
    """`set phase <PHASE> [<AG|UNIT>]`: an activation or Rally phase names its group."""

    phase: str
    group: str | None = None


EDITS = (Place, SetState, SetLosses, SetCollapsed, SetTurn, SetPhase)

REPORTS = (At, Disorder, Rout, Eliminate, Activated)
PLAYER_ORDERS = (*REPORTS, Dispute, Activate, ActivateWhich, End, Rally, Recovery, Return, Morale)
QUERIES = (Status, Log, Help)
MODERATOR_ORDERS = (Dice, Default)

__all__ = [
    "ACTIONS",
    "BOXES",
    "EDITS",
    "MODERATOR_ORDERS",
    "PHASES",
    "PLAYER_ORDERS",
    "QUERIES",
    "REPORTS",
    "STATES",
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
    "Place",
    "Rally",
    "Recovery",
    "Return",
    "Rout",
    "SetCollapsed",
    "SetLosses",
    "SetPhase",
    "SetState",
    "SetTurn",
    "Status",
]
