"""Section 8, strengths, odds and column shifts (8.6-8.16, with 8.13's caps from 12.5, 12.9, 12.12).

The numbers come from `views.preview` (`Game.preview`); a few tests also resolve the attack and check
`Outcome.combat`. CRT columns (scenario data): 1:2 1:1 3:2 2:1 3:1 4:1 6:1 8:1.
Map facts used: C4, B4, B5, B6, B7, D2 are clear; C5, D4 and C7 are woods; F6 is Cherkassy;
A5-B6, A6-B6 and E5-F6 are river hexsides, B5-B6 and E6-F6 are not.
"""

from __future__ import annotations

import pytest

from adjudicator.core.errors import Rejection
from tests.hells_gate.helpers import A, Game, L, empty_state


def game(scenario, units, turn=3, side="soviet", **kw):
    return Game(scenario, empty_state(scenario, units, turn=turn, phase=f"{side}-combat", **kw))


def preview(g, side, target, units):
    return g.preview(side, A(target, tuple(units)))


def codes(doc):
    return [(s["code"], s["columns"]) for s in doc["shifts"]]


# -- 8.6 attack strength ------------------------------------------------------------------------


def test_8_6_bracketed_units_are_tripled_against_a_clear_hex(scenario):
    """8.6: "A bracketed unit's strength is multiplied by 3 if the defending hex is clear"
    (W2: 29th Tank Corps 2 x 3 = 6, with the 48th Rifle Corps 3: attack strength 9)."""
    g = game(scenario, {"29tk": "C7", "48rc": "C7", "3pz": "B7", "106id": "B7"}, turn=1)
    assert preview(g, "soviet", "B7", ["29tk"])["attack_strength"] == 6
    assert preview(g, "soviet", "B7", ["48rc"])["attack_strength"] == 3  # not bracketed
    assert preview(g, "soviet", "B7", ["29tk", "48rc"])["attack_strength"] == 9


def test_8_6_bracketed_units_are_doubled_against_woods(scenario):
    """8.6: "... and by 2 if the defending hex is woods or Cherkassy (hex F6)"."""
    g = game(scenario, {"29tk": "B5", "48rc": "B5", "88id": "C5"})
    assert preview(g, "soviet", "C5", ["29tk"])["attack_strength"] == 4
    assert preview(g, "soviet", "C5", ["29tk", "48rc"])["attack_strength"] == 7


def test_8_6_bracketed_units_are_doubled_against_cherkassy(scenario):
    """8.6: "by 2 if the defending hex is woods or Cherkassy (hex F6)"."""
    g = game(scenario, {"29tk": "E6", "88id": "F6"})
    assert preview(g, "soviet", "F6", ["29tk"])["attack_strength"] == 4


def test_8_6_the_multiplier_uses_the_current_reduced_strength(scenario):
    """8.6: "the sum of the current strengths of the attacking units" - a reduced bracketed
    unit multiplies its reduced strength."""
    g = game(scenario, {"29tk": "B4", "48rc": "B4", "88id": "C4"}, reduced=["29tk", "48rc"])
    assert preview(g, "soviet", "C4", ["29tk", "48rc"])["attack_strength"] == 1 * 3 + 2


def test_8_6_the_multiplier_depends_on_brackets_not_on_type(scenario):
    """8.6 with 2.12: "The attack multiplier of rule 8.6 depends on `bracketed` alone, whatever
    the type" (5th Mechanized Corps is bracketed; Wiking, mech, is not)."""
    g = game(scenario, {"5mc": "B4", "88id": "C4"})
    assert preview(g, "soviet", "C4", ["5mc"])["attack_strength"] == 6
    g2 = game(scenario, {"wiking": "B4", "48rc": "C4"}, side="german")
    assert preview(g2, "german", "C4", ["wiking"])["attack_strength"] == 3


# -- 8.7 / 8.8 defense strength -----------------------------------------------------------------


def test_8_7_a_soviet_defender_counts_its_two_highest_strengths(scenario):
    """8.7: "Soviet defender: the sum of the 2 highest current strengths." """
    g = game(scenario, {"11pz": "B4", "21grc": "C4", "48rc": "C4", "75rc": "C4"}, side="german")
    assert preview(g, "german", "C4", ["11pz"])["defense_strength"] == 4 + 3


