"""Section 9: movement (9.1-9.12), on hand-built states.

Soviet moves on turn 3 (no turn-1/turn-2 limits apply to Soviet units then, and the airfield
freeze of 12.14 binds German units only). Map facts used (scenario section 2): woods C2 C5 C7
D4 E4; Cherkassy F6; river hexsides A5-B5, D2-D3, D3-E2, E2-E3, D5-E4, B3-C3.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.hells_gate.helpers import END, Game, M, empty_state


def mgame(scenario, units, *, scen=None, **kw) -> Game:
    """A Soviet movement phase of turn 3 with only `units` on the map."""
    kw.setdefault("turn", 3)
    kw.setdefault("phase", "soviet-movement")
    return Game(scen or scenario, empty_state(scenario, units, **kw))


# -- 9.1 voluntary; only units without a Retreat marker


def test_9_1_movement_is_voluntary_end_without_moving(scenario):
    """9.1: "the phasing player may move any or all of his units ... Movement is voluntary"."""
    g = mgame(scenario, {"47rc": "C4", "29tk": "C7", "34id": "A1"})
    assert END in g.legal("soviet")
    g.do("soviet", END)
    assert "UnitMoved" not in g.kinds()
    assert (g.unit("47rc").hex, g.unit("29tk").hex) == ("C4", "C7")
    assert g.state.phase == "german-combat"


def test_9_1_some_units_move_and_others_stay(scenario):
    """9.1: "may move any or all of his units that have no Retreat marker"."""
    g = mgame(scenario, {"47rc": "C4", "48rc": "C4"})
    g.do("soviet", M("47rc", ("C3",)))
    g.do("soviet", END)
    assert (g.unit("47rc").hex, g.unit("48rc").hex) == ("C3", "C4")


def test_9_1_unit_with_retreat_marker_may_not_move(scenario):
    """9.1: "may move any or all of his units that have no Retreat marker" (also 8.36)."""
    g = mgame(scenario, {"47rc": "C4", "48rc": "C4"}, retreated=["47rc"])
    rejection = g.refuse("soviet", M("47rc", ("C3",)))
    assert rejection.rule == "8.36" and "Retreat marker" in rejection.message
    assert not [o for o in g.legal("soviet") if getattr(o, "unit", None) == "47rc"]
    g.do("soviet", M("48rc", ("C3",)))
    assert g.unit("48rc").hex == "C3"


def test_9_1_only_the_phasing_player_moves(scenario):
    """9.1: "In his movement phase the phasing player may move" (4.6: only the phasing player)."""
    g = mgame(scenario, {"47rc": "C4", "34id": "A1"})
    rejection = g.refuse("german", M("34id", ("A2",)))
    assert rejection.rule == "4.6" and "Soviet" in rejection.message


# -- 9.2 chain of adjacent steps, once per phase


def test_9_2_each_unit_moves_once_per_movement_phase(scenario):
    """9.2: "Each unit moves once per movement phase.\""""
    g = mgame(scenario, {"29tk": "C4", "47rc": "C4"})
    g.do("soviet", M("29tk", ("C3",)))  # 1 of its 2 hexes used
    rejection = g.refuse("soviet", M("29tk", ("B3",)))
    assert rejection.rule == "9.2" and "already moved" in rejection.message
    assert not [o for o in g.legal("soviet") if getattr(o, "unit", None) == "29tk"]
    g.do("soviet", M("47rc", ("D5",)))  # another unit still moves
    assert (g.unit("29tk").hex, g.unit("47rc").hex) == ("C3", "D5")


def test_9_2_moved_flag_resets_in_the_next_movement_phase(scenario):
    """9.2: "Each unit moves once per movement phase" (per phase, not per game)."""
    g = mgame(scenario, {"47rc": "C4"})
    g.do("soviet", M("47rc", ("C3",)))
    g.do("soviet", END)  # to German combat
    g.do("german", END)
    g.do("german", END, dice=[6])  # German movement ends; joint phase die 6 (Snow stays)
    g.do("soviet", END)  # Soviet combat of turn 4
    assert (g.state.turn, g.state.phase) == (4, "soviet-movement")
    g.do("soviet", M("47rc", ("B3",)))
    assert g.unit("47rc").hex == "B3"


