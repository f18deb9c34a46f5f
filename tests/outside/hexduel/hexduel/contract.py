"""The driver of the contract suite (`pbem contract hexduel`): the seats, short bounds, and what
a viewer may know of the hidden objective, as the system prints it."""

from __future__ import annotations

from typing import Any

from adjudicator.core.driver import Driver, Masks


def masks(system: Any, state: Any, side: str | None) -> Masks:
    """A side knows its own objective: its texts are masked for it (and for nobody else)."""
    mine = state.objective.get(side) if side is not None else None
    if mine is None:
        return {}
    return {f"Your objective is {mine}.": "<objective>", f"Your objective: {mine}.": "<objective>"}


DRIVER = Driver(
    "hexduel", {"red": 2, "blue": 3}, bound=20, chat_orders=12, ask_every=4, masks=masks
)
