"""Section 8, decisive attack (8.17-8.19), overstack (8.20, Q2) and resolution (8.21-8.22).

CRT cells used (scenario data, left/right): 2:1 die 3 = 0/1, die 5 = 1/1; 3:2 die 4 = 0/0;
3:1 die 2 = 0/1; 4:1 die 2 = 1/1; 8:1 die 3 = 1/2.
"""

from __future__ import annotations

import dataclasses

from tests.hells_gate.helpers import A, Game, L, empty_state


def game(scenario, units, turn=3, side="soviet", **kw):
    return Game(scenario, empty_state(scenario, units, turn=turn, phase=f"{side}-combat", **kw))


def kinds(out):
    return [e.kind for e in out.events]


# -- 8.17 conditions ----------------------------------------------------------------------------


def test_8_17_a_decisive_needs_a_full_strength_two_step_attacker(scenario):
    """8.17(a): "at least one attacking unit is a two-step unit on its full-strength side"
    (W7: "Decisive attack not allowed: no two-step attacker")."""
    units = {"180rd": "B4", "48rc": "B5", "88id": "C4"}
    g = game(scenario, units, reduced=["48rc"])
    doc = g.preview("soviet", A("C4", ("180rd", "48rc")))
    assert doc["decisive_allowed"] is False
    assert doc["hits_decisive"] is None and doc["flip_choices"] == []
    rej = g.refuse("soviet", A("C4", ("180rd", "48rc"), decisive=True))
    assert rej.rule == "8.17(a)" and "full-strength two-step" in rej.message
    # the same attack with the corps at full strength may be decisive
    g2 = game(scenario, units)
    doc = g2.preview("soviet", A("C4", ("180rd", "48rc")))
    assert doc["decisive_allowed"] is True and doc["flip_choices"] == ["48rc"]
    out = g2.do("soviet", A("C4", ("180rd", "48rc"), decisive=True), dice=[1])
    assert g2.unit("48rc").reduced and out.combat["decisive"] is True


def test_8_17_w7_two_one_step_attackers_may_not_attack_decisively(scenario):
    """8.17(a) (W7): "Defender: one German one-step unit in C2 (woods). Attackers: two Soviet
    one-step units... Shift S4 (woods): 1 left. Final column 2:1. Decisive attack not allowed"."""
    g = game(scenario, {"180rd": "C1", "337rd": "C1", "kg168": "C2"}, turn=1)
    doc = g.preview("soviet", A("C2", ("180rd", "337rd")))
    assert (doc["raw_column"], doc["final_column"]) == ("3:1", "2:1")
    assert doc["decisive_allowed"] is False
    assert g.refuse("soviet", A("C2", ("180rd", "337rd"), decisive=True)).rule == "8.17(a)"
    out = g.do("soviet", A("C2", ("180rd", "337rd")), dice=[5])
    assert out.combat["hits"] == 1  # CRT(2:1, 5) left-hand value = 1


# -- 8.18 the flip ------------------------------------------------------------------------------


def test_8_18_full_armor_must_be_flipped_first(scenario):
    """8.18: "If at least one full-strength two-step armor unit is attacking, the flipped unit
    must be one of them" (000: "в первую очередь танковая")."""
    g = game(scenario, {"29tk": "B4", "48rc": "B4", "88id": "C4", "72id": "C4"})
    doc = g.preview("soviet", A("C4", ("29tk", "48rc")))
    assert doc["flip_choices"] == ["29tk"]
    rej = g.refuse("soviet", A("C4", ("29tk", "48rc"), decisive=True, flip="48rc"))
    assert rej.rule == "8.18" and rej.code == "bad-flip"
    assert "48rc" in rej.message and "29tk" in rej.message
    out = g.do("soviet", A("C4", ("29tk", "48rc"), decisive=True, flip="29tk"), dice=[1])
    assert g.unit("29tk").reduced and not g.unit("48rc").reduced
    assert out.order.flip == "29tk"


def test_8_18_with_no_unit_named_an_armor_unit_is_still_the_one_flipped(scenario):
    """8.18: the flipped unit "must be one of" the full two-step armor units, also when the
    attacker names none (here the armor is stronger than the infantry)."""
    g = game(scenario, {"11pz": "B4", "34id": "B4", "48rc": "C4"}, side="german")
    out = g.do("german", A("C4", ("11pz", "34id"), decisive=True), dice=[1])
    assert g.unit("11pz").reduced and not g.unit("34id").reduced
    assert out.order.flip == "11pz"


