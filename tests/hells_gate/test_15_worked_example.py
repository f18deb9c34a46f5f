"""Section 15: the worked example of turn 1 (W0-W13), played on the real scenario setup.

Every test replays turn 1 from `new_game(scenario)` (tests/hells_gate/helpers.py) up to its W item with the orders
and dice of the example (hells-gate.md section 15; expected values from hells-gate-scenario.md
section 5), then asserts the item's "Assertions" line. The main run of section 5 is followed:
the third Soviet armor unit (5gtk) moves B1-C1-C2 in W8.
"""

from __future__ import annotations

from adjudicator.hells_gate import supply
from adjudicator.hells_gate.losses import retreat_hexes
from adjudicator.hells_gate.orders import Losses
from tests.hells_gate.helpers import END, A, Game, L, M, new_game

# The example as (label, side, order, dice), in the order it is played.
SCRIPT = (
    ("W2", "soviet", A("B7", ("29tk", "48rc")), [5]),
    ("W2-losses", "german", L(("106id",)), []),
    ("W3", "soviet", A("C6", ("20tk", "75rc", "21grc", "78rc"), True, "20tk"), [3]),
    ("W3-losses", "german", L(("389id",), "D6"), []),
    ("W4", "soviet", A("D6", ("20grc", "373rd", "294rd"), True), [4]),
    ("W6", "soviet", A("B2", ("5gtk", "47rc"), True, "5gtk"), [2]),
    ("W6-losses", "german", L(("198id",)), []),
    ("W7", "soviet", A("C2", ("180rd", "337rd")), [5]),
    ("W7-losses", "german", L((), "D2"), []),
    ("W8-start", "soviet", END, []),
    ("W8-20tk", "soviet", M("20tk", ("C6", "C5")), []),
    ("W8-29tk", "soviet", M("29tk", ("C6", "B6")), []),
    ("W8-5gtk", "soviet", M("5gtk", ("C1", "C2")), []),
    ("W9", "soviet", END, []),  # Soviet movement ends; recovery; German supply (W9)
    ("W10b", "german", A("B6", ("11pz", "14pz"), True, "14pz"), [2]),
    ("W10b-losses", "soviet", L((), "B5"), []),
    ("W11-start", "german", END, []),
    ("W11", "german", M("11pz", ("B7", "C6")), []),
    ("W12", "german", END, [6]),  # German movement ends; recovery (W12); joint phase die 6
)
LABELS = [label for label, *_ in SCRIPT]


def play(scenario, upto: str | None = None, *, through: bool = False) -> Game:
    """Turn 1 of the example from the real setup: every step before `upto` (or through it)."""
    g = Game(scenario)
    stop = len(SCRIPT) if upto is None else LABELS.index(upto) + (1 if through else 0)
    for _label, side, order, dice in SCRIPT[:stop]:
        g.do(side, order, dice=dice)
    return g


def on_map_ids(g: Game, side: str) -> set[str]:
    return {u.id for u in g.state.on_map(side)}


def retreat_answers(g: Game, side: str) -> set[str]:
    return {o.retreat for o in g.legal(side) if isinstance(o, Losses) and o.retreat is not None}


def adjacent_to(g: Game, hex_id: str, side: str) -> bool:
    return any(g.state.side_in(n) == side for n in g.scen.grid.neighbours(hex_id))


def test_15_w0_6_2_no_soviet_unit_starts_out_of_supply(scenario):
    """W0: "Expected: no Soviet unit receives an OOS marker. No Soviet reinforcements on turn 1."""
    g = play(scenario, "W2")
    assert (g.state.turn, g.state.phase, g.state.weather) == (1, "soviet-combat", "snow")
    out = new_game(scenario)
    assert not [e for e in out.events if e.kind in ("OutOfSupply", "ReinforcementEntered")]
    assert not [u.id for u in g.state.on_map("soviet") if u.oos]
    soviet_track = [
        u for u in g.state.units.values() if u.side == "soviet" and u.box == "turn_track"
    ]
    assert soviet_track and all(u.track_turn >= 2 for u in soviet_track)
    # Only the 254th and 294th start off a Soviet supply hex, and both trace through E6 or F7.
    off_supply = {
        u.id for u in g.state.on_map("soviet") if scenario.hexes[u.hex].supply != "soviet"
    }
    assert off_supply == {"254rd", "294rd"}
    assert g.state.units_in("F7") == [] and not adjacent_to(g, "F7", "german")
    assert g.state.side_in("E6") == "soviet"
    lengths = supply.line_lengths(scenario, g.state, "soviet")
    assert lengths["F6"] == 1 and lengths["E5"] == 1