def test_9_2_each_step_goes_to_an_adjacent_hex(scenario):
    """9.2: "A move is a chain of steps, each into an adjacent hex.\""""
    g = mgame(scenario, {"47rc": "C4", "29tk": "B6"})
    rejection = g.refuse("soviet", M("47rc", ("C6",)))  # C6 is 2 hexes from C4
    assert (
        rejection.rule == "9.3" and "C6" in rejection.message and "at most 1" in rejection.message
    )
    rejection = g.refuse("soviet", M("47rc", ("C5", "C6")))  # a path: infantry moves 1 hex
    assert rejection.rule == "9.3" and "at most 1" in rejection.message
    rejection = g.refuse("soviet", M("29tk", ("C6", "C4")))  # second step not adjacent to C6
    assert rejection.rule == "9.2" and "C4" in rejection.message
    g.do("soviet", M("29tk", ("C6", "D6")))
    assert g.unit("29tk").hex == "D6"


def test_9_2_a_move_names_at_least_one_hex(scenario):
    """9.2: "A move is a chain of steps, each into an adjacent hex" - an empty chain is no move."""
    g = mgame(scenario, {"29tk": "C4"})
    rejection = g.refuse("soviet", M("29tk", ()))
    assert rejection.rule == "9.2"


def test_9_2_one_hex_order_to_a_hex_two_away_takes_the_first_legal_path(scenario):
    """9.2: "A move is a chain of steps" - an order naming only the end hex 2 away gets the first
    legal path in hex order, and Outcome.order holds the full path."""
    g = mgame(scenario, {"29tk": "B6"})
    out = g.do("soviet", M("29tk", ("D6",)))  # B6-C5-D6 and B6-C6-D6; C5 comes first
    assert out.order == M("29tk", ("C5", "D6"))
    assert g.unit("29tk").hex == "D6"
    moved = [e for e in out.events if e.kind == "UnitMoved"]
    assert moved[0].data["path"] == ["C5", "D6"]


def test_9_2_completed_path_skips_paths_through_enemy_units(scenario):
    """9.2 with 9.4: "A unit may not enter a hex containing an enemy unit" - the completed path
    goes around C5."""
    g = mgame(scenario, {"29tk": "B6", "5ss": "C5"})
    out = g.do("soviet", M("29tk", ("D6",)))
    assert out.order == M("29tk", ("C6", "D6"))
    assert g.unit("29tk").hex == "D6"


def test_9_2_completed_path_skips_paths_illegal_under_9_8(scenario):
    """9.8: "may not enter 2 woods hexes" - C4-D4-E4 (two woods) is skipped for C4-D5-E4."""
    g = mgame(scenario, {"29tk": "C4"})
    out = g.do("soviet", M("29tk", ("E4",)))
    assert out.order == M("29tk", ("D5", "E4"))
    assert g.unit("29tk").hex == "E4"


def test_9_2_one_hex_order_two_away_is_not_completed_for_a_one_hex_unit(scenario):
    """9.3: "Base movement allowance: 1 hex" - no path is invented for an infantry unit."""
    g = mgame(scenario, {"47rc": "C4"})
    rejection = g.refuse("soviet", M("47rc", ("C6",)))
    assert rejection.rule in ("9.2", "9.3") and "C6" in rejection.message


# -- 9.3 base allowance


def test_9_3_base_movement_allowance_is_one_hex(scenario):
    """9.3: "Base movement allowance: 1 hex.\""""
    g = mgame(scenario, {"47rc": "C4", "180rd": "C4"})
    rejection = g.refuse("soviet", M("47rc", ("C3", "B3")))
    assert rejection.rule == "9.3" and "at most 1 hex" in rejection.message
    g.do("soviet", M("47rc", ("C3",)))
    g.do("soviet", M("180rd", ("D5",)))
    assert (g.unit("47rc").hex, g.unit("180rd").hex) == ("C3", "D5")