def test_8_7_a_german_defender_counts_its_three_highest_strengths(scenario):
    """8.7: "German defender: the sum of the 3 highest current strengths." """
    g = game(
        scenario,
        {"29tk": "B4", "20tk": "B4", "198id": "C4", "kab": "C4", "88id": "C4", "72id": "C4"},
    )
    assert preview(g, "soviet", "C4", ["29tk", "20tk"])["defense_strength"] == 3 + 3 + 2


def test_8_7_fewer_units_sum_all_and_defense_has_no_multiplier(scenario):
    """8.7: "If there are fewer units, sum all of them. No multipliers apply in defense." """
    g = game(scenario, {"48rc": "B4", "3pz": "C4", "88id": "C4"})
    assert preview(g, "soviet", "C4", ["48rc"])["defense_strength"] == 2 + 2  # 3pz is [2]
    g2 = game(scenario, {"48rc": "B4", "198id": "C4"}, reduced=["198id"])
    assert preview(g2, "soviet", "C4", ["48rc"])["defense_strength"] == 2  # current strength


def test_8_8_a_unit_with_a_retreat_marker_adds_nothing_to_defense(scenario):
    """8.8: "A unit with a Retreat marker adds 0 to defense strength." (8.7: strength "is computed
    from the units ... that have no Retreat marker": the 4th German unit then counts.)"""
    g = game(
        scenario,
        {"48rc": "B4", "198id": "C4", "88id": "C4", "72id": "C4", "57id": "C4"},
        retreated=["198id"],
    )
    assert preview(g, "soviet", "C4", ["48rc"])["defense_strength"] == 2 + 2 + 2
    g2 = game(
        scenario,
        {"11pz": "B4", "21grc": "C4", "48rc": "C4", "180rd": "C4"},
        side="german",
        retreated=["21grc"],
    )
    assert preview(g2, "german", "C4", ["11pz"])["defense_strength"] == 3 + 2


# -- 8.9 / 8.10 the raw column ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attackers", "defenders", "att", "dfn", "column"),
    [
        (("75rc", "48rc"), ("3pz", "106id"), 6, 4, "3:2"),  # W1: 6:4 = 1.5
        (("29tk", "48rc"), ("3pz", "106id"), 9, 4, "2:1"),  # W2: 9:4 = 2.25, 3:1 needs 12
        (("20grc", "373rd", "294rd"), ("3pz", "106id"), 7, 4, "3:2"),  # W4: 7:4 = 1.75
        (("29tk", "20tk"), ("3pz", "106id"), 12, 4, "3:1"),  # exactly 3:1
        (("48rc", "337rd"), ("3pz", "106id"), 4, 4, "1:1"),
        (("180rd", "337rd"), ("3pz", "106id"), 3, 4, "1:2"),  # 0.75 rounds down to 1:2
        (("180rd",), ("3pz", "106id"), 2, 4, "1:2"),  # exactly 1:2
    ],
)
def test_8_9_the_raw_column_is_the_odds_rounded_down(
    scenario, attackers, defenders, att, dfn, column
):
    """8.9: "The raw column is the highest CRT column a:b for which attack x b >= defense x a
    (the odds are rounded down to a listed column)." """
    hexes = ["C7", "C7", "D7"]
    units = {u: h for u, h in zip(attackers, hexes)}
    units.update({d: "C6" for d in defenders})
    g = game(scenario, units)
    doc = preview(g, "soviet", "C6", attackers)
    assert (doc["attack_strength"], doc["defense_strength"]) == (att, dfn)
    assert doc["raw_column"] == column
    assert doc["shifts"] == [] and doc["final_column"] == column