def test_15_w1_8_9_attack_on_b7_with_75rc_48rc_is_3_to_2(scenario):
    """W1: "Odds 6:4 = 1.5. Raw column 3:2. No shifts." (considered, not made)"""
    g = play(scenario, "W2")
    doc = g.preview("soviet", A("B7", ("75rc", "48rc")))
    assert (doc["attack_strength"], doc["defense_strength"]) == (6, 4)
    assert (doc["raw_column"], doc["shifts"], doc["final_column"]) == ("3:2", [], "3:2")
    assert "B7" not in g.state.attacked_hexes


def test_15_w2_8_21_attack_on_b7_2_to_1_one_hit_106id_flipped(scenario):
    """W2: "Assertions: raw 2:1; final 2:1; CRT(2:1, 5) left-hand value = 1; B7 counts as
    attacked in this phase.\""""
    g = play(scenario, "W2")
    decisive = g.preview("soviet", A("B7", ("29tk", "48rc"), True))
    assert decisive["flip_choices"] == ["29tk"]  # it would have flipped the 29th (8.18)
    g.do("soviet", A("B7", ("29tk", "48rc")), dice=[5])
    c = g.last.combat
    assert (c["attack_strength"], c["defense_strength"]) == (9, 4)
    assert (c["raw_column"], c["shifts"], c["final_column"]) == ("2:1", [], "2:1")
    assert c["decisive"] is False and c["die"] == 5
    assert c["hits"] == scenario.hits("2:1", 5, False) == 1
    assert "B7" in g.state.attacked_hexes
    assert g.unit("29tk").attacked and g.unit("48rc").attacked and not g.unit("29tk").reduced
    assert "A6" in retreat_answers(g, "german")  # retreat across the river to A6 offered
    g.do("german", L(("106id",)))
    assert g.unit("106id").reduced and g.unit("106id").hex == "B7"
    assert not g.unit("3pz").reduced and g.unit("3pz").hex == "B7"
    assert not g.state.pending


def test_15_w3_12_3_decisive_8_to_1_two_hits_389id_retreats_to_d6_only(scenario):
    """W3: "Assertions: final 8:1; decisive attack allowed; flipped unit is armor; CRT(8:1, 3)
    right-hand value = 2; legal retreat set = {D6}.\""""
    g = play(scenario, "W3")
    c7 = g.preview("soviet", A("C6", ("20tk", "75rc")))
    d7 = g.preview("soviet", A("C6", ("21grc", "78rc")))
    assert (c7["attack_strength"], d7["attack_strength"]) == (9, 7)
    doc = g.preview("soviet", A("C6", ("20tk", "75rc", "21grc", "78rc"), True))
    assert doc["decisive_allowed"] and doc["flip_choices"] == ["20tk"]
    g.do("soviet", A("C6", ("20tk", "75rc", "21grc", "78rc"), True, "20tk"), dice=[3])
    c = g.last.combat
    assert (c["attack_strength"], c["defense_strength"]) == (16, 2)
    assert (c["raw_column"], c["shifts"], c["final_column"]) == ("8:1", [], "8:1")
    assert c["decisive"] is True
    assert g.unit("20tk").reduced and scenario.units["20tk"].type == "armor"
    assert not any(g.unit(u).reduced for u in ("75rc", "21grc", "78rc"))
    assert c["hits"] == scenario.hits("8:1", 3, True) == 2
    assert retreat_hexes(scenario, g.state, "C6", "german") == ["D6"]
    assert retreat_answers(g, "german") == {"D6"}
    for dest in ("B6", "C5", "B7"):  # open under the normal rules, closed by 12.3
        rejection = g.refuse("german", L(("389id",), dest))
        assert rejection.rule == "12.3" and dest in rejection.message
    later = g.state.clone()
    later.turn = 3
    assert set(retreat_hexes(scenario, later, "C6", "german")) == {"B6", "B7", "C5", "D6"}
    g.do("german", L(("389id",), "D6"))
    u = g.unit("389id")
    assert (u.hex, u.reduced, u.retreated) == ("D6", True, True)
    assert g.state.units_in("C6") == []


