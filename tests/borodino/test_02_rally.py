"""Rally (borodino-recovery.md section 2): eligibility and the roll against the Disordered-side
cohesion, in the Rally phase at the end of the group's Activation Phase."""

from __future__ import annotations

import pytest

from adjudicator.core.errors import Rejection
from tests.borodino.helpers import Table, group, line_group, scenario, unit


def table(**more) -> Table:
    parts = [*line_group("r", "russian", 3, 10, cd=3, cohesion=5), *line_group("f", "french", 3, 2)]
    return Table(scenario(*parts, **more))


def rally_phase(t: Table, *reports: str) -> None:
    t.say("russian", "disorder r1")
    t.say("russian", "disorder r2")
    t.say("russian", "activate r")
    for text in reports:
        t.say("russian", text)
    t.say("russian", "end")


def test_2_1_a_disordered_unit_of_the_activated_group_attempts_in_its_rally_phase():
    t = table()
    rally_phase(t)
    assert t.state.phase == "rally" and t.state.active == "r"
    assert [o for o in t.legal("russian") if o.startswith("rally")] == ["rally r1", "rally r2"]


def test_2_1_no_rally_outside_a_rally_phase():
    t = table()
    t.say("russian", "disorder r1")
    with pytest.raises(Rejection) as exc:
        t.say("russian", "rally r1", [1])
    assert exc.value.rule == "2.1"


def test_2_2_a_unit_that_moved_fired_or_faced_may_not_rally():
    t = table()
    t.say("russian", "disorder r3")  # r3 may rally: the Rally phase stays open
    rally_phase(t, "activated r1 fired", "at r2 1005")  # r2 moved: `at` in its activation
    assert "rally r1" not in t.legal("russian") and "rally r2" not in t.legal("russian")
    with pytest.raises(Rejection) as exc:
        t.say("russian", "rally r1", [1])
    assert exc.value.rule == "2.2" and "r1 fired" in exc.value.message


def test_2_3_a_unit_adjacent_to_an_enemy_unit_may_not_rally():
    t = table()
    t.say("french", "at f1 0902")  # adjacent to r2 at 1002, not to r1 at 1001
    assert t.system.scenario.map.adjacent("0902", "1002")
    assert not t.system.scenario.map.adjacent("0902", "1001")
    rally_phase(t)
    with pytest.raises(Rejection) as exc:
        t.say("russian", "rally r2", [1])
    assert exc.value.rule == "2.3"
    assert t.legal("russian") == ["end", "rally r1"]


def test_2_5_a_unit_of_a_collapsed_group_may_not_rally():
    t = table()
    t.say("russian", "rout r2")
    t.say("russian", "rout r3")  # 2 of 3: collapses (6.11)
    t.say("russian", "morale")
    assert "r" in t.state.collapsed and t.spot("r1").disordered  # 6.5(a)
    t.say("russian", "recovery")  # no unit in a Recovery Box yet
    t.say("russian", "activate r")
    t.say("russian", "end")
    assert t.state.phase == "activations"  # no unit could attempt: the Rally phase passed
    assert any("no unit may attempt to rally" in e.text for e in t.events)


def test_2_6_die_at_most_the_disordered_cohesion_rallies():
    t = table()
    rally_phase(t)
    said = t.say("russian", "rally r1", [3])  # cohesion_disordered 3, Normal side 5
    assert not t.spot("r1").disordered and "die 3 <= cohesion 3 (2.6)" in said[0]


def test_2_6_die_above_the_disordered_cohesion_fails_even_within_the_normal_cohesion():
    t = table()
    rally_phase(t)
    said = t.say("russian", "rally r1", [4])  # 4 <= 5 (Normal) but > 3 (Disordered): 1.4
    assert t.spot("r1").disordered and "fails to rally: die 4 > cohesion 3" in said[0]


def test_2_7_one_attempt_per_rally_phase_and_the_attempt_is_optional():
    t = table()
    rally_phase(t)
    t.say("russian", "rally r1", [6])
    with pytest.raises(Rejection) as exc:
        t.say("russian", "rally r1", [1])
    assert exc.value.rule == "2.7"
    t.say("russian", "end")  # r2 makes no attempt
    assert t.state.phase == "activations" and t.spot("r2").disordered


def test_2_7_the_rally_phase_ends_by_itself_after_the_last_attempt():
    t = table()
    rally_phase(t)
    t.say("russian", "rally r1", [6])
    t.say("russian", "rally r2", [6])
    assert t.state.phase == "activations"
    assert any(e.kind == "BoxesNow" for e in t.events)  # the summary: the boxes


def test_2_8_an_independent_unit_rallies_at_the_end_of_its_own_activation():
    parts = [unit("cossacks", "russian", "1005", army="2nd"), *line_group("f", "french", 1, 2)]
    t = Table(scenario(*parts))
    t.say("russian", "disorder cossacks")
    t.say("russian", "activate cossacks")
    t.say("russian", "end")
    assert t.legal("russian") == ["end", "rally cossacks"]
    t.say("russian", "rally cossacks", [2])
    assert not t.spot("cossacks").disordered


def test_2_8_a_unit_of_a_group_is_activated_with_its_group():
    t = table()
    with pytest.raises(Rejection) as exc:
        t.say("russian", "activate r1")
    assert exc.value.rule == "2.8" and "activate r" in exc.value.message


def test_1_10_the_rally_die_has_the_scenarios_sides():
    parts = [
        *line_group("r", "russian", 2, 10, cd=7, cohesion=8),
        group("f", "french"),
        unit("f1", "french", "0202", "f"),
    ]
    t = Table(scenario(*parts, die=10))
    rally_phase(t)
    t.say("russian", "rally r1", [7])  # a d10: 7 is a result, and 7 <= 7 rallies
    assert not t.spot("r1").disordered
    with pytest.raises(ValueError):  # 11 is no result of a d10
        t.say("russian", "rally r2", [11])