def test_8_9_no_column_between_6_1_and_8_1(scenario):
    """8.9 (W10b): odds of 15:2 = 7.5 round down to 6:1; 16:2 is 8:1."""
    g = game(scenario, {"11pz": "C5", "14pz": "C5", "29tk": "B6"}, side="german")
    doc = preview(g, "german", "B6", ["11pz", "14pz"])  # C5-B6 is no river hexside
    assert (doc["attack_strength"], doc["defense_strength"]) == (15, 2)
    assert doc["raw_column"] == "6:1"
    g2 = game(
        scenario, {"20tk": "C7", "75rc": "C7", "21grc": "D7", "20grc": "D7", "389id": "C6"}, turn=1
    )
    doc = preview(g2, "soviet", "C6", ["20tk", "75rc", "21grc", "20grc"])  # W3
    assert (doc["attack_strength"], doc["defense_strength"]) == (16, 2)
    assert doc["raw_column"] == "8:1" and doc["final_column"] == "8:1"


def test_8_9_odds_above_the_highest_column_give_the_highest_column(scenario):
    """8.9: "If the odds exceed the highest column (8:1), the raw column is the highest column"
    (000: 12 against 1 gives 8:1)."""
    g = game(scenario, {"29tk": "B4", "20tk": "B4", "kg168": "C4"})
    doc = preview(g, "soviet", "C4", ["29tk", "20tk"])
    assert (doc["attack_strength"], doc["defense_strength"]) == (12, 1)
    assert doc["raw_column"] == "8:1"


def test_8_10_defense_strength_zero_gives_the_highest_column(scenario):
    """8.10: "if the defense strength is 0 (every unit in the hex has a Retreat marker), the raw
    column is the highest column." """
    g = game(scenario, {"337rd": "B4", "88id": "C4", "72id": "C4"}, retreated=["88id", "72id"])
    doc = preview(g, "soviet", "C4", ["337rd"])
    assert doc["defense_strength"] == 0
    assert doc["raw_column"] == "8:1" and doc["final_column"] == "8:1"


def test_8_10_odds_below_the_lowest_column_may_not_be_attacked(scenario):
    """8.10: "If the odds are below the lowest column in the data file, the attack may not be
    made." """
    g = game(scenario, {"337rd": "B4", "198id": "C4"})  # 1:3, lowest column 1:2
    with pytest.raises(Rejection) as exc:
        preview(g, "soviet", "C4", ["337rd"])
    assert exc.value.rule == "8.10"
    rej = g.refuse("soviet", A("C4", ("337rd",)))
    assert rej.rule == "8.10" and "1:3" in rej.message and "1:2" in rej.message
    assert "at least 2" in rej.message  # the strength that would do
    # 2 against 3 reaches 1:2 and is accepted
    g2 = game(scenario, {"180rd": "B4", "198id": "C4"})
    assert g2.do("soviet", A("C4", ("180rd",)), dice=[1]).combat["raw_column"] == "1:2"


def test_8_10_shifts_do_not_rescue_odds_below_the_lowest_column(scenario):
    """8.10: the attack "may not be made" when the odds are below the lowest column - even when
    column shifts (here S1, 2 right) would move it onto the table."""
    g = game(scenario, {"337rd": "B4", "198id": "C4"}, oos=["198id"])
    assert g.refuse("soviet", A("C4", ("337rd",))).rule == "8.10"


# -- 8.11 each shift alone (base: 6 against 2 = 3:1) -------------------------------------------


def test_8_11_no_shift_base_case(scenario):
    """8.11: shifts apply only under their conditions; clear hex, Snow, no river, no OOS."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"})
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])
    assert doc["raw_column"] == "3:1" and doc["shifts"] == [] and doc["final_column"] == "3:1"


def test_8_11_s1_every_defender_oos_is_two_right(scenario):
    """8.11 S1: "Every unit without a Retreat marker in the defending hex has an OOS marker":
    2 right."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"}, oos=["88id"])
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])
    assert codes(doc) == [("S1", 2)]
    assert doc["final_column"] == "6:1"


def test_8_11_s2_some_defenders_oos_is_one_right(scenario):
    """8.11 S2: "At least 1, but not all, of the units without a Retreat marker in the defending
    hex have an OOS marker": 1 right."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4", "72id": "C4"}, oos=["88id"])
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])  # 6:4 = 3:2
    assert codes(doc) == [("S2", 1)]
    assert (doc["raw_column"], doc["final_column"]) == ("3:2", "2:1")


def test_8_11_s3_mud_is_one_left(scenario):
    """8.11 S3: "The weather is Mud": 1 left."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"}, weather="mud")
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])
    assert codes(doc) == [("S3", -1)]
    assert doc["final_column"] == "2:1"


