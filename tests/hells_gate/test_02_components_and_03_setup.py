"""Sections 2 (components) and 3 (setup)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.scenario import UnitSpec
from adjudicator.hells_gate.setup import initial_state
from adjudicator.hells_gate.state import BOXES, UnitState
from adjudicator.hells_gate.system import HellsGateSystem
from adjudicator.hells_gate.units import steps_left
from adjudicator.hells_gate.victory import victory_points
from tests.hells_gate.helpers import END, A, Game, M, empty_state, new_game

# -- 2.1 fixed attributes


def test_2_1_every_unit_has_the_fixed_attributes(scenario):
    """2.1 Each unit has these fixed attributes, read from the data file: id, side, designation,
    size, type, steps, strength_full, strength_reduced, bracketed, setup_hex or entry; and the
    designation and id in Russian the data may give beside them (name_ru, id_ru)."""
    names = {f.name for f in fields(UnitSpec)}
    assert names - {"name_ru", "id_ru"} == {
        "id",
        "side",
        "designation",
        "size",
        "type",
        "steps",
        "strength_full",
        "strength_reduced",
        "bracketed",
        "setup_hex",
        "entry_turn",
        "entry_hex",
    }
    assert len(scenario.units) == 42
    for uid, u in scenario.units.items():
        assert u.id == uid
        assert u.side in ("soviet", "german")
        assert u.designation
        assert u.size in ("X", "XX", "XXX")
        assert u.type in ("infantry", "cavalry", "armor", "mech")
        assert u.steps in (1, 2)
        assert isinstance(u.bracketed, bool)
        assert (u.setup_hex is None) != (u.entry_turn is None and u.entry_hex is None), uid
        if u.entry_turn is not None:
            assert u.entry_hex in scenario.grid and 1 <= u.entry_turn <= 8


def test_2_1_the_29th_tank_corps_as_printed(scenario):
    """2.1 designation: the unit number or name printed on the counter, e.g. "29th Tank Corps"."""
    u = scenario.units["29tk"]
    assert (u.side, u.designation, u.size, u.type) == ("soviet", "29th Tank Corps", "XXX", "armor")
    assert (u.steps, u.strength_full, u.strength_reduced, u.bracketed) == (2, 2, 1, True)
    assert (u.setup_hex, u.entry_turn, u.entry_hex) == ("C7", None, None)
    r = scenario.units["18tk"]
    assert (r.setup_hex, r.entry_turn, r.entry_hex) == (None, 2, "D7")


def test_2_1_strengths_fit_the_number_of_steps(scenario):
    """2.1 strength_reduced: the strength printed on the reduced side (two-step units only)."""
    for uid, u in scenario.units.items():
        assert u.strength_full > 0
        if u.steps == 2:
            assert u.strength_reduced is not None and 0 < u.strength_reduced < u.strength_full, uid
        else:
            assert u.strength_reduced is None, uid


# -- 2.2 to 2.5 one strength, brackets


def test_2_2_one_strength_to_attack_and_to_defend(scenario):
    """2.2 A unit has one strength number. It is used both to attack and to defend."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B2"}, turn=3, phase="soviet-combat")
    g = Game(scenario, state)
    soviet_attack = g.preview("soviet", A("B2", ("47rc",)))
    german_attack = g.preview("german", A("B1", ("198id",)))
    assert soviet_attack["attack_strength"] == 3 == german_attack["defense_strength"]
    assert german_attack["attack_strength"] == 3 == soviet_attack["defense_strength"]


