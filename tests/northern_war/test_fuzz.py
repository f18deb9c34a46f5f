"""Fuzz: random legal orders (and mutated texts) over many games of the sample scenario; the
invariants of the rules hold after every order."""

from __future__ import annotations

import json
import random

from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.grammar import ParseError
from adjudicator.northern_war import board
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