# -- 9.4 enemy hexes and the map edge


def test_9_4_may_not_enter_a_hex_containing_an_enemy_unit(scenario):
    """9.4: "A unit may not enter a hex containing an enemy unit".\""""
    g = mgame(scenario, {"47rc": "C4", "34id": "C3"})
    rejection = g.refuse("soviet", M("47rc", ("C3",)))
    assert rejection.rule == "9.4" and "C3" in rejection.message and "enemy" in rejection.message
    assert M("47rc", ("C3",)) not in g.legal("soviet")


def test_9_4_may_not_pass_through_a_hex_containing_an_enemy_unit(scenario):
    """9.4: "A unit may not enter a hex containing an enemy unit" - not even in passing."""
    g = mgame(scenario, {"29tk": "C4", "34id": "C3"})
    rejection = g.refuse("soviet", M("29tk", ("C3", "B3")))
    assert rejection.rule == "9.4" and "C3" in rejection.message
    assert not [o for o in g.legal("soviet") if getattr(o, "path", ())[:1] == ("C3",)]
    g.do("soviet", M("29tk", ("B4", "B3")))  # around it is fine
    assert g.unit("29tk").hex == "B3"


def test_9_4_may_enter_a_hex_with_friendly_units(scenario):
    """9.4: "may not enter a hex containing an enemy unit" - friendly units do not block."""
    g = mgame(scenario, {"29tk": "C4", "47rc": "C3"})
    g.do("soviet", M("29tk", ("C3", "B3")))
    assert g.unit("29tk").hex == "B3"


@pytest.mark.parametrize(
    "unit, start, off", [("47rc", "A1", "A0"), ("206rd", "F1", "G1"), ("29tk", "F7", "F8")]
)
def test_9_4_may_not_leave_the_map(scenario, unit, start, off):
    """9.4: "A unit may not ... leave the map.\""""
    g = mgame(scenario, {unit: start})
    rejection = g.refuse("soviet", M(unit, (off,)))
    assert rejection.rule in ("9.4", "9.2") and off in rejection.message
    paths = [o.path for o in g.legal("soviet") if getattr(o, "unit", None) == unit]
    assert paths and all(h in scenario.grid for p in paths for h in p)


def test_9_4_two_hex_move_may_not_step_off_the_map(scenario):
    """9.4: "A unit may not ... leave the map" - neither on its first nor its last step."""
    g = mgame(scenario, {"29tk": "F7"})
    rejection = g.refuse("soviet", M("29tk", ("G7", "F6")))
    assert rejection.rule in ("9.4", "9.2") and "G7" in rejection.message
    assert g.unit("29tk").hex == "F7"


# -- 9.5 ZOC and stacking


def test_9_5_zoc_has_no_effect_on_movement(scenario):
    """9.5: "ZOC has no effect on movement.\""""
    # C3 is next to B4; C4 next to B4, B5 and D5; C5 next to B5 and D5.
    g = mgame(scenario, {"29tk": "C3", "47rc": "C4", "34id": "B4", "106id": "B5", "88id": "D5"})
    g.do("soviet", M("29tk", ("C4", "C5")))  # EZOC to EZOC to EZOC
    g.do("soviet", M("47rc", ("D4",)))  # EZOC to EZOC (D4 is next to D5)
    assert (g.unit("29tk").hex, g.unit("47rc").hex) == ("C5", "D4")


def test_9_5_no_stacking_limit_during_or_after_movement(scenario):
    """9.5: "There is no stacking limit during or after movement.\""""
    units = {
        "47rc": "C4",
        "48rc": "C3",
        "75rc": "B4",
        "78rc": "B5",
        "21grc": "D4",
        "29tk": "C6",
        "20tk": "C6",
    }
    g = mgame(scenario, units)
    for uid, hex_id in units.items():
        if uid == "47rc":
            continue
        g.do("soviet", M(uid, ("C4",) if hex_id != "C6" else ("C5", "C4")))
    assert len(g.state.units_in("C4")) == 7