def test_2_2_reduced_side_strength_used_in_attack_and_defense(scenario):
    """2.2 A unit has one strength number (the side that is up): used in attack and defense."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B2"}, turn=3, reduced=["47rc"])
    g = Game(scenario, state)
    assert g.preview("soviet", A("B2", ("47rc",)))["attack_strength"] == 2
    assert g.preview("german", A("B1", ("198id",)))["defense_strength"] == 2


def test_2_3_bracketed_unit_defends_with_printed_strength(scenario):
    """2.3 In defense the printed strength always applies."""
    # The 29th Tank Corps [2] in clear B6; the 11th Panzer Division [3] attacks from A6.
    state = empty_state(scenario, {"29tk": "B6", "11pz": "A6", "3pz": "B7"}, turn=3)
    g = Game(scenario, state)
    doc = g.preview("german", A("B6", ("11pz",)))
    assert doc["defense_strength"] == 2
    assert doc["attack_strength"] == 9
    doc = g.preview("soviet", A("B7", ("29tk",)))
    assert doc["defense_strength"] == 2  # the 3rd Panzer [2] defends at 2, not 6
    assert doc["attack_strength"] == 6


@pytest.mark.parametrize(
    "target, defender, expected",
    [
        ("B2", "198id", 6),  # clear: x3
        ("C2", "kg168", 4),  # woods: x2
    ],
)
def test_2_4_bracketed_strength_multiplied_in_attack(scenario, target, defender, expected):
    """2.4 In attack a bracketed strength may be doubled or tripled (rule 8.6)."""
    state = empty_state(scenario, {"5gtk": "C1", "47rc": "C1", defender: target}, turn=3)
    g = Game(scenario, state)
    assert g.preview("soviet", A(target, ("5gtk",)))["attack_strength"] == expected
    # the unbracketed 47th Rifle Corps is not multiplied, wherever it attacks
    assert g.preview("soviet", A(target, ("47rc",)))["attack_strength"] == 3


def test_2_4_bracketed_strength_doubled_against_cherkassy(scenario):
    """2.4 In attack a bracketed strength may be doubled or tripled (8.6: x2 against Cherkassy)."""
    state = empty_state(scenario, {"254rd": "F6", "5ss": "E5"}, turn=3, phase="german-combat")
    g = Game(scenario, state)
    assert g.preview("german", A("F6", ("5ss",)))["attack_strength"] == 2


def test_2_5_multiplier_follows_bracketed_not_type(scenario):
    """2.5 The attack multiplier applies exactly to units whose `bracketed` attribute is true."""
    assert scenario.units["wiking"].type == "mech" and not scenario.units["wiking"].bracketed
    assert scenario.units["5mc"].type == "mech" and scenario.units["5mc"].bracketed
    state = empty_state(scenario, {"wiking": "D6", "5mc": "C6"}, turn=3, phase="german-combat")
    g = Game(scenario, state)
    assert g.preview("german", A("C6", ("wiking",)))["attack_strength"] == 3
    assert g.preview("soviet", A("D6", ("5mc",)))["attack_strength"] == 6


# -- 2.6 steps


def test_2_6_steps_remaining(scenario):
    """2.6 A two-step unit on its full-strength side has 2 steps remaining; on its reduced side 1;
    a one-step unit has 1 step."""
    state = empty_state(
        scenario, {"47rc": "B1", "48rc": "C7", "180rd": "C1"}, turn=3, reduced=["48rc"]
    )
    assert steps_left(scenario, state.units["47rc"]) == 2
    assert steps_left(scenario, state.units["48rc"]) == 1
    assert steps_left(scenario, state.units["180rd"]) == 1
    shown = HellsGateSystem(scenario).show(state)["units"]
    assert (shown["47rc"]["steps"], shown["48rc"]["steps"], shown["180rd"]["steps"]) == (2, 1, 1)
    assert shown["48rc"]["reduced"] is True and shown["47rc"]["reduced"] is False


def test_2_6_a_one_step_unit_has_no_reduced_side(scenario):
    """2.6 A one-step unit has 1 step."""
    g = Game(scenario, sandbox=True)
    rej = g.refuse("moderator", O.Flip("180rd"))
    assert rej.rule == "2.6"
    g.do("moderator", O.Flip("47rc"))
    assert g.unit("47rc").reduced


# -- 2.7 changing state


def test_2_7_changing_state_of_a_unit(scenario):
    """2.7 Each unit has this changing state: side_up, location, oos, retreated,
    moved_this_phase, attacked_this_phase."""
    names = {f for f in UnitState.__slots__}
    assert {"reduced", "box", "hex", "oos", "retreated", "moved", "attacked"} <= names
    unit = HellsGateSystem(scenario).show(empty_state(scenario, {"47rc": "B1"}))["units"]["47rc"]
    assert {"reduced", "hex", "box", "oos", "retreat"} <= set(unit)


def test_2_7_moved_this_phase_is_set_by_a_move_and_cleared_next_movement_phase(scenario):
    """2.7 moved_this_phase: true if the unit moved in the current movement phase."""
    state = empty_state(scenario, {"47rc": "B1", "11pz": "A6"}, turn=3, phase="soviet-movement")
    g = Game(scenario, state)
    g.do("soviet", M("47rc", ("B2",)))
    assert g.unit("47rc").moved and not g.unit("11pz").moved
    g.do("soviet", END)  # -> German supply, German combat
    g.do("german", END)  # -> German movement: a new movement phase
    assert g.state.phase == "german-movement"
    assert not g.unit("47rc").moved


def test_2_7_attacked_this_phase_is_set_by_an_attack_and_cleared_next_combat_phase(scenario):
    """2.7 attacked_this_phase: true if the unit attacked in the current combat phase."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B2"}, turn=3, phase="soviet-combat")
    g = Game(scenario, state)
    g.do("soviet", A("B2", ("47rc",)), dice=[1])  # 1:1, die 1: no hit
    assert g.unit("47rc").attacked
    g.do("soviet", END)
    g.do("soviet", END)  # -> German combat phase
    assert g.state.phase == "german-combat"
    assert not g.unit("47rc").attacked


