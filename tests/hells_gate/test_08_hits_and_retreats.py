"""Section 8, applying hits and retreats (8.23-8.39), the defender's pending decision, forced
answers and the deadline default.

Standard layout: the defenders stand in C4 (clear, no river, no supply hex); four armor units
attack from B4 and B5. Their ZOC covers C3 and C5, so the legal retreats from C4 are D4 and D5.
The die is picked from the preview so that the CRT gives the number of hits each test needs.
"""

from __future__ import annotations

import pytest

from adjudicator.hells_gate import orders as O
from tests.hells_gate.helpers import END, A, Game, L, M, empty_state

SOVIET_ARMOR = {"29tk": "B4", "20tk": "B4", "5gtk": "B5", "18tk": "B5"}  # 24 against clear
GERMAN_ARMOR = {"11pz": "B4", "16pz": "B4", "24pz": "B5", "14pz": "B5"}  # 33 against clear


def strike(g, side, target, attackers, hits):
    """Attack with the first die (normal, else decisive) that gives `hits`; check the result."""
    doc = g.preview(side, A(target, tuple(attackers)))
    for decisive, faces in ((False, doc["hits_normal"]), (True, doc["hits_decisive"] or [])):
        if hits in faces:
            out = g.do(side, A(target, tuple(attackers), decisive), dice=[faces.index(hits) + 1])
            assert out.combat["hits"] == hits
            return out
    raise AssertionError(f"no die gives {hits} hits at {doc['final_column']}")


def attack_c4(scenario, defenders, hits, side="soviet", extra=None, turn=3, **kw):
    """`side` attacks C4 (holding `defenders`) from B4 and B5 with four armor units."""
    attackers = SOVIET_ARMOR if side == "soviet" else GERMAN_ARMOR
    units = {**attackers, **{u: "C4" for u in defenders}, **(extra or {})}
    g = Game(scenario, empty_state(scenario, units, turn=turn, phase=f"{side}-combat", **kw))
    out = strike(g, side, "C4", attackers, hits)
    return g, out


def kinds(out):
    return [e.kind for e in out.events]


def retreat_dests(g, side):
    return {a.retreat for a in g.legal(side) if isinstance(a.retreat, str)}


# -- 8.23 - 8.26 --------------------------------------------------------------------------------


def test_8_23_the_defender_applies_the_hits_one_at_a_time(scenario):
    """8.23: "The defender applies the hits one at a time to units in the defending hex." """
    g, out = attack_c4(scenario, ["88id", "72id"], 3)
    assert "DecisionPending" in kinds(out)
    d = g.state.pending[0]
    assert (d.kind, d.side, d.data["hex"], d.data["hits"]) == ("losses", "german", "C4", 3)
    out = g.do("german", L(("88id", "72id", "88id")))
    flips = [
        (e.kind, e.data["unit"]) for e in out.events if e.kind in ("UnitFlipped", "UnitEliminated")
    ]
    assert flips == [("UnitFlipped", "88id"), ("UnitFlipped", "72id"), ("UnitEliminated", "88id")]
    assert g.unit("88id").box == "eliminated" and g.unit("72id").reduced
    assert not g.state.pending


def test_8_23_the_answer_names_exactly_one_unit_per_hit(scenario):
    """8.23: each hit is applied: a 2-hit result needs 2 step losses, or 1 and a retreat."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 2)
    rej = g.refuse("german", L(("88id",)))
    assert rej.rule == "8.23" and "2" in rej.message
    rej = g.refuse("german", L((), "D4"))  # 8.29: all but the last hit are step losses
    assert rej.rule == "8.23" and "1" in rej.message
    g.do("german", L(("88id", "72id")))


def test_8_24_a_hit_may_not_go_to_a_unit_with_a_retreat_marker(scenario):
    """8.24: "A hit may not be applied to a unit with a Retreat marker." """
    g, _ = attack_c4(scenario, ["88id", "72id", "57id"], 1, retreated=["72id"])
    rej = g.refuse("german", L(("72id",)))
    assert rej.rule == "8.24" and "72id" in rej.message
    assert all("72id" not in a.units for a in g.legal("german"))
    g.do("german", L(("57id",)))
    assert g.unit("57id").reduced and not g.unit("72id").reduced


def test_8_25_a_hit_may_go_to_a_unit_whose_strength_was_not_counted(scenario):
    """8.25: "A hit may be applied to any unit in the hex without a Retreat marker, including a
    unit whose strength was not counted under 8.7." """
    g, out = attack_c4(scenario, ["198id", "kab", "wiking", "88id"], 1)
    assert out.combat["defense_strength"] == 9  # 88id not counted
    g.do("german", L(("88id",)))
    assert g.unit("88id").reduced
    assert not any(g.unit(u).reduced for u in ("198id", "kab", "wiking"))