# -- 9.6 and 9.7 Snow allowances


@pytest.mark.parametrize("unit", ["29tk", "5mc"])
def test_9_6_snow_armor_and_mech_move_up_to_two_hexes(scenario, unit):
    """9.6: "Snow: armor, mech and cavalry units may move up to 2 hexes.\""""
    g = mgame(scenario, {unit: "C4"})
    rejection = g.refuse("soviet", M(unit, ("C3", "B3", "A3")))
    assert rejection.rule == "9.6" and "at most 2 hexes" in rejection.message
    g.do("soviet", M(unit, ("C3", "B3")))
    assert g.unit(unit).hex == "B3"


@pytest.mark.parametrize("unit", ["47rc", "180rd"])
def test_9_6_snow_other_units_move_one_hex(scenario, unit):
    """9.6: "All other units: 1 hex.\""""
    g = mgame(scenario, {unit: "C4"})
    rejection = g.refuse("soviet", M(unit, ("C3", "B3")))
    assert rejection.rule in ("9.3", "9.6") and "at most 1 hex" in rejection.message
    assert all(len(o.path) == 1 for o in g.legal("soviet") if getattr(o, "unit", None) == unit)


def test_9_7_cavalry_moves_two_hexes_in_snow(scenario):
    """9.7/9.11: "Cavalry moves up to 2 hexes in Snow" - 2, not 3."""
    g = mgame(scenario, {"5gcc": "C4"})
    rejection = g.refuse("soviet", M("5gcc", ("C3", "B3", "A3")))
    assert rejection.rule in ("9.6", "9.7", "9.11") and "at most 2 hexes" in rejection.message
    g.do("soviet", M("5gcc", ("C3", "B3")))
    assert g.unit("5gcc").hex == "B3"


def test_9_7_cavalry_moves_two_hexes_regardless_of_terrain_woods(scenario):
    """9.7: "Cavalry moves up to 2 hexes in Snow regardless of terrain" - two woods hexes."""
    g = mgame(scenario, {"5gcc": "C4"})
    g.do("soviet", M("5gcc", ("D4", "E4")))
    assert g.unit("5gcc").hex == "E4"


def test_9_7_cavalry_moves_two_hexes_regardless_of_terrain_rivers(scenario):
    """9.7: "Cavalry moves up to 2 hexes in Snow regardless of terrain" - two river hexsides."""
    g = mgame(scenario, {"5gcc": "D2"})
    g.do("soviet", M("5gcc", ("D3", "E2")))
    assert g.unit("5gcc").hex == "E2"


# -- 9.8 armor and mech 2-hex moves


@pytest.mark.parametrize("unit", ["29tk", "5mc"])
def test_9_8_armor_and_mech_may_not_enter_two_woods_hexes(scenario, unit):
    """9.8: "Armor and mech units moving 2 hexes may not enter 2 woods hexes".\""""
    g = mgame(scenario, {unit: "C4"})
    rejection = g.refuse("soviet", M(unit, ("D4", "E4")))
    assert rejection.rule == "9.8" and "woods" in rejection.message
    g.do("soviet", M(unit, ("D4",)))  # one woods hex is fine
    assert g.unit(unit).hex == "D4"


@pytest.mark.parametrize("unit", ["29tk", "5mc"])
def test_9_8_armor_and_mech_may_not_cross_two_river_hexsides(scenario, unit):
    """9.8: "... and may not cross 2 river hexsides in one move.\""""
    g = mgame(scenario, {unit: "D2"})
    rejection = g.refuse("soviet", M(unit, ("D3", "E2")))
    assert rejection.rule == "9.8" and "river" in rejection.message
    g.do("soviet", M(unit, ("E2", "E3")))  # only E2-E3 is a river: one crossing
    assert g.unit(unit).hex == "E3"


