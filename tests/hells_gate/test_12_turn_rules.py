"""Section 12: the special rules by turn (12.1-12.22), on hand-built states.

Phases that run by themselves (supply, recovery, joint) are reached by ending the player phase
before them; the joint phase needs a weather die (6 = Snow stays).
"""

from __future__ import annotations

import pytest

from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.losses import retreat_hexes
from tests.hells_gate.helpers import END, A, Game, L, M, empty_state


def game(scenario, units, *, entered=(), **kw) -> Game:
    """A hand-built game; `entered` lists units that entered as reinforcements this turn."""
    state = empty_state(scenario, units, **kw)
    for uid in entered:
        state.units[uid].entered_turn = state.turn
    return Game(scenario, state)


def retreat_answers(g: Game, side: str) -> set[str]:
    return {
        o.retreat for o in g.legal(side) if isinstance(o, O.Losses) and isinstance(o.retreat, str)
    }


def movers(g: Game, side: str) -> set[str]:
    return {o.unit for o in g.legal(side) if isinstance(o, O.Move)}


def shift(doc: dict, code: str) -> int | None:
    found = [s["columns"] for s in doc["shifts"] if s["code"] == code]
    return found[0] if found else None


# -- 12.2 turn-1 Soviet movement

TURN1_SOVIET = {
    "5gtk": "B1",
    "47rc": "B1",
    "20tk": "C7",
    "29tk": "C7",
    "48rc": "C7",
    "34id": "A1",
    "106id": "B7",
}


def test_12_2_only_the_three_soviet_armor_units_may_move_on_turn_1(scenario):
    """12.2: "only the three Soviet armor units may move ... No other Soviet unit may move.\""""
    g = game(scenario, TURN1_SOVIET, turn=1, phase="soviet-movement")
    for uid, dest in (("47rc", "C1"), ("48rc", "C6")):
        rejection = g.refuse("soviet", M(uid, (dest,)))
        assert rejection.rule == "12.2" and "20tk" in rejection.message
    assert movers(g, "soviet") == {"5gtk", "20tk", "29tk"}
    g.do("soviet", M("20tk", ("C6", "C5")))
    assert g.unit("20tk").hex == "C5"


def test_12_2_each_armor_unit_must_end_in_a_hex_other_than_its_start(scenario):
    """12.2: "each of them must move and must end its move in a hex different from its starting
    hex.\""""
    g = game(scenario, TURN1_SOVIET, turn=1, phase="soviet-movement")
    rejection = g.refuse("soviet", M("20tk", ("C6", "C7")))
    assert rejection.rule == "12.2" and "C7" in rejection.message
    assert M("20tk", ("C6", "C7")) not in g.legal("soviet")
    g.do("soviet", M("20tk", ("C6",)))
    assert g.unit("20tk").hex == "C6"


def test_12_2_end_is_refused_until_the_three_armor_units_have_moved(scenario):
    """12.2: "each of them must move" - the phase does not end before they have."""
    g = Game(scenario)  # the real setup: W8
    g.do("soviet", END)
    assert (g.state.turn, g.state.phase) == (1, "soviet-movement")
    rejection = g.refuse("soviet", END)
    assert rejection.rule == "12.2"
    assert all(uid in rejection.message for uid in ("5gtk", "20tk", "29tk"))
    assert END not in g.legal("soviet")
    g.do("soviet", M("20tk", ("D7", "E7")))  # C6 and B7 still hold German units
    g.do("soviet", M("29tk", ("D7",)))
    rejection = g.refuse("soviet", END)
    assert rejection.rule == "12.2" and "5gtk" in rejection.message
    assert "20tk" not in rejection.message and "29tk" not in rejection.message
    g.do("soviet", M("5gtk", ("C1",)))
    assert END in g.legal("soviet")
    g.do("soviet", END)
    assert g.state.phase == "german-combat"


def test_12_2_unit_with_a_retreat_marker_is_excused(scenario):
    """12.2: "A unit with a Retreat marker or with no legal move is excused" (Retreat marker)."""
    g = game(scenario, TURN1_SOVIET, turn=1, phase="soviet-movement", retreated=["5gtk"])
    g.do("soviet", M("20tk", ("C6",)))
    g.do("soviet", M("29tk", ("C6",)))
    g.do("soviet", END)
    assert g.state.phase == "german-combat" and g.unit("5gtk").hex == "B1"


def test_12_2_unit_with_no_legal_move_is_excused(scenario):
    """12.2: "A unit with a Retreat marker or with no legal move is excused" (no legal move)."""
    units = dict(TURN1_SOVIET, **{"198id": "B2", "88id": "C1"})
    del units["47rc"]  # B1: A1, B2 and C1 hold German units, so 5gtk cannot move at all
    g = game(scenario, units, turn=1, phase="soviet-movement")
    assert "5gtk" not in movers(g, "soviet")
    rejection = g.refuse("soviet", END)
    assert rejection.rule == "12.2" and "5gtk" not in rejection.message
    g.do("soviet", M("20tk", ("C6",)))
    g.do("soviet", M("29tk", ("C6",)))
    g.do("soviet", END)
    assert g.state.phase == "german-combat"