def test_8_26_a_hit_flips_a_full_unit_and_destroys_a_reduced_or_one_step_unit(scenario):
    """8.26: "A hit flips a full-strength two-step unit to its reduced side. A hit on a reduced
    unit or a one-step unit destroys it (eliminated box)." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    g.do("german", L(("88id",)))
    assert g.unit("88id").reduced and g.unit("88id").hex == "C4"
    g, _ = attack_c4(scenario, ["88id", "57id"], 1, reduced=["88id", "57id"])
    g.do("german", L(("88id",)))
    assert g.unit("88id").box == "eliminated" and g.unit("88id").hex is None
    g, _ = attack_c4(scenario, ["kg168", "wallonien"], 1)
    g.do("german", L(("wallonien",)))
    assert g.unit("wallonien").box == "eliminated" and g.unit("kg168").hex == "C4"


# -- 8.27 priority ------------------------------------------------------------------------------


def test_8_27_hits_go_to_full_strength_units_first(scenario):
    """8.27: "while the hex contains a unit without a Retreat marker that has 2 steps remaining,
    each hit must be applied to such a unit." """
    g, _ = attack_c4(scenario, ["88id", "kg168"], 1)
    rej = g.refuse("german", L(("kg168",)))
    assert rej.rule == "8.27" and "88id" in rej.message
    g.do("german", L(("88id",)))
    assert g.unit("88id").reduced and g.unit("kg168").hex == "C4"


def test_8_27_a_reduced_unit_counts_as_one_step(scenario):
    """8.27 (Q14): "a unit with 1 step remaining" - an already reduced unit waits behind a full
    one."""
    g, _ = attack_c4(scenario, ["88id", "57id"], 1, reduced=["57id"])
    assert g.refuse("german", L(("57id",))).rule == "8.27"
    g.do("german", L(("88id",)))


def test_8_27_a_second_hit_may_not_go_to_a_just_flipped_unit_while_another_is_full(scenario):
    """8.27: "a second hit may not go to an already flipped unit while another full-strength
    unit is present." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 2)
    rej = g.refuse("german", L(("88id", "88id")))
    assert rej.rule == "8.27" and "72id" in rej.message
    g.do("german", L(("88id", "72id")))
    assert g.unit("88id").reduced and g.unit("72id").reduced


def test_8_27_once_no_full_unit_remains_any_unit_takes_the_hit(scenario):
    """8.27: "Only when none remains may a hit be applied to a unit with 1 step remaining." """
    g, _ = attack_c4(scenario, ["88id", "kg168"], 2)
    g.do("german", L(("88id", "kg168")))
    assert g.unit("88id").reduced and g.unit("kg168").box == "eliminated"
    g, _ = attack_c4(scenario, ["88id", "kg168"], 2)
    g.do("german", L(("88id", "88id")))
    assert g.unit("88id").box == "eliminated" and g.unit("kg168").hex == "C4"


# -- 8.28 excess hits ---------------------------------------------------------------------------


def test_8_28_excess_hits_destroy_everything_and_are_lost(scenario):
    """8.28: "when no unit without a Retreat marker remains in the hex, every unit still in the
    hex (these all have Retreat markers) is destroyed, and the remaining hits are lost." """
    g, out = attack_c4(scenario, ["kg168", "72id"], 2, retreated=["72id"])
    assert "LossesForced" in kinds(out) and not g.state.pending
    assert g.unit("kg168").box == "eliminated" and g.unit("72id").box == "eliminated"
    assert g.state.units_in("C4") == []


def test_8_28_three_hits_on_one_two_step_unit(scenario):
    """8.28: a 2-step unit takes 2 of 3 hits and is destroyed; the third hit is lost."""
    g, out = attack_c4(scenario, ["88id"], 3)
    assert "LossesForced" in kinds(out)
    assert g.unit("88id").box == "eliminated"
    assert all(not g.unit(u).reduced for u in SOVIET_ARMOR if u != out.order.flip)


# -- 8.29 the last hit as a retreat -------------------------------------------------------------