@pytest.mark.parametrize("start, path", [("A5", ("B5", "C5")), ("E2", ("E3", "E4"))])
def test_9_8_one_woods_hex_and_one_river_hexside_are_allowed(scenario, start, path):
    """9.8: "Entering 1 woods hex and crossing 1 river hexside in the same 2-hex move is allowed".\""""
    g = mgame(scenario, {"29tk": start})
    g.do("soviet", M("29tk", path))
    assert g.unit("29tk").hex == path[-1]


def test_9_8_the_starting_hex_does_not_count_as_entered(scenario):
    """9.8: "Only hexes entered count; the starting hex does not" - D4 (woods) to E4 (woods)
    to E3 enters one woods hex."""
    g = mgame(scenario, {"29tk": "D4"})
    g.do("soviet", M("29tk", ("E4", "E3")))
    assert g.unit("29tk").hex == "E3"


def test_9_8_cherkassy_is_not_woods_for_movement(scenario):
    """9.8: "Decision: Cherkassy (F6) is not a woods hex for this rule".

    No woods hex touches F6 on the printed map, so E7 and F7 are made woods in a copy of the
    scenario: E6-E7-F7 (two woods) is refused, E6-F7-F6 (woods, then Cherkassy) is allowed."""
    hexes = dict(scenario.hexes)
    for h in ("E7", "F7"):
        hexes[h] = replace(hexes[h], terrain="woods")
    woods = replace(scenario, hexes=hexes)
    g = mgame(scenario, {"29tk": "E6"}, scen=woods)
    rejection = g.refuse("soviet", M("29tk", ("E7", "F7")))
    assert rejection.rule == "9.8"
    g.do("soviet", M("29tk", ("F7", "F6")))
    assert g.unit("29tk").hex == "F6"


def test_9_8_cherkassy_two_hex_move_on_the_printed_map(scenario):
    """9.8: "Cherkassy (F6) is not a woods hex for this rule" - F7-F6-E6 is a legal 2-hex move."""
    g = mgame(scenario, {"29tk": "F7"})
    g.do("soviet", M("29tk", ("F6", "E6")))
    assert g.unit("29tk").hex == "E6"


# -- 9.9 OOS and 9.10 Mud


@pytest.mark.parametrize("unit", ["29tk", "5mc", "5gcc"])
def test_9_9_unit_with_oos_marker_moves_at_most_one_hex(scenario, unit):
    """9.9: "A unit with an OOS marker may move at most 1 hex, in any weather.\""""
    g = mgame(scenario, {unit: "C4"}, oos=[unit])
    assert g.state.weather == "snow"
    rejection = g.refuse("soviet", M(unit, ("C3", "B3")))
    assert rejection.rule == "9.9" and "at most 1 hex" in rejection.message
    g.do("soviet", M(unit, ("C3",)))
    assert g.unit(unit).hex == "C3"


@pytest.mark.parametrize("unit", ["29tk", "5mc", "5gcc"])
def test_9_10_mud_every_unit_moves_at_most_one_hex(scenario, unit):
    """9.10: "Mud: every unit may move at most 1 hex.\""""
    g = mgame(scenario, {unit: "C4"}, weather="mud")
    rejection = g.refuse("soviet", M(unit, ("C3", "B3")))
    assert rejection.rule == "9.10" and "Mud" in rejection.message
    assert all(len(o.path) == 1 for o in g.legal("soviet") if getattr(o, "unit", None) == unit)
    g.do("soviet", M(unit, ("C3",)))
    assert g.unit(unit).hex == "C3"


def test_9_10_mud_one_hex_order_two_away_is_not_completed(scenario):
    """9.10: "Mud: every unit may move at most 1 hex" - no 2-hex path is filled in."""
    g = mgame(scenario, {"29tk": "B6"}, weather="mud")
    rejection = g.refuse("soviet", M("29tk", ("D6",)))
    assert rejection.rule in ("9.2", "9.10") and "D6" in rejection.message
