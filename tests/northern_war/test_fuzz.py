"""Fuzz: random legal orders (and mutated texts) over many games of the sample scenario; the
invariants of the rules hold after every order."""

from __future__ import annotations

import json
import random

from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.grammar import ParseError
from adjudicator.northern_war import board
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.state import ON_MAP
from tests.northern_war.helpers import play, sample

GAMES = 40


def check_invariants(system, state) -> None:
    sc = system.scenario
    for b, blk in sc.blocks.items():
        on = state.status[b] == ON_MAP
        assert (state.at[b] is not None) == on, b
        assert not on or 1 <= state.strength[b] <= blk.max_strength, (b, state.strength[b])
    if state.phase == "action" and state.pending is None and not state.moved:
        assert board.contested(sc, state) == []  # N3 i: no contact at an action phase's start
    assert state.actions.get("sweden", 0) >= 0 and state.actions.get("coalition", 0) >= 0
    assert system.state_from_json(json.loads(json.dumps(system.state_to_json(state)))) == state
    if state.result is None:
        (side,) = system.situation(state).to_move
        assert system.legal_orders(state, side), (state.phase, state.pending)


def test_random_legal_games_keep_the_invariants_and_reach_a_result():
    system, results = sample(), set()
    for seed in range(GAMES):
        last = None
        for _state, _side, _order, out in play(system, seed):
            check_invariants(system, out.state)
            last = out.state
        results.add(last.result["winner"])
    assert "sweden" in results and len(results) >= 2


def test_mutated_orders_are_refused_with_a_rule_or_accepted_only_when_listed():
    system, rng, tried = sample(), random.Random(9), 0
    words = [*system.scenario.blocks, *system.scenario.territories, "none", "charles", "x"]
    for seed in range(10):
        for state, side, order, _out in play(system, seed):
            said = system.grammar.format(order).split()
            said[rng.randrange(len(said))] = rng.choice(words)
            try:
                mutant = system.grammar.parse(" ".join(said))
            except ParseError:
                continue
            for actor in ("sweden", "coalition"):
                tried += 1
                try:
                    system.apply(state, actor, mutant, _dice())
                except Rejection as exc:
                    assert exc.message and (exc.rule or exc.code), exc
                    continue
                legal = system.legal_orders(state, actor)
                templ = system.order_templates(state, actor)
                assert mutant in legal or templ, (actor, mutant)
    assert tried > 100


def test_no_view_of_a_running_game_shows_an_enemy_strength():
    system = sample()
    for seed in range(10):
        for state, *_ in play(system, seed):
            for side in ("sweden", "coalition"):
                seen = system.view(state, Viewer.of([side]))
                battle = (
                    set(board.on_map(system.scenario, state, state.battle["area"]))
                    if state.battle
                    else set()
                )
                for b in seen.at:
                    if seen.status[b] == ON_MAP and b not in battle and not b.startswith("?"):
                        assert system.scenario.side_of(b) == side, b


def _dice():
    from adjudicator.core.dice import HashDice

    return HashDice("fuzz")


def _fuzzed_path(sc, rng: random.Random, origin: str) -> tuple[str, ...]:
    """1-3 areas: mostly a border of the last, sometimes the same area, the start or any."""
    path, here = [], origin
    for _ in range(rng.choice((1, 1, 2, 3))):
        pick = rng.random()
        if pick < 0.55:
            here = rng.choice([*sc.territories[here].borders, origin])
        elif pick < 0.8:
            pass  # the area the path is in: "X does not border X" was said of it
        else:
            here = rng.choice(list(sc.territories))
        path.append(here)
    return tuple(path)


def test_7_1_7_3_fuzzed_move_orders_are_refused_with_sense_and_a_rule():
    """Section 7 (7.1, 7.3, 7.5, 7.8, 2.13): random moves of own blocks over the sample map.
    Every refusal cites a rule and never says an area does not border itself; a move to where
    the blocks stand says they are already there (7.1); a path entering an area twice or coming
    back to its start says so (7.3)."""
    system, rng = sample(), random.Random(26)
    sc = system.scenario
    codes: set[str] = set()
    names = {str(terr.named) for terr in sc.territories.values()}
    for seed in range(6):
        for state, side, _order, _out in play(system, seed):
            if state.phase != "action" or state.pending is not None:
                continue
            own = [b for b in sc.blocks if sc.side_of(b) == side and state.status[b] == ON_MAP]
            for _ in range(8):
                blocks = tuple(rng.sample(own, min(len(own), rng.choice((1, 1, 2)))))
                origin = str(state.at[blocks[0]])
                order = O.Move(blocks, _fuzzed_path(sc, rng, origin))
                try:
                    system.apply(state, side, order, _dice())
                except Rejection as exc:
                    said = str(exc.message)
                    codes.add(exc.code)
                    assert exc.rule, exc
                    for x in names:
                        assert f"{x} does not border {x}" not in said, said
                    if order.path[0] == origin and exc.code in ("already-there", "loop"):
                        assert exc.code == "already-there" and "already stand" in said, said
                    if exc.code == "loop":
                        assert "twice" in said or "where it starts" in said, said
    assert {"already-there", "loop", "not-adjacent", "one-territory"} <= codes, codes
