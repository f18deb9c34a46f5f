"""Helpers of the Stalin's War tests: the sample deck bound, a dealt game, and orders by text."""

from __future__ import annotations

from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.stalins_war.state import SwState
from adjudicator.stalins_war.system import SYSTEM, StalinsWar
from app import games


def system() -> StalinsWar:
    bound = games.bind("stalins-war", *games.default_scenario(registry.get(SYSTEM.id)))
    assert isinstance(bound, StalinsWar)
    return bound


def dealt(seed: int = 1) -> tuple[StalinsWar, SwState, HashDice]:
    sw, dice = system(), HashDice(seed)
    state = sw.initial(False, dice).state
    for side in ("axis", "soviet"):
        state = sw.apply(state, side, sw.grammar.parse("draw"), dice).state
    return sw, state, dice


def say(sw: StalinsWar, state: SwState, side: str, text: str, dice=None) -> SwState:
    return sw.apply(state, side, sw.grammar.parse(text), dice or HashDice(0)).state


def refused(sw: StalinsWar, state: SwState, side: str, text: str) -> Rejection:
    try:
        sw.apply(state, side, sw.grammar.parse(text), HashDice(0))
    except Rejection as rej:
        return rej
    raise AssertionError(f"{text!r} was accepted")


def give(state: SwState, side: str, *cards: int) -> SwState:
    """Put these cards in the side's hand (taken from wherever they are)."""
    p = state.players[side]
    for n in cards:
        for pile in (p.deck, p.hand, p.set_aside):
            if n in pile:
                pile.remove(n)
        p.discard = [d for d in p.discard if d[0] != n]
        p.hand.append(n)
    return state


def at(state: SwState, side: str, rnd: int = 1, turn: int | None = None) -> SwState:
    """The state at the start of `side`'s action in round `rnd` (of `turn`)."""
    state.phase, state.to_move, state.round, state.open = "action", side, rnd, None
    if turn is not None:
        state.turn = turn
    return state
