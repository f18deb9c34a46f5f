"""Helpers of the block game's tests: the sample system, random legal play, and a state whose
hidden values differ (what a viewer may not see changed, everything he may see kept)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.events import Viewer
from adjudicator.northern_war import system as nw_system
from adjudicator.northern_war.board import on_map
from adjudicator.northern_war.state import ON_MAP, NWState
from app import games

SIDES = ("sweden", "coalition")


def sample(rules: type[nw_system.NorthernWar] = nw_system.NorthernWar) -> nw_system.NorthernWar:
    kind = replace(nw_system.SYSTEM, rules=rules)
    text, source = games.default_scenario(nw_system.SYSTEM)
    return kind.load(text, source)


def play(system: Any, seed: int, bound: int = 400) -> Iterator[tuple[NWState, str, object, Any]]:
    """(state, side, the order it gives, the outcome) for each order of a random legal game."""
    rng, dice = random.Random(seed), HashDice(seed)
    state = system.initial(False, dice).state
    for _ in range(bound):
        here = system.situation(state)
        if here.over:
            return
        side = here.to_move[0]
        texts = sorted(system.grammar.format(o) for o in system.legal_orders(state, side))
        ends = [t for t in texts if t == "end"]
        others = [t for t in texts if t != "end"]
        text = ends[0] if ends and (not others or rng.random() < 0.15) else rng.choice(others)
        order = system.grammar.parse(text)
        out = system.apply(state, side, order, dice)
        yield state, side, order, out
        state = out.state
    raise AssertionError(f"no result after {bound} orders")


def hidden_from(system: Any, state: NWState, viewer: Viewer) -> list[str]:
    """The blocks whose strength and identity `viewer` may not see now."""
    sc = system.scenario
    battle = set(on_map(sc, state, state.battle["area"])) if state.battle else set()
    return [
        b
        for b in sc.blocks
        if sc.side_of(b) not in viewer.sides and state.status[b] == ON_MAP and b not in battle
    ]


def perturbed(
    system: Any, state: NWState, viewer: Viewer, rng: random.Random, shuffle: bool = True
) -> NWState:
    """The state with every value hidden from `viewer` changed: other strengths, the blocks of
    one nation shuffled among their places (shuffle), the other sides' private records
    replaced."""
    sc = system.scenario
    new = state.clone()
    hidden = hidden_from(system, state, viewer)
    by_nation: dict[str, list[str]] = {}
    for b in hidden:
        by_nation.setdefault(sc.blocks[b].nation, []).append(b)
        new.strength[b] = state.strength[b] % sc.blocks[b].max_strength + 1
    for blocks in by_nation.values() if shuffle else ():
        places = [state.at[b] for b in blocks]
        rng.shuffle(places)
        for b, where in zip(blocks, places, strict=True):
            new.at[b] = where
    for side in SIDES:
        if side not in viewer.sides:
            new.seen[side] = {b: [9, 99, "never", "moscow"] for b in sc.blocks}
            new.sieges_seen[side] = [[99, "never", "moscow", [6, 6, 6], 0, False]]
    return new


def viewers() -> list[Viewer]:
    return [
        Viewer.public(),
        Viewer.of(["sweden"]),
        Viewer.of(["coalition"]),
        Viewer.of([], moderator=True),
    ]


def fixed(*values: int) -> FixedDice:
    return FixedDice(values)
