"""The Recovery Phase (section 3), the return to the map [10.3] (section 4) and the Withdrawn
Boxes (section 5) of borodino-recovery.md."""

from __future__ import annotations

import pytest

from adjudicator.borodino import recovery
from adjudicator.core.errors import Rejection
from tests.borodino.helpers import Table, group, line_group, scenario, unit


def table(n_r: int = 6, n_f: int = 6, **more) -> Table:
    parts = [*line_group("r", "russian", n_r, 10, cd=3), *line_group("f", "french", n_f, 2, cd=3)]
    return Table(scenario(*parts, **more))


def to_recovery_box(t: Table, side: str, *units: str) -> None:
    """Rout the units, then a Recovery Phase moves them to the Recovery Box (5.1)."""
    for u in units:
        t.say(side, f"rout {u}")
    t.say(side, "recovery")


def test_5_1_to_5_3_a_unit_routed_in_turn_t_first_rolls_in_turn_t_plus_1():
    t = table()
    t.say("russian", "rout r1")
    assert t.where("r1") == "withdrawn"
    said = t.say("russian", "recovery")  # turn 1: no roll for r1, it moves to the Recovery Box
    assert t.where("r1") == "recovery" and t.state.turn == 2
    assert not any("recovery r1" in e for e in said) and any("(5.1)" in e for e in said)
    said = t.say("russian", "recovery", [2])  # turn 2: its first roll
    assert t.where("r1") == "recovered" and any("recovers: die 2" in e for e in said)


def test_3_4_3_5_a_roll_at_most_the_disordered_cohesion_recovers():
    t = table()
    to_recovery_box(t, "russian", "r1")
    said = t.say("french", "recovery", [3])
    assert t.where("r1") == "recovered" and "die 3 <= cohesion 3 (3.5)" in " ".join(said)
    assert t.state.phase == "placement" and t.state.placing == ["russian"]


def test_3_6_a_roll_above_the_cohesion_eliminates_permanently():
    t = table()
    to_recovery_box(t, "russian", "r1")
    said = t.say("french", "recovery", [4])
    assert t.where("r1") == "eliminated" and "die 4 > cohesion 3 (3.6)" in " ".join(said)
    assert t.state.turn == 3  # nothing to place: the turn ended


def test_3_7_every_unit_in_the_recovery_box_rolls():
    t = table()
    to_recovery_box(t, "russian", "r1", "r2", "r3")
    t.say("russian", "recovery", [6, 6, 6])  # three rolls, not optional: all used
    assert [t.where(u) for u in ("r1", "r2", "r3")] == ["eliminated"] * 3


def test_3_8_who_goes_first_each_rolls_higher_first_ties_rerolled():
    t = table()
    t.say("french", "rout f1")
    to_recovery_box(t, "russian", "r1")
    # first-player rolls: 4/4 (tie), then 2/5: French first; then f1's roll, r1's roll
    said = t.say("russian", "recovery", [4, 4, 2, 5, 1, 1])
    assert "Who goes first (3.8): both 4, rolled again." in said
    assert "Who goes first (3.8): Russian 2, French 5: French first." in said
    assert t.state.placing == ["french", "russian"] and t.state.first == "french"
    with pytest.raises(Rejection) as exc:
        t.say("russian", "return r1 1004")
    assert exc.value.rule == "3.8"


def test_3_8_no_roll_for_first_when_only_one_player_has_units():
    t = table()
    to_recovery_box(t, "russian", "r1")
    said = t.say("russian", "recovery", [6])
    assert not any("Who goes first" in e for e in said)


def test_3_2_3_3_a_group_with_no_unit_on_the_map_is_out_of_the_game():
    t = table(n_r=2)
    to_recovery_box(t, "russian", "r1")
    t.say("russian", "rout r2")
    said = t.say("russian", "recovery")  # r1 in the Recovery Box, r2 in the Withdrawn Box
    assert "r" in t.state.out_of_game and t.where("r1") == t.where("r2") == "eliminated"
    assert any("out of the game (3.2)" in e for e in said)


def test_3_3_artillery_on_the_map_keeps_its_group_in_the_game():
    parts = [group("r", "russian"), unit("r1", "russian", "1001", "r"),
             unit("r2", "russian", "1002", "r"), unit("ra", "russian", "1004", "r", type="artillery"),
             *line_group("f", "french", 2, 2)]  # fmt: skip
    t = Table(scenario(*parts))
    t.say("russian", "rout r1")
    t.say("russian", "recovery")  # N = 2, L = 1: no collapse
    t.say("russian", "rout r2")  # now only the artillery is on the map
    t.say("russian", "recovery", [1])  # (L = 2 of 2: the group collapses first; 6.5(d))
    assert "r" not in t.state.out_of_game and t.where("r1") in ("recovered", "map")


def test_3_3_a_group_still_to_arrive_is_not_out_of_the_game():
    parts = [group("r", "russian"), unit("r1", "russian", "1001", "r"),
             unit("r0", "russian", None, "r", start="later"),
             unit("ra", "russian", None, "r", start="later", type="artillery"),
             *line_group("f", "french", 2, 2)]  # fmt: skip
    t = Table(scenario(*parts, on_collapse=False))
    t.say("russian", "at ra 1005")
    t.say("russian", "rout ra")  # artillery: no collapse (N = 1, L = 0), but none on the map
    t.say("russian", "rout r1")  # N = 1, L = 1: it collapses, r1 is eliminated (6.5(c))
    t.say("russian", "recovery")
    t.say("russian", "recovery", [1])  # ra rolls; the group has a unit still to arrive
    assert t.state.out_of_game == [] and t.where("ra") == "recovered"
    assert t.state.phase == "activations"  # 4.5: no unit of its group on the map: it waits