def test_8_29_the_last_hit_may_be_a_retreat(scenario):
    """8.29: "The defender may apply the last hit of a result as a retreat instead of a step
    loss. He first applies every hit except the last as a step loss." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 2)
    out = g.do("german", L(("88id",), "D4"))
    assert g.unit("88id").reduced and not g.unit("72id").reduced
    assert [(g.unit(u).hex, g.unit(u).retreated) for u in ("88id", "72id")] == [
        ("D4", True),
        ("D4", True),
    ]
    assert g.state.units_in("C4") == []
    assert [e.data["unit"] for e in out.events if e.kind == "UnitRetreated"] == ["88id", "72id"]


def test_8_29_with_one_hit_the_only_hit_is_the_last(scenario):
    """8.29: "With a 1-hit result the only hit is the last hit." """
    g, _ = attack_c4(scenario, ["88id"], 1)
    g.do("german", L((), "D5"))
    assert (g.unit("88id").hex, g.unit("88id").reduced, g.unit("88id").retreated) == (
        "D5",
        False,
        True,
    )


def test_8_29_no_retreat_when_no_unit_remains_after_the_other_hits(scenario):
    """8.29: "If at least one unit without a Retreat marker remains and a legal retreat exists
    (8.32), the last hit may be a retreat." A reduced unit facing 2 hits is destroyed."""
    g, out = attack_c4(scenario, ["88id"], 2, reduced=["88id"])
    assert "LossesForced" in kinds(out) and not g.state.pending
    assert g.unit("88id").box == "eliminated"


# -- 8.30 mandatory Soviet retreat --------------------------------------------------------------


def test_8_30_a_soviet_defender_must_retreat_with_the_last_of_two_hits(scenario):
    """8.30: "if the defender is Soviet, the result is 2 or more hits, at least one Soviet unit
    ... remains ..., and a legal retreat exists, then the last hit must be applied as a
    retreat." """
    g, _ = attack_c4(scenario, ["21grc", "48rc"], 2, side="german")
    assert "must be a retreat" in g.state.pending[0].prompt
    rej = g.refuse("soviet", L(("48rc", "21grc")))
    assert rej.rule == "8.30" and "D4" in rej.message and "D5" in rej.message
    assert all(a.retreat is not None for a in g.legal("soviet"))
    g.do("soviet", L(("48rc",), "D4"))
    assert (g.unit("48rc").hex, g.unit("21grc").hex) == ("D4", "D4")
    assert g.unit("48rc").retreated and g.unit("21grc").retreated


def test_8_30_with_one_hit_the_soviet_player_chooses(scenario):
    """8.30: "With a 1-hit result the Soviet player chooses." """
    g, _ = attack_c4(scenario, ["21grc", "48rc"], 1, side="german")
    g.do("soviet", L(("48rc",)))
    assert g.unit("48rc").reduced and g.unit("48rc").hex == "C4" and not g.unit("48rc").retreated
    g, _ = attack_c4(scenario, ["21grc", "48rc"], 1, side="german")
    g.do("soviet", L((), "D5"))
    assert g.unit("48rc").hex == "D5" and not g.unit("48rc").reduced


def test_8_30_w10b_the_29th_tank_corps_chooses_to_retreat(scenario):
    """8.30 (W10b): "The Soviet player chooses (1 hit, rule 8.30): the 29th Tank Corps retreats
    to B5, which is not adjacent to any German unit. Retreat marker placed." """
    state = empty_state(
        scenario, {"11pz": "A6", "14pz": "A6", "29tk": "B6"}, turn=1, phase="german-combat"
    )
    for uid in ("11pz", "14pz"):
        state.units[uid].entered_turn = 1
    g = Game(scenario, state)
    g.do("german", A("B6", ("11pz", "14pz"), True, "14pz"), dice=[2])
    assert g.state.pending[0].side == "soviet"
    assert "B5" in retreat_dests(g, "soviet")
    assert L(("29tk",)) in g.legal("soviet")
    g.do("soviet", L((), "B5"))
    assert (g.unit("29tk").hex, g.unit("29tk").retreated, g.unit("29tk").reduced) == (
        "B5",
        True,
        False,
    )


def test_8_30_the_german_player_always_chooses(scenario):
    """8.30: "The German player always chooses." - 2 hits, both as step losses."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 2)
    g.do("german", L(("88id", "72id")))
    assert g.unit("88id").hex == "C4" and g.unit("72id").hex == "C4"


def test_8_30_without_a_legal_retreat_the_soviet_takes_step_losses(scenario):
    """8.30/8.34: the retreat is mandatory only if "a legal retreat exists"."""
    g, out = attack_c4(
        scenario, ["21grc", "48rc"], 2, side="german", extra={"88id": "D4", "72id": "D5"}
    )
    assert "LossesForced" in kinds(out) and not g.state.pending
    assert g.unit("21grc").reduced and g.unit("48rc").reduced
    assert g.unit("21grc").hex == "C4" and not g.unit("21grc").retreated


def test_8_30_a_forced_mandatory_retreat_is_applied_at_once(scenario):
    """8.30: one Soviet corps, 2 hits, one legal hex: the flip and the retreat are the only
    answer and are applied without asking (event LossesForced)."""
    g, out = attack_c4(scenario, ["48rc"], 2, side="german", extra={"72id": "E5"})  # ZOC on D5
    assert "LossesForced" in kinds(out) and not g.state.pending
    assert (g.unit("48rc").hex, g.unit("48rc").reduced, g.unit("48rc").retreated) == (
        "D4",
        True,
        True,
    )


# -- 8.31 everyone moves, may split -------------------------------------------------------------


def test_8_31_all_remaining_units_retreat_and_may_split(scenario):
    """8.31: "every unit without a Retreat marker in the defending hex moves 1 hex to an adjacent
    hex. No such unit may stay. The units may go to different hexes." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    g.do("german", L((), (("88id", "D4"), ("72id", "D5"))))
    assert (g.unit("88id").hex, g.unit("72id").hex) == ("D4", "D5")
    assert g.unit("88id").retreated and g.unit("72id").retreated