def test_12_2_an_empty_move_on_turn_1_is_refused_cleanly(scenario):
    """12.2 with 9.2: "A move is a chain of steps" - a move naming no hex is refused, not a crash."""
    g = game(scenario, TURN1_SOVIET, turn=1, phase="soviet-movement")
    rejection = g.refuse("soviet", M("20tk", ()))
    assert rejection.rule in ("9.2", "12.2")


def test_12_2_limits_end_with_turn_1(scenario):
    """12.2 is a turn-1 rule: on turn 2 any Soviet unit may move and none has to."""
    g = game(scenario, TURN1_SOVIET, turn=2, phase="soviet-movement")
    g.do("soviet", M("47rc", ("C1",)))
    g.do("soviet", END)
    assert g.state.phase == "german-combat" and g.unit("20tk").hex == "C7"


# -- 12.3 German retreats on turn 1

# 21grc (4) in C4 against 106id (2) in B5: 2:1, die 5 = 1 hit. From B5: A4 is a German supply
# hex outside Soviet ZOC, B6 holds 34id, A5 is empty (legal under 8.32 alone), B4/C5 are in ZOC.
RETREAT_T1 = {"21grc": "C4", "48rc": "C6", "106id": "B5", "34id": "B6"}


def test_12_3_german_retreat_on_turn_1_only_to_german_units_or_free_supply_hexes(scenario):
    """12.3: "a German unit may retreat only into a hex that (a) contains a German unit, or (b) is
    a German supply hex not in Soviet ZOC".\""""
    g = game(scenario, RETREAT_T1, turn=1, phase="soviet-combat")
    g.do("soviet", A("B5", ("21grc",)), dice=[5])
    assert retreat_answers(g, "german") == {"A4", "B6"}
    rejection = g.refuse("german", L((), "A5"))
    assert rejection.rule == "12.3" and "A5" in rejection.message
    later = g.state.clone()
    later.turn = 3  # the same retreat on a later turn: A5 is open
    assert set(retreat_hexes(scenario, later, "B5", "german")) == {"A4", "A5", "B6"}
    g.do("german", L((), "B6"))
    assert (g.unit("106id").hex, g.unit("106id").retreated) == ("B6", True)


def test_12_3_c_no_retreat_into_a_hex_attacked_earlier_this_phase(scenario):
    """12.3: "and in both cases (c) has not been attacked earlier in this combat phase.\""""
    g = game(scenario, RETREAT_T1, turn=1, phase="soviet-combat")
    g.do("soviet", A("B6", ("48rc",)), dice=[1])  # 3:2, die 1: no hit, but B6 was attacked
    g.do("soviet", A("B5", ("21grc",)), dice=[5])
    assert retreat_answers(g, "german") == {"A4"}
    rejection = g.refuse("german", L((), "B6"))
    assert rejection.rule == "12.3" and "B6" in rejection.message
    g.do("german", L((), "A4"))
    assert g.unit("106id").hex == "A4"


def test_12_3_soviet_retreats_on_turn_1_are_not_limited(scenario):
    """12.3: "a German unit may retreat only ..." - Soviet retreats follow 8.32 alone (W10b)."""
    # 11pz + 14pz [3+2] x3 = 15 against 29tk (2) in B6, across the river: 6:1 -> 4:1, die 2 = 1 hit.
    g = game(
        scenario,
        {"11pz": "A6", "14pz": "A6", "29tk": "B6"},
        entered=["11pz", "14pz"],
        turn=1,
        phase="german-combat",
    )
    g.do("german", A("B6", ("11pz", "14pz"), True, "14pz"), dice=[2])
    assert "B5" in retreat_answers(g, "soviet")
    g.do("soviet", L((), "B5"))  # empty, not a supply hex
    assert (g.unit("29tk").hex, g.unit("29tk").retreated) == ("B5", True)


# -- 12.4 German turn-1 attacks

# Soviet targets: 29tk (2) in B6 (next to A5, A6, B7), 47rc (3) in C6 (next to B7), 337rd (1) in
# B5 (next to A5). 24pz is given entered_turn 1 by hand to make a third entered armor unit.
T1_GERMAN = {
    "11pz": "A6",
    "14pz": "A6",
    "24pz": "A5",
    "3pz": "B7",
    "5ss": "B7",
    "106id": "B7",
    "wiking": "B7",
    "29tk": "B6",
    "47rc": "C6",
    "337rd": "B5",
}
T1_ENTERED = ("11pz", "14pz", "24pz")


@pytest.mark.parametrize(
    "attackers, kind",
    [(("106id",), "infantry"), (("wiking",), "mech"), (("3pz", "106id"), "infantry")],
)
def test_12_4_only_german_armor_attacks_on_turn_1(scenario, attackers, kind):
    """12.4: "German combat phase: only German armor units may attack" (2.12: mech is not armor)."""
    g = game(scenario, T1_GERMAN, entered=T1_ENTERED, turn=1, phase="german-combat")
    rejection = g.refuse("german", A("C6", attackers))
    assert rejection.rule == "12.4" and kind in rejection.message
    later = game(scenario, T1_GERMAN, turn=2, phase="german-combat")
    later.do("german", A("C6", attackers), dice=[1])
    assert later.last.combat["attackers"] == list(attackers)


