"""Positions from random games for the opponent's tests: the games of bots/demo.py's random
player (the legal orders' canonical texts sorted, `end` now and then), played on the pure
rules with seeded dice, no store."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.events import Viewer
from adjudicator.core.system import GameSystem, start
from app import games
from bots.demo import choose

PLAYED = ("hells-gate", "northern-war")


@cache
def bound(system_id: str) -> GameSystem:
    kind = registry.get(system_id)
    text, source = games.scenario_text(kind, None)
    return games.bind(system_id, text, source)


def positions(system_id: str, seed: int) -> tuple[tuple[Any, str], ...]:
    """Every position of one random game (state, the side the game waits for), in order."""
    return played(system_id, seed)[0]


def final(system_id: str, seed: int) -> Any:
    """The state one random game ended in."""
    return played(system_id, seed)[1]


@cache
def played(system_id: str, seed: int, cap: int = 400) -> tuple[tuple[tuple[Any, str], ...], Any]:
    system = bound(system_id)
    rng, dice = random.Random(seed), HashDice(f"opponent-{seed}")
    state = start(system, False, dice, None).state
    found = []
    for _ in range(cap):
        here = system.situation(state)
        if here.over:
            break
        side = here.to_move[0]
        found.append((state, side))
        legal = sorted(system.grammar.format(o) for o in system.legal_orders(state, side))
        state = system.apply(state, side, system.grammar.parse(choose(rng, legal)), dice).state
    return tuple(found), state


def sampled(system_id: str, seeds: range, step: int) -> list[tuple[Any, str]]:
    """Every `step`-th position of the random games of `seeds`."""
    return [p for seed in seeds for p in positions(system_id, seed)[::step]]


def view_of(system: GameSystem, state: Any, side: str) -> Any:
    return system.view(state, Viewer.of([side]))