def test_8_31_a_split_retreat_names_every_unit(scenario):
    """8.31: "No such unit may stay." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    rej = g.refuse("german", L((), (("88id", "D4"),)))
    assert rej.rule == "8.31" and "72id" in rej.message
    rej = g.refuse("german", L((), (("88id", "D4"), ("72id", "C4"))))
    assert rej.rule == "8.31" and "C4" in rej.message


def test_8_31_each_unit_is_named_once_in_a_split_retreat(scenario):
    """8.31: every unit "moves 1 hex to an adjacent hex" - one destination per unit; a unit named
    twice, with two destinations, is refused (the engine's own message asks to "name each ...
    once")."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    rej = g.refuse("german", L((), (("88id", "D4"), ("72id", "D5"), ("88id", "D5"))))
    assert rej.rule == "8.31" and "88id" in rej.message
    g, _ = attack_c4(scenario, ["88id"], 1)
    rej = g.refuse("german", L((), (("88id", "D4"), ("88id", "D5"))))
    assert rej.rule == "8.31" and "88id" in rej.message


def test_8_31_after_step_losses_the_survivors_split(scenario):
    """8.31 with 8.29: 2 hits, one step loss, then the remaining units split."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 2)
    g.do("german", L(("72id",), (("88id", "D5"), ("72id", "D4"))))
    assert (g.unit("88id").hex, g.unit("72id").hex, g.unit("72id").reduced) == ("D5", "D4", True)


def test_8_31_a_retreat_is_one_hex(scenario):
    """8.31: "moves 1 hex to an adjacent hex"."""
    g, _ = attack_c4(scenario, ["88id"], 1)
    rej = g.refuse("german", L((), "E4"))
    assert rej.rule == "8.31" and "E4" in rej.message


# -- 8.32 legal destinations --------------------------------------------------------------------


def test_8_32_a_destinations_are_on_the_map(scenario):
    """8.32(a): "it is on the map" - from the edge hex A5 only map hexes are offered."""
    g = Game(scenario, empty_state(scenario, {"29tk": "B6", "88id": "A5"}, turn=3))
    strike(g, "soviet", "A5", ["29tk"], 1)
    dests = retreat_dests(g, "german")
    assert dests == {"A4"}  # A6, B5: Soviet ZOC; B6: Soviet unit
    assert all(h in scenario.grid for h in dests)
    rej = g.refuse("german", L((), "Z5"))
    assert rej.rule in ("8.32(a)", "8.31") and "Z5" in rej.message


def test_8_32_b_no_retreat_into_a_hex_with_enemy_units(scenario):
    """8.32(b): "it contains no enemy unit"."""
    g, _ = attack_c4(scenario, ["88id"], 1, extra={"337rd": "D4", "57id": "D5"})
    assert retreat_dests(g, "german") == {"D5"}
    rej = g.refuse("german", L((), "D4"))
    assert rej.rule == "8.32(b)" and "D4" in rej.message
    assert g.refuse("german", L((), "B4")).rule == "8.32(b)"
    g.do("german", L((), "D5"))


def test_8_32_c_no_retreat_into_attacker_zoc_unless_a_friendly_unit_is_there(scenario):
    """8.32(c): "it is not in the ZOC of any unit of the attacking player, unless it contains a
    friendly unit"."""
    g, _ = attack_c4(scenario, ["88id"], 1)
    rej = g.refuse("german", L((), "C3"))
    assert rej.rule == "8.32(c)" and "C3" in rej.message
    g, _ = attack_c4(scenario, ["88id"], 1, extra={"kg168": "C3"})
    assert retreat_dests(g, "german") == {"C3", "D4", "D5"}
    g.do("german", L((), "C3"))
    assert g.unit("88id").hex == "C3"


def test_8_32_c_the_zoc_of_a_non_attacking_unit_counts_too(scenario):
    """8.32(c): "the ZOC of any unit of the attacking player" - 337rd in E5 does not attack."""
    g, _ = attack_c4(scenario, ["88id"], 1, extra={"337rd": "E5"})
    assert retreat_dests(g, "german") == {"D4"}
    assert g.refuse("german", L((), "D5")).rule == "8.32(c)"


def test_8_32_d_no_retreat_into_an_enemy_supply_hex_unless_friendly(scenario):
    """8.32(d): "it is not an enemy supply hex, unless it contains a friendly unit"."""
    g = Game(scenario, empty_state(scenario, {"48rc": "B6", "88id": "C6"}, turn=3))
    strike(g, "soviet", "C6", ["48rc"], 1)
    assert retreat_dests(g, "german") == {"D6"}
    rej = g.refuse("german", L((), "D7"))
    assert rej.rule == "8.32(d)" and "D7" in rej.message
    assert g.refuse("german", L((), "C7")).rule == "8.32(d)"
    g = Game(scenario, empty_state(scenario, {"48rc": "B6", "88id": "C6", "72id": "D7"}, turn=3))
    strike(g, "soviet", "C6", ["48rc"], 1)
    assert retreat_dests(g, "german") == {"D6", "D7"}
    g.do("german", L((), "D7"))
    assert g.unit("88id").hex == "D7"


def test_8_32_e_from_a_friendly_supply_hex_only_to_another(scenario):
    """8.32(e): "if the retreating units are in a friendly supply hex, the destination is another
    friendly supply hex (which must also meet (c))"."""
    g = Game(
        scenario, empty_state(scenario, {"11pz": "E5", "48rc": "E6"}, turn=3, phase="german-combat")
    )
    strike(g, "german", "E6", ["11pz"], 1)
    assert retreat_dests(g, "soviet") == {"D7", "F7"}
    rej = g.refuse("soviet", L((), "E7"))
    assert rej.rule == "8.32(e)" and "E7" in rej.message
    assert g.refuse("soviet", L((), "D6")).rule == "8.32(c)"
    g.do("soviet", L((), "F7"))
    assert g.unit("48rc").hex == "F7"


def test_8_32_e_a_friendly_unit_does_not_lift_the_supply_hex_limit(scenario):
    """8.32(e) has no friendly-unit exception: E7 with a Soviet unit is still refused."""
    g = Game(
        scenario,
        empty_state(
            scenario, {"11pz": "E5", "48rc": "E6", "337rd": "E7"}, turn=3, phase="german-combat"
        ),
    )
    strike(g, "german", "E6", ["11pz"], 1)
    assert g.refuse("soviet", L((), "E7")).rule == "8.32(e)"


def test_8_32_e_a_german_unit_in_its_supply_hex_cannot_retreat(scenario):
    """8.32(e) with 8.34: no German supply hex touches A4, so a unit there has no retreat."""
    g = Game(scenario, empty_state(scenario, {"48rc": "B4", "88id": "A4", "72id": "A4"}, turn=3))
    strike(g, "soviet", "A4", ["48rc"], 1)
    assert retreat_dests(g, "german") == set()
    rej = g.refuse("german", L((), "A5"))
    assert rej.rule == "8.34"


def test_8_32_f_turn_1_german_retreats_w3(scenario):
    """8.32(f) / 12.3 (W3): "Under rule 12.3 B6 and C5 are not allowed (no German unit, not
    German supply hexes) and B7 is not allowed (attacked earlier in this phase, W2). Only D6
    (contains German units) is legal." """
    units = {
        "20tk": "C7",
        "75rc": "C7",
        "21grc": "D7",
        "20grc": "D7",
        "389id": "C6",
        "wiking": "D6",
        "3pz": "B7",
        "106id": "B7",
    }
    g = Game(scenario, empty_state(scenario, units, turn=1))
    g.state.attacked_hexes.append("B7")
    out = g.do("soviet", A("C6", ("20tk", "75rc", "21grc", "20grc"), True, "20tk"), dice=[3])
    assert (out.combat["final_column"], out.combat["hits"]) == ("8:1", 2)
    assert retreat_dests(g, "german") == {"D6"}
    for dest in ("B6", "C5", "B7"):
        rej = g.refuse("german", L(("389id",), dest))
        assert rej.rule == "12.3" and dest in rej.message
    g.do("german", L(("389id",), "D6"))
    u = g.unit("389id")
    assert (u.hex, u.reduced, u.retreated) == ("D6", True, True)
    assert g.state.units_in("C6") == []


def test_8_32_f_the_same_retreat_on_turn_3_has_the_normal_choices(scenario):
    """8.32(f): the 12.3 limits are for turn 1 only."""
    units = {"20tk": "C7", "75rc": "C7", "389id": "C6", "wiking": "D6", "106id": "B7"}
    g = Game(scenario, empty_state(scenario, units, turn=3))
    strike(g, "soviet", "C6", ["20tk", "75rc"], 1)
    assert retreat_dests(g, "german") == {"B6", "B7", "C5", "D6"}


def test_8_32_f_turn_1_german_supply_hex_outside_soviet_zoc_w2(scenario):
    """12.3 (W2): "retreat both units across the river to A6" - a German supply hex not in Soviet
    ZOC; empty hexes are refused."""
    g = Game(
        scenario,
        empty_state(scenario, {"29tk": "C7", "48rc": "C7", "3pz": "B7", "106id": "B7"}, turn=1),
    )
    out = g.do("soviet", A("B7", ("29tk", "48rc")), dice=[5])
    assert (out.combat["final_column"], out.combat["hits"]) == ("2:1", 1)
    assert retreat_dests(g, "german") == {"A6"}
    for dest in ("A7", "B6"):
        assert g.refuse("german", L((), dest)).rule == "12.3"
    g.do("german", L(("106id",)))  # W2: the infantry is flipped, the armor stays full
    assert g.unit("106id").reduced and not g.unit("3pz").reduced


@pytest.mark.parametrize(("turn", "dests"), [(2, {"A3", "A4"}), (3, {"A3", "A4", "B3"})])
def test_8_32_f_no_german_retreat_into_tychinovka_on_turn_2(scenario, turn, dests):
    """8.32(f) / 12.8: "During the whole of turn 2 ..., German units may not enter or retreat
    into Tychinovka (B3)." """
    g = Game(scenario, empty_state(scenario, {"29tk": "C4", "88id": "B4"}, turn=turn))
    strike(g, "soviet", "B4", ["29tk"], 1)
    assert retreat_dests(g, "german") == dests
    if turn == 2:
        rej = g.refuse("german", L((), "B3"))
        assert rej.rule == "12.8" and "B3" in rej.message
    else:
        g.do("german", L((), "B3"))


# -- 8.33 / 8.34 --------------------------------------------------------------------------------


def test_8_33_legality_is_judged_before_any_unit_moves(scenario):
    """8.33: ""contains a friendly unit" in 8.32 is judged before any unit of this retreat
    moves" - the first unit into C3 does not open it for the second."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    rej = g.refuse("german", L((), (("88id", "C3"), ("72id", "C3"))))
    assert rej.rule == "8.32(c)"
    rej = g.refuse("german", L((), (("88id", "D4"), ("72id", "C3"))))
    assert rej.rule == "8.32(c)" and "72id" in rej.message


def test_8_34_with_no_legal_retreat_the_last_hit_is_a_step_loss(scenario):
    """8.34: "If no legal retreat exists, the last hit must be applied as a step loss." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 1, extra={"337rd": "D4", "180rd": "D5"})
    assert "no legal retreat" in g.state.pending[0].prompt
    rej = g.refuse("german", L((), "D4"))
    assert rej.rule == "8.34"
    assert all(a.retreat is None for a in g.legal("german"))
    g.do("german", L(("72id",)))
    assert g.unit("72id").reduced and g.unit("72id").hex == "C4"


