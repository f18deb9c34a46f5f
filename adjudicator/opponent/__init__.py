"""The built-in opponent: a player that chooses an order for its side from that side's view.

    decide(system, view, side, level, seed, budget=None) -> an order of
        system.legal_orders(view, side)

`view` is `system.view(state, Viewer.of([side]))`: the opponent sees what that side's player
sees and nothing else (a hidden value it needs is sampled by the system's `determinise`). A
system plays with it when it implements core.system.OpponentSupport (`supports`). The levels:
- `easy`: one ply, one sample of every legal order (easy.py);
- `normal`: several samples of the promising orders within a budget, and a look-ahead
  (normal.py).
The result depends only on (view, side, level, seed, budget): the budget is counted in
evaluations (one order applied and the position judged), never in time, and the only
randomness is the opponent's own dice seeded from `seed` (dice.py), never the game's.

It imports adjudicator.core only (tests/test_opponent_imports.py walks it). Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.system import GameSystem
from adjudicator.opponent.dice import OwnDice
from adjudicator.opponent.easy import decide_easy
from adjudicator.opponent.normal import NORMAL_BUDGET, decide_normal

LEVELS = ("easy", "normal")
DEFAULT_LEVEL = "normal"


def supports(system: GameSystem) -> bool:
    """Whether this system can be played by the opponent (Hell's Gate and the Northern War)."""
    return getattr(system, "opponent_plays", False) is True


def decide(
    system: GameSystem, view: Any, side: str, level: str, seed: str, budget: float | None = None
) -> object:
    """The order (a parsed order object, one of system.legal_orders(view, side)) the opponent
    gives for `side`, seeing only `view` (= system.view(state, Viewer for that side)).
    Deterministic for the same (view, side, level, seed, budget): the budget is counted in
    evaluations (NOT wall time or CPU time: the result must not depend on load). `seed` is a
    string; the opponent's own dice seeded from it are its only randomness."""
    if level not in LEVELS:
        raise ValueError(f"no opponent level {level!r}; levels: {', '.join(LEVELS)}")
    if not supports(system):
        raise ValueError(f"the opponent does not play {system.id}")
    dice = OwnDice(f"{seed}|{side}|{level}")
    if level == "easy":
        return decide_easy(system, view, side, dice)
    return decide_normal(system, view, side, dice, NORMAL_BUDGET if budget is None else budget)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "decide", "supports"]