def test_12_4_two_armor_units_from_each_group_may_attack(scenario):
    """12.4: "at most 2 that started the game on the map and at most 2 that entered as
    reinforcements this turn.\""""
    g = game(scenario, T1_GERMAN, entered=T1_ENTERED, turn=1, phase="german-combat")
    g.do("german", A("C6", ("3pz", "5ss")), dice=[1])  # [2+1] x3 = 9 against 3: 3:1, no hit
    g.do("german", A("B6", ("11pz", "14pz")), dice=[1])  # 15 against 2: 4:1 after S5, no hit
    assert {u.id for u in g.state.on_map("german") if u.attacked} == {"3pz", "5ss", "11pz", "14pz"}


def test_12_4_entered_limit_is_counted_over_the_whole_phase(scenario):
    """12.4: "at most 2 that entered as reinforcements this turn" - across separate attacks."""
    g = game(scenario, T1_GERMAN, entered=T1_ENTERED, turn=1, phase="german-combat")
    g.do("german", A("B6", ("11pz", "14pz")), dice=[1])
    rejection = g.refuse("german", A("B5", ("24pz",)))
    assert rejection.rule == "12.4"
    assert "11pz" in rejection.message and "14pz" in rejection.message


def test_12_4_three_entered_armor_units_in_one_attack_are_refused(scenario):
    """12.4: "at most 2 that entered as reinforcements this turn" - also within one attack."""
    g = game(scenario, T1_GERMAN, entered=T1_ENTERED, turn=1, phase="german-combat")
    rejection = g.refuse("german", A("B6", ("11pz", "14pz", "24pz")))
    assert rejection.rule == "12.4" and "2" in rejection.message
    g.do("german", A("B6", ("14pz", "24pz")), dice=[1])
    assert g.last.combat["attackers"] == ["14pz", "24pz"]


# -- 12.5, 12.9, 8.13(a): OOS shifts capped at 1 on turns 1 and 2


def test_12_5_turn_1_german_oos_attack_shift_is_at_most_1(scenario):
    """12.5: "a German attack receives at most 1 column left for OOS attackers" (W10a)."""
    units = {"5ss": "D6", "20tk": "C5"}
    g = game(scenario, units, turn=1, phase="german-combat", oos=["5ss"], reduced=["20tk"])
    g.do("german", A("C5", ("5ss",)), dice=[1])
    c = g.last.combat
    assert (c["raw_column"], shift(c, "S4"), shift(c, "S7"), c["final_column"]) == (
        "2:1",
        -1,
        -1,
        "1:1",
    )
    later = game(scenario, units, turn=3, phase="german-combat", oos=["5ss"], reduced=["20tk"])
    doc = later.preview("german", A("C5", ("5ss",)))
    assert (shift(doc, "S7"), doc["final_column"]) == (-2, "1:2")


@pytest.mark.parametrize("turn, s1, final", [(1, 1, "2:1"), (2, 1, "2:1"), (3, 2, "3:1")])
def test_12_9_s1_is_at_most_1_column_on_turns_1_and_2(scenario, turn, s1, final):
    """12.9: "every OOS shift is at most 1 column, whether the OOS units attack or defend".\""""
    g = game(scenario, {"47rc": "C4", "34id": "B4"}, turn=turn, phase="soviet-combat", oos=["34id"])
    doc = g.preview("soviet", A("B4", ("47rc",)))
    assert (doc["raw_column"], shift(doc, "S1"), doc["final_column"]) == ("3:2", s1, final)


@pytest.mark.parametrize("turn, s7, final", [(2, -1, "1:1"), (3, -2, "1:2")])
def test_12_9_soviet_s7_is_at_most_1_column_on_turn_2(scenario, turn, s7, final):
    """12.9: "Soviet and German combat phases: every OOS shift is at most 1 column".\""""
    g = game(scenario, {"47rc": "C4", "34id": "B4"}, turn=turn, phase="soviet-combat", oos=["47rc"])
    doc = g.preview("soviet", A("B4", ("47rc",)))
    assert (doc["raw_column"], shift(doc, "S7"), doc["final_column"]) == ("3:2", s7, final)


@pytest.mark.parametrize("turn, s7, final", [(2, -1, "3:2"), (3, -2, "1:1")])
def test_12_9_german_s7_is_at_most_1_column_on_turn_2(scenario, turn, s7, final):
    """12.9: "Soviet and German combat phases: every OOS shift is at most 1 column".\""""
    g = game(scenario, {"3pz": "B4", "48rc": "C4"}, turn=turn, phase="german-combat", oos=["3pz"])
    g.do("german", A("C4", ("3pz",)), dice=[1])
    c = g.last.combat
    assert (c["raw_column"], shift(c, "S7"), c["final_column"]) == ("2:1", s7, final)


# -- 12.6 turn-1 German movement


