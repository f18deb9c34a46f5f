"""A fuzz test over random legal sequences of the sample order of battle (and of a d10 one):
after every legal order the invariants of the spec hold, every listed order is accepted, and
the state survives its JSON round trip."""

from __future__ import annotations

import json
import random

from adjudicator.borodino.board import collapse_at, losses
from adjudicator.borodino.state import State
from adjudicator.borodino.system import SYSTEM
from adjudicator.core.dice import HashDice
from app.games import default_scenario

LOCATIONS = {"map", "withdrawn", "recovery", "recovered", "eliminated", "later"}


def check(system, before: State, state: State, events) -> None:
    scen = system.scenario
    for uid, spot in state.units.items():
        assert spot.where in LOCATIONS  # 1.5: one location each
        assert (spot.hex is not None) == spot.on_map and (spot.hex is None or spot.hex in scen.map)
        if before.units[uid].where == "eliminated":
            assert spot.where == "eliminated"  # nothing comes back from the box (1.7)
        if uid in before.entered:
            assert uid in state.entered
    held: dict[str, str] = {}
    for uid, spot in state.units.items():
        if spot.on_map:
            assert held.setdefault(spot.hex, scen.units[uid].side) == scen.units[uid].side
    assert set(before.collapsed) <= set(state.collapsed)  # 6.9: once, for good
    assert len(set(state.collapsed)) == len(state.collapsed)
    for gid in set(state.collapsed) - set(before.collapsed):  # collapsed only at 2/3 (6.3)
        lost, n = losses(scen, before, gid)
        assert not before.morale_done and n > 0 and 3 * lost >= 2 * n
    for gid in state.collapsed:  # 6.8: no unit of it is Formed, once routed back or rallied
        for u in scen.members(gid):
            if before.units[u.id].disordered and state.units[u.id].on_map and u.counts_for_collapse:
                assert state.units[u.id].disordered
    for e in events:
        if e.kind == "GroupCollapsed":
            assert 3 * e.data["lost"] >= 2 * e.data["n"] and e.data["lost"] >= collapse_at(
                e.data["n"]
            )
    assert system.state_from_json(json.loads(json.dumps(system.state_to_json(state)))) == state


RARE = {"Recovery": 0.1, "Morale": 0.1}  # the turn's end: rarer, so that turns are played


def pick(rng: random.Random, legal: list) -> object:
    """A kind of order first (each alike but the turn's end), then one of that kind."""
    kinds: dict[str, list] = {}
    for order in legal:
        kinds.setdefault(type(order).__name__, []).append(order)
    names = sorted(kinds)
    kind = rng.choices(names, [RARE.get(n, 1.0) for n in names])[0]
    return rng.choice(kinds[kind])


def play(system, seed: int, orders: int, seen: set[str] | None = None) -> int:
    rng, dice = random.Random(seed), HashDice(seed)
    state = system.initial(False, dice).state
    for n in range(orders):
        here = system.situation(state)
        if here.over:
            return n
        side = rng.choice(here.to_move)  # either player may report between activations
        legal = system.legal_orders(state, side) or system.legal_orders(state, here.to_move[0])
        side = side if system.legal_orders(state, side) else here.to_move[0]
        order = pick(rng, legal)
        out = system.apply(state, side, order, dice)
        check(system, state, out.state, out.events)
        if seen is not None:
            seen.update(e.kind for e in out.events)
        state = out.state
    return orders


def test_random_legal_sequences_keep_every_invariant_and_reach_every_rule():
    system = SYSTEM.load(*default_scenario(SYSTEM))
    seen: set[str] = set()
    for seed in range(30):
        play(system, seed, 300, seen)
    every = {"UnitRallied", "RallyFailed", "GroupCollapsed", "FirstPlayerRolled", "UnitRecovered",
             "RecoveryFailed", "UnitReturned", "WithdrawnMoved", "GroupOutOfGame"}  # fmt: skip
    assert every <= seen, every - seen


def test_random_legal_sequences_with_a_d10_and_a_game_ending_at_a_collapse():
    text, _ = default_scenario(SYSTEM)
    text = text.replace("die_sides = 6", "die_sides = 10").replace(
        "on_collapse = false", "on_collapse = true"
    )
    system = SYSTEM.load(text, "d10")
    ended = [play(system, seed, 600) < 600 for seed in range(4)]
    assert all(ended)