# -- 2.8 to 2.10 markers and boxes


def test_2_8_markers_weather_oos_retreat(scenario):
    """2.8 Markers: one turn/weather marker (Snow or Mud); OOS markers; Retreat markers."""
    g = Game(scenario, sandbox=True)
    assert g.state.weather == "snow"
    g.do("moderator", O.SetOOS("47rc", True))
    g.do("moderator", O.SetRetreat("198id", True))
    shown = g.system.show(g.state)["units"]
    assert shown["47rc"]["oos"] and shown["198id"]["retreat"]
    rej = g.refuse("moderator", O.SetOOS("18tk", True))  # on the turn track: no marker
    assert rej.rule == "2.8"


def test_2_9_2_10_off_map_boxes(scenario):
    """2.9 Off-map boxes: the turn track and the eliminated box. 2.10 the engine also keeps a
    broken-out box and a never-entered box."""
    assert {"map", "turn_track", "eliminated", "broken_out", "never_entered"} <= set(BOXES)


def test_2_10_broken_out_and_never_entered_are_not_eliminated(scenario):
    """2.10 Units in these two boxes are not in the eliminated box."""
    state = empty_state(scenario, {"47rc": "B1"})
    state.units["24pz"].box = "never_entered"
    state.units["11pz"].box = "broken_out"
    assert victory_points(scenario, state)["soviet"]["eliminated_steps"] == 0
    state.units["24pz"].box = "eliminated"
    state.units["11pz"].box = "eliminated"
    assert victory_points(scenario, state)["soviet"]["eliminated_steps"] == 4


# -- 2.11 stacking


def test_2_11_any_number_of_units_of_one_side_in_a_hex(scenario):
    """2.11 Stacking: any number of units of one side may be in one hex, at any time."""
    units = {u: "C7" for u in ("20tk", "29tk", "48rc", "75rc", "20grc", "21grc")}
    units["78rc"] = "D7"
    g = Game(scenario, empty_state(scenario, units, turn=3, phase="soviet-movement"))
    g.do("soviet", M("78rc", ("C7",)))
    assert len(g.state.units_in("C7")) == 7


def test_2_11_never_units_of_both_sides_in_one_hex(scenario):
    """2.11 Any number of units of one side may be in one hex (of one side only)."""
    g = Game(scenario, sandbox=True)
    rej = g.refuse("moderator", O.Place("389id", "C7"))
    assert rej.rule == "2.11"
    assert "enemy" in rej.message


