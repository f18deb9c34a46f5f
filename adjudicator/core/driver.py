"""What the contract suite needs to know to play a game system: its `Driver`.

The contract suite (the installed package `contract`, run by `pbem contract SYSTEM`) checks every
game system against the protocol of adjudicator/core/system.py. A system declares its driver in
the entry-point group `pbem.contract`, named by the system's id, beside its `pbem.games` entry:

    [project.entry-points."pbem.contract"]
    hells-gate = "adjudicator.hells_gate.contract:DRIVER"

A driver is data: which chat user plays which side, how long a random legal game may take, and,
for a system with hidden information, the texts the system prints for the hidden values a side
(or everyone) may legitimately know at a point of the game (the masks the suite applies before
comparing what two games that differ only in the hidden seed told each audience). A system
imports this module and nothing above the rules. Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.system import GameSystem

GROUP = "pbem.contract"  # the entry-point group of the drivers
SELECTED = "PBEM_CONTRACT_SYSTEM"  # set by `pbem contract SYSTEM`: the one system to check
MODERATOR = 1  # the chat user who makes every contract game (moderates, holds no seat)

Masks = dict[str, str]  # a text the system prints -> what it is replaced with
MaskFn = Callable[[GameSystem, Any, "str | None"], Masks]  # (system, state, side or None)


def no_masks(system: GameSystem, state: Any, side: str | None) -> Masks:
    """The masks of a system without hidden information: nothing to mask."""
    return {}


@dataclass(frozen=True)
class Driver:
    """How the contract suite plays one system (the fields' comments say what each holds)."""

    system_id: str
    seats: Mapping[str, int] = field(default_factory=dict)  # side -> the chat user who plays it
    bound: int = 400  # a random legal game ends within so many orders
    chat_orders: int = 30  # the orders of a chat run (fewer if the game ends first)
    ask_every: int = 3  # the audiences ask their questions every so many orders
    masks: MaskFn = no_masks  # what a viewer may know of the hidden values, as printed
    # Which legal orders (canonical texts) a chat run's player may send; None: any. The second
    # run replays the first one's texts, so a system whose orders name a hidden thing (a card
    # in hand) keeps to the orders that name none.
    script_order: Callable[[str], bool] | None = None

    @property
    def hidden(self) -> bool:
        """Whether the system has hidden values to mask (the hidden-seed runs must differ)."""
        return self.masks is not no_masks


__all__ = ["GROUP", "MODERATOR", "SELECTED", "Driver", "MaskFn", "Masks", "no_masks"]
