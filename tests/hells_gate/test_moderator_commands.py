"""Moderator commands (README "Moderator commands"): place, flip, set turn, set phase, set
weather, set oos, set retreat, dice.

They belong to no rule of the game and only the moderator gives them. `dice` is allowed only in
sandbox games; the edits of the position (place, flip, set ...) are the kit's kind "edit", which
the rules apply for a moderator in any game (the app makes one a proposal another person
confirms outside a sandbox: tests/test_edits.py). A placement counts as no entry, move or
retreat for any rule (7.9, 12.14).
"""

from __future__ import annotations

import pytest

from adjudicator.core.dice import Roll
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from tests.hells_gate.helpers import END, A, Game, L, M

MODERATOR_ORDERS = [
    O.Place("47rc", "C4"),
    O.Flip("47rc"),
    O.SetTurn(3),
    O.SetPhase("german-combat"),
    O.SetWeather("mud"),
    O.SetOOS("47rc", True),
    O.SetRetreat("47rc", True),
    O.Dice((3, 5)),
]


def sandbox(scenario) -> Game:
    return Game(scenario, sandbox=True)  # the real setup, turn 1 Soviet combat


def mod(g: Game, order, dice=()):
    return g.do("moderator", order, dice=dice)


# -- sandbox and moderator only


EDITS = MODERATOR_ORDERS[:-1]


def test_fixed_dice_are_refused_in_a_normal_game(scenario):
    """`dice`: "sandbox games only" - a normal game refuses it."""
    g = Game(scenario)
    rejection = g.refuse("moderator", O.Dice((3, 5)))
    assert rejection.code == "sandbox-only" and rejection.rule is None
    assert "sandbox" in rejection.message


@pytest.mark.parametrize("order", EDITS, ids=lambda o: type(o).__name__)
def test_an_edit_is_kind_edit_and_applies_for_a_moderator_in_a_normal_game(scenario, order):
    """An edit of the position is the kit's kind "edit": the rules apply it for a moderator in
    any game (the app gates a normal game's: a proposal another person confirms)."""
    g = Game(scenario)
    assert g.system.kind_of(order) == "edit" and not g.system.is_secret(order)
    before = g.state.to_json()
    out = g.do("moderator", order)
    assert out.state.to_json() != before and out.rolls == []


@pytest.mark.parametrize("actor", ["soviet", "german"])
@pytest.mark.parametrize("order", MODERATOR_ORDERS, ids=lambda o: type(o).__name__)
def test_moderator_commands_are_refused_for_players(scenario, actor, order):
    """Moderator commands: only a moderator may give them, even in a sandbox game."""
    g = sandbox(scenario)
    rejection = g.refuse(actor, order)
    assert rejection.code == "moderator-only" and "moderator" in rejection.message


# -- place


def test_place_moves_a_unit_to_a_hex(scenario):
    """`place 47rc C4`: the unit is put in the hex, wherever it was."""
    g = sandbox(scenario)
    out = mod(g, O.Place("47rc", "C4"))
    assert (g.unit("47rc").box, g.unit("47rc").hex) == ("map", "C4")
    assert [e.kind for e in out.events] == ["UnitPlaced"]
    mod(g, O.Place("18tk", "D5"))  # from the turn track
    u = g.unit("18tk")
    assert (u.box, u.hex, u.track_turn) == ("map", "D5", None)


def test_place_may_stack_with_friendly_units(scenario):
    """`place`: any number of units of one side may share a hex (2.11)."""
    g = sandbox(scenario)
    mod(g, O.Place("47rc", "C7"))
    assert {u.id for u in g.state.units_in("C7")} == {"20tk", "29tk", "48rc", "75rc", "47rc"}


def test_place_is_refused_onto_enemy_units(scenario):
    """`place`: no hex holds units of both sides - a unit is not placed onto enemy units."""
    g = sandbox(scenario)
    rejection = g.refuse("moderator", O.Place("47rc", "A1"))  # 34id is in A1
    assert rejection.rule == "2.11" and "A1" in rejection.message


@pytest.mark.parametrize("where", ["eliminated", "off"])
def test_place_in_a_box_takes_the_unit_and_its_markers_off_the_map(scenario, where):
    """`place 47rc eliminated` / `place 47rc off`: off the map, markers removed."""
    g = sandbox(scenario)
    mod(g, O.SetOOS("47rc", True))
    mod(g, O.SetRetreat("47rc", True))
    mod(g, O.Place("47rc", where))
    u = g.unit("47rc")
    assert (u.box, u.hex, u.oos, u.retreated) == (where, None, False, False)
    assert "47rc" not in {v.id for v in g.state.units_in("B1")}


def test_place_on_the_turn_track(scenario):
    """`place 18tk turn 3`: the unit waits in the turn-track box of turn 3."""
    g = sandbox(scenario)
    mod(g, O.Place("18tk", "turn 3"))
    u = g.unit("18tk")
    assert (u.box, u.hex, u.track_turn) == ("turn_track", None, 3)
    rejection = g.refuse("moderator", O.Place("18tk", "turn 9"))
    assert rejection.rule == "1.2"