def test_8_34_a_single_unit_without_retreat_takes_the_loss_at_once(scenario):
    """8.34 with the forced answer: one unit, no legal retreat: the step loss is applied without
    a pending decision (event LossesForced)."""
    g, out = attack_c4(scenario, ["88id"], 1, extra={"337rd": "D4", "180rd": "D5"})
    assert "LossesForced" in kinds(out) and "DecisionPending" not in kinds(out)
    assert not g.state.pending
    assert g.unit("88id").reduced and g.unit("88id").hex == "C4"


# -- 8.35 - 8.38 Retreat markers ----------------------------------------------------------------


def test_8_35_every_unit_that_retreats_gets_a_retreat_marker_and_no_other(scenario):
    """8.35: "Place a Retreat marker on every unit that retreats." """
    g, _ = attack_c4(scenario, ["88id", "72id"], 1, extra={"57id": "D4"})
    g.do("german", L((), "D4"))
    assert g.unit("88id").retreated and g.unit("72id").retreated
    assert not g.unit("57id").retreated  # already in D4: it did not retreat
    assert not any(g.unit(u).retreated for u in SOVIET_ARMOR)
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    g.do("german", L(("88id",)))
    assert not g.unit("88id").retreated and not g.unit("72id").retreated


def test_8_36_a_retreated_unit_may_not_move(scenario):
    """8.36: "A unit with a Retreat marker may not attack, may not move"."""
    state = empty_state(
        scenario, {"88id": "C4", "72id": "C4"}, turn=3, phase="german-movement", retreated=["88id"]
    )
    g = Game(scenario, state)
    rej = g.refuse("german", M("88id", ("D4",)))
    assert rej.rule == "8.36" and "88id" in rej.message
    g.do("german", M("72id", ("D4",)))


