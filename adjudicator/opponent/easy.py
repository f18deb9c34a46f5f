"""The `easy` level: one ply. Each legal order is applied once, on one determinised state with
the opponent's own dice, and the position it leaves is judged by the system's `evaluate`; the
best is taken, ties broken by the opponent's dice. `end` (the order that ends a phase or
declines a decision) is taken only when no other order leaves a better position than the
present one and than ending does. Pure."""

from __future__ import annotations

from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.opponent.dice import OwnDice
from adjudicator.opponent.plays import candidates, pick_best


def value_after(plays: Any, state: Any, side: str, order: object, dice: OwnDice) -> float | None:
    """The evaluation for `side` of the position `order` leaves on `state`, a world the
    opponent sampled behind its view (None: the rules refused it, which a listed order never
    should). The sampled world is judged as it is: its hidden values are the opponent's own
    guesses, never the game's."""
    try:
        out = plays.apply(state, side, order, dice)
    except Rejection:
        return None
    return float(plays.evaluate(out.state, side))


def decide_easy(plays: Any, view: Any, side: str, dice: OwnDice) -> object:
    """One ply over every legal order (the module doc)."""
    cands = candidates(plays, view, side)
    if len(cands) == 1:
        return cands[0].order
    state = plays.determinise(view, side, dice.fork("world"))
    base = float(plays.evaluate(state, side))  # judged as the candidates are: on the world
    for c in cands:
        c.add(value_after(plays, state, side, c.order, dice.fork(f"dice|{c.text}")))
    return pick_best(cands, base, dice).order


__all__ = ["decide_easy", "value_after"]
