"""The system kit (adjudicator/core/kit.py, core/fixed_dice.py): the default gate, the one
resolution of the acting side for a deadline `default` and a moderator's, sandbox fixed dice in
every system, and SystemKind's derived fields."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.core import commands as C
from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR
from app import games
from tests.borodino.helpers import Table, scenario, unit
from tests.systems import duel, race, secret_dice

SYSTEMS = ("hells-gate", "borodino", "stalins-war", "northern-war")


def bound(system_id: str) -> Any:
    kind = registry.get(system_id)
    return kind.load(*games.default_scenario(kind))


def refused(system: Any, state: Any, actor: str, order: object) -> Rejection:
    with pytest.raises(Rejection) as exc:
        system.apply(state, actor, order, HashDice(0))
    return exc.value


def texts(out: Any) -> list[str]:
    return [str(e.text) for e in out.events]


# -- the default gate
def test_the_default_gate_accepts_each_listed_order_and_refuses_one_not_listed():
    system = secret_dice.SYSTEM.load(*games.default_scenario(secret_dice.SYSTEM))
    assert isinstance(system, RulesSystem) and type(system).check is RulesSystem.check
    state = system.initial(False, HashDice(3)).state
    side = system.situation(state).to_move[0]
    other = "blue" if side == "red" else "red"
    listed = system.legal_orders(state, side)
    assert listed
    for order in listed:
        assert system.apply(state, side, order, HashDice(4)).state != state
    assert system.legal_orders(state, other) == []
    rejection = refused(system, state, other, listed[0])
    assert rejection.code == "not-legal" and "no order to give" in str(rejection)
    unlisted = duel.Draw()  # (no order of this game)
    rejection = refused(system, state, side, unlisted)
    assert rejection.code == "not-legal" and "legal: `roll`, `pass`" in rejection.message


def test_a_gate_a_system_overrides_keeps_its_rule_citing_refusals():
    system = race.SYSTEM.load(*games.default_scenario(race.SYSTEM))
    state = system.initial(False, HashDice(1)).state
    rejection = refused(system, state, "blue", race.Roll())
    assert (rejection.rule, rejection.message) == ("R1", "it is red's turn")


# -- a deadline's default and a moderator's act for the side on the clock
def _waiting(system: Any, state: Any) -> str:
    here = system.situation(state)
    return here.pending[0].side if here.pending else here.to_move[0]


def _state_waiting_for(system: Any, side: str, sandbox: bool = True) -> Any:
    """A state of a sandbox game that waits for `side` (deadline defaults played till then)."""
    dice = HashDice(5)
    state = system.initial(sandbox, dice).state
    for _ in range(50):
        if _waiting(system, state) == side:
            return state
        state = system.apply(state, SYSTEM_ACTOR, C.Default(), dice).state
    raise AssertionError(f"the game never waited for {side}")


@pytest.mark.parametrize(
    "system_id, side",
    [
        ("hells-gate", "soviet"),
        ("borodino", "russian"),
        ("stalins-war", "axis"),
        ("stalins-war", "soviet"),
        ("northern-war", "sweden"),
        ("northern-war", "coalition"),
    ],
)
def test_4_default_a_moderators_default_does_what_a_passed_deadline_does(system_id, side):
    system = bound(system_id)
    state = _state_waiting_for(system, side)
    deadline = system.apply(state, SYSTEM_ACTOR, C.Default(), HashDice(9))
    moderator = system.apply(state, MODERATOR_ACTOR, C.Default(), HashDice(9))
    assert system.state_to_json(moderator.state) == system.state_to_json(deadline.state)
    assert texts(moderator) == texts(deadline) and moderator.rolls == deadline.rolls
    assert system.situation(moderator.state).key != system.situation(state).key
    default = system.default_order(state)
    if not isinstance(default, C.Default):  # the side's own default order, given for him
        own = system.apply(state, side, default, HashDice(9))
        assert system.state_to_json(own.state) == system.state_to_json(moderator.state)


def test_5_7_the_northern_war_takes_a_moderators_default_on_the_coalitions_move():
    """It refused with "rule 5.7: it is coalition's move" (the moderator taken for a side)."""
    system = bound("northern-war")
    state = _state_waiting_for(system, "coalition")
    out = system.apply(state, MODERATOR_ACTOR, C.Default(), HashDice(2))
    assert system.state_to_json(out.state) != system.state_to_json(state)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_moderators_default_outside_a_sandbox_game_is_refused(system_id):
    system = bound(system_id)
    state = system.initial(False, HashDice(5)).state
    rejection = refused(system, state, MODERATOR_ACTOR, C.Default())
    assert rejection.code == "sandbox-only" and "sandbox" in str(rejection)


# -- sandbox fixed dice
def _next_rolls(system_id: str, system: Any, state: Any) -> list[Any]:
    """The rolls of the orders after `dice 3 5`, at least two (each system's own way to roll)."""
    dice = HashDice(11)
    if system_id == "stalins-war":
        return system.apply(state, "axis", system.grammar.parse("roll 2d6 test"), dice).rolls
    rolls: list[Any] = []
    for _ in range(40):
        out = system.apply(state, SYSTEM_ACTOR, C.Default(), dice)
        rolls, state = rolls + out.rolls, out.state
        if len(rolls) >= 2:
            return rolls
    raise AssertionError("no two dice rolled")


@pytest.mark.parametrize("system_id", ["hells-gate", "stalins-war", "northern-war"])
def test_1_3_dice_3_5_in_a_sandbox_game_make_the_next_two_dice_3_and_5(system_id):
    system = bound(system_id)
    state = system.initial(True, HashDice(1)).state
    out = system.apply(state, MODERATOR_ACTOR, system.grammar.parse("dice 3 5"), HashDice(1))
    assert [e.kind for e in out.events] == ["DiceFixed"] and out.rolls == []
    assert system.state_to_json(out.state)["fixed_dice"] == [3, 5]
    assert system.state_from_json(system.state_to_json(out.state)).fixed_dice == [3, 5]
    rolls = _next_rolls(system_id, system, out.state)
    assert [(r.value, r.fixed) for r in rolls[:2]] == [(3, True), (5, True)]
    assert all(not r.fixed for r in rolls[2:])


def test_1_10_dice_3_5_in_a_sandbox_borodino_game_make_the_next_two_dice_3_and_5():
    t = Table(scenario(unit("a", "russian", "1001", army="1st", disordered=True),
                       unit("b", "russian", "1003", army="1st", disordered=True),
                       unit("c", "french", "0101")), sandbox=True)  # fmt: skip
    parse = t.system.grammar.parse
    state = t.system.apply(t.state, MODERATOR_ACTOR, parse("dice 3 5"), None).state
    rolls = []
    for side, text in [("russian", "activate a"), ("russian", "end"), ("russian", "rally a"),
                       ("russian", "activate b"), ("russian", "end"), ("russian", "rally b")]:  # fmt: skip
        out = t.system.apply(state, side, parse(text), HashDice(1))
        rolls, state = rolls + out.rolls, out.state
    assert [(r.value, r.fixed) for r in rolls] == [(3, True), (5, True)]
    assert "fixed_dice" in t.system.state_to_json(state) and state.fixed_dice == []


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_dice_are_refused_in_a_game_that_is_no_sandbox(system_id):
    system = bound(system_id)
    state = system.initial(False, HashDice(1)).state
    rejection = refused(system, state, MODERATOR_ACTOR, C.Dice((3, 5)))
    assert rejection.code == "sandbox-only" and "sandbox" in str(rejection)


@pytest.mark.parametrize("system_id", ["stalins-war", "northern-war"])
def test_a_state_without_fixed_dice_writes_the_json_it_always_wrote(system_id):
    system = bound(system_id)
    state = system.initial(True, HashDice(1)).state
    assert "fixed_dice" not in system.state_to_json(state)
    assert system.state_from_json(system.state_to_json(state)).fixed_dice == []


def test_a_fixed_die_that_does_not_fit_the_die_rolled_refuses_the_order():
    system = bound("stalins-war")
    state = system.initial(True, HashDice(1)).state
    state = system.apply(state, MODERATOR_ACTOR, C.Dice((6,)), HashDice(1)).state
    rejection = refused(system, state, "axis", system.grammar.parse("roll 1d4 test"))
    assert rejection.code == "fixed-die-does-not-fit"


# -- SystemKind
OLD = {  # the hand-written (data_package, data_file, default_source) of each SystemType
    "hells-gate": ("adjudicator.hells_gate", "scenario.toml", "hells_gate/scenario.toml"),
    "borodino": ("adjudicator.borodino", "sample.toml", "borodino/sample.toml"),
    "stalins-war": ("adjudicator.stalins_war", "sample_deck.toml", "stalins_war/sample_deck.toml"),
    "northern-war": ("adjudicator.northern_war", "sample.toml", "northern_war/sample.toml"),
    "hidden-duel": ("tests.systems", "duel.toml", "tests/systems/duel.toml"),
    "dice-race": ("tests.systems", "race.toml", "tests/systems/race.toml"),
    "secret-dice": ("tests.systems", "secret_dice.toml", "tests/systems/secret_dice.toml"),
}


@pytest.mark.parametrize("system_id", sorted(OLD))
def test_a_system_kinds_derived_data_fields_equal_the_old_hand_written_ones(system_id):
    local = {k.id: k for k in (duel.SYSTEM, race.SYSTEM, secret_dice.SYSTEM)}
    kind = local.get(system_id) or registry.get(system_id)
    assert isinstance(kind, SystemKind)
    assert (kind.data_package, kind.data_file, kind.default_source) == OLD[system_id]
    system = kind.load(*games.default_scenario(kind))
    assert system.id == kind.id and isinstance(system, RulesSystem)


def test_order_steps_are_the_words_of_the_canonical_text():
    system = bound("hells-gate")
    order = system.grammar.parse("attack c6 with 20tk 75rc")
    assert system.order_steps(order) == ("attack", "C6", "with", "20tk", "75rc")