def test_place_on_the_turn_track_then_entry(scenario):
    """`place 18tk turn 3`: the reinforcement then enters in the Soviet supply phase of turn 3
    at its entry hex (7.1, 7.2)."""
    g = sandbox(scenario)
    mod(g, O.Place("18tk", "turn 3"))
    mod(g, O.SetTurn(3))
    mod(g, O.SetPhase("soviet-supply"))
    assert (g.unit("18tk").box, g.unit("18tk").hex) == ("map", "D7")


def test_place_a_setup_unit_on_the_turn_track_does_not_break_the_entry(scenario):
    """`place 47rc turn 2`: a unit with no entry hex on the turn track is either refused or
    enters somewhere on the map - never a unit on the map without a hex, never a crash."""
    g = sandbox(scenario)
    try:
        mod(g, O.Place("47rc", "turn 2"))
    except Rejection:
        return
    mod(g, O.SetTurn(2))
    mod(g, O.SetPhase("soviet-supply"))
    u = g.unit("47rc")
    assert u.box != "map" or u.hex in scenario.grid


@pytest.mark.parametrize("where", ["G9", "nowhere"])
def test_place_is_refused_for_an_unknown_place(scenario, where):
    """`place`: "a hex, 'eliminated', 'off' or 'turn N'"."""
    g = sandbox(scenario)
    rejection = g.refuse("moderator", O.Place("47rc", where))
    assert rejection.code == "bad-place" and where in rejection.message


def test_place_does_not_count_as_entering_the_24th_panzer_trigger_hexes(scenario):
    """7.9: "has entered ... by movement ..., by retreat, by reinforcement entry, or by setup" - a
    moderator placement is none of these, so 24pz does not enter on turn 4 (7.7)."""
    g = sandbox(scenario)
    mod(g, O.Place("47rc", "A3"))
    assert g.state.soviet_entered_trigger is False
    mod(g, O.SetTurn(4))
    mod(g, O.SetPhase("german-supply"))
    assert g.unit("24pz").box == "never_entered"
    assert (g.unit("16pz").box, g.unit("16pz").hex) == ("map", "A4")


def test_place_does_not_lift_the_airfield_freeze(scenario):
    """12.14: the freeze ends when a Soviet unit enters a hex next to E3 "by movement ..., retreat
    or reinforcement entry" - a moderator placement next to E3 does not end it."""
    g = sandbox(scenario)
    mod(g, O.Place("47rc", "D4"))  # next to E3 (E3 is empty; 57id in F4 is next to it)
    assert g.state.airfield_freeze_lifted is False
    mod(g, O.SetTurn(2))
    mod(g, O.SetPhase("german-movement"))
    rejection = g.refuse("german", M("57id", ("F5",)))
    assert rejection.rule == "12.14"


# -- flip, set turn


def test_flip_turns_a_two_step_unit_over_and_back(scenario):
    """`flip 47rc`: full to reduced, and reduced to full."""
    g = sandbox(scenario)
    mod(g, O.Flip("47rc"))
    assert g.unit("47rc").reduced
    mod(g, O.Flip("47rc"))
    assert not g.unit("47rc").reduced


def test_flip_is_refused_for_a_one_step_unit(scenario):
    """2.6: "A one-step unit has 1 step" - it has no reduced side to flip to."""
    g = sandbox(scenario)
    rejection = g.refuse("moderator", O.Flip("kg168"))
    assert rejection.rule == "2.6" and "kg168" in rejection.message


def test_set_turn(scenario):
    """`set turn 5`: the turn marker moves; the phase stays."""
    g = sandbox(scenario)
    mod(g, O.SetTurn(5))
    assert (g.state.turn, g.state.phase) == (5, "soviet-combat")
    for bad in (0, 9):
        assert g.refuse("moderator", O.SetTurn(bad)).rule == "1.2"


# -- set phase


def test_set_phase_to_a_player_phase_stops_there(scenario):
    """`set phase german combat`: the game is put in that phase."""
    g = sandbox(scenario)
    mod(g, O.SetPhase("german-combat"))
    assert (g.state.turn, g.state.phase) == (1, "german-combat")
    assert g.state.active_side == "german"


def test_set_phase_runs_an_automatic_phase_at_once_and_advances(scenario):
    """`set phase german recovery`: the automatic phase runs (10.1: German Retreat markers go),
    then the joint phase (weather die) and the next turn's Soviet supply, up to Soviet combat."""
    g = sandbox(scenario)
    mod(g, O.SetRetreat("34id", True))
    mod(g, O.SetRetreat("47rc", True))
    out = mod(g, O.SetPhase("german-recovery"), dice=[6])
    assert not g.unit("34id").retreated and g.unit("47rc").retreated
    assert [r.purpose for r in out.rolls] == ["weather"]
    assert (g.state.turn, g.state.phase) == (2, "soviet-combat")
    assert g.unit("18tk").box == "map"  # turn-2 reinforcements entered