def test_12_6_exactly_one_german_armor_unit_moves_on_turn_1(scenario):
    """12.6: "exactly one German unit may move, and it must be an armor unit.\""""
    units = {"11pz": "A6", "14pz": "A6", "3pz": "B7", "106id": "B7", "wiking": "D6", "29tk": "B5"}
    g = game(scenario, units, entered=["11pz", "14pz"], turn=1, phase="german-movement")
    for uid, dest, kind in (("106id", "A7", "infantry"), ("wiking", "D5", "mech")):
        rejection = g.refuse("german", M(uid, (dest,)))
        assert rejection.rule == "12.6" and kind in rejection.message
    assert movers(g, "german") == {"11pz", "14pz", "3pz"}
    g.do("german", M("11pz", ("B7", "C6")))  # W11
    for uid, dest in (("14pz", "A5"), ("3pz", "C6")):
        rejection = g.refuse("german", M(uid, (dest,)))
        assert rejection.rule == "12.6" and "11pz" in rejection.message
    assert movers(g, "german") == set()
    g.do("german", END, dice=[6])
    assert (g.state.turn, g.unit("11pz").hex, g.unit("14pz").hex) == (2, "C6", "A6")


def test_12_6_german_movement_is_free_again_on_turn_2(scenario):
    """12.6 is a turn-1 rule: on turn 2 several German units, of any type, may move."""
    units = {"11pz": "A6", "14pz": "A6", "106id": "B7", "29tk": "C5"}
    g = game(scenario, units, turn=2, phase="german-movement")
    g.do("german", M("11pz", ("A5",)))
    g.do("german", M("14pz", ("B6",)))
    g.do("german", M("106id", ("A7",)))
    assert [g.unit(u).hex for u in ("11pz", "14pz", "106id")] == ["A5", "B6", "A7"]


# -- 12.7 turn-2 Soviet supply limit


def to_turn_2_soviet_combat(scenario, units, **kw) -> Game:
    """End the German movement of turn 1; the turn-2 Soviet supply phase runs."""
    g = game(scenario, units, turn=1, phase="german-movement", **kw)
    g.do("german", END, dice=[6])
    assert (g.state.turn, g.state.phase) == (2, "soviet-combat")
    return g


def test_12_7_turn_2_soviet_supply_line_at_most_3_hexes(scenario):
    """12.7: "in the Soviet supply and reinforcement phase of turn 2 a Soviet supply line may be
    at most 3 hexes long.\""""
    # No German unit anywhere: B4 is 3 hexes from B1/C1, A4 is 4 from every Soviet supply hex.
    g = to_turn_2_soviet_combat(scenario, {"47rc": "B4", "48rc": "A4"})
    assert not g.unit("47rc").oos
    assert g.unit("48rc").oos
    assert [e.data["unit"] for e in g.events if e.kind == "OutOfSupply"] == ["48rc"]


def test_12_7_no_length_limit_after_turn_2(scenario):
    """12.7 and 6.8: "A supply line has no length limit, except in the Soviet supply phase of
    turn 2" - on turn 3 a 4-hex line supplies and removes the marker (6.10)."""
    g = game(scenario, {"48rc": "A4"}, turn=2, phase="german-movement", oos=["48rc"])
    g.do("german", END, dice=[6])
    assert (g.state.turn, g.unit("48rc").oos) == (3, False)


def test_12_7_length_is_counted_along_the_traced_chain(scenario):
    """12.7: "the length is the number of steps along the traced chain" - not straight distance."""
    # 198id in B2 puts B1 and C1 (empty) in German ZOC: from B4 the shortest line is 4 (to C7).
    assert scenario.grid.distance("B4", "B1") == 3
    g = to_turn_2_soviet_combat(scenario, {"47rc": "B4", "198id": "B2"})
    assert g.unit("47rc").oos


def test_12_7_the_limit_is_soviet_only(scenario):
    """12.7: "a Soviet supply line may be at most 3 hexes long" - German lines are unlimited."""
    g = to_turn_2_soviet_combat(scenario, {"57id": "F5", "47rc": "B1"})
    g.do("soviet", END)
    g.do("soviet", END)  # Soviet recovery, German supply of turn 2
    assert g.state.phase == "german-combat"
    assert scenario.grid.distance("F5", "A4") > 3 and not g.unit("57id").oos


# -- 12.8 Tychinovka on turn 2


@pytest.mark.parametrize(
    "unit, start, path", [("34id", "A2", ("B3",)), ("11pz", "A2", ("B3", "C3"))]
)
def test_12_8_no_german_unit_enters_or_passes_through_tychinovka_on_turn_2(
    scenario, unit, start, path
):
    """12.8: "During the whole of turn 2 (both player turns), German units may not enter or
    retreat into Tychinovka (B3).\""""
    units = {unit: start, "47rc": "F1"}
    g = game(scenario, units, turn=2, phase="german-movement")
    rejection = g.refuse("german", M(unit, path))
    assert rejection.rule == "12.8" and "B3" in rejection.message
    later = game(scenario, units, turn=3, phase="german-movement")
    later.do("german", M(unit, path))
    assert later.unit(unit).hex == path[-1]


def test_12_8_german_unit_already_in_tychinovka_may_stay_or_leave(scenario):
    """12.8: "German units already in B3 may stay" - entering is what is forbidden."""
    g = game(scenario, {"88id": "B3", "34id": "B3", "47rc": "F1"}, turn=2, phase="german-movement")
    g.do("german", M("88id", ("A3",)))
    g.do("german", END, dice=[6])
    assert (g.unit("88id").hex, g.unit("34id").hex) == ("A3", "B3")