def test_8_11_s4_woods_is_one_left(scenario):
    """8.11 S4: "The defending hex is woods or Cherkassy (F6)": 1 left."""
    g = game(scenario, {"48rc": "B5", "75rc": "B6", "88id": "C5"})
    doc = preview(g, "soviet", "C5", ["48rc", "75rc"])
    assert codes(doc) == [("S4", -1)]
    assert (doc["raw_column"], doc["final_column"]) == ("3:1", "2:1")


def test_8_11_s4_cherkassy_is_one_left(scenario):
    """8.11 S4: "The defending hex is woods or Cherkassy (F6)": 1 left."""
    g = game(scenario, {"48rc": "E6", "75rc": "F7", "88id": "F6"})
    doc = preview(g, "soviet", "F6", ["48rc", "75rc"])
    assert codes(doc) == [("S4", -1)]
    assert doc["final_column"] == "2:1"


def test_8_11_s5_river_is_one_left(scenario):
    """8.11 S5: "At least half of the attacking units attack across a river hexside": 1 left."""
    g = game(scenario, {"48rc": "A5", "75rc": "B5", "88id": "B6"})
    doc = preview(g, "soviet", "B6", ["48rc", "75rc"])  # 1 of 2 across A5-B6
    assert codes(doc) == [("S5", -1)]
    assert doc["final_column"] == "2:1"
    doc = preview(g, "soviet", "B6", ["48rc"])  # 1 of 1
    assert codes(doc) == [("S5", -1)]
    assert preview(g, "soviet", "B6", ["75rc"])["shifts"] == []  # B5-B6 is no river


def test_8_11_s6_some_attackers_oos_is_one_left(scenario):
    """8.11 S6: "At least 1, but not all, of the attacking units have an OOS marker": 1 left."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"}, oos=["48rc"])
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])
    assert codes(doc) == [("S6", -1)]
    assert doc["final_column"] == "2:1"
    assert preview(g, "soviet", "C4", ["75rc"])["shifts"] == []  # the OOS unit stays out


def test_8_11_s7_every_attacker_oos_is_two_left(scenario):
    """8.11 S7: "All attacking units have an OOS marker": 2 left (turn 3, no cap)."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"}, oos=["48rc", "75rc"])
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])
    assert codes(doc) == [("S7", -2)]
    assert doc["final_column"] == "3:2"


def test_8_11_a_real_attack_reports_the_same_numbers_in_outcome_combat(scenario):
    """8.3 steps 2-6: the resolved attack uses the raw column, shifts and final column shown."""
    g = game(
        scenario,
        {"48rc": "B5", "75rc": "B6", "88id": "C5", "72id": "C5"},
        weather="mud",
        oos=["72id"],
    )
    doc = preview(g, "soviet", "C5", ["48rc", "75rc"])
    out = g.do("soviet", A("C5", ("48rc", "75rc")), dice=[6])
    for key in ("attack_strength", "defense_strength", "raw_column", "shifts", "final_column"):
        assert out.combat[key] == doc[key], key
    assert codes(doc) == [("S2", 1), ("S3", -1), ("S4", -1)]
    assert (doc["raw_column"], doc["final_column"]) == ("3:2", "1:1")
    assert out.combat["die"] == 6 and out.combat["hits"] == 1  # CRT(1:1, 6) left = 1
    assert doc["hits_normal"] == [0, 0, 0, 0, 0, 1]


# -- 8.14 S5 counts units, not strength ---------------------------------------------------------


def test_8_14_one_of_three_across_the_river_gives_no_shift(scenario):
    """8.14: "Count units, not strength ... 1 of 3 units across the river gives no shift"."""
    g = game(scenario, {"21grc": "A5", "180rd": "B5", "337rd": "B5", "88id": "B6"})
    doc = preview(g, "soviet", "B6", ["21grc", "180rd", "337rd"])  # strength 4 of 7 across
    assert doc["shifts"] == []


