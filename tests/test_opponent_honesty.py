"""The opponent decides from its side's view only: two full states whose views for that side
are the same (an enemy block's strength changed, two enemy blocks' identities swapped: rule
2.19 hides both) get the same order for the same seed; two states whose views differ get
different orders at some positions (an opponent blind to its input would fail that).
Hell's Gate hides nothing (its view is the state), so only its second half applies."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from adjudicator import opponent
from tests.opponent_support import bound, sampled, view_of

BUDGET = 40.0  # normal with a tiny budget: its search runs, cheaply
LEVELS = (("easy", None), ("normal", BUDGET))


def hidden_enemies(system: Any, state: Any, side: str) -> list[str]:
    """The enemy blocks `side` sees only as anonymous ones."""
    view = view_of(system, state, side)
    sc = system.scenario
    return [b for b in sc.blocks if sc.side_of(b) != side and b not in view.at]


def changed_strength(system: Any, state: Any, side: str) -> Any | None:
    """The state with one hidden enemy block at another strength (None: none can change)."""
    for b in hidden_enemies(system, state, side):
        top = system.scenario.blocks[b].max_strength
        if top > 1:
            other = state.clone()
            other.strength[b] = state.strength[b] % top + 1
            return other
    return None


def swapped_blocks(system: Any, state: Any, side: str) -> Any | None:
    """The state with two hidden enemy blocks of one nation in different territories swapped,
    each with its strength (None: no such pair)."""
    sc = system.scenario
    hidden = hidden_enemies(system, state, side)
    for a in hidden:
        for b in hidden:
            same = sc.blocks[a].nation == sc.blocks[b].nation
            if same and state.at[a] != state.at[b]:
                other = state.clone()
                other.at[a], other.at[b] = state.at[b], state.at[a]
                return other
    return None


def decisions(system: Any, state: Any, side: str, seed: str) -> list[str]:
    view = view_of(system, state, side)
    return [
        system.grammar.format(opponent.decide(system, view, side, level, seed, budget))
        for level, budget in LEVELS
    ]


@pytest.mark.parametrize("change", [changed_strength, swapped_blocks])
def test_the_same_view_with_other_hidden_values_gets_the_same_order(change):
    system = bound("northern-war")
    pairs = 0
    for n, (state, side) in enumerate(sampled("northern-war", range(6), 2)):
        other = change(system, state, side)
        if other is None:
            continue
        assert other != state
        assert view_of(system, other, side) == view_of(system, state, side)
        assert decisions(system, other, side, f"s{n}") == decisions(system, state, side, f"s{n}")
        pairs += 1
    assert pairs >= 25


def own_change(system_id: str, system: Any, state: Any, side: str) -> Any | None:
    """The state with something its side sees changed: one of its own blocks' strength (the
    block game), the two-step units on the map flipped (Hell's Gate)."""
    if system_id == "northern-war":
        sc = system.scenario
        mine = [b for b in sc.blocks if sc.side_of(b) == side and state.status[b] == "map"]
        for b in mine:
            if sc.blocks[b].max_strength > 1:
                other = state.clone()
                other.strength[b] = state.strength[b] % sc.blocks[b].max_strength + 1
                return other
        return None
    flips = [
        uid
        for uid, u in state.units.items()
        if u.box == "map" and system.scenario.units[uid].steps == 2
    ]
    if not flips:
        return None
    other = state.clone()
    for uid in flips:  # every two-step unit on the map turned over: strengths all changed
        other.units[uid] = dataclasses.replace(
            state.units[uid], reduced=not state.units[uid].reduced
        )
    return other


@pytest.mark.parametrize("system_id", ["hells-gate", "northern-war"])
def test_a_different_view_gets_a_different_order_somewhere(system_id):
    system = bound(system_id)
    differ = {level: 0 for level, _ in LEVELS}
    step = 9 if system_id == "hells-gate" else 2
    for n, (state, side) in enumerate(sampled(system_id, range(3), step)):
        other = own_change(system_id, system, state, side)
        if other is None or len(system.legal_orders(state, side)) < 2:
            continue
        assert view_of(system, other, side) != view_of(system, state, side)
        mine, theirs = (
            decisions(system, state, side, f"s{n}"),
            decisions(system, other, side, f"s{n}"),
        )
        for (level, _), a, b in zip(LEVELS, mine, theirs):
            differ[level] += a != b
    assert all(count > 0 for count in differ.values()), differ