def test_8_36_a_retreated_unit_may_not_attack_adds_nothing_and_is_not_hit(scenario):
    """8.36: "may not attack, ... adds nothing to defense strength, may not receive hits"."""
    g, out = attack_c4(scenario, ["88id", "198id"], 1, retreated=["198id"])
    assert out.combat["defense_strength"] == 2
    assert g.refuse("german", L(("198id",))).rule == "8.24"
    state = empty_state(
        scenario, {"198id": "B4", "48rc": "C4"}, turn=3, phase="german-combat", retreated=["198id"]
    )
    assert Game(scenario, state).refuse("german", A("C4", ("198id",))).rule == "8.4(g)"


def test_8_36_a_retreated_unit_may_not_retreat_again(scenario):
    """8.36: "may not retreat" - it is not one of the units that move, and 8.37 destroys it."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 1, retreated=["72id"])
    rej = g.refuse("german", L((), (("88id", "D4"), ("72id", "D5"))))
    assert rej.rule == "8.31"
    g.do("german", L((), "D4"))
    assert g.unit("88id").hex == "D4"
    assert g.unit("72id").box == "eliminated"


def test_8_37_retreated_units_are_destroyed_when_the_hex_is_emptied(scenario):
    """8.37: "When an attack leaves no unit without a Retreat marker in the defending hex (all
    were destroyed or retreated), every unit with a Retreat marker in that hex is destroyed." """
    # retreated away
    g, _ = attack_c4(scenario, ["kg168", "72id", "57id"], 1, retreated=["72id", "57id"])
    out = g.do("german", L((), "D5"))
    assert g.unit("72id").box == "eliminated" and g.unit("57id").box == "eliminated"
    assert {e.data["unit"] for e in out.events if e.kind == "UnitEliminated"} == {"72id", "57id"}
    # destroyed
    g, _ = attack_c4(scenario, ["kg168", "72id"], 1, retreated=["72id"])
    g.do("german", L(("kg168",)))
    assert g.unit("kg168").box == "eliminated" and g.unit("72id").box == "eliminated"
    # a survivor keeps them alive
    g, _ = attack_c4(scenario, ["88id", "72id"], 1, retreated=["72id"])
    g.do("german", L(("88id",)))
    assert g.unit("72id").hex == "C4" and g.unit("88id").hex == "C4"


