"""The systems' hooks for the built-in opponent (core.system.OpponentSupport) and the Northern
War's legal orders on a side's view (rule 2.19: the view hides the enemy's blocks)."""

from __future__ import annotations

import math

import pytest

from adjudicator import opponent
from adjudicator.core.events import Viewer
from adjudicator.opponent.dice import OwnDice
from tests.opponent_support import PLAYED, bound, final, positions, sampled, view_of


@pytest.mark.parametrize("system_id", PLAYED)
def test_the_opponent_supports_hells_gate_and_the_northern_war(system_id):
    assert opponent.supports(bound(system_id))


@pytest.mark.parametrize("system_id", ["borodino", "stalins-war"])
def test_a_system_without_the_hooks_is_not_supported_and_decide_refuses_it(system_id):
    system = bound(system_id)
    assert not opponent.supports(system)
    with pytest.raises(ValueError, match="does not play"):
        opponent.decide(system, None, system.sides[0].id, "easy", "s")


def test_an_unknown_level_is_refused():
    system = bound("hells-gate")
    state, side = positions("hells-gate", 0)[0]
    with pytest.raises(ValueError, match="no opponent level"):
        opponent.decide(system, view_of(system, state, side), side, "hard", "s")


def test_the_levels_and_the_default_level():
    assert opponent.LEVELS == ("easy", "normal")
    assert opponent.DEFAULT_LEVEL == "normal"


@pytest.mark.parametrize("seed", range(6))
def test_northern_war_legal_orders_on_a_sides_view_are_those_of_the_full_state(seed):
    """Rule 2.19: each side's view, at every position of a random game, for both sides (the
    side not to move has none), lists exactly what the full state lists, in the same order."""
    system = bound("northern-war")
    checked = 0
    for state, _ in positions("northern-war", seed):
        for side in ("sweden", "coalition"):
            view = view_of(system, state, side)
            assert list(system.legal_orders(view, side)) == list(system.legal_orders(state, side))
            checked += bool(system.legal_orders(state, side))
    assert checked > 10


@pytest.mark.parametrize("seed", range(4))
def test_northern_war_determinise_gives_a_full_state_with_the_same_view(seed):
    system = bound("northern-war")
    hidden_seen = 0
    for n, (state, _) in enumerate(positions("northern-war", seed)):
        for side in ("sweden", "coalition"):
            view = view_of(system, state, side)
            world = system.determinise(view, side, OwnDice(f"{seed}-{n}-{side}"))
            assert not any(b.startswith("?") for b in world.at)
            assert set(world.at) == set(state.at)  # every block, by its id
            assert view_of(system, world, side) == view
            hidden_seen += any(b.startswith("?") for b in view.at)
            if world != state:  # a sampled world is a state the rules play on
                assert system.situation(world).key == system.situation(state).key
    assert hidden_seen > 10


def test_northern_war_determinise_samples_different_worlds_from_different_dice():
    system = bound("northern-war")
    state, _ = positions("northern-war", 1)[5]
    view = view_of(system, state, "coalition")
    worlds = {
        tuple(sorted(system.determinise(view, "coalition", OwnDice(str(i))).strength.items()))
        for i in range(12)
    }
    assert len(worlds) > 1


def test_hells_gate_determinise_is_the_view_itself():
    system = bound("hells-gate")
    for state, side in sampled("hells-gate", range(2), 25):
        view = view_of(system, state, side)
        assert system.determinise(view, side, OwnDice("x")) is view


@pytest.mark.parametrize("system_id", PLAYED)
def test_evaluate_is_a_finite_number_for_both_sides_and_a_finished_game_outweighs_any(system_id):
    system = bound(system_id)
    values = []
    for state, _ in sampled(system_id, range(3), 7):
        for s in system.sides:
            value = system.evaluate(view_of(system, state, s.id), s.id)
            assert isinstance(value, float) and math.isfinite(value)
            values.append(value)
    assert len(set(values)) > 3  # it tells positions apart
    end = final(system_id, 0)
    winner = system.situation(end).result["winner"]
    assert winner in {s.id for s in system.sides}
    loser = next(s.id for s in system.sides if s.id != winner)
    assert system.evaluate(end, winner) > max(values)
    assert system.evaluate(end, loser) < min(values)


def test_a_full_state_viewer_sees_everything_the_view_of_no_side_nothing_of_the_blocks():
    """The hidden values the honesty tests change are hidden indeed (rule 2.19)."""
    system = bound("northern-war")
    state, _ = positions("northern-war", 0)[3]
    public = system.view(state, Viewer.public())
    assert all(b.startswith("?") for b in public.at if public.status[b] == "map")
