"""Section 6: supply; 12.7 the turn-2 Soviet 3-hex limit; the `supply` explanation."""

from __future__ import annotations

from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.supply import explain, line_lengths, passable, trace_path
from adjudicator.hells_gate.zoc import ezoc
from tests.hells_gate.helpers import END, Game, M, empty_state


def soviet_supply(scenario, units, turn=4, **kw) -> Game:
    """Play the Soviet supply phase of `turn` (from the German movement phase before it; weather
    roll 6 keeps Snow) on a hand-built state; the game then waits in the Soviet combat phase."""
    g = Game(scenario, empty_state(scenario, units, turn=turn - 1, phase="german-movement", **kw))
    g.do("german", END, dice=[6])
    assert (g.state.turn, g.state.phase) == (turn, "soviet-combat")
    return g


def german_supply(scenario, units, turn=3, **kw) -> Game:
    """Play the German supply phase of `turn` on a hand-built state."""
    g = Game(scenario, empty_state(scenario, units, turn=turn, phase="soviet-movement", **kw))
    g.do("soviet", END)
    assert (g.state.turn, g.state.phase) == (turn, "german-combat")
    return g


def oos(g: Game) -> set[str]:
    return {u.id for u in g.state.on_map() if u.oos}


# -- 6.1 when supply is checked


def test_6_1_each_side_checks_in_its_own_supply_phase(scenario):
    """6.1 A player checks the supply of all his units on the map in his own supply and
    reinforcement phase (phase 1 Soviet, phase 5 German)."""
    # 47th Rifle Corps in A1 and 198th Infantry Division in B2 cut each other off.
    g = soviet_supply(scenario, {"47rc": "A1", "180rd": "C2", "198id": "B2"})
    assert oos(g) == {"47rc"}  # the German 198th is not checked in the Soviet phase
    g.do("soviet", END)
    g.do("soviet", END)  # -> Soviet recovery, German supply, German combat
    assert oos(g) == {"47rc", "198id"}
    assert [e.data["unit"] for e in g.events if e.kind == "OutOfSupply"] == ["47rc", "198id"]


def test_6_13_both_sides_cut_each_others_supply(scenario):
    """6.13 Both sides may cut each other's supply lines at the same time."""
    g = german_supply(scenario, {"47rc": "A1", "180rd": "C2", "198id": "B2"})
    assert "198id" in oos(g)
    g.do("german", END)
    g.do("german", END, dice=[6])  # -> Soviet supply phase of turn 4
    assert {"47rc", "198id"} <= oos(g)
    assert "180rd" not in oos(g)


# -- 6.2 the supply line


def test_6_2_a_enemy_unit_blocks_even_outside_ezoc(scenario):
    """6.2 (a) every hex of the chain contains no enemy unit."""
    # The lone 3rd Panzer in B7 is the only way from A7 to the Soviet-held supply hex C7; A6 is
    # in the ZOC of the 34th in A5. B7 is not in German ZOC: only condition (a) blocks it.
    units = {"47rc": "A7", "48rc": "C7", "3pz": "B7", "34id": "A5"}
    g = soviet_supply(scenario, units)
    assert "B7" not in ezoc(scenario, g.state, "soviet")
    assert "B7" not in passable(scenario, g.state, "soviet")
    assert oos(g) == {"47rc"}
    assert explain(scenario, g.state, "47rc").reason == (
        "no supply line (6.2): cut by enemy ZOC in A6; enemy units in B7"
    )
    del units["3pz"]
    assert oos(soviet_supply(scenario, units)) == set()  # A7-B7-C7


def test_6_2_b_empty_ezoc_hex_blocks_the_line(scenario):
    """6.2 (b) every hex of the chain is not in EZOC, unless it contains a friendly unit."""
    g = soviet_supply(scenario, {"47rc": "A7", "48rc": "C7", "34id": "A5", "389id": "C6"})
    assert "47rc" in oos(g)  # A6 and B7 are empty and in German ZOC
    assert explain(scenario, g.state, "47rc").reason == (
        "no supply line (6.2): cut by enemy ZOC in A6, B7"
    )