def test_15_w4_8_18_smela_3_to_2_decisive_zero_hits_flip_stands(scenario):
    """W4: "Assertions: final 3:2; S5 not applied; CRT(3:2, 4) right-hand value = 0; exactly one
    attacker flipped.\""""
    g = play(scenario, "W4")
    assert scenario.hexes["D6"].name == "Smela"
    assert [scenario.is_river(h, "D6") for h in ("D7", "E6", "E5")] == [False, True, False]
    before = {uid: g.unit(uid).reduced for uid in ("20grc", "373rd", "294rd")}
    g.do("soviet", A("D6", ("20grc", "373rd", "294rd"), True), dice=[4])
    c = g.last.combat
    assert (c["attack_strength"], c["defense_strength"]) == (7, 4)  # 389id (Retreat) adds 0
    assert (c["raw_column"], c["final_column"]) == ("3:2", "3:2")
    assert not [s for s in c["shifts"] if s["code"] == "S5"]
    assert c["hits"] == scenario.hits("3:2", 4, True) == 0
    flipped = [uid for uid, was in before.items() if g.unit(uid).reduced and not was]
    assert flipped == ["20grc"]
    assert g.last.order.flip == "20grc"
    assert not g.state.pending
    assert {u.id for u in g.state.units_in("D6")} == {"wiking", "5ss", "389id"}
    assert not g.unit("wiking").reduced


def test_15_w5_8_9_206rd_alone_could_attack_kanev_at_2_to_1(scenario):
    """W5: "the 206th Infantry Division could attack at 2:1 ... No attack." (section 5, check 73)"""
    g = play(scenario, "W6")
    doc = g.preview("soviet", A("F2", ("206rd",)))
    assert (doc["attack_strength"], doc["defense_strength"]) == (2, 1)
    assert (doc["raw_column"], doc["final_column"]) == ("2:1", "2:1")
    assert "F2" not in g.state.attacked_hexes


def test_15_w6_8_14_b2_3_to_1_river_alternative_gains_nothing(scenario):
    """W6: "Assertions: final 3:1; the alternative gives raw 4:1 and final 3:1; CRT(3:1, 2)
    right-hand value = 1.\""""
    g = play(scenario, "W6")
    alt = g.preview("soviet", A("B2", ("5gtk", "47rc", "180rd", "337rd")))
    assert (alt["attack_strength"], alt["raw_column"], alt["final_column"]) == (12, "4:1", "3:1")
    assert [s["code"] for s in alt["shifts"]] == ["S5"]
    g.do("soviet", A("B2", ("5gtk", "47rc"), True, "5gtk"), dice=[2])
    c = g.last.combat
    assert (c["attack_strength"], c["defense_strength"]) == (9, 3)
    assert (c["raw_column"], c["shifts"], c["final_column"]) == ("3:1", [], "3:1")
    assert g.unit("5gtk").reduced and not g.unit("47rc").reduced
    assert c["hits"] == scenario.hits("3:1", 2, True) == 1
    assert "A2" in retreat_answers(g, "german") and not adjacent_to(g, "A2", "soviet")
    g.do("german", L(("198id",)))
    assert g.unit("198id").reduced and g.unit("198id").hex == "B2"


def test_15_w7_8_17_c2_woods_2_to_1_no_decisive_kg168_retreats_to_d2(scenario):
    """W7: "Assertions: final 2:1; decisive attack refused; CRT(2:1, 5) left-hand value = 1.\""""
    g = play(scenario, "W7")
    rejection = g.refuse("soviet", A("C2", ("180rd", "337rd"), True))
    assert rejection.rule == "8.17(a)" and "two-step" in rejection.message
    g.do("soviet", A("C2", ("180rd", "337rd")), dice=[5])
    c = g.last.combat
    assert (c["attack_strength"], c["defense_strength"]) == (3, 1)
    assert c["raw_column"] == "3:1" and [s["code"] for s in c["shifts"]] == ["S4"]
    assert c["final_column"] == "2:1"
    assert c["hits"] == scenario.hits("2:1", 5, False) == 1
    assert retreat_answers(g, "german") == {"D2"}
    g.do("german", L((), "D2"))
    u = g.unit("kg168")
    assert (u.hex, u.retreated, u.box) == ("D2", True, "map")
    assert g.state.units_in("C2") == []