def test_12_8_soviet_units_may_enter_tychinovka_on_turn_2(scenario):
    """12.8: "German units may not enter" - the limit is German only."""
    g = game(scenario, {"47rc": "B2"}, turn=2, phase="soviet-movement")
    g.do("soviet", M("47rc", ("B3",)))
    assert g.unit("47rc").hex == "B3"


def test_12_8_no_german_retreat_into_tychinovka_on_turn_2(scenario):
    """12.8: "German units may not enter or retreat into Tychinovka (B3).\""""
    # 21grc (4) in B4 against 34id (2) in A3 across the river: 2:1 - 1 = 3:2, die 5 = 1 hit.
    # B3 holds kg168, so it is open under 8.32; A2 is a free German supply hex.
    units = {"21grc": "B4", "34id": "A3", "kg168": "B3"}
    g = game(scenario, units, turn=2, phase="soviet-combat")
    g.do("soviet", A("A3", ("21grc",)), dice=[5])
    assert retreat_answers(g, "german") == {"A2"}
    rejection = g.refuse("german", L((), "B3"))
    assert rejection.rule == "12.8" and "B3" in rejection.message
    later = game(scenario, units, turn=3, phase="soviet-combat")
    later.do("soviet", A("A3", ("21grc",)), dice=[5])
    assert retreat_answers(later, "german") == {"A2", "B3"}


# -- 12.12 Korsun airfield cap


@pytest.mark.parametrize(
    "units, target, attacker, s1",
    [
        ({"57id": "E2", "72id": "E3"}, "E2", "E1", 1),  # defends in E2, E3 held
        ({"57id": "E2"}, "E2", "E1", 2),  # E3 not held
        ({"57id": "E3"}, "E3", "F4", 1),  # defends in E3 itself
        ({"57id": "D3", "72id": "E3"}, "D3", "C3", 1),  # Shenderovka
        ({"57id": "D2", "72id": "E3"}, "D2", "E1", 2),  # D2 is not one of the three hexes
    ],
)
def test_12_12_a_oos_german_defenders_at_the_airfield_hexes_give_1_column(
    scenario, units, target, attacker, s1
):
    """12.12: "German units with OOS markers that defend in ... Korsun airfield (E3), Yanovka (E2)
    or Shenderovka (D3) receive at most 1 column of OOS shift ... as long as a German unit
    occupies E3.\""""
    g = game(scenario, {**units, "21grc": attacker}, turn=3, phase="soviet-combat", oos=["57id"])
    doc = g.preview("soviet", A(target, ("21grc",)))
    assert shift(doc, "S1") == s1


@pytest.mark.parametrize(
    "units, attackers, s7",
    [
        ({"57id": "E2", "72id": "D3", "88id": "E3"}, ("57id", "72id"), -1),  # combined, E3 held
        ({"57id": "E2", "72id": "D3"}, ("57id", "72id"), -2),  # E3 not held
        ({"57id": "E2", "kg168": "C2", "88id": "E3"}, ("57id", "kg168"), -2),  # C2 is outside
    ],
)
def test_12_12_b_oos_german_attackers_from_the_airfield_hexes_give_1_column(
    scenario, units, attackers, s7
):
    """12.12: "... or attack from ... E3, E2 or D3 receive at most 1 column of OOS shift, even in a
    combined attack from several of these hexes, as long as a German unit occupies E3.\""""
    g = game(scenario, {**units, "47rc": "D2"}, turn=3, phase="german-combat", oos=list(attackers))
    doc = g.preview("german", A("D2", attackers))
    assert shift(doc, "S7") == s7


def test_12_12_the_cap_holds_to_the_end_of_the_game(scenario):
    """12.12: "From the start of turn 3 to the end of the game".\""""
    g = game(
        scenario,
        {"57id": "E2", "72id": "E3", "21grc": "E1"},
        turn=8,
        phase="soviet-combat",
        oos=["57id"],
    )
    doc = g.preview("soviet", A("E2", ("21grc",)))
    assert shift(doc, "S1") == 1


# -- 12.14 Korsun airfield freeze

FREEZE = {"57id": "E3", "72id": "F4", "88id": "D2", "47rc": "B1"}


@pytest.mark.parametrize("turn", [2, 3])
def test_12_14_german_units_in_and_next_to_e3_may_not_move_on_turns_2_and_3(scenario, turn):
    """12.14: "in the German movement phases of turns 2 and 3, no German unit in E3 or in a hex
    adjacent to E3 may move, until a Soviet unit enters a hex adjacent to E3.\""""
    g = game(scenario, FREEZE, turn=turn, phase="german-movement")
    for uid, dest in (("57id", "E4"), ("72id", "F5")):
        rejection = g.refuse("german", M(uid, (dest,)))
        assert rejection.rule == "12.14" and "E3" in rejection.message
    assert movers(g, "german") == {"88id"}
    g.do("german", M("88id", ("D1",)))
    assert g.unit("88id").hex == "D1"


