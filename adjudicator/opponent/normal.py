"""The `normal` level: search within a budget of evaluations. Pure."""

from __future__ import annotations

from typing import Any

from adjudicator.opponent.dice import OwnDice
from adjudicator.opponent.easy import decide_easy

NORMAL_BUDGET = 400.0  # evaluations a decision may spend (measured: bench/bench_ai.py)


def decide_normal(plays: Any, view: Any, side: str, dice: OwnDice, budget: float) -> object:
    """For now the one ply of `easy`; the search within `budget` replaces it."""
    return decide_easy(plays, view, side, dice)


__all__ = ["NORMAL_BUDGET", "decide_normal"]