def test_15_w8_12_2_only_the_three_soviet_armor_units_move(scenario):
    """W8: "Assertion: a Soviet non-armor unit may not move in this phase.\""""
    g = play(scenario, "W8-20tk")
    assert g.state.phase == "soviet-movement"
    for uid, dest in (("75rc", "C6"), ("47rc", "A1"), ("254rd", "F7")):
        rejection = g.refuse("soviet", M(uid, (dest,)))
        assert rejection.rule == "12.2" and "armor" in rejection.message
    rejection = g.refuse("soviet", END)  # each armor unit must move first
    assert rejection.rule == "12.2" and "20tk" in rejection.message
    rejection = g.refuse("soviet", M("20tk", ("C6", "C7")))  # back to its start hex
    assert rejection.rule == "12.2" and "C7" in rejection.message
    g.do("soviet", M("20tk", ("C6", "C5")))
    g.do("soviet", M("29tk", ("C6", "B6")))
    g.do("soviet", M("5gtk", ("C1", "C2")))
    assert [g.unit(u).hex for u in ("20tk", "29tk", "5gtk")] == ["C5", "B6", "C2"]
    g.do("soviet", END)
    assert g.state.phase == "german-combat"


def test_15_w9_6_9_german_supply_and_the_11th_and_14th_panzer_enter_at_a6(scenario):
    """W9: "Many German units cannot trace supply through Soviet ZOC and receive OOS markers.
    The 11th and 14th Panzer Divisions enter in the south.\""""
    g = play(scenario, "W9", through=True)
    assert (g.state.turn, g.state.phase) == (1, "german-combat")
    oos = {u.id for u in g.state.on_map("german") if u.oos}
    assert oos == {
        "106id",
        "389id",
        "3pz",
        "57id",
        "5ss",
        "72id",
        "88id",
        "kab",
        "kg168",
        "wallonien",
        "wiking",
    }
    assert {g.unit(u).hex for u in oos} == {"B7", "D2", "D6", "E2", "F2", "F3", "F4"}
    for uid in ("11pz", "14pz"):
        u = g.unit(uid)
        assert (u.box, u.hex, u.reduced, u.oos, u.entered_turn) == ("map", "A6", False, False, 1)
    assert not [u.id for u in g.state.on_map("soviet") if u.oos]  # Soviet supply is not checked


def test_15_w10a_8_13_5ss_against_c5_would_get_only_1_to_1(scenario):
    """W10a: "final column 1:1: S4 1 left, and S7 capped at 1 left on turn 1.\""""
    g = play(scenario, "W10b")
    doc = g.preview("german", A("C5", ("5ss",)))
    assert (doc["attack_strength"], doc["defense_strength"]) == (2, 1)
    assert doc["raw_column"] == "2:1" and doc["final_column"] == "1:1"
    assert {s["code"]: s["columns"] for s in doc["shifts"]} == {"S4": -1, "S7": -1}


def test_15_w10b_8_30_panzers_4_to_1_decisive_29tk_retreats_to_b5(scenario):
    """W10b: "Assertion: CRT(4:1, 2) right-hand value = 1." (raw 6:1, S5, final 4:1)"""
    g = play(scenario, "W10b")
    rejection = g.refuse("german", A("C7", ("106id",)))
    assert rejection.rule == "12.4"  # only German armor attacks on turn 1
    strength = {u: scenario.units[u].strength_full for u in ("11pz", "14pz")}
    assert strength["14pz"] < strength["11pz"]
    g.do("german", A("B6", ("11pz", "14pz"), True, "14pz"), dice=[2])
    c = g.last.combat
    assert (c["attack_strength"], c["defense_strength"]) == (15, 2)
    assert c["raw_column"] == "6:1" and c["final_column"] == "4:1"
    assert [(s["code"], s["columns"]) for s in c["shifts"]] == [("S5", -1)]
    assert g.unit("14pz").reduced and not g.unit("11pz").reduced
    assert c["hits"] == scenario.hits("4:1", 2, True) == 1
    assert retreat_answers(g, "soviet") == {"B5", "C5"}
    assert L(("29tk",)) in g.legal("soviet")  # 1 hit: Soviet chooses
    g.do("soviet", L((), "B5"))
    u = g.unit("29tk")
    assert (u.hex, u.retreated, u.reduced) == ("B5", True, False)
    assert not adjacent_to(g, "B5", "german")