@pytest.mark.parametrize("turn", [1, 4, 8])
def test_12_14_no_freeze_on_turn_1_or_from_turn_4(scenario, turn):
    """12.14: "It does not apply in turns 1 and 4 to 8.\""""
    g = game(scenario, {"3pz": "E3", "47rc": "B1"}, turn=turn, phase="german-movement")
    g.do("german", M("3pz", ("E4",)))
    assert g.unit("3pz").hex == "E4"


@pytest.mark.parametrize(
    "unit, start, path, lifted",
    [
        ("47rc", "D2", ("D3",), True),  # enters D3, next to E3
        ("29tk", "E1", ("E2", "D2"), True),  # passes through E2, ends away from E3
        ("29tk", "C1", ("D1", "E1"), False),  # never next to E3
    ],
)
def test_12_14_freeze_ends_when_a_soviet_unit_enters_a_hex_next_to_e3(
    scenario, unit, start, path, lifted
):
    """12.14: "the freeze ends for the rest of the game as soon as any Soviet unit enters E3 or any
    hex adjacent to E3, by movement (including passing through)".\""""
    g = game(scenario, {"57id": "E3", unit: start}, turn=2, phase="soviet-movement")
    g.do("soviet", M(unit, path))
    g.do("soviet", END)
    g.do("german", END)
    assert (g.state.turn, g.state.phase) == (2, "german-movement")
    if lifted:
        g.do("german", M("57id", ("F4",)))
        assert g.unit("57id").hex == "F4"
    else:
        assert g.refuse("german", M("57id", ("F4",))).rule == "12.14"


@pytest.mark.parametrize("answer, lifted", [(L((), "F3"), True), (L(("48rc",)), False)])
def test_12_14_freeze_ends_when_a_soviet_unit_retreats_next_to_e3(scenario, answer, lifted):
    """12.14: "as soon as any Soviet unit enters E3 or any hex adjacent to E3, by movement
    (including passing through), retreat or reinforcement entry"."""
    # 3pz [2] x3 in E1 against 48rc (3) in F2: 2:1, die 5 = 1 hit. 48rc retreats to F3 (next to
    # E3) or takes the hit. 57id in D4 is next to E3, so it is frozen until then.
    g = game(scenario, {"57id": "D4", "3pz": "E1", "48rc": "F2"}, turn=2, phase="german-combat")
    g.do("german", A("F2", ("3pz",)), dice=[5])
    g.do("soviet", answer)
    g.do("german", END)
    if lifted:
        g.do("german", M("57id", ("D5",)))
        assert g.unit("57id").hex == "D5"
    else:
        assert g.refuse("german", M("57id", ("D5",))).rule == "12.14"


def test_12_14_freeze_does_not_prevent_retreats(scenario):
    """12.14: "The freeze does not prevent retreats.\""""
    # 21grc (4) in F4 against 57id (2) in E3: 2:1, die 5 = 1 hit; the German player retreats.
    g = game(scenario, {"57id": "E3", "21grc": "F4"}, turn=2, phase="soviet-combat")
    g.do("soviet", A("E3", ("21grc",)), dice=[5])
    assert "D3" in retreat_answers(g, "german")
    g.do("german", L((), "D3"))
    assert (g.unit("57id").hex, g.unit("57id").retreated) == ("D3", True)


# -- 12.16 turn-5 and turn-7 rebuild

# Reduced corps: 47rc (B1), 5gcc (cavalry, C7), 20grc (D7, Retreat marker) are candidates;
# 21grc (A7, cut off by 34id in A6 and 106id in B7) gets an OOS marker in the supply phase;
# 75rc is reduced but eliminated; 48rc is full strength; 34id is German.
REBUILD = {
    "47rc": "B1",
    "5gcc": "C7",
    "20grc": "D7",
    "21grc": "A7",
    "48rc": "C1",
    "34id": "A6",
    "106id": "B7",
}
REBUILD_REDUCED = ["47rc", "5gcc", "20grc", "21grc", "75rc", "34id"]


def to_soviet_supply(scenario, turn, units=REBUILD, reduced=REBUILD_REDUCED) -> Game:
    """End the German movement of turn - 1: the Soviet supply phase of `turn` runs."""
    g = game(
        scenario,
        units,
        turn=turn - 1,
        phase="german-movement",
        reduced=reduced,
        retreated=["20grc"] if "20grc" in units else [],
    )
    g.state.units["75rc"].box = "eliminated"
    g.do("german", END, dice=[6])
    assert g.state.turn == turn
    return g


@pytest.mark.parametrize("turn", [5, 7])
def test_12_16_rebuild_decision_at_the_end_of_the_soviet_supply_phase(scenario, turn):
    """12.16: "At the end of the Soviet supply and reinforcement phase of turn 5 and of turn 7 ...
    the Soviet player may flip one reduced Soviet corps (XXX) that has no OOS marker".\""""
    g = to_soviet_supply(scenario, turn)
    assert g.state.phase == "soviet-supply"
    assert g.unit("21grc").oos  # the supply check came first
    [d] = g.state.pending
    assert (d.kind, d.side) == ("rebuild", "soviet")
    assert sorted(d.data["options"]) == ["20grc", "47rc", "5gcc"]
    assert sorted(o.unit for o in g.legal("soviet") if isinstance(o, O.Rebuild)) == [
        "20grc",
        "47rc",
        "5gcc",
    ]
    g.do("soviet", O.Rebuild("5gcc"))
    assert not g.unit("5gcc").reduced and g.unit("47rc").reduced
    assert (g.state.phase, g.state.pending) == ("soviet-combat", [])
    rejection = g.refuse("soviet", O.Rebuild("47rc"))  # one corps only
    assert rejection.rule == "12.16"