def test_8_14_two_of_four_across_the_river_applies(scenario):
    """8.14: "S5 applies if 2 x (number of attacking units across a river hexside) >= (number of
    attacking units)" - 2 of 4, though the two across are the weak ones."""
    g = game(scenario, {"180rd": "A5", "337rd": "A6", "21grc": "B5", "48rc": "B5", "88id": "B6"})
    doc = preview(g, "soviet", "B6", ["180rd", "337rd", "21grc", "48rc"])  # strength 3 of 10
    assert codes(doc) == [("S5", -1)]


def test_8_14_w4_smela_one_of_three_across_the_tiasmin(scenario):
    """8.14 (W4): "fewer than half of the attacking units attack across it, so S5 does not
    apply. Final column 3:2." """
    g = game(
        scenario, {"20grc": "D7", "373rd": "E6", "294rd": "E5", "wiking": "D6", "5ss": "D6"}, turn=1
    )
    doc = preview(g, "soviet", "D6", ["20grc", "373rd", "294rd"])
    assert (doc["attack_strength"], doc["defense_strength"]) == (7, 4)
    assert doc["shifts"] == [] and doc["final_column"] == "3:2"


def test_8_14_w6_adding_c1_units_across_the_river_gains_nothing(scenario):
    """8.14 (W6): "adding the units from C1 gives attack strength 12, raw column 4:1, but then at
    least half of the attacking units attack across a river hexside (S5, 1 left), final column
    3:1"."""
    g = game(
        scenario, {"5gtk": "B1", "47rc": "B1", "180rd": "C1", "337rd": "C1", "198id": "B2"}, turn=1
    )
    doc = preview(g, "soviet", "B2", ["5gtk", "47rc"])
    assert (doc["attack_strength"], doc["raw_column"], doc["final_column"]) == (9, "3:1", "3:1")
    doc = preview(g, "soviet", "B2", ["5gtk", "47rc", "180rd", "337rd"])
    assert (doc["attack_strength"], doc["raw_column"]) == (12, "4:1")
    assert codes(doc) == [("S5", -1)] and doc["final_column"] == "3:1"


# -- 8.16 S1/S2 consider every defender without a Retreat marker --------------------------------


def test_8_16_s2_counts_an_oos_defender_whose_strength_is_not_counted(scenario):
    """8.16: "S1 and S2 consider every unit in the defending hex that has no Retreat marker,
    including units whose strength is not counted under 8.7." """
    g = game(
        scenario,
        {"11pz": "B4", "21grc": "C4", "48rc": "C4", "337rd": "C4"},
        side="german",
        oos=["337rd"],
    )
    doc = preview(g, "german", "C4", ["11pz"])
    assert doc["defense_strength"] == 7  # 337rd not counted
    assert codes(doc) == [("S2", 1)]


def test_8_16_s1_ignores_defenders_with_retreat_markers(scenario):
    """8.11 S1 / 8.16: "Every unit without a Retreat marker ... has an OOS marker" - a retreated
    unit without an OOS marker does not stop S1."""
    g = game(
        scenario,
        {"48rc": "B4", "75rc": "B5", "88id": "C4", "72id": "C4"},
        oos=["88id"],
        retreated=["72id"],
    )
    doc = preview(g, "soviet", "C4", ["48rc", "75rc"])
    assert codes(doc) == [("S1", 2)]


def test_8_11_s1_needs_a_defender_without_retreat_marker(scenario):
    """8.11 S1/S2 speak of units without a Retreat marker; with none left there is no OOS
    shift (8.10: highest column)."""
    g = game(scenario, {"337rd": "B4", "88id": "C4"}, oos=["88id"], retreated=["88id"])
    doc = preview(g, "soviet", "C4", ["337rd"])
    assert doc["shifts"] == [] and doc["final_column"] == "8:1"