def test_6_2_b_line_traced_through_friendly_occupied_ezoc_hexes(scenario):
    """6.2 (b) ... unless it contains at least one friendly unit."""
    units = {"47rc": "A7", "29tk": "B7", "48rc": "C7", "34id": "A5", "389id": "C6"}
    g = soviet_supply(scenario, units)
    assert {"B7", "C7"} <= ezoc(scenario, g.state, "soviet")
    assert oos(g) == set()
    report = explain(scenario, g.state, "47rc")
    assert report.traced and report.path == ["A7", "B7", "C7"]


def test_6_2_supply_hex_in_ezoc_without_a_friendly_unit_does_not_count(scenario):
    """6.2 Every hex in the chain, including ... the supply hex, must meet both conditions
    (Q9: the supply hex itself must be outside EZOC unless a friendly unit is in it)."""
    units = {"47rc": "A7", "29tk": "B7", "34id": "A5", "389id": "C6"}
    g = soviet_supply(scenario, units)
    assert {"47rc", "29tk"} <= oos(g)  # C7 is an empty Soviet supply hex in German ZOC
    units["48rc"] = "C7"
    assert oos(soviet_supply(scenario, units)) == set()


def test_6_2_supply_hex_in_ezoc_q9_north(scenario):
    """6.2 Every hex in the chain, including the supply hex, must meet both conditions (Q9)."""
    g = soviet_supply(scenario, {"47rc": "A1", "198id": "B2"})
    assert "47rc" in oos(g)  # B1 is next to the 47th but in the ZOC of the 198th
    g = soviet_supply(scenario, {"47rc": "A1", "5gtk": "B1", "198id": "B2"})
    assert oos(g) == set()


def test_6_3_own_hex_in_ezoc_is_no_obstacle(scenario):
    """6.3 The unit's own hex always meets condition (b), because the unit itself is a friendly
    unit there."""
    g = soviet_supply(scenario, {"47rc": "D6", "198id": "D5"})
    assert "D6" in ezoc(scenario, g.state, "soviet")
    assert oos(g) == set()
    assert explain(scenario, g.state, "47rc").path == ["D6", "D7"]


def test_6_4_friendly_units_with_markers_meet_the_exception(scenario):
    """6.4 Any friendly unit meets the exception in 6.2(b), including a unit with an OOS marker
    or a Retreat marker."""
    units = {"47rc": "A7", "29tk": "B7", "48rc": "C7", "34id": "A5", "389id": "C6"}
    g = soviet_supply(scenario, units, oos=["29tk", "47rc"], retreated=["48rc"])
    assert oos(g) == set()  # both OOS markers removed (6.10)
    assert g.unit("48rc").retreated


# -- 6.5 / 6.6 whose supply hexes


def test_6_5_supply_hexes_of_each_side(scenario):
    """6.5 Supply hexes are the hexes marked with a side's supply symbol; the data file lists them."""
    assert sorted(scenario.supply_hexes("soviet")) == ["B1", "C1", "C7", "D7", "E6", "F1", "F7"]
    assert sorted(scenario.supply_hexes("german")) == ["A2", "A4", "A6"]


def test_6_6_a_player_traces_only_to_his_own_supply_hexes(scenario):
    """6.6 A player traces only to his own side's supply hexes."""
    state = empty_state(scenario, {"47rc": "A4"}, turn=2, phase="soviet-supply")
    assert line_lengths(scenario, state, "soviet")["A4"] == 4  # not 0: A4 is German
    assert line_lengths(scenario, empty_state(scenario, {}), "german")["A4"] == 0
    # on turn 2 (3-hex limit) a Soviet unit on the German supply hex A4 is out of supply
    g = soviet_supply(scenario, {"47rc": "A4"}, turn=2)
    assert oos(g) == {"47rc"}


# -- 6.7 / 6.8 length


def test_6_7_unit_on_a_supply_hex_has_a_line_of_length_0(scenario):
    """6.7 A unit standing in a friendly supply hex that meets 6.2 is in supply (chain length 0)."""
    # F1 is in the ZOC of the Germans in E1 and F2, and both its neighbours hold Germans.
    g = soviet_supply(scenario, {"206rd": "F1", "kab": "E1", "wallonien": "F2"}, turn=2)
    assert oos(g) == set()
    report = explain(scenario, g.state, "206rd")
    assert report.path == ["F1"]
    assert report.reason == "line F1 (0 hexes)"