@pytest.mark.parametrize("unit", ["21grc", "75rc", "48rc", "34id", "180rd"])
def test_12_16_only_a_reduced_soviet_corps_on_the_map_without_oos_may_be_rebuilt(scenario, unit):
    """12.16: "flip one reduced Soviet corps (XXX) that has no OOS marker ... must be on the map.\""""
    g = to_soviet_supply(scenario, 5)
    rejection = g.refuse("soviet", O.Rebuild(unit))
    assert rejection.rule == "12.16" and unit in rejection.message


def test_12_16_end_skips_the_rebuild(scenario):
    """12.16: "the Soviet player may flip" - optional; `end` declines."""
    g = to_soviet_supply(scenario, 5)
    g.do("soviet", END)
    assert (g.state.phase, g.state.pending) == ("soviet-combat", [])
    assert all(g.unit(u).reduced for u in ("47rc", "5gcc", "20grc", "21grc"))


def test_12_16_german_player_cannot_answer_the_rebuild(scenario):
    """12.16: "the Soviet player may flip one reduced Soviet corps".\""""
    g = to_soviet_supply(scenario, 5)
    rejection = g.refuse("german", END)
    assert "Soviet" in rejection.message


@pytest.mark.parametrize("turn", [2, 3, 4, 6, 8])
def test_12_16_no_rebuild_on_other_turns(scenario, turn):
    """12.16: "turn 5 and of turn 7 (marked in red on the turn track)".\""""
    g = to_soviet_supply(scenario, turn)
    assert (g.state.phase, g.state.pending) == ("soviet-combat", [])


def test_12_16_no_decision_without_a_candidate(scenario):
    """12.16: "flip one reduced Soviet corps ... that has no OOS marker" - none, no question."""
    g = to_soviet_supply(
        scenario,
        5,
        units={"48rc": "C1", "21grc": "A7", "34id": "A6", "106id": "B7"},
        reduced=["21grc"],
    )
    assert (g.state.phase, g.state.pending) == ("soviet-combat", [])


# -- 12.17-12.22 turn-8 breakout

# 47rc (OOS) in B4: refuges 48rc in C4 (distance 1) and 75rc in D5 (distance 2). 21grc in B5 is
# OOS with a Retreat marker (neither a candidate nor a refuge); 20grc (OOS) moves this phase;
# 78rc (OOS) in F3 has nothing within 2; 88id is a German unit far away.
BREAKOUT = {
    "47rc": "B4",
    "48rc": "C4",
    "75rc": "D5",
    "21grc": "B5",
    "20grc": "C3",
    "78rc": "F3",
    "88id": "A1",
}
BREAKOUT_OOS = ["47rc", "21grc", "20grc", "78rc"]


def breakout_game(scenario, units=BREAKOUT, turn=8) -> Game:
    g = game(
        scenario, units, turn=turn, phase="soviet-movement", oos=BREAKOUT_OOS, retreated=["21grc"]
    )
    if "20grc" in units:
        g.do("soviet", M("20grc", ("C2",)))
    return g


def test_12_17_breakout_decision_after_soviet_movement_on_turn_8(scenario):
    """12.17: "at the end of each player's movement phase in turn 8, each of the phasing player's
    units that (a) has an OOS marker, (b) did not move ... (c) has no Retreat marker may attempt
    a breakout, if at least one refuge hex exists for it.\""""
    g = breakout_game(scenario)
    g.do("soviet", END)
    [d] = g.state.pending
    assert (d.kind, d.side, d.data["options"]) == ("breakout", "soviet", ["47rc"])
    assert g.state.phase == "soviet-movement"
    assert set(g.legal("soviet")) == {O.Breakout("47rc"), END}


@pytest.mark.parametrize("unit", ["48rc", "20grc", "21grc", "78rc", "88id"])
def test_12_17_non_candidates_may_not_attempt(scenario, unit):
    """12.17: "(a) has an OOS marker, (b) did not move in this movement phase and (c) has no Retreat
    marker ... if at least one refuge hex exists for it.\""""
    g = breakout_game(scenario)
    g.do("soviet", END)
    rejection = g.refuse("soviet", O.Breakout(unit))
    assert rejection.rule == "12.17" and unit in rejection.message


def test_12_17_no_breakout_before_turn_8(scenario):
    """12.17: "at the end of each player's movement phase in turn 8".\""""
    g = breakout_game(scenario, turn=7)
    g.do("soviet", END)
    assert (g.state.phase, g.state.pending) == ("german-combat", [])
    assert g.unit("47rc").box == "map"


