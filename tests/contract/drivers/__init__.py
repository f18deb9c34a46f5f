"""The contract drivers, one module per game system: each module here names its DRIVERS (a
tuple of `Driver`), and `discover` collects them, so a new game system adds its own module and
touches no other test file.

A `Driver` knows how to make a game of its system, which chat user plays which side, how long a
random legal game may take, and (for a system with hidden information) the texts the system
prints for the hidden values a side, or everyone, may legitimately know at a point of the game:
the masks `hidden_leaks` applies before comparing what two games told each audience.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.system import SystemType
from app.service import GameService

MODERATOR = 1  # the chat user who makes every contract game (moderates, holds no seat)

Masks = dict[str, str]  # a text the system prints -> what it is replaced with


def no_masks(state: Any, side: str | None) -> Masks:
    return {}


@dataclass(frozen=True)
class Driver:
    system_id: str
    kind: SystemType | None = None  # registered for the tests (None: an installed system)
    seats: dict = field(default_factory=dict)  # side -> the chat user who plays it
    bound: int = 400  # random legal play ends within so many orders
    chat_orders: int = 30  # the orders of a chat run (fewer if the game ends first)
    ask_every: int = 3  # the audiences ask their questions every so many orders
    masks: Callable[[Any, str | None], Masks] = no_masks
    # the order a chat run's player sends: (rng, system, state, side) -> text; None: any legal
    # order. The second run replays the first one's texts, so a system whose orders name a
    # hidden thing (a card in hand) picks the orders that name none here.
    script_order: Callable[[Any, Any, Any, str], str] | None = None

    @property
    def hidden(self) -> bool:
        return self.masks is not no_masks

    def new_game(self, service: GameService, name: str) -> str:
        service.new_game(name, system=self.system_id, creator=f"telegram:{MODERATOR}")
        return name


def discover() -> dict[str, Driver]:
    """Every driver in tests/contract/drivers/: each module there names its DRIVERS (a tuple),
    so a new game system adds its own module and touches no other test file."""
    found: dict[str, Driver] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for d in module.DRIVERS:
            assert d.system_id not in found, f"two drivers for {d.system_id}"
            found[d.system_id] = d
    return found
