"""Rules versions of Borodino (state.py's module doc): version 2 applies 6.6's decision (artillery
and Opolchenie units are outside the whole collapse rule, 6.8 and 2.5 too); version 1, the rules
of every game stored before it, keeps barring them. And 3.3's decision: a group with a unit still
to arrive is not out of the game (both versions)."""

from __future__ import annotations

import pytest

from adjudicator.borodino.state import State
from adjudicator.core.dice import FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.core.system import start
from tests.borodino.helpers import Table, group, line_group, scenario, unit

EXTRA = [
    unit("ra", "russian", "1008", "r", type="artillery", disordered=True),
    unit("ro", "russian", "1009", "r", type="opolchenie", disordered=True),
]


def collapsed_table(rules: int | None) -> Table:
    """Group r: 3 infantry (N = 3), a Disordered artillery and Opolchenie unit; r1, r2 lost, so
    the Morale Phase collapses it (6.3); the turn's Recovery Phase, then turn 2."""
    parts = [*line_group("r", "russian", 3, 10), *EXTRA, *line_group("f", "french", 3, 2)]
    t = Table(scenario(*parts), rules=rules)
    t.say("russian", "rout r1")
    t.say("russian", "eliminate r2")
    t.say("russian", "morale")
    assert t.state.collapsed == ["r"]
    t.say("russian", "recovery")
    assert t.state.turn == 2
    return t


def test_rules_version_2_is_the_newest_and_version_1_stays_for_stored_games():
    t = Table(scenario(*line_group("r", "russian", 3, 10), *line_group("f", "french", 3, 2)))
    assert t.system.rules_version == 2 and t.state.rules == 2
    assert t.state.to_json()["rules"] == 2
    old = start(t.system, False, FixedDice([]), 1).state
    assert old.rules == 1 and "rules" not in old.to_json()  # the bytes of a stored state
    assert State.from_json(old.to_json()) == old
    assert State.from_json(t.state.to_json()) == t.state
    with pytest.raises(ValueError, match="1 to 2"):
        t.system.initial(False, FixedDice([]), rules=3)


def test_6_6_v2_artillery_and_opolchenie_of_a_collapsed_group_rally():
    t = collapsed_table(None)
    assert t.spot("ra").disordered and t.spot("r3").disordered  # r3 by 6.5(a)
    t.say("russian", "activate r")
    said = t.say("russian", "end")
    assert any("may attempt: ra, ro" in s for s in said)  # r3 is not eligible (6.8)
    said = t.say("russian", "rally ra", [3])  # 3 <= cohesion 3 (2.6)
    assert any("ra (ra) rallies" in s for s in said)
    assert t.spot("ra").on_map and not t.spot("ra").disordered  # Formed again
    with pytest.raises(Rejection) as refused:
        t.say("russian", "rally r3", [1])
    assert refused.value.rule == "2.5" and "may attempt now: ro" in str(refused.value)


def test_6_6_v1_artillery_and_opolchenie_of_a_collapsed_group_stay_disordered():
    t = collapsed_table(1)
    t.say("russian", "activate r")
    said = t.say("russian", "end")
    assert any("no unit may attempt to rally" in s for s in said)
    with pytest.raises(Rejection) as refused:
        t.say("russian", "rally ra", [1])
    assert refused.value.rule == "2.5" and "which has collapsed" in str(refused.value)
    assert t.spot("ra").disordered


@pytest.mark.parametrize("rules, stays", [(None, False), (1, True)])
def test_6_6_4_7_a_returned_artillery_unit_of_a_collapsed_group(rules, stays):
    """4.7: v2: the artillery returns Disordered (4.1) and may rally later; v1: it stays so."""
    t = collapsed_table(rules)
    t.say("russian", "rout ra")
    t.say("russian", "recovery")  # turn 2 ends: ra to the Recovery Box (5.1)
    said = t.say("russian", "recovery", [1])  # ra recovered (1 <= 3); the russian places
    assert t.state.phase == "placement" and t.where("ra") == "recovered"
    said = t.say("russian", "return ra 1006")
    back = next(s for s in said if "returns to the map" in s)
    assert ("its group has collapsed (4.7, 6.8)" in back) is stays
    assert t.spot("ra").disordered  # 4.1 either way


def test_6_6_v2_artillery_stays_outside_n_l_and_the_effects():
    t = collapsed_table(None)
    assert t.where("ro") == "map" and t.spot("ro").disordered  # not routed by 6.5(b)
    assert t.where("r1") == "eliminated"  # the infantry in the Withdrawn Box: 6.5(c)


def out_table(later: bool) -> Table:
    """Group r: r1 on the map (and r2 still to arrive, if `later`); its marker set so that it
    cannot collapse (6.9) and r1 routed: at turn 2's Recovery Phase no unit of r is on the map."""
    parts = [group("r", "russian"), unit("r1", "russian", "1001", "r"),
             *([unit("r2", "russian", None, "r", start="later")] if later else []),
             *line_group("f", "french", 2, 2)]  # fmt: skip
    t = Table(scenario(*parts))
    t.state.collapsed = ["r"]  # 6.9: collapsed already, so r1 stays in the boxes
    t.say("russian", "rout r1")
    t.say("russian", "recovery")  # 5.1: r1 to the Recovery Box
    t.say("russian", "recovery", [1] if later else [])  # turn 2: 3.2 / 3.3 checked first
    return t


def test_3_3_a_group_with_a_unit_still_to_arrive_is_not_out_of_the_game():
    t = out_table(later=True)
    assert t.state.out_of_game == []
    assert t.where("r1") == "recovered"  # it rolled (3.4); no unit of r on the map: waits (4.5)


def test_3_2_3_3_without_a_unit_to_arrive_the_same_group_is_out_of_the_game():
    t = out_table(later=False)
    assert t.state.out_of_game == ["r"] and t.where("r1") == "eliminated"


@pytest.mark.parametrize("rules, says", [(None, True), (1, False)])
def test_2_7_an_end_that_leaves_rally_attempts_unused_says_so(rules, says):
    """2.7: an attempt is optional; under version 2 `end` names the units that could still
    have tried (version 1 keeps a stored game's texts)."""
    parts = [*line_group("r", "russian", 3, 10, disordered=True), *line_group("f", "french", 3, 2)]
    t = Table(scenario(*parts), rules=rules)
    t.say("russian", "activate r")
    t.say("russian", "end")
    t.say("russian", "rally r1", [6])  # fails (6 > 3)
    said = t.say("russian", "end")
    ended = next(s for s in said if s.startswith("The Rally phase of r ends"))
    assert ("no attempt by r2, r3, who could still have tried (optional, 2.7)" in ended) is says
