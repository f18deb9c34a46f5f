"""Activation Group collapse [10.51, 10.52] (borodino-recovery.md section 6), with the examples
of 10.52 (groups of 5 and 7) and the computed cases of 6.11."""

from __future__ import annotations

import pytest

from adjudicator.borodino.board import collapse_at, losses
from adjudicator.core.errors import Rejection
from tests.borodino.helpers import Table, group, line_group, scenario, unit


def table(n: int, *extra: str, **more) -> Table:
    return Table(
        scenario(
            *line_group("r", "russian", n, 10), *line_group("f", "french", 3, 2), *extra, **more
        )
    )


def lose(t: Table, count: int) -> None:
    for i in range(1, count + 1):
        t.say("russian", f"rout r{i}" if i % 2 else f"eliminate r{i}")  # routed or eliminated


@pytest.mark.parametrize("lost,collapses", [(3, False), (4, True)])
def test_10_52_group_of_five_collapses_at_its_fourth_loss(lost, collapses):
    """An AG of 5 units collapses when it loses its 4th unit (12 >= 10; 9 < 10)."""
    t = table(5)
    lose(t, lost)
    t.say("russian", "morale")
    assert ("r" in t.state.collapsed) is collapses


@pytest.mark.parametrize("lost,collapses", [(4, False), (5, True)])
def test_10_52_group_of_seven_collapses_at_its_fifth_loss(lost, collapses):
    """An AG of 7 units collapses when it loses its 5th unit (15 >= 14; 12 < 14)."""
    t = table(7)
    lose(t, lost)
    said = t.say("russian", "morale")
    assert ("r" in t.state.collapsed) is collapses
    if collapses:
        assert any("COLLAPSES: 5 of 7 units lost, 3 x 5 >= 2 x 7 (6.3)" in e for e in said)
    else:
        assert any("4 of 7 units lost, it collapses at 5 (6.3): it holds" in e for e in said)


@pytest.mark.parametrize("n,at", [(3, 2), (5, 4), (6, 4), (7, 5), (9, 6)])
def test_6_11_computed_thresholds(n, at):
    assert collapse_at(n) == at
    t = table(n)
    lose(t, at - 1)
    t.say("russian", "morale")
    assert t.state.collapsed == []
    t2 = table(n)
    lose(t2, at)
    t2.say("russian", "morale")
    assert t2.state.collapsed == ["r"]


def test_6_2_collapse_is_checked_in_the_morale_phase_before_the_recovery_phase():
    t = table(3)
    lose(t, 2)
    assert t.state.collapsed == []  # not at the loss itself
    said = t.say("russian", "recovery")  # the Morale Phase first
    assert t.state.collapsed == ["r"]
    assert next(e for e in said if "COLLAPSES" in e or "Recovery Phase of" in e).startswith("r (")


def test_6_2_one_morale_phase_a_turn():
    t = table(3)
    t.say("russian", "morale")
    with pytest.raises(Rejection) as exc:
        t.say("french", "morale")
    assert exc.value.rule == "6.2"


def test_6_3_units_are_counted_not_strength_and_awaiting_units_are_lost():
    t = table(3)
    t.say("russian", "rout r1")
    t.say("russian", "recovery")
    t.say("russian", "recovery", [1])  # r1 recovered, placed by nobody yet
    assert t.where("r1") == "recovered"
    assert losses(t.system.scenario, t.state, "r") == (1, 3)


def test_6_4_units_not_yet_entered_are_not_counted():
    late = [unit(f"late{i}", "russian", None, "r", start="later") for i in (1, 2, 3)]
    t = table(3, *late)
    assert losses(t.system.scenario, t.state, "r") == (0, 3)
    t.say("russian", "at late1 1010")
    assert losses(t.system.scenario, t.state, "r") == (0, 4)


def test_6_4_a_group_with_no_unit_in_play_cannot_collapse():
    parts = [*line_group("f", "french", 3, 2), group("r", "russian"),
             unit("r1", "russian", None, "r", start="later")]  # fmt: skip
    t = Table(scenario(*parts))
    t.say("russian", "morale")
    assert t.state.collapsed == []


def test_6_5_effects_judge_each_unit_by_its_state_before_the_collapse():
    t = table(6)
    t.say("russian", "rout r1")
    t.say("russian", "recovery")  # r1 to the Recovery Box
    t.say("russian", "rout r2")
    t.say("russian", "rout r3")
    t.say("russian", "rout r4")  # 4 of 6 lost
    t.say("russian", "disorder r5")  # r6 stays Formed
    t.say("russian", "morale")
    assert t.spot("r6").on_map and t.spot("r6").disordered  # (a) Formed -> Disordered
    assert t.where("r5") == "withdrawn"  # (b) Disordered -> Withdrawn Box
    assert [t.where(u) for u in ("r2", "r3", "r4")] == ["eliminated"] * 3  # (c)
    assert t.where("r1") == "recovery"  # (d) the Recovery Box is not affected


def test_6_6_artillery_and_opolchenie_are_not_counted_nor_affected():
    extra = [unit("ra", "russian", "1008", "r", type="artillery"),
             unit("ro", "russian", "1009", "r", type="opolchenie", disordered=True)]  # fmt: skip
    t = table(3, *extra)
    t.say("russian", "rout ra")
    t.say("russian", "morale")
    assert t.state.collapsed == []  # artillery lost: L stays 0 (of N = 3)
    t2 = table(3, *extra)
    lose(t2, 2)
    t2.say("russian", "rout ra")
    t2.say("russian", "morale")
    assert t2.state.collapsed == ["r"]
    assert t2.where("ra") == "withdrawn"  # not eliminated by 6.5(c)
    assert t2.spot("ro").on_map and t2.spot("ro").disordered  # not routed by 6.5(b)
    assert t2.spot("r3").disordered  # the infantry is


def test_6_7_6_9_a_marker_and_at_most_one_collapse_a_game():
    t = table(3)
    lose(t, 2)
    t.say("russian", "recovery")
    assert t.state.collapsed == ["r"]
    assert t.where("r1") == "eliminated"  # routed in the collapse's turn: 6.5(c)
    said = t.say("russian", "recovery")  # turn 2: 2 of 3 still lost
    assert t.state.collapsed == ["r"] and not any("COLLAPSES" in e for e in said)
    assert any("COLLAPSED" in e for e in said)  # the losses line shows the marker


def test_6_8_a_collapsed_group_unit_never_rallies():
    t = table(6)
    lose(t, 4)
    t.say("russian", "morale")
    t.say("russian", "recovery", [])  # r1, r3 go to the Recovery Box; r2, r4 eliminated
    t.say("russian", "activate r")
    t.say("russian", "end")
    assert t.state.phase == "activations"  # r5, r6 Disordered, but none may attempt
    assert t.spot("r5").disordered and t.spot("r6").disordered


def test_result_at_a_collapse_where_the_scenario_ends_the_game_on_one():
    t = table(3, on_collapse=True)
    lose(t, 2)
    said = t.say("russian", "morale")
    assert t.state.result is not None and t.state.result["winner"] == "french"
    assert any(e.startswith("Game over: the referee's part ends: r collapsed") for e in said)
    with pytest.raises(Rejection):
        t.say("russian", "recovery")
