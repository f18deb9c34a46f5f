"""The interface every game system offers its front ends (Hell's Gate now; referee modules next)."""

from __future__ import annotations

from typing import Any, Protocol

from adjudicator.core.dice import DiceSource


class GameRules(Protocol):
    game: str

    def new_game(self, sandbox: bool = False, dice: DiceSource | None = None) -> Any:
        """The state after setup and the automatic phases that follow it (an Outcome)."""

    def apply(self, state: Any, actor: str, order: Any, dice: DiceSource | None) -> Any:
        """New state + events + rolls (an Outcome), or raise Rejection; `state` is untouched."""

    def legal_orders(self, state: Any, side: str) -> list:
        """The one gate: every order `side` may give now."""

    def answer(self, state: Any, actor: str, query: Any) -> str:
        """Text for a query (status, units, supply, options, preview, help)."""

    def show(self, state: Any) -> dict:
        """The machine-readable view of the state."""