# -- 2.12 armor and mech


def test_2_12_mech_is_not_armor(scenario):
    """2.12 "armor unit" means a unit whose `type` is armor. Mech units are not armor units."""
    assert scenario.units["wiking"].is_armor is False
    assert scenario.units["5mc"].is_armor is False
    assert scenario.units["5ss"].is_armor is True


def test_2_12_mech_may_not_make_the_turn_1_german_armor_move(scenario):
    """2.12 "armor unit" in rule 12.6 means a unit whose `type` is armor; mech is not."""
    state = empty_state(
        scenario, {"wiking": "D6", "5ss": "D6", "20tk": "C7"}, turn=1, phase="german-movement"
    )
    g = Game(scenario, state)
    rej = g.refuse("german", M("wiking", ("D5",)))
    assert rej.rule == "12.6"
    assert "mech" in rej.message
    g.do("german", M("5ss", ("D5",)))
    assert g.unit("5ss").hex == "D5"


# -- section 3: setup


def test_3_1_units_with_a_setup_hex_start_there_full_strength(scenario):
    """3.1 Each unit with a `setup_hex` is placed in that hex, full-strength side up."""
    state = new_game(scenario).state
    placed = [uid for uid, spec in scenario.units.items() if spec.setup_hex]
    assert len(placed) == 28
    for uid in placed:
        u = state.units[uid]
        assert (u.box, u.hex, u.reduced) == ("map", scenario.units[uid].setup_hex, False), uid


def test_3_2_reinforcements_start_in_their_turn_box(scenario):
    """3.2 Each unit with an `entry_turn` is placed in the turn-track box of that turn."""
    state = new_game(scenario).state
    waiting = [uid for uid, spec in scenario.units.items() if spec.entry_turn]
    assert len(waiting) == 14
    for uid in waiting:
        u = state.units[uid]
        assert (u.box, u.hex, u.track_turn) == ("turn_track", None, scenario.units[uid].entry_turn)


def test_3_2_reinforcements_enter_in_their_sides_phase_of_that_turn(scenario):
    """3.2 It enters in its side's supply and reinforcement phase of that turn (section 7)."""
    g = Game(scenario, sandbox=True)  # the Soviet supply phase of turn 1 has been played
    assert g.unit("11pz").box == "turn_track"
    g.do("moderator", O.SetPhase("german-supply"))
    assert (g.unit("11pz").hex, g.unit("14pz").hex) == ("A6", "A6")
    assert g.unit("24pz").box == "turn_track" and g.unit("18tk").box == "turn_track"


def test_3_3_turn_1_snow(scenario):
    """3.3 The turn/weather marker is placed in the box of turn 1, Snow side up."""
    assert scenario.flags["initial_weather"] == "snow"
    first = initial_state(scenario)
    assert (first.turn, first.phase, first.weather) == (1, "soviet-supply", "snow")
    state = new_game(scenario).state
    assert (state.turn, state.weather) == (1, "snow")
    assert HellsGateSystem(scenario).show(state)["weather"] == "snow"


def test_3_4_no_unit_starts_with_a_marker(scenario):
    """3.4 No unit starts with an OOS marker or a Retreat marker."""
    for state in (initial_state(scenario), new_game(scenario).state):
        assert [u.id for u in state.units.values() if u.oos or u.retreated] == []
        assert state.pending == [] and state.attacked_hexes == []


def test_2_7_a_unit_s_state_serialises_every_field_and_reads_back(scenario):
    """2.7 The state as plain data: each unit's every field, in field order, and back again."""
    state = new_game(scenario).state
    unit = UnitState("x", "german", "turn_track", None, 3, True, True, True, True, True, 2)
    state.units["x"] = unit
    doc = state.to_json()["units"]["x"]
    assert list(doc) == [f.name for f in fields(UnitState)]
    assert [doc[f.name] for f in fields(UnitState)] == [getattr(unit, f.name) for f in fields(unit)]
    assert type(state).from_json(state.to_json()).units["x"] == unit
