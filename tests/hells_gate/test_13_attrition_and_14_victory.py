"""Section 13 (end-of-game supply attrition) and section 14 (victory points).

Attrition is played through a full end: a state at the German movement phase of turn 8, then
`end` (German recovery, then the end of the game: 4.7, 4.8). Victory points are counted with
`victory.victory_points` / `victory.final_result` on hand-built states.
"""

from __future__ import annotations

import pytest

from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.victory import final_result, victory_points
from tests.hells_gate.helpers import END, Game, M, empty_state


def end_of_game(scenario, units, **kw) -> Game:
    """Play the end of turn 8 from its German movement phase."""
    g = Game(scenario, empty_state(scenario, units, turn=8, phase="german-movement", **kw))
    out = g.do("german", END, dice=[])  # no joint phase after turn 8: no die
    assert out.rolls == [] and g.state.result is not None
    return g


def eliminated(g: Game) -> set[str]:
    return {u.id for u in g.state.units.values() if u.box == "eliminated"}


def vp_state(scenario, units, boxes=None, reduced=()):
    """A state with `units` on the map and other units put in boxes: {"48rc": "eliminated"}."""
    state = empty_state(scenario, units, turn=8, phase="german-recovery", reduced=reduced)
    for uid, box in (boxes or {}).items():
        state.units[uid].box, state.units[uid].hex = box, None
    return state


# -- 13 attrition


def test_13_1_cut_off_units_are_destroyed_at_the_end(scenario):
    """13.1/13.2: "destroys every Soviet unit that cannot trace a supply line"; "Then the German
    player does the same for every German unit on the map.\""""
    # 21grc in A7: both neighbours hold German units. 72id in F7: 373rd in E6 puts E7 and F6 in
    # Soviet ZOC. 47rc (B1) and 34id/106id (A6/B7) trace.
    units = {"21grc": "A7", "47rc": "B1", "373rd": "E6", "34id": "A6", "106id": "B7", "72id": "F7"}
    g = end_of_game(scenario, units)
    assert eliminated(g) == {"21grc", "72id"}
    assert {u.id for u in g.state.on_map()} == {"47rc", "373rd", "34id", "106id"}
    texts = [e.text for e in g.events if e.kind == "UnitEliminated"]
    assert len(texts) == 2 and all("supply" in t for t in texts)


def test_13_1_no_length_limit_at_the_end(scenario):
    """13.1: "checks the supply of every Soviet unit on the map (rules 6.2 to 6.7, no length limit)".\""""
    g = end_of_game(scenario, {"48rc": "A4", "57id": "F5"})  # 4 and 5 hexes from supply
    assert eliminated(g) == set()


def test_13_2_soviet_units_are_checked_first_and_are_gone_for_the_german_check(scenario):
    """13.2: "Then the German player does the same ... Soviet units destroyed in 13.1 are no longer
    on the map.\""""
    # 48rc in B6 is cut off by German ZOC (34id A7, 88id A4, 57id D6). While it stands, its ZOC
    # cuts 34id in A7 off from A6; once it is destroyed, 34id traces to A6.
    units = {"48rc": "B6", "34id": "A7", "88id": "A4", "57id": "D6"}
    g = end_of_game(scenario, units)
    assert eliminated(g) == {"48rc"}
    assert g.unit("34id").box == "map"
    order = [e.data["unit"] for e in g.events if e.kind == "UnitEliminated"]
    assert order == ["48rc"]


def test_13_3_fresh_trace_ignores_oos_markers(scenario):
    """13.3: "this check uses a fresh trace; OOS markers are ignored.\""""
    # 47rc carries an OOS marker but traces (B1 is a Soviet supply hex); 21grc has none but is
    # cut off in A7.
    units = {"47rc": "B1", "21grc": "A7", "34id": "A6", "106id": "B7"}
    g = end_of_game(scenario, units, oos=["47rc"])
    assert g.unit("47rc").box == "map"
    assert g.unit("21grc").box == "eliminated"


def test_13_3_units_with_retreat_markers_are_checked_like_any_other(scenario):
    """13.3: "Units with Retreat markers are checked like any other unit.\""""
    units = {"20grc": "D7", "21grc": "A7", "34id": "A6", "106id": "B7"}
    g = end_of_game(scenario, units, retreated=["20grc", "21grc"])
    assert g.unit("20grc").box == "map"
    assert g.unit("21grc").box == "eliminated"


# -- 14 victory points


def test_14_1_each_step_printed_on_an_eliminated_enemy_unit_scores(scenario):
    """14.1: "a two-step unit counts 2 VP and a one-step unit 1 VP, whether or not the unit was
    reduced before it was destroyed.\""""
    boxes = {
        "48rc": "eliminated",
        "75rc": "eliminated",
        "180rd": "eliminated",
        "34id": "eliminated",
        "kg168": "eliminated",
    }
    vp = victory_points(scenario, vp_state(scenario, {}, boxes, reduced=["75rc", "34id"]))
    assert vp["german"]["eliminated_steps"] == 2 + 2 + 1
    assert vp["soviet"]["eliminated_steps"] == 2 + 1
    assert vp["german"]["reduced_units"] == vp["soviet"]["reduced_units"] == 0
    assert (vp["soviet"]["total"], vp["german"]["total"]) == (3, 10 + 5)