# -- 8.13 caps on S1 and S7 ---------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "columns"), [(1, 1), (2, 1), (3, 2), (8, 2)])
def test_8_13_a_s1_is_one_column_on_turns_1_and_2(scenario, turn, columns):
    """8.13(a): "Turns 1 and 2: S1 and S7 are 1 column instead of 2, for both sides" (12.9)."""
    g = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"}, turn=turn, oos=["88id"])
    assert codes(preview(g, "soviet", "C4", ["48rc", "75rc"])) == [("S1", columns)]
    g2 = game(scenario, {"3pz": "B4", "48rc": "C4"}, turn=turn, side="german", oos=["48rc"])
    assert codes(preview(g2, "german", "C4", ["3pz"])) == [("S1", columns)]


@pytest.mark.parametrize(("turn", "columns"), [(1, -1), (2, -1), (3, -2)])
def test_8_13_a_s7_is_one_column_on_turns_1_and_2(scenario, turn, columns):
    """8.13(a), 12.5, 12.9: "a German attack receives at most 1 column left for OOS attackers"
    on turn 1; "every OOS shift is at most 1 column" on turn 2."""
    g = game(scenario, {"3pz": "B4", "48rc": "C4"}, turn=turn, side="german", oos=["3pz"])
    doc = preview(g, "german", "C4", ["3pz"])  # 6:3 = 2:1
    assert codes(doc) == [("S7", columns)]
    assert doc["final_column"] == {-1: "3:2", -2: "1:1"}[columns]
    g2 = game(scenario, {"48rc": "B4", "88id": "C4"}, turn=turn, oos=["48rc"])
    assert codes(preview(g2, "soviet", "C4", ["48rc"])) == [("S7", columns)]


def test_8_13_w10a_turn_1_woods_and_capped_s7(scenario):
    """8.13(a) (W10a): "The 5th SS unit attacking the 20th Tank Corps in C5 (woods) would get
    final column 1:1: S4 1 left, and S7 capped at 1 left on turn 1." """
    g = game(
        scenario, {"5ss": "D6", "20tk": "C5"}, turn=1, side="german", oos=["5ss"], reduced=["20tk"]
    )  # the 20th Tank Corps was flipped for the decisive attack in W3
    doc = preview(g, "german", "C5", ["5ss"])
    assert (doc["attack_strength"], doc["defense_strength"]) == (2, 1)
    assert codes(doc) == [("S4", -1), ("S7", -1)]
    assert (doc["raw_column"], doc["final_column"]) == ("2:1", "1:1")


# -- 12.12 the Korsun airfield cap (8.13(b)) ----------------------------------------------------


@pytest.mark.parametrize("target", ["E2", "E3", "D3"])
def test_12_12_a_oos_german_defenders_at_the_airfield_hexes_give_one_column(scenario, target):
    """12.12(a): "if the defending hex is E2, E3 or D3, the defenders are German, and at least
    one German unit is in E3, S1 is 1 column instead of 2." """
    attacker_hex = {"E2": "E1", "E3": "F4", "D3": "C3"}[target]
    units = {"48rc": attacker_hex, "kab": target}
    if target != "E3":
        units["72id"] = "E3"
    g = game(scenario, units, oos=["kab"])
    doc = preview(g, "soviet", target, ["48rc"])
    assert codes(doc) == [("S1", 1)]
    assert "12.12" in doc["shifts"][0]["reason"]


def test_12_12_a_no_cap_without_a_german_unit_in_e3(scenario):
    """12.12(a): the cap holds only "as long as a German unit occupies E3"."""
    g = game(scenario, {"48rc": "E1", "kab": "E2"}, oos=["kab"])
    assert codes(preview(g, "soviet", "E2", ["48rc"])) == [("S1", 2)]


def test_12_12_a_no_cap_for_other_hexes_or_for_soviet_defenders(scenario):
    """12.12(a): only German defenders in E2, E3 or D3."""
    g = game(scenario, {"48rc": "D1", "kab": "D2", "72id": "E3"}, oos=["kab"])
    assert codes(preview(g, "soviet", "D2", ["48rc"])) == [("S1", 2)]  # D2 is not capped
    g2 = game(scenario, {"11pz": "E1", "48rc": "E2", "72id": "E3"}, side="german", oos=["48rc"])
    assert codes(preview(g2, "german", "E2", ["11pz"])) == [("S1", 2)]  # Soviet defender


