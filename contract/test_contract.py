"""The contract every game system passes (adjudicator/core/system.py states it), checked for each
system with a driver (contract/plugin.py): the grammar round trip, the one gate in both
directions, the log's replay, a result within a bound, the images of the first post and the
end, the deadline default, and that nothing anyone receives depends on a hidden value he may
not see (two chat games differing only in the hidden seed, compared audience by audience by
`hidden_leaks`)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from adjudicator.core.driver import Driver
from app.after import carries_image
from app.service import GameService
from contract.gate import (
    MUTANTS,
    assert_in_gate,
    help_examples,
    mutant,
    rules_order,
    vocabulary,
)
from contract.leaks import hidden_leaks
from contract.play import bound_system, direct_play, new_game, service_play
from contract.table import two_runs
from storage import Store


# -- the grammar and the one gate, on the rules alone
def test_every_legal_order_survives_the_grammar_round_trip(driver: Driver) -> None:
    system = bound_system(driver)
    for seed in (1, 2):
        for state, side, _ in direct_play(system, seed, driver.bound):
            for order in system.legal_orders(state, side):
                text = system.grammar.format(order)
                assert system.grammar.parse(text) == order, text


def test_every_listed_order_is_accepted_and_leaves_the_state_alone(driver: Driver) -> None:
    system, rng = bound_system(driver), random.Random(3)
    for state, side, dice in direct_play(system, 3, driver.bound):
        before = system.state_to_json(state)
        assert system.state_from_json(json.loads(json.dumps(before))) == state  # plain JSON
        legal = system.legal_orders(state, side)
        assert legal, f"{side} is to move but may give no order"
        for order in rng.sample(list(legal), min(4, len(legal))):
            system.apply(state, side, order, dice)  # a Rejection fails the test
        assert system.state_to_json(state) == before


def test_no_order_outside_the_gate_is_accepted(driver: Driver) -> None:
    system, rng = bound_system(driver), random.Random(4)
    words, examples = vocabulary(system), help_examples(system)
    tried = 0
    for n, (state, side, dice) in enumerate(direct_play(system, 4, driver.bound)):
        if n % max(1, driver.bound // 100):
            continue  # about a hundred states of a game
        texts = examples + [system.grammar.format(o) for o in system.legal_orders(state, side)]
        for text in (mutant(rng, rng.choice(texts), words) for _ in range(MUTANTS)):
            order = rules_order(system, text)
            for actor in [s.id for s in system.sides] if order is not None else ():
                tried += 1
                assert_in_gate(system, state, actor, order, dice, text)
    assert tried > 0


# -- through the service
def test_random_legal_play_through_the_service_reaches_a_result(
    driver: Driver, played: tuple[GameService, str, int, list[Any]]
) -> None:
    service, name, orders, _ = played
    result = service.system(name).situation(service.state(name)).result
    assert result is not None and orders <= driver.bound
    assert "winner" in result


def test_replaying_the_log_gives_the_stored_state(
    played: tuple[GameService, str, int, list[Any]],
) -> None:
    service, name, _, midway = played
    assert midway == [None]  # verified once midway: it raised nothing
    service.verify(name)


def test_the_first_post_and_the_end_carry_the_image(
    played: tuple[GameService, str, int, list[Any]],
) -> None:
    """`post_image` (core.system's module doc) answers a bool, True where no situation came
    before (the first post, after a rewind or an edit) and at the game's end (a system without
    the member: every post)."""
    service, name, _, _ = played
    system = service.system(name)
    end = system.situation(service.state(name))
    running = dataclasses.replace(end, result=None, key=end.key or "running")
    assert carries_image(system, None, end) is True
    assert carries_image(system, running, end) is True
    assert carries_image(system, running, running) in (True, False)


def test_the_deadline_default_is_always_legal(driver: Driver, store: Store) -> None:
    service, rng = GameService(store), random.Random(6)
    name = new_game(driver, service, "defaults")
    given: list[str] = []

    def default(n: int) -> None:
        if rng.random() < 0.3:
            system = service.system(name)
            text = system.grammar.format(system.default_order(service.state(name)))
            (reply, *_) = service.say(name, "system", text)
            assert reply.ok, (text, reply.reply)
            given.append(text)

    service_play(service, name, rng, min(driver.bound, 40), before=default, finish=False)
    assert given


# -- hidden information
def test_nothing_anyone_receives_depends_on_a_hidden_value_he_may_not_see(driver: Driver) -> None:
    run_a, run_b = two_runs(driver)
    assert run_a.script == run_b.script
    assert {"group", "spectator", "moderator"} <= set(run_a.received)
    if driver.hidden:  # the hidden values differ indeed, or the comparison proves nothing
        assert run_a.masks != run_b.masks
    assert hidden_leaks(run_a, run_b) == []