def test_8_18_the_attacker_chooses_among_full_armor_units(scenario):
    """8.18: "the attacker chooses which" (W10b: "the weaker 14th Panzer Division is
    flipped")."""
    g = game(scenario, {"11pz": "A6", "14pz": "A6", "29tk": "B6"}, turn=1, side="german")
    for uid in ("11pz", "14pz"):
        g.state.units[uid].entered_turn = 1
    doc = g.preview("german", A("B6", ("11pz", "14pz")))
    assert sorted(doc["flip_choices"]) == ["11pz", "14pz"]
    assert doc["final_column"] == "4:1"
    out = g.do("german", A("B6", ("11pz", "14pz"), decisive=True, flip="14pz"), dice=[2])
    assert g.unit("14pz").reduced and not g.unit("11pz").reduced
    assert out.combat["hits"] == 1  # W10b: CRT(4:1, 2) right-hand value = 1


def test_8_18_reduced_armor_does_not_count_so_infantry_is_flipped(scenario):
    """8.18: armor first applies to "full-strength two-step armor" units; a reduced tank corps
    cannot pay, so a full infantry corps is flipped."""
    g = game(scenario, {"29tk": "B4", "48rc": "B4", "88id": "C4"}, reduced=["29tk"])
    doc = g.preview("soviet", A("C4", ("29tk", "48rc")))
    assert doc["flip_choices"] == ["48rc"]
    rej = g.refuse("soviet", A("C4", ("29tk", "48rc"), decisive=True, flip="29tk"))
    assert rej.rule == "8.18"
    g.do("soviet", A("C4", ("29tk", "48rc"), decisive=True, flip="48rc"), dice=[1])
    assert g.unit("48rc").reduced


def test_8_18_mech_is_not_armor_for_the_flip(scenario):
    """8.18 with 2.12: ""armor unit" in rules 8.18 ... means a unit whose `type` is armor. Mech
    units are not armor units"."""
    g = game(scenario, {"5mc": "B4", "48rc": "B4", "88id": "C4"})
    doc = g.preview("soviet", A("C4", ("5mc", "48rc")))
    assert sorted(doc["flip_choices"]) == ["48rc", "5mc"]
    g.do("soviet", A("C4", ("5mc", "48rc"), decisive=True, flip="48rc"), dice=[1])
    assert g.unit("48rc").reduced and not g.unit("5mc").reduced


def test_8_18_only_an_attacking_unit_is_flipped(scenario):
    """8.18: "the attacker flips one full-strength two-step attacking unit"."""
    g = game(scenario, {"48rc": "B4", "75rc": "B4", "88id": "C4"})
    rej = g.refuse("soviet", A("C4", ("48rc",), decisive=True, flip="75rc"))
    assert rej.rule == "8.18" and "75rc" in rej.message


def test_8_18_w3_the_flip_comes_before_the_roll(scenario):
    """8.18 (W3): "Decisive attack declared. The 20th Tank Corps (armor) is flipped to reduced.
    Die 3. Result 2 hits (right-hand value)." The flip is made on declaring, before the die."""
    g = game(
        scenario,
        {"20tk": "C7", "75rc": "C7", "21grc": "D7", "20grc": "D7", "389id": "C6", "wiking": "D6"},
        turn=1,
    )
    out = g.do(
        "soviet", A("C6", ("20tk", "75rc", "21grc", "20grc"), decisive=True, flip="20tk"), dice=[3]
    )
    k = kinds(out)
    assert k.index("UnitFlipped") < k.index("DieRolled")
    assert out.combat["final_column"] == "8:1" and out.combat["hits"] == 2
    assert g.unit("20tk").reduced


def test_8_18_w4_the_flip_stands_with_zero_hits(scenario):
    """8.18 (W4): "The flip stands whatever the result (000 example, Smela: decisive attack,
    0 hits)." """
    g = game(
        scenario, {"20grc": "D7", "373rd": "E6", "294rd": "E5", "wiking": "D6", "5ss": "D6"}, turn=1
    )
    out = g.do("soviet", A("D6", ("20grc", "373rd", "294rd"), decisive=True), dice=[4])
    assert out.combat["final_column"] == "3:2" and out.combat["hits"] == 0
    flipped = [u for u in ("20grc", "373rd", "294rd") if g.unit(u).reduced]
    assert flipped == ["20grc"]  # exactly one attacker flipped, the only two-step one
    assert not g.state.pending
    assert not g.unit("wiking").reduced and not g.unit("5ss").reduced