def test_12_12_b_oos_german_attack_from_the_airfield_hexes_gives_one_column(scenario):
    """12.12(b): "if the attacker is German, every attacking unit with an OOS marker is in E2, E3
    or D3, and at least one German unit is in E3, S7 is 1 column instead of 2" - "even in a
    combined attack from several of these hexes"."""
    g = game(
        scenario,
        {"kab": "D3", "72id": "E3", "57id": "C4", "48rc": "D4"},
        side="german",
        oos=["kab", "72id", "57id"],
    )
    doc = preview(g, "german", "D4", ["kab", "72id"])
    assert codes(doc) == [("S4", -1), ("S7", -1)]
    # Q18: an OOS attacker from outside the three hexes removes the cap
    doc = preview(g, "german", "D4", ["kab", "72id", "57id"])
    assert codes(doc) == [("S4", -1), ("S7", -2)]


def test_12_12_b_no_attack_cap_without_e3_or_for_soviet_attackers(scenario):
    """12.12(b): German attackers only, and only while a German unit is in E3."""
    g = game(scenario, {"kab": "D3", "48rc": "D4"}, side="german", oos=["kab"])
    assert codes(preview(g, "german", "D4", ["kab"])) == [("S4", -1), ("S7", -2)]
    g2 = game(
        scenario, {"48rc": "D3", "75rc": "E2", "88id": "D2", "72id": "E3"}, oos=["48rc", "75rc"]
    )
    doc = preview(g2, "soviet", "D2", ["75rc"])
    assert codes(doc) == [("S7", -2)]


def test_12_12_c_e3_is_judged_at_the_moment_of_the_attack(scenario):
    """12.12(c): "The condition "a German unit is in E3" is judged at step 4 of the attack." """
    g = game(
        scenario,
        {"kg168": "E3", "kab": "E2", "29tk": "F4", "20tk": "F4", "48rc": "E1"},
        oos=["kab"],
    )
    assert codes(preview(g, "soviet", "E2", ["48rc"])) == [("S1", 1)]
    g.do("soviet", A("E3", ("29tk", "20tk")), dice=[1])  # 8:1, 1 hit
    g.do("german", L(("kg168",)))  # the only unit in E3 is destroyed
    assert g.state.side_in("E3") is None
    doc = preview(g, "soviet", "E2", ["48rc"])
    assert codes(doc) == [("S1", 2)]
    out = g.do("soviet", A("E2", ("48rc",)), dice=[1])
    assert out.combat["shifts"] == doc["shifts"]


# -- combinations and 8.15 ----------------------------------------------------------------------


def test_8_15_shifts_add_up(scenario):
    """8.15: "The net shift is the sum of all applicable shifts (right +1 per column, left -1 per
    column)." (000: raw 8:1 with net -1 gives 6:1.)"""
    g = game(
        scenario,
        {"29tk": "B5", "20tk": "B6", "48rc": "B6", "88id": "C5"},
        weather="mud",
        oos=["88id", "48rc"],
    )
    doc = preview(g, "soviet", "C5", ["29tk", "20tk", "48rc"])  # 11:2, raw 4:1
    assert codes(doc) == [("S1", 2), ("S3", -1), ("S4", -1), ("S6", -1)]
    assert (doc["raw_column"], doc["final_column"]) == ("4:1", "3:1")


def test_8_15_right_and_left_shifts_combine(scenario):
    """8.15 with S2, S3, S5, S6: "The final column is the raw column moved by the net shift"."""
    g = game(
        scenario,
        {"20tk": "A5", "29tk": "A5", "21grc": "B5", "88id": "B6", "72id": "B6"},
        weather="mud",
        oos=["88id", "21grc"],
    )
    doc = preview(g, "soviet", "B6", ["20tk", "29tk", "21grc"])  # 16:4, raw 4:1; 2 of 3 across
    assert codes(doc) == [("S2", 1), ("S3", -1), ("S5", -1), ("S6", -1)]
    assert (doc["raw_column"], doc["final_column"]) == ("4:1", "2:1")