def test_6_8_no_length_limit_after_turn_2(scenario):
    """6.8 A supply line has no length limit, except in the Soviet supply phase of turn 2."""
    units = {"47rc": "A1", "198id": "C1"}
    state = empty_state(scenario, units, turn=3)
    assert len(trace_path(scenario, state, "soviet", "A1")) - 1 == 7
    assert oos(soviet_supply(scenario, units, turn=3)) == set()
    assert oos(soviet_supply(scenario, units, turn=8)) == set()
    assert oos(soviet_supply(scenario, units, turn=2)) == {"47rc"}


# -- 6.9 to 6.11 markers


def test_6_9_oos_marker_placed_once(scenario):
    """6.9 If a unit cannot trace a supply line, place an OOS marker on it if it has none."""
    g = soviet_supply(
        scenario, {"47rc": "A1", "48rc": "A7", "198id": "B2", "3pz": "B7"}, oos=["48rc"]
    )
    assert oos(g) == {"47rc", "48rc"}
    assert [e.data["unit"] for e in g.events if e.kind == "OutOfSupply"] == ["47rc"]


def test_6_10_oos_marker_removed_when_a_line_is_traced(scenario):
    """6.10 If a unit with an OOS marker can trace a supply line in its side's supply phase,
    remove the marker."""
    g = soviet_supply(scenario, {"47rc": "A1"}, oos=["47rc"])
    assert oos(g) == set()
    assert [e.kind for e in g.events if e.data.get("unit") == "47rc"] == ["SupplyRestored"]


def test_6_10_markers_change_only_in_the_owners_phase(scenario):
    """6.10 ... in its side's supply phase, remove the marker (not in the enemy's)."""
    # The Soviet 47th can trace, the German 198th cannot; markers stay through the other
    # side's supply phase.
    g = german_supply(
        scenario,
        {"47rc": "B1", "198id": "D4", "180rd": "D5", "337rd": "C3", "206rd": "E3"},
        oos=["47rc"],
    )
    assert oos(g) == {"47rc", "198id"}
    g.do("german", END)
    g.do("german", END, dice=[6])  # Soviet supply phase of turn 4
    assert oos(g) == {"198id"}


def test_6_11_cut_off_during_movement_marked_only_in_the_next_own_supply_phase(scenario):
    """6.11 Supply status changes only in 6.9 and 6.10."""
    state = empty_state(scenario, {"47rc": "A1", "198id": "B3"}, turn=3, phase="german-movement")
    g = Game(scenario, state)
    g.do("german", M("198id", ("B2",)))  # now B1 and A2 are in German ZOC
    assert oos(g) == set()
    g.do("german", END, dice=[6])
    assert oos(g) == {"47rc"}
    assert g.state.turn == 4


def test_6_12_oos_marker_limits_movement(scenario):
    """6.12 (a) a unit with an OOS marker may move at most 1 hex per movement phase (rule 9.9)."""
    state = empty_state(
        scenario, {"29tk": "C7", "20tk": "C7"}, turn=3, phase="soviet-movement", oos=["29tk"]
    )
    g = Game(scenario, state)
    rej = g.refuse("soviet", M("29tk", ("C6", "C5")))
    assert rej.rule == "9.9"
    g.do("soviet", M("20tk", ("C6", "C5")))
    g.do("soviet", M("29tk", ("C6",)))


# -- 6.14 order within the phase


def test_6_14_supply_checked_before_reinforcements_enter(scenario):
    """6.14 In phases 1 and 5 the supply check is done first, then reinforcements enter.
    Reinforcements enter without OOS markers."""
    # The 47th in A1 is cut: B1 is an empty supply hex in the ZOC of the 198th. The 104th Rifle
    # Corps then enters at B1, too late to help the 47th this turn.
    state = empty_state(scenario, {"47rc": "A1", "198id": "B2"}, turn=2, phase="german-movement")
    state.units["104rc"].box, state.units["104rc"].track_turn = "turn_track", 3
    g = Game(scenario, state)
    g.do("german", END, dice=[6])
    assert g.state.turn == 3
    assert g.unit("104rc").hex == "B1" and not g.unit("104rc").oos
    assert g.unit("47rc").oos
    kinds = [e.kind for e in g.events if e.kind in ("OutOfSupply", "ReinforcementEntered")]
    assert kinds == ["OutOfSupply", "ReinforcementEntered"]
    g.do("soviet", END)
    g.do("soviet", END)
    g.do("german", END)
    g.do("german", END, dice=[6])  # Soviet supply phase of turn 4: B1 now holds the 104th
    assert not g.unit("47rc").oos