@pytest.mark.parametrize("die, box", [(2, "eliminated"), (3, "broken_out"), (6, "broken_out")])
def test_12_19_to_12_21_die_plus_refuge_hexes_five_or_more_breaks_out(scenario, die, box):
    """12.19-12.21: "Add 1 for each refuge hex"; "Modified result 5 or more: the unit breaks out";
    "Modified result 4 or less: the unit fails. Place it in the eliminated box.\""""
    g = breakout_game(scenario)
    g.do("soviet", END)
    out = g.do("soviet", O.Breakout("47rc"), dice=[die])  # 2 refuge hexes: C4 and D5
    assert [(r.purpose, r.value) for r in out.rolls] == [("breakout 47rc", die)]
    u = g.unit("47rc")
    assert (u.box, u.hex) == (box, None)
    assert g.state.pending == [] and g.state.phase == "german-combat"


def test_12_18_refuges_are_counted_in_hexes_not_units(scenario):
    """12.19: "Add 1 for each refuge hex (hexes, not units).\""""
    units = dict(BREAKOUT, **{"75rc": "C4"})  # both friends in C4: one refuge hex
    g = breakout_game(scenario, units)
    g.do("soviet", END)
    g.do("soviet", O.Breakout("47rc"), dice=[3])  # 3 + 1 = 4
    assert g.unit("47rc").box == "eliminated"
    g = breakout_game(scenario, units)
    g.do("soviet", END)
    g.do("soviet", O.Breakout("47rc"), dice=[4])  # 4 + 1 = 5
    assert g.unit("47rc").box == "broken_out"


def test_12_18_refuge_at_distance_2_counts_and_oos_friends_do_not(scenario):
    """12.18: "A refuge hex is a hex at distance 1 or 2 from the unit that contains at least one
    friendly unit without an OOS marker".\""""
    units = {k: v for k, v in BREAKOUT.items() if k != "48rc"}  # only 75rc in D5 (distance 2)
    g = breakout_game(scenario, units)
    g.do("soviet", END)
    assert g.state.pending[0].data["options"] == ["47rc"]  # B5 (21grc, OOS) is no refuge
    g.do("soviet", O.Breakout("47rc"), dice=[3])  # 3 + 1 = 4
    assert g.unit("47rc").box == "eliminated"


def test_12_18_friend_at_distance_3_is_no_refuge(scenario):
    """12.18: "a hex at distance 1 or 2 from the unit".\""""
    units = {"47rc": "B4", "75rc": "E5", "88id": "A1"}  # B4 to E5 is 3 hexes
    assert scenario.grid.distance("B4", "E5") == 3
    g = game(scenario, units, turn=8, phase="soviet-movement", oos=["47rc"])
    g.do("soviet", END)
    assert (g.state.phase, g.state.pending) == ("german-combat", [])


def test_12_22_breakouts_are_optional_end_declines(scenario):
    """12.22: "breakout attempts are optional".\""""
    g = breakout_game(scenario)
    g.do("soviet", END)
    out = g.do("soviet", END, dice=[])
    assert out.rolls == [] and g.state.phase == "german-combat"
    assert (g.unit("47rc").box, g.unit("47rc").hex) == ("map", "B4")


def test_12_22_one_unit_at_a_time_the_decision_stays_for_the_rest(scenario):
    """12.22: "made one unit at a time in an order the owner chooses".\""""
    # 47rc (B4) and 180rd (C5) are both OOS; each has the refuges C4 (48rc) and D5 (75rc).
    units = {"47rc": "B4", "180rd": "C5", "48rc": "C4", "75rc": "D5", "88id": "A1"}
    g = game(scenario, units, turn=8, phase="soviet-movement", oos=["47rc", "180rd"])
    g.do("soviet", END)
    assert g.state.pending[0].data["options"] == ["180rd", "47rc"]
    g.do("soviet", O.Breakout("47rc"), dice=[6])
    assert g.state.pending[0].data["options"] == ["180rd"]
    assert g.state.phase == "soviet-movement"
    g.do("soviet", O.Breakout("180rd"), dice=[1])  # 1 + 2 (C4, D5) = 3
    assert (g.unit("47rc").box, g.unit("180rd").box) == ("broken_out", "eliminated")
    assert g.state.pending == [] and g.state.phase == "german-combat"


def test_12_22_only_the_phasing_players_units_attempt(scenario):
    """12.22: "only the phasing player's units may attempt at the end of his movement phase.\""""
    # German 57id (OOS) in E3 with 72id in F4; Soviet 47rc (OOS) in B4 with 48rc in C4.
    units = {"57id": "E3", "72id": "F4", "47rc": "B4", "48rc": "C4"}
    g = game(scenario, units, turn=8, phase="german-movement", oos=["57id", "47rc"])
    g.do("german", END)
    [d] = g.state.pending
    assert (d.side, d.data["options"]) == ("german", ["57id"])
    rejection = g.refuse("soviet", O.Breakout("47rc"))  # the Soviet OOS unit is not asked
    assert "German" in rejection.message
    g.do("german", O.Breakout("57id"), dice=[4])  # 4 + 1 = 5
    assert g.unit("57id").box == "broken_out"
    assert g.state.result is not None  # German recovery of turn 8, then the game ends
