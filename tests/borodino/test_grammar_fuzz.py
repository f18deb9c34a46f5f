"""Rule 2.1 and the grammar: every command word of Borodino, alone or with one wrong word, is an
order, a question or a ParseError, and an order or question is answered or refused with a
Rejection in every phase, by every actor: no verb raises anything else (a bare `activate` once
raised IndexError inside the grammar)."""

from __future__ import annotations

import random

import pytest

from adjudicator.borodino.system import SYSTEM
from adjudicator.core import commands as C
from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR
from adjudicator.grammar import ParseError
from app.games import default_scenario
from tests.borodino.test_fuzz import pick

WRONG = ("zzz", "0000", "odessa", "compans", "moved", "5")
ACTORS = ("russian", "french", MODERATOR_ACTOR, SYSTEM_ACTOR, "spectator")


@pytest.fixture(scope="module")
def system():
    return SYSTEM.load(*default_scenario(SYSTEM))


def states(system) -> list:
    """A state of every phase a random game reaches (and its end), sandbox and not."""
    found = {}
    for seed in range(20):
        rng, dice = random.Random(seed), HashDice(seed)
        state = system.initial(False, dice).state
        found.setdefault("start", state)
        for _ in range(2000):
            if system.situation(state).over:
                found["over"] = state
                break
            found.setdefault(state.phase, state)
            side = next(s for s in system.situation(state).to_move if system.legal_orders(state, s))
            state = system.apply(state, side, pick(rng, system.legal_orders(state, side)), dice)
            state = state.state
        if {"placement", "over", "rally"} <= set(found):
            break
    sandbox = system.initial(True, FixedDice([])).state
    return [*found.values(), sandbox]


def lines(system) -> list[str]:
    words = sorted(system.grammar.table.command_words)
    return [*words, *(f"{w} {x}" for w in words for x in WRONG)]


def test_2_1_every_verb_alone_or_with_a_wrong_word_is_refused_not_raised(system):
    seen = states(system)
    assert {"activations", "activation", "rally", "placement", "over"} <= {
        "over" if system.situation(s).over else s.phase for s in seen
    }
    parsed = 0
    for line in lines(system):
        try:
            item = system.grammar.parse(line)
        except ParseError as refused:
            assert refused.rule is None and "Usage" in refused.message or "help" in str(refused)
            continue
        parsed += 1
        if isinstance(item, C.Command):  # the service's, never the rules'
            continue
        for state in seen:
            for actor in ACTORS:
                try:
                    if system.kind_of(item) == "query":
                        system.answer(state, actor, item)
                    else:
                        system.apply(state, actor, item, FixedDice([1] * 40))
                except Rejection:
                    pass
    assert parsed > 20  # the bare questions and orders (status, end, morale, ...) parsed


def test_2_1_a_bare_activate_names_the_groups_that_may_be_activated_now(system):
    state = system.initial(False, FixedDice([])).state
    order = system.grammar.parse("activate")
    assert system.grammar.format(order) == "activate"
    assert system.grammar.parse("активация") == order
    with pytest.raises(Rejection) as refused:
        system.apply(state, "russian", order, FixedDice([]))
    assert refused.value.rule == "2.1"
    said = str(refused.value.message)
    assert "`activate <AG|UNIT>`" in said and "you may activate now: neverovsky, karpov" in said
    state = system.apply(
        state, "russian", system.grammar.parse("activate neverovsky"), FixedDice([])
    ).state
    with pytest.raises(Rejection) as refused:
        system.apply(state, "french", order, FixedDice([]))
    assert refused.value.rule == "2.1"
    assert "none may be activated now: the activation phase of neverovsky is open" in str(
        refused.value.message
    )


def test_3_1_a_deadline_default_that_ends_the_referees_part_in_a_placement_is_applied(system):
    """The last placement of the last Recovery Phase ends the referee's part: the deadline's
    `default` placing it once raised IndexError (no side left to place)."""
    ended = 0
    for seed in range(20):
        rng, dice = random.Random(seed), HashDice(seed)
        state = system.initial(False, dice).state
        while not system.situation(state).over:
            if state.phase == "placement":
                out = system.apply(state, SYSTEM_ACTOR, C.Default(), dice)
                ended += system.situation(out.state).over
                state = out.state
                continue
            side = next(s for s in system.situation(state).to_move if system.legal_orders(state, s))
            state = system.apply(
                state, side, pick(rng, system.legal_orders(state, side)), dice
            ).state
        if ended:
            break
    assert ended