def test_6_14_german_reinforcements_enter_without_oos_markers(scenario):
    """6.14 Reinforcements enter without OOS markers."""
    g = Game(scenario, sandbox=True)
    g.do("moderator", O.SetPhase("german-supply"))  # turn 1: 11th and 14th Panzer enter at A6
    assert g.unit("11pz").hex == "A6" and not g.unit("11pz").oos
    assert g.unit("14pz").hex == "A6" and not g.unit("14pz").oos


# -- 12.7 the turn-2 Soviet 3-hex limit


def test_12_7_line_of_3_hexes_is_enough_on_turn_2(scenario):
    """12.7 Soviet supply and reinforcement phase of turn 2: a Soviet supply line may be at most
    3 hexes long."""
    g = soviet_supply(scenario, {"47rc": "D4"}, turn=2)
    assert oos(g) == set()
    state = empty_state(scenario, {"47rc": "D4"}, turn=2, phase="soviet-supply")
    assert explain(scenario, state, "47rc").reason.endswith("(3 hexes)")


def test_12_7_length_is_the_traced_path_not_the_straight_distance(scenario):
    """12.7 Decision: the length is the number of steps along the traced chain from the unit's
    hex to the supply hex. A unit whose only valid chains are longer than 3 receives an OOS marker."""
    units = {"47rc": "E4", "wiking": "E5"}  # E6 is 2 hexes away but in German ZOC
    assert scenario.grid.distance("E4", "E6") == 2
    assert scenario.grid.distance("E4", "D7") == 3
    g = soviet_supply(scenario, units, turn=2)
    assert oos(g) == {"47rc"}
    state = empty_state(scenario, units, turn=2, phase="soviet-supply")
    reason = explain(scenario, state, "47rc").reason
    assert reason.startswith("shortest line E4-")
    assert reason.endswith("is 4 hexes, over the turn-2 limit of 3 (12.7)")


def test_12_7_limit_only_in_the_soviet_phase_of_turn_2(scenario):
    """12.7 Soviet supply and reinforcement phase of turn 2 (no limit on turn 3, none for the
    German side)."""
    units = {"47rc": "E4", "wiking": "E5"}
    assert oos(soviet_supply(scenario, units, turn=3)) == set()
    g = german_supply(scenario, {"198id": "E7"}, turn=2)  # 4 hexes from the nearest German hex
    assert line_lengths(scenario, g.state, "german")["E7"] == 4
    assert oos(g) == set()


# -- the `supply` explanation


def test_6_2_supply_explanation_for_a_traced_line(scenario):
    """6.2 A supply line is a chain of adjacent hexes (the `supply` command shows it)."""
    state = empty_state(
        scenario, {"47rc": "A7", "29tk": "B7", "48rc": "C7", "34id": "A5", "389id": "C6"}, turn=3
    )
    report = explain(scenario, state, "47rc")
    assert report.traced
    assert report.reason == "line A7-B7-C7 (2 hexes)"


def test_6_2_supply_answer_lists_each_unit_with_its_marker(scenario):
    """6.2 / 6.9 The `supply` query says, per unit, whether it traces and why not."""
    state = empty_state(scenario, {"47rc": "A1", "198id": "B2", "5gtk": "F1"}, turn=3, oos=["47rc"])
    g = Game(scenario, state)
    text = g.system.answer(g.state, "soviet", O.Supply()).text
    lines = text.splitlines()
    assert (
        "47rc (A1, OOS marker): no supply line (6.2): cut by enemy ZOC in A2, B1; "
        "enemy units in B2" in lines
    )
    assert "5gtk (F1, no OOS marker): in supply, line F1 (0 hexes)" in lines
    assert not any(line.startswith("198id") for line in lines)