def test_8_38_an_attack_on_only_retreated_units_destroys_them_on_any_hit(scenario):
    """8.38: "if a hex containing only units with Retreat markers is attacked, the raw column is
    the highest (8.10); a result of 1 or more hits destroys all of them (8.28)"."""
    g = Game(
        scenario,
        empty_state(
            scenario,
            {"337rd": "B4", "88id": "C4", "72id": "C4"},
            turn=3,
            retreated=["88id", "72id"],
        ),
    )
    out = g.do("soviet", A("C4", ("337rd",)), dice=[1])
    assert (out.combat["raw_column"], out.combat["hits"]) == ("8:1", 1)
    assert g.unit("88id").box == "eliminated" and g.unit("72id").box == "eliminated"
    assert not g.state.pending


def test_8_38_zero_hits_on_only_retreated_units_has_no_effect(scenario):
    """8.38: "a result of 0 hits has no effect." (Mud and woods: 8:1 moves to 4:1; die 1 = 0.)"""
    g = Game(
        scenario,
        empty_state(
            scenario,
            {"337rd": "B5", "88id": "C5", "72id": "C5"},
            turn=3,
            weather="mud",
            retreated=["88id", "72id"],
        ),
    )
    out = g.do("soviet", A("C5", ("337rd",)), dice=[1])
    assert (out.combat["final_column"], out.combat["hits"]) == ("4:1", 0)
    assert [u.id for u in g.state.units_in("C5")] == ["88id", "72id"]
    assert not g.state.pending


# -- 8.39 / 10.1 --------------------------------------------------------------------------------


def test_8_39_german_retreat_markers_go_in_the_german_recovery_phase(scenario):
    """8.39: "Retreat markers are removed in the owner's recovery phase" (10.2: "A German unit that
    retreats in phase 2 loses the marker in phase 8 of the same turn")."""
    g, _ = attack_c4(scenario, ["88id"], 1)
    g.do("german", L((), "D4"))
    g.do("soviet", END)  # -> Soviet movement
    g.do("soviet", END)  # -> Soviet recovery (automatic) -> German supply -> German combat
    assert g.state.phase == "german-combat" and g.unit("88id").retreated
    g.do("german", END)
    assert g.state.phase == "german-movement" and g.unit("88id").retreated
    assert g.refuse("german", M("88id", ("D5",))).rule == "8.36"
    out = g.do("german", END, dice=[6])  # -> German recovery -> joint -> turn 4
    assert not g.unit("88id").retreated
    assert "RetreatMarkerRemoved" in kinds(out)


