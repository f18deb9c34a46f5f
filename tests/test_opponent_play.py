"""The opponent's orders: the same inputs give the same order; every order is one the side may
give (in `legal_orders` of the full state) and `apply` accepts it on the real state; a whole
game between the two levels ends; the budget is counted in evaluations, so it changes what
normal does, while time does not."""

from __future__ import annotations

import pytest

from adjudicator import opponent
from adjudicator.core.dice import HashDice
from adjudicator.core.system import start
from adjudicator.opponent.normal import PLAY_OUT, WIDTH
from tests.opponent_support import PLAYED, bound, sampled, view_of

BUDGET = 150.0  # enough for normal's search to play out a few rounds


@pytest.mark.parametrize("system_id", PLAYED)
@pytest.mark.parametrize("level", opponent.LEVELS)
def test_every_decision_is_legal_accepted_and_the_same_for_the_same_inputs(system_id, level):
    system = bound(system_id)
    step = 11 if system_id == "hells-gate" else 3
    checked = 0
    for n, (state, side) in enumerate(sampled(system_id, range(3), step)):
        view = view_of(system, state, side)
        order = opponent.decide(system, view, side, level, f"seed-{n}", BUDGET)
        again = opponent.decide(
            system, view_of(system, state, side), side, level, f"seed-{n}", BUDGET
        )
        assert order == again
        assert order in list(system.legal_orders(state, side))
        text = system.grammar.format(order)
        assert system.grammar.parse(text) == order  # the canonical text a seat would send
        system.apply(state, side, order, HashDice(f"check-{n}"))  # no Rejection
        checked += 1
    assert checked >= 25


def test_the_seed_is_the_only_randomness_another_seed_may_choose_otherwise():
    system = bound("hells-gate")
    differ = 0
    for n, (state, side) in enumerate(sampled("hells-gate", range(2), 13)):
        view = view_of(system, state, side)
        a = opponent.decide(system, view, side, "easy", "one")
        b = opponent.decide(system, view, side, "easy", "two")
        assert a == opponent.decide(system, view, side, "easy", "one")
        differ += a != b
    assert differ > 0  # ties are broken by the seed's dice, and there are ties


@pytest.mark.parametrize("system_id", PLAYED)
def test_a_whole_game_between_normal_and_easy_ends_with_a_result(system_id):
    system = bound(system_id)
    dice = HashDice(f"whole-{system_id}")
    state = start(system, False, dice, None).state
    sides = [s.id for s in system.sides]
    levels = {sides[0]: ("normal", 20.0), sides[1]: ("easy", None)}
    for n in range(1500):
        here = system.situation(state)
        if here.over:
            break
        side = here.to_move[0]
        level, budget = levels[side]
        order = opponent.decide(system, view_of(system, state, side), side, level, f"{n}", budget)
        state = system.apply(state, side, order, dice).state
    assert system.situation(state).over
    assert system.situation(state).result["winner"] in {*sides, "draw"}


class Counting:
    """A system whose `apply` calls are counted (everything else passed through)."""

    def __init__(self, system):
        self._system = system
        self.applied = 0

    def __getattr__(self, name):
        return getattr(self._system, name)

    def apply(self, state, actor, order, dice):
        self.applied += 1
        return self._system.apply(state, actor, order, dice)


@pytest.mark.parametrize("system_id", PLAYED)
def test_normal_spends_its_budget_in_evaluations_and_no_more_than_a_round_beyond(system_id):
    system = bound(system_id)
    states = [p for p in sampled(system_id, range(2), 7) if len(system.legal_orders(*p)) > 3]
    for n, (state, side) in enumerate(states[:4]):
        view = view_of(system, state, side)
        spent = []
        for budget in (300.0, 3000.0):
            counting = Counting(system)
            opponent.decide(counting, view, side, "normal", f"b{n}", budget)
            spent.append(counting.applied)
        assert spent[0] < spent[1]
        assert spent[1] <= 3000 + (WIDTH + 1) * PLAY_OUT  # at most a round beyond
        assert spent[1] >= 3000 / 3  # the rest: positions judged, lists of orders asked