def test_15_w10c_8_10_3pz_against_c7_is_hopeless(scenario):
    """W10c: "The 3rd Panzer Division has no chance against the strong Soviet unit in the woods
    hex C7. No attack.\""""
    g = play(scenario, "W10b")
    doc = g.preview("german", A("C7", ("3pz",)))
    assert (doc["attack_strength"], doc["defense_strength"]) == (4, 6)
    assert (doc["raw_column"], doc["final_column"]) == ("1:2", "1:2")
    assert doc["hits_normal"] == [0, 0, 0, 0, 0, 0]


def test_15_w11_12_6_one_german_armor_unit_moves_11pz_to_c6(scenario):
    """W11: "Only one armor unit may move. ... Chosen: the 11th Panzer Division moves into the
    empty hex C6.\""""
    g = play(scenario, "W11")
    assert g.state.phase == "german-movement"
    moves = {o.path for o in g.legal("german") if getattr(o, "unit", None) == "11pz"}
    assert {("B6",), ("A5",), ("B7", "C6"), ("B6", "C6")} <= moves
    rejection = g.refuse("german", M("106id", ("A6",)))
    assert rejection.rule == "12.6"
    g.do("german", M("11pz", ("B7", "C6")))
    assert g.unit("11pz").hex == "C6"
    rejection = g.refuse("german", M("14pz", ("A5",)))
    assert rejection.rule == "12.6" and "11pz" in rejection.message


def test_15_w12_10_1_german_recovery_removes_389id_and_kg168_retreat_markers(scenario):
    """W12: "Retreat markers are removed from the 88th [Q24: the unit that retreated from C2] and
    the 389th Infantry Divisions. Turn 1 ends (phase 9: turn marker to 2, weather roll).\""""
    g = play(scenario, "W12")
    assert g.unit("389id").retreated and g.unit("kg168").retreated
    g.do("german", END, dice=[6])
    kinds = [(e.kind, e.data.get("phase"), e.data.get("unit")) for e in g.last.events]
    start = kinds.index(("PhaseBegan", "german-recovery", None))
    end = kinds.index(("PhaseBegan", "joint", None))
    removed = {unit for kind, _, unit in kinds[start:end] if kind == "RetreatMarkerRemoved"}
    assert removed == {"389id", "kg168"}
    assert not g.unit("389id").retreated and not g.unit("kg168").retreated
    assert g.unit("29tk").retreated  # a Soviet marker waits for Soviet phase 4 of turn 2 (10.2)
    rolls = [(r.purpose, r.value) for r in g.last.rolls]
    assert rolls == [("weather", 6)]
    assert (g.state.turn, g.state.weather) == (2, "snow")


def test_15_w13_12_7_20tk_and_29tk_out_of_supply_on_turn_2(scenario):
    """W13: "the 20th and 29th Tank Corps will be out of supply in the Soviet supply phase of
    turn 2 because of the 3-hex limit (rule 12.7).\""""
    g = play(scenario)
    assert (g.state.turn, g.state.phase) == (2, "soviet-combat")
    marked = [e.data["unit"] for e in g.last.events if e.kind == "OutOfSupply"]
    assert sorted(marked) == ["20tk", "29tk"]
    oos = {u.id for u in g.state.on_map("soviet") if u.oos}
    assert oos == {"20tk", "29tk"}
    lengths = supply.line_lengths(scenario, g.state, "soviet")
    assert lengths["C5"] == 4 and lengths["B5"] == 4  # traceable, but longer than 3
    for uid in ("18tk", "5gcc", "5mc"):  # turn-2 reinforcements enter without markers (6.14)
        assert g.unit(uid).on_map and not g.unit(uid).oos
    assert on_map_ids(g, "soviet") >= {"20tk", "29tk", "5gtk"}