def test_8_15_w10b_river_shift_for_the_panzers(scenario):
    """8.15 (W10b): 11th and 14th Panzer attack B6 from across the river: "Final column 4:1
    (raw column: the column right of 4:1 in the data file)"."""
    g = game(scenario, {"11pz": "A6", "14pz": "A6", "29tk": "B6"}, turn=1, side="german")
    for uid in ("11pz", "14pz"):
        g.state.units[uid].entered_turn = 1
    doc = preview(g, "german", "B6", ["11pz", "14pz"])
    assert (doc["attack_strength"], doc["raw_column"]) == (15, "6:1")
    assert codes(doc) == [("S5", -1)] and doc["final_column"] == "4:1"


def test_8_15_the_final_column_stops_at_the_highest(scenario):
    """8.15: "then limited to the first and last columns of the CRT" - 8:1 with S1 stays 8:1."""
    g = game(scenario, {"29tk": "B4", "20tk": "B5", "kg168": "C4"}, oos=["kg168"])
    doc = preview(g, "soviet", "C4", ["29tk", "20tk"])  # 12:1
    assert codes(doc) == [("S1", 2)]
    assert (doc["raw_column"], doc["final_column"]) == ("8:1", "8:1")


def test_8_15_the_final_column_stops_at_the_lowest(scenario):
    """8.15: "limited to the first ... column of the CRT" - 1:1 with 2 left gives 1:2."""
    g = game(scenario, {"48rc": "B5", "88id": "C5", "72id": "C5"}, weather="mud")
    doc = preview(g, "soviet", "C5", ["48rc"])  # 3:4 raw 1:2
    assert doc["raw_column"] == "1:2" and doc["final_column"] == "1:2"
    g2 = game(
        scenario,
        {"48rc": "B5", "75rc": "B5", "88id": "C5", "72id": "C5"},
        weather="mud",
        oos=["48rc", "75rc"],
    )
    doc = preview(g2, "soviet", "C5", ["48rc", "75rc"])  # 6:4 raw 3:2, net -4
    assert sum(c for _, c in codes(doc)) == -4
    assert doc["final_column"] == "1:2"
    out = g2.do("soviet", A("C5", ("48rc", "75rc")), dice=[6])
    assert out.combat["final_column"] == "1:2" and out.combat["hits"] == 0


def test_8_15_the_net_shift_is_summed_before_the_limit_at_the_top(scenario):
    """8.15: "The final column is the raw column moved by the net shift, then limited" - raw 8:1
    with S1 (+2) and S4 (-1): net +1, final 8:1 (not 6:1)."""
    g = game(scenario, {"20tk": "B5", "21grc": "B6", "kg168": "C5"}, oos=["kg168"])
    doc = preview(g, "soviet", "C5", ["20tk", "21grc"])  # 8:1
    assert doc["raw_column"] == "8:1"
    assert codes(doc) == [("S1", 2), ("S4", -1)]
    assert doc["final_column"] == "8:1"


def test_8_15_the_net_shift_is_summed_before_the_limit_at_the_bottom(scenario):
    """8.15: raw 1:2 with S1 (+2), S3 (-1) and S4 (-1): net 0, final 1:2 (not 3:2)."""
    g = game(scenario, {"337rd": "B5", "88id": "C5"}, weather="mud", oos=["88id"])
    doc = preview(g, "soviet", "C5", ["337rd"])  # 1:2
    assert doc["raw_column"] == "1:2"
    assert codes(doc) == [("S1", 2), ("S3", -1), ("S4", -1)]
    assert doc["final_column"] == "1:2"


def test_8_12_directions_right_favours_the_attacker(scenario):
    """8.12/8.11: "right favours the attacker, left favours the defender" - hits_normal read from
    the final column."""
    base = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"})
    oos = game(scenario, {"48rc": "B4", "75rc": "B5", "88id": "C4"}, oos=["88id"])
    a = preview(base, "soviet", "C4", ["48rc", "75rc"])
    b = preview(oos, "soviet", "C4", ["48rc", "75rc"])
    assert a["hits_normal"] == [0, 0, 1, 1, 1, 1]  # 3:1
    assert b["hits_normal"] == [1, 1, 1, 1, 1, 2]  # 6:1