def test_8_18_the_odds_are_not_recomputed_after_the_flip(scenario):
    """8.18: "Decision: the odds are not recomputed after the flip." W2's attack (9:4, 2:1)
    made decisive: with the 29th flipped it would be 6:4 (3:2), where die 3 gives 0 hits."""
    g = game(scenario, {"29tk": "C7", "48rc": "C7", "3pz": "B7", "106id": "B7"}, turn=1)
    out = g.do("soviet", A("B7", ("29tk", "48rc"), decisive=True, flip="29tk"), dice=[3])
    assert out.combat["attack_strength"] == 9
    assert out.combat["raw_column"] == "2:1" and out.combat["final_column"] == "2:1"
    assert out.combat["hits"] == 1  # CRT(2:1, 3) right = 1; CRT(3:2, 3) right would be 0


# -- 8.19 / 8.21 which value --------------------------------------------------------------------


def test_8_19_a_decisive_attack_reads_the_right_hand_value(scenario):
    """8.19: "A decisive attack reads the result from the right-hand value of the CRT cell";
    8.21: "The left-hand value is used for a normal attack"."""
    units = {"29tk": "C7", "48rc": "C7", "3pz": "B7", "106id": "B7"}
    normal = game(scenario, units, turn=1).do("soviet", A("B7", ("29tk", "48rc")), dice=[3])
    assert (normal.combat["final_column"], normal.combat["hits"]) == ("2:1", 0)
    g = game(scenario, units, turn=1)
    doc = g.preview("soviet", A("B7", ("29tk", "48rc")))
    assert doc["hits_normal"] == [0, 0, 0, 1, 1, 1]
    assert doc["hits_decisive"] == [0, 0, 1, 1, 1, 2]
    decisive = g.do("soviet", A("B7", ("29tk", "48rc"), decisive=True), dice=[3])
    assert decisive.combat["hits"] == 1
    # 8.21: "Roll one die" - one roll per attack
    assert [r.purpose for r in decisive.rolls] == ["combat B7"]


def test_8_19_w6_decisive_at_three_to_one(scenario):
    """8.19 (W6): "Final column 3:1. Decisive attack declared. The 5th Guards Tank Corps is
    flipped. Die 2. Result 1 hit (right-hand value)." (Left-hand: 0.)"""
    units = {"5gtk": "B1", "47rc": "B1", "198id": "B2"}
    g = game(scenario, units, turn=1)
    out = g.do("soviet", A("B2", ("5gtk", "47rc"), decisive=True), dice=[2])
    assert out.combat["final_column"] == "3:1" and out.combat["hits"] == 1
    assert g.unit("5gtk").reduced and not g.unit("47rc").reduced
    plain = game(scenario, units, turn=1).do("soviet", A("B2", ("5gtk", "47rc")), dice=[2])
    assert plain.combat["hits"] == 0


# -- 8.20 overstack -----------------------------------------------------------------------------

FIVE = {"34id": "C4", "88id": "C4", "72id": "C4", "57id": "C4", "389id": "C4"}
ATTACK = {"21grc": "B4", "48rc": "B4", "75rc": "B5", "78rc": "B5"}  # 13 against 6: 2:1


def test_8_20_five_units_read_the_right_hand_value(scenario):
    """8.20: "If the defending hex contains 5 or more units at the moment of the attack ... the
    result is always read from the right-hand value of the CRT cell." """
    g = game(scenario, {**FIVE, **ATTACK})
    doc = g.preview("soviet", A("C4", tuple(ATTACK)))
    assert doc["overstack"] is True and doc["final_column"] == "2:1"
    assert doc["defense_strength"] == 6  # still the 3 highest (8.7)
    assert doc["hits_normal"] == [0, 0, 1, 1, 1, 2]  # right-hand values
    out = g.do("soviet", A("C4", tuple(ATTACK)), dice=[3])
    assert out.combat["overstack"] is True and out.combat["hits"] == 1  # left would be 0


def test_8_20_four_units_are_not_overstacked(scenario):
    """8.20: "5 or more units" - four read the left-hand value."""
    four = dict(list(FIVE.items())[:4])
    g = game(scenario, {**four, **ATTACK})
    out = g.do("soviet", A("C4", tuple(ATTACK)), dice=[3])
    assert out.combat["overstack"] is False and out.combat["hits"] == 0


def test_8_20_no_decisive_attack_against_an_overstacked_hex(scenario):
    """8.20: "No decisive attack may be declared and no unit is flipped for one." (8.17(b))"""
    g = game(scenario, {**FIVE, **ATTACK})
    doc = g.preview("soviet", A("C4", tuple(ATTACK)))
    assert doc["decisive_allowed"] is False and doc["hits_decisive"] is None
    rej = g.refuse("soviet", A("C4", tuple(ATTACK), decisive=True, flip="48rc"))
    assert rej.rule == "8.20" and "C4" in rej.message
    assert not any(g.unit(u).reduced for u in ATTACK)