def test_set_phase_clears_pending_decisions(scenario):
    """`set phase`: a decision waiting for a side is dropped."""
    g = sandbox(scenario)
    g.do("soviet", A("B7", ("29tk", "48rc")), dice=[5])  # W2: 1 hit, German to choose
    assert [d.kind for d in g.state.pending] == ["losses"]
    mod(g, O.SetPhase("soviet-movement"))
    assert g.state.pending == [] and g.state.phase == "soviet-movement"
    g.do("soviet", M("29tk", ("D7",)))  # the game goes on
    assert g.unit("29tk").hex == "D7"


def test_set_phase_is_refused_for_an_unknown_phase(scenario):
    """4.1: "Each turn consists of these 9 phases".\""""
    g = sandbox(scenario)
    rejection = g.refuse("moderator", O.SetPhase("lunch"))
    assert rejection.rule == "4.1" and "german-combat" in rejection.message


# -- set weather, set oos, set retreat


def test_set_weather(scenario):
    """`set weather mud`: the weather changes and its effects apply (9.10)."""
    g = sandbox(scenario)
    mod(g, O.SetWeather("mud"))
    assert g.state.weather == "mud"
    g.do("soviet", END)
    rejection = g.refuse("soviet", M("20tk", ("D7", "E7")))
    assert rejection.rule == "9.10"
    mod(g, O.SetWeather("snow"))
    g.do("soviet", M("20tk", ("D7", "E7")))
    assert g.unit("20tk").hex == "E7"


def test_set_oos(scenario):
    """`set oos 57id on`: the unit carries an OOS marker (its effects apply: 9.9); `off` removes it."""
    g = sandbox(scenario)
    mod(g, O.SetOOS("20tk", True))
    assert g.unit("20tk").oos
    g.do("soviet", END)
    assert g.refuse("soviet", M("20tk", ("D7", "E7"))).rule == "9.9"
    mod(g, O.SetOOS("20tk", False))
    assert not g.unit("20tk").oos
    rejection = g.refuse("moderator", O.SetOOS("18tk", True))  # on the turn track
    assert rejection.rule == "2.8" and "18tk" in rejection.message


def test_set_retreat(scenario):
    """`set retreat 29tk on`: the unit carries a Retreat marker (8.4(g): it may not attack)."""
    g = sandbox(scenario)
    mod(g, O.SetRetreat("29tk", True))
    assert g.unit("29tk").retreated
    assert g.refuse("soviet", A("B7", ("29tk", "48rc"))).rule == "8.4(g)"
    mod(g, O.SetRetreat("29tk", False))
    g.do("soviet", A("B7", ("29tk", "48rc")), dice=[1])
    assert g.unit("29tk").attacked
    mod(g, O.Place("48rc", "eliminated"))
    assert g.refuse("moderator", O.SetRetreat("48rc", True)).rule == "2.8"


# -- dice


def test_dice_fixes_the_next_results_in_order_and_marks_them_fixed(scenario):
    """`dice 2 1`: the next die results are 2, then 1; Outcome.rolls records them as fixed."""
    g = sandbox(scenario)
    out = mod(g, O.Dice((2, 1)))
    assert out.rolls == [] and g.state.fixed_dice == [2, 1]
    out = g.do("soviet", A("B7", ("29tk", "48rc")))  # no dice of its own
    assert out.rolls == [Roll("combat B7", 2, fixed=True)]
    assert g.last.combat["die"] == 2 and g.state.fixed_dice == [1]
    assert any(e.kind == "DieRolled" and e.data["fixed"] for e in out.events)
    out = g.do("soviet", A("C2", ("180rd", "337rd")), dice=[6])  # the fixed 1 comes first
    assert out.rolls == [Roll("combat C2", 1, fixed=True)] and g.state.fixed_dice == []
    out = g.do("soviet", A("B2", ("5gtk", "47rc")), dice=[1])  # back to the ordinary source
    assert out.rolls == [Roll("combat B2", 1, fixed=False)]


def test_dice_serve_any_roll_including_the_weather(scenario):
    """`dice 1`: the fixed result is used by whatever rolls next (here the 11.3 weather roll)."""
    g = sandbox(scenario)
    mod(g, O.Dice((1,)))
    out = mod(g, O.SetPhase("joint"), dice=[6])
    assert out.rolls == [Roll("weather", 1, fixed=True)]
    assert (g.state.turn, g.state.weather) == (2, "mud")


@pytest.mark.parametrize("values", [(), (0,), (7,), (3, 9)])
def test_dice_are_refused_outside_1_to_6(scenario, values):
    """1.3: "Every die roll uses one six-sided die (d6), results 1 to 6".\""""
    g = sandbox(scenario)
    rejection = g.refuse("moderator", O.Dice(values))
    assert rejection.rule == "1.3" and g.state.fixed_dice == []


def test_losses_answer_after_fixed_dice(scenario):
    """`dice 5`: a fixed result gives the same play as a rolled one (W2: 1 hit, 106id flipped)."""
    g = sandbox(scenario)
    mod(g, O.Dice((5,)))
    g.do("soviet", A("B7", ("29tk", "48rc")))
    assert g.last.combat["hits"] == 1
    g.do("german", L(("106id",)))
    assert g.unit("106id").reduced