def test_14_2_reduced_enemy_two_step_units_on_map_or_broken_out_score_1(scenario):
    """14.2: "+1 VP for each enemy two-step unit that is on its reduced side and is either on the
    map or in the broken-out box.\""""
    units = {"47rc": "C4", "20grc": "D7", "180rd": "C1", "34id": "A1", "57id": "F4"}
    boxes = {
        "48rc": "broken_out",
        "75rc": "eliminated",
        "5mc": "turn_track",
        "88id": "broken_out",
        "72id": "broken_out",
    }
    reduced = ["47rc", "48rc", "75rc", "5mc", "34id", "88id"]
    vp = victory_points(scenario, vp_state(scenario, units, boxes, reduced))
    # German: 47rc (map) + 48rc (broken out); 20grc full; 180rd one-step; 75rc counts as
    # eliminated (2) only; 5mc is not on the map.
    assert (vp["german"]["reduced_units"], vp["german"]["eliminated_steps"]) == (2, 2)
    assert vp["german"]["total"] == 10 + 2 + 2
    # Soviet: 34id (map) + 88id (broken out); 57id and 72id are full strength.
    assert (vp["soviet"]["reduced_units"], vp["soviet"]["total"]) == (2, 2)


def test_14_3_each_enemy_supply_hex_held_scores_2(scenario):
    """14.3: "+2 VP for each enemy supply hex that contains at least one of his units.\""""
    units = {"47rc": "A2", "48rc": "A2", "180rd": "A4", "75rc": "B1", "34id": "C7", "88id": "A6"}
    vp = victory_points(scenario, vp_state(scenario, units))
    assert sorted(vp["soviet"]["supply_hexes"]) == ["A2", "A4"]  # two units in A2 count once
    assert vp["soviet"]["total"] == 2 * 2
    assert vp["german"]["supply_hexes"] == ["C7"]  # own supply hexes (A6, B1) score nothing
    assert vp["german"]["total"] == 10 + 2


def test_14_4_german_player_scores_10_for_game_balance(scenario):
    """14.4: "The German player scores +10 VP (game balance).\""""
    vp = victory_points(scenario, vp_state(scenario, {"47rc": "B1", "34id": "A2"}))
    assert (vp["german"]["balance"], vp["german"]["total"]) == (10, 10)
    assert (vp["soviet"]["balance"], vp["soviet"]["total"]) == (0, 0)
    assert final_result(scenario, vp_state(scenario, {})) == {
        "winner": "german",
        "soviet": 0,
        "german": 10,
    }


def test_14_5_units_in_the_never_entered_box_score_nothing(scenario):
    """14.5: "Units in the never-entered box score nothing.\""""
    boxes = {"24pz": "never_entered", "lah": "never_entered", "16tk": "never_entered"}
    vp = victory_points(scenario, vp_state(scenario, {}, boxes, reduced=["lah"]))
    assert (vp["soviet"]["total"], vp["german"]["total"]) == (0, 10)
    eliminated_24pz = victory_points(scenario, vp_state(scenario, {}, {"24pz": "eliminated"}))
    assert eliminated_24pz["soviet"]["total"] == 2  # the same unit eliminated would score


@pytest.mark.parametrize("extra, winner", [((), "draw"), (("kg168",), "soviet")])
def test_14_7_more_vp_wins_equal_totals_are_a_draw(scenario, extra, winner):
    """14.7: "The player with more VP wins. Decision: equal totals are a draw.\""""
    boxes = {uid: "eliminated" for uid in ("34id", "198id", "88id", "kab", "72id", *extra)}
    state = vp_state(scenario, {}, boxes)  # 5 German two-step units: Soviet 10 VP
    result = final_result(scenario, state)
    assert result == {"winner": winner, "soviet": 10 + len(extra), "german": 10}


def test_14_7_fewer_soviet_vp_is_a_german_win(scenario):
    """14.7: "The player with more VP wins.\""""
    boxes = {uid: "eliminated" for uid in ("34id", "198id", "88id", "kab", "kg168")}
    assert final_result(scenario, vp_state(scenario, {}, boxes)) == {
        "winner": "german",
        "soviet": 9,
        "german": 10,
    }


def test_14_6_victory_points_are_counted_after_attrition(scenario):
    """14.6: "Victory points are counted after section 13.\""""
    # 72id in F7 (a Soviet supply hex) is destroyed by attrition: it scores as eliminated
    # (2 for the Soviet player), not as a supply hex held (2 for the German player).
    units = {"72id": "F7", "373rd": "E6", "34id": "A6"}
    g = end_of_game(scenario, units)
    assert g.unit("72id").box == "eliminated"
    vp = g.state.vp
    assert vp == victory_points(scenario, g.state)
    assert (vp["soviet"]["eliminated_steps"], vp["german"]["supply_hexes"]) == (2, [])
    assert g.state.result == {"winner": "german", "soviet": 2, "german": 10}
    assert [e.kind for e in g.events][-1] == "GameEnded"


def test_4_7_full_end_of_a_sandbox_game(scenario):
    """4.7: "After phase 8 of turn 8 the game ends: apply end-of-game supply attrition (section 13),
    then count victory points (section 14).\""""
    g = Game(scenario, sandbox=True)
    g.do("moderator", O.Place("34id", "eliminated"))  # Soviet +2
    g.do("moderator", O.Flip("198id"))  # reduced on the map: Soviet +1
    g.do("moderator", O.Place("72id", "F7"))  # cut off in a Soviet supply hex: destroyed, +2
    g.do("moderator", O.SetTurn(8))
    g.do("moderator", O.SetPhase("german-movement"))
    assert (g.state.turn, g.state.phase, g.state.result) == (8, "german-movement", None)
    g.do("german", END, dice=[])
    assert eliminated(g) == {"34id", "72id"}
    assert (
        g.state.result
        == final_result(scenario, g.state)
        == {"winner": "german", "soviet": 5, "german": 10}
    )
    assert g.state.vp == victory_points(scenario, g.state)
    rejection = g.refuse("soviet", M("47rc", ("B2",)))
    assert rejection.rule == "4.7"