def test_8_20_units_with_retreat_markers_count_toward_the_five(scenario):
    """8.20: "5 or more units at the moment of the attack, counting units with a Retreat marker"
    (flag overstack_counts_retreated = true, Q2)."""
    assert scenario.flags["overstack_counts_retreated"] is True
    g = game(scenario, {**FIVE, **ATTACK}, retreated=["389id"])
    doc = g.preview("soviet", A("C4", tuple(ATTACK)))
    assert doc["overstack"] is True and doc["defense_strength"] == 6
    assert g.refuse("soviet", A("C4", tuple(ATTACK), decisive=True)).rule == "8.20"
    out = g.do("soviet", A("C4", tuple(ATTACK)), dice=[3])
    assert out.combat["hits"] == 1


def test_8_20_the_flag_off_follows_002_and_ignores_retreated_units(scenario):
    """8.20 / Q2: "Implement as the flag `overstack_counts_retreated`" - with the flag false (002),
    4 units plus 1 retreated unit are not overstacked."""
    scen = dataclasses.replace(
        scenario, flags={**scenario.flags, "overstack_counts_retreated": False}
    )
    g = Game(scen, empty_state(scen, {**FIVE, **ATTACK}, turn=3, retreated=["389id"]))
    doc = g.preview("soviet", A("C4", tuple(ATTACK)))
    assert doc["overstack"] is False and doc["decisive_allowed"] is True
    g2 = Game(scen, empty_state(scen, {**FIVE, **ATTACK}, turn=3))
    assert g2.preview("soviet", A("C4", tuple(ATTACK)))["overstack"] is True


def test_8_20_the_count_is_at_the_moment_of_the_attack(scenario):
    """8.20: "at the moment of the attack" - a Soviet hex grown to 5 by a retreat is
    overstacked for the next attack on it."""
    g = game(
        scenario,
        {
            "21grc": "C4",
            "48rc": "C4",
            "75rc": "C4",
            "78rc": "C4",
            "180rd": "C3",
            "11pz": "B4",
            "16pz": "B4",
            "24pz": "B5",
            "72id": "D3",
        },
        side="german",
    )
    # 18 against 2 is 8:1; die 1 = 1 hit; the Soviet 180rd retreats into C4, which then holds
    # 5 units (C4 is C3's only legal retreat hex: the others hold or touch German units)
    g.do("german", A("C3", ("11pz", "16pz")), dice=[1])
    g.do("soviet", L((), "C4"))
    assert g.unit("180rd").hex == "C4" and g.unit("180rd").retreated
    doc = g.preview("german", A("C4", ("24pz",)))
    assert doc["overstack"] is True


# -- 8.22 the attacker takes no other loss -------------------------------------------------------


def test_8_22_the_attacker_takes_no_loss_from_the_crt(scenario):
    """8.22: "the CRT inflicts hits only on the defender. The attacker's only loss is the
    decisive-attack flip." """
    g = game(scenario, {"48rc": "B4", "337rd": "B5", "198id": "C4", "kab": "C4"})
    before = {u: dataclasses.replace(g.unit(u)) for u in ("48rc", "337rd")}
    out = g.do("soviet", A("C4", ("48rc", "337rd")), dice=[6])  # 4:6, 1:2: die 6 = 0 hits
    assert out.combat["final_column"] == "1:2"
    for uid, was in before.items():
        now = g.unit(uid)
        assert (now.hex, now.reduced, now.retreated, now.box) == (
            was.hex,
            was.reduced,
            was.retreated,
            was.box,
        )
    g2 = game(scenario, {"29tk": "B4", "48rc": "B4", "337rd": "B5", "kg168": "C4"})
    out = g2.do("soviet", A("C4", ("29tk", "48rc", "337rd"), decisive=True), dice=[6])
    assert (out.combat["final_column"], out.combat["hits"]) == ("8:1", 3)
    assert g2.unit("kg168").box == "eliminated"
    assert [u for u in ("29tk", "48rc", "337rd") if g2.unit(u).reduced] == ["29tk"]
    assert [(g2.unit(u).hex, g2.unit(u).retreated) for u in ("29tk", "48rc", "337rd")] == [
        ("B4", False),
        ("B4", False),
        ("B5", False),
    ]