def test_8_39_soviet_markers_go_in_the_soviet_recovery_phase_only(scenario):
    """8.39 / 10.1: "the phasing player removes all Retreat markers from his own units"."""
    state = empty_state(
        scenario,
        {"48rc": "B2", "88id": "D4"},
        turn=3,
        phase="soviet-movement",
        retreated=["48rc", "88id"],
    )
    g = Game(scenario, state)
    g.do("soviet", END)  # Soviet recovery, then German supply and combat
    assert g.state.phase == "german-combat"
    assert not g.unit("48rc").retreated and g.unit("88id").retreated


# -- the pending decision, forced answers and the deadline default ------------------------------


def test_8_23_legal_orders_lists_the_answers_while_the_decision_pends(scenario):
    """8.23 / 8.29: the defender's answers are the step losses and the legal retreats."""
    g, out = attack_c4(scenario, ["88id", "72id"], 1)
    assert "DecisionPending" in kinds(out) and "LossesForced" not in kinds(out)
    assert g.state.active_side == "german"
    answers = g.legal("german")
    assert set(answers) == {L(("88id",)), L(("72id",)), L((), "D4"), L((), "D5")}
    assert g.legal("soviet") == []
    for a in answers:  # every listed answer is accepted
        Game(scenario, g.state.clone()).do("german", a)


def test_8_23_the_attacker_may_not_answer_for_the_defender(scenario):
    """8.23: "The defender applies the hits"."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    rej = g.refuse("soviet", L(("88id",)))
    assert rej.rule == "8.23"


def test_8_23_a_forced_answer_is_applied_at_once(scenario):
    """8.23: with only one legal way to take the hits, it is applied with no pending decision."""
    g, out = attack_c4(scenario, ["kg168"], 1, extra={"337rd": "D4", "180rd": "D5"})
    assert "LossesForced" in kinds(out) and not g.state.pending
    assert g.unit("kg168").box == "eliminated"
    assert g.state.active_side == "soviet"
    assert g.refuse("soviet", L(("kg168",))).rule == "8.23"  # nothing is left to answer
    g.do("soviet", END)  # the attacker carries on


def test_8_23_default_soviet_one_hit_takes_the_step_loss_that_keeps_most_strength(scenario):
    """Deadline default (8.30: with 1 hit the Soviet chooses): a step loss, no retreat; 48rc
    (3 -> 2) rather than 21grc (4 -> 2)."""
    g, _ = attack_c4(scenario, ["21grc", "48rc"], 1, side="german")
    out = g.do("system", O.Default())
    assert "DefaultApplied" in kinds(out) and isinstance(out.order, O.Default)
    assert g.unit("48rc").reduced and not g.unit("21grc").reduced
    assert g.unit("48rc").hex == "C4" and not g.unit("48rc").retreated
    assert not g.state.pending


def test_8_30_default_soviet_mandatory_retreat_goes_to_the_hex_with_friendly_units(scenario):
    """Deadline default with 8.30 (mandatory retreat): the step loss keeping most strength, then
    the retreat to the hex with friendly units (D5) before the empty one (D4)."""
    g, _ = attack_c4(scenario, ["21grc", "48rc"], 2, side="german", extra={"373rd": "D5"})
    assert retreat_dests(g, "soviet") == {"D4", "D5"}
    g.do("system", O.Default())
    assert g.unit("48rc").reduced and not g.unit("21grc").reduced
    assert (g.unit("48rc").hex, g.unit("21grc").hex) == ("D5", "D5")
    assert g.unit("48rc").retreated and g.unit("21grc").retreated


def test_8_30_default_german_takes_step_losses_and_does_not_retreat(scenario):
    """Deadline default (8.30: "The German player always chooses"): no retreat unless mandatory,
    which for the German it never is; the losses keep the most strength."""
    g, _ = attack_c4(scenario, ["198id", "kg168"], 2)
    assert retreat_dests(g, "german") == {"D4", "D5"}
    g.do("system", O.Default())
    # 198id must take the first hit (8.27); the second on kg168 keeps 2, on 198id only 1
    assert g.unit("198id").reduced and g.unit("198id").hex == "C4"
    assert g.unit("kg168").box == "eliminated"
    assert not g.unit("198id").retreated and not g.state.pending