def placing(t: Table) -> None:
    to_recovery_box(t, "russian", "r1")
    t.say("french", "recovery", [1])
    assert t.state.phase == "placement"


def test_4_1_a_returned_unit_is_disordered():
    t = table()
    placing(t)
    said = t.say("russian", "return r1 1007")
    assert t.spot("r1").on_map and t.spot("r1").disordered and "Disordered (4.1)" in said[0]


def test_4_2_the_hex_must_be_within_3_of_a_unit_of_its_group_and_the_refusal_lists_the_legal_hexes():
    t = table()
    placing(t)
    with pytest.raises(Rejection) as exc:
        t.say("russian", "return r1 0612")  # far from every unit of r
    assert exc.value.rule == "4.2" and "legal hexes for r1:" in exc.value.message
    legal = exc.value.message.split("legal hexes for r1: ")[1].split(", ")
    assert legal == recovery.legal_hexes(t.system.scenario, t.state, "r1") and "1007" in legal
    assert t.where("r1") == "recovered"  # a refusal changes nothing


def test_4_3_the_hex_must_be_at_least_3_from_every_enemy_unit():
    t = table()
    t.say("french", "at f6 0806")  # 2 hexes from 1006
    placing(t)
    m = t.system.scenario.map
    assert m.distance("0806", "1006") == 2
    with pytest.raises(Rejection) as exc:
        t.say("russian", "return r1 1006")
    assert exc.value.rule == "4.3" and "from the enemy f6" in exc.value.message
    t.say("russian", "return r1 1009")  # 3 hexes from f6 is enough (1.11)
    assert m.distance("0806", "1009") >= 3 and t.spot("r1").hex == "1009"


def test_4_4_an_independent_unit_returns_within_3_of_another_unit_of_its_army():
    parts = [unit("cos", "russian", "1001", army="2nd"), unit("inf", "russian", "1008", army="2nd"),
             unit("other", "russian", "0112", army="1st"), *line_group("f", "french", 1, 5)]  # fmt: skip
    t = Table(scenario(*parts))
    t.say("russian", "rout cos")
    t.say("russian", "recovery")
    t.say("russian", "recovery", [1])
    with pytest.raises(Rejection) as exc:
        t.say("russian", "return cos 0211")  # near `other`, of another Army
    assert exc.value.rule == "4.4"
    t.say("russian", "return cos 1011")
    assert t.spot("cos").hex == "1011"


RING = ("0604", "0608", "0405", "0805", "0407", "0807")  # 2 hexes around 0606


def test_4_5_a_unit_with_no_legal_hex_waits_without_rolling_again_and_is_placed_later():
    parts = [unit("r1", "russian", "0612", army="2nd"), unit("r2", "russian", "0606", army="2nd"),
             unit("r3", "russian", "0602", army="2nd"), group("f", "french"),
             *(unit(f"f{i}", "french", h, "f") for i, h in enumerate(RING, 1))]  # fmt: skip
    t = Table(scenario(*parts))
    t.say("russian", "rout r1")
    t.say("russian", "recovery")
    t.say("russian", "rout r3")  # only r2 on the map, ringed at 2 hexes by the French
    said = t.say("russian", "recovery", [1])  # r1 recovers, r3 moves to the Recovery Box
    assert t.where("r1") == "recovered" and any("(4.5)" in e for e in said)
    assert t.state.turn == 3
    t.say("french", "at f1 1201")
    t.say("russian", "recovery", [6])  # only r3 rolls: r1 does not roll again (4.5)
    assert t.where("r3") == "eliminated" and t.state.phase == "placement"
    assert t.legal("russian") == ["return r1 0603"]  # the one legal hex now
    t.say("russian", "return r1 0603")
    assert t.where("r1") == "map"


def test_4_7_a_returned_unit_of_a_collapsed_group_stays_disordered():
    t = table(n_r=6)
    to_recovery_box(t, "russian", "r1", "r2")  # turn 1: 2 of 6 lost, it holds
    t.say("russian", "rout r3")
    t.say("russian", "rout r4")
    said = t.say("russian", "recovery", [1, 1])  # 4 of 6: collapse, then r1, r2 recover
    assert "r" in t.state.collapsed and any("COLLAPSES" in e for e in said)
    assert t.where("r3") == t.where("r4") == "eliminated"  # 6.5(c); r1, r2: 6.5(d)
    t.say("russian", "return r1 1007")
    t.say("russian", "return r2 1008")
    t.say("russian", "activate r")
    t.say("russian", "end")  # r1, r2, r5, r6 Disordered, none may attempt (6.8)
    assert t.spot("r1").disordered and t.state.phase == "activations"


def test_4_deadline_default_places_in_the_legal_hex_nearest_the_group_ties_in_hex_order():
    t = table()
    placing(t)
    out = t.system.apply(t.state, "system", t.system.grammar.parse("default"), None)
    text = [e.text for e in out.events]
    # the nearest legal hexes are adjacent to r2..r6 (distance 1); first in hex order: 0901
    assert out.state.units["r1"].hex == "0901"
    assert any("Deadline default for Russian: return r1 0901" in e for e in text)
