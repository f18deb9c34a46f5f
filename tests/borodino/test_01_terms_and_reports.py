"""Terms, unit states and locations (borodino-recovery.md section 1), the order of battle as
data, and the players' reports about their own units (companion play)."""

from __future__ import annotations

import pytest

from adjudicator.borodino.system import SYSTEM
from adjudicator.core.errors import Rejection
from adjudicator.core.events import MODERATORS_ONLY
from adjudicator.core.hexgrid import HexGrid
from adjudicator.core.scenario import ScenarioError
from app.games import default_scenario
from tests.borodino.helpers import HEAD, Table, line_group, scenario, unit


def table() -> Table:
    return Table(scenario(*line_group("r", "russian", 3, 10), *line_group("f", "french", 3, 2),
                          unit("late", "french", None, army="fa", start="later")))  # fmt: skip


def test_the_sample_order_of_battle_loads_and_says_it_is_a_sample():
    system = SYSTEM.load(*default_scenario(SYSTEM))
    scen = system.scenario
    assert scen.sample and "SAMPLE" in scen.title and scen.die_sides == 6
    assert not scen.use_jager_rules  # 7.1
    assert {g: len([u for u in scen.members(g) if u.counts_for_collapse]) for g in scen.groups} == {
        "neverovsky": 5, "compans": 7}  # the groups of 10.52  # fmt: skip


def test_1_5_every_unit_starts_in_one_location_and_not_yet_entered_is_one():
    t = table()
    assert {t.where(u) for u in t.state.units} == {"map", "later"}
    assert t.where("late") == "later" and "late" not in t.state.entered


def test_1_6_a_routed_unit_goes_to_its_owners_withdrawn_box():
    t = table()
    t.say("russian", "rout r1")
    assert t.where("r1") == "withdrawn" and t.spot("r1").hex is None


def test_1_7_an_eliminated_unit_goes_to_the_permanently_eliminated_box():
    t = table()
    t.say("french", "eliminate f1")
    assert t.where("f1") == "eliminated"


@pytest.mark.parametrize("text", ["rout r1", "disorder r1", "at r1 1005", "eliminate r1"])
def test_1_8_a_report_about_a_unit_off_the_map_is_refused(text):
    t = table()
    t.say("russian", "rout r1")
    before = t.state.to_json()
    with pytest.raises(Rejection) as exc:
        t.say("russian", text)
    assert exc.value.rule == "1.8" and "off the map (in the Withdrawn Box)" in exc.value.message
    assert t.state.to_json() == before


def test_each_player_reports_his_own_units_only():
    t = table()
    with pytest.raises(Rejection) as exc:
        t.say("french", "rout r1")
    assert (
        "each player reports his own units" in exc.value.message
        and "dispute r1" in exc.value.message
    )


def test_a_dispute_goes_to_the_moderators_and_is_recorded():
    t = table()
    t.say("russian", "at r1 1004")
    t.say("french", "dispute r1 it was adjacent to f1 when it rallied")
    private = [e for e in t.events if e.audience == MODERATORS_ONLY]
    assert private and "it was adjacent to f1" in private[0].text
    assert t.state.disputes == [{"turn": 1, "by": "french", "unit": "r1",
                                 "text": "it was adjacent to f1 when it rallied"}]  # fmt: skip
    with pytest.raises(Rejection):
        t.say("russian", "dispute r1 my own")


def test_6_4_a_unit_not_yet_entered_enters_with_at_and_only_then_may_be_reported():
    t = table()
    with pytest.raises(Rejection) as exc:
        t.say("french", "rout late")
    assert exc.value.rule == "6.4"
    t.say("french", "at late 0108")
    assert t.spot("late").on_map and "late" in t.state.entered


def test_a_hex_held_by_the_enemy_takes_no_unit():
    t = table()
    with pytest.raises(Rejection) as exc:
        t.say("french", "at f1 1001")
    assert "held by an enemy unit" in exc.value.message


def test_1_10_the_die_size_has_no_default():
    text = scenario(*line_group("r", "russian", 1, 10)).replace("die_sides = 6\n", "")
    with pytest.raises(ScenarioError) as exc:
        SYSTEM.load(text, "mine.toml")
    assert "die_sides" in str(exc.value) and "mine.toml" in str(exc.value)


@pytest.mark.parametrize(
    "change,problem",
    [
        (('group = "r"', 'group = "x"'), "no group 'x'"),
        (('hex = "1001"', 'hex = "9999"'), "not on the map"),
        (("cohesion = 5", "cohesion = 9"), "unit r1: cohesion 9 is not 0 to 6"),
        (('type = "infantry"', 'type = "tank"'), "expected one of"),
    ],
)
def test_an_order_of_battle_with_a_bad_entry_is_refused_naming_it(change, problem):
    text = scenario(*line_group("r", "russian", 2, 10)).replace(*change, 1)
    with pytest.raises(ScenarioError) as exc:
        SYSTEM.load(text, "mine.toml")
    assert problem in str(exc.value)


@pytest.mark.parametrize(
    "change,problem",
    [
        (  # 3.3, 6.3, 6.6: the Opolchenie is Russian
            (
                'side = "french"\ngroup = "f"\ntype = "infantry"',
                'side = "french"\ngroup = "f"\ntype = "opolchenie"',
            ),
            (
                "unit f1: type opolchenie is Russian (the Russian Opolchenie, 3.3, 6.3, 6.6); "
                "the unit's side is french"
            ),
        ),
        (  # 1.3, 1.4: the Disordered side is not the stronger
            ("cohesion_disordered = 3", "cohesion_disordered = 6"),
            (
                "unit r1: cohesion_disordered 6 is above cohesion 5: the Disordered side's cohesion "
                "is at most the Normal side's (1.3, 1.4)"
            ),
        ),
        (  # 1.4, 1.10
            ("cohesion_disordered = 3", "cohesion_disordered = -1"),
            "unit r1: cohesion_disordered -1 is not 0 to 6",
        ),
        (  # 1.5: Formed and Disordered are states of a unit on the map
            ('hex = "1001"', 'start = "recovery"\ndisordered = true'),
            (
                "unit r1: disordered: only a unit on the map is Formed or Disordered (1.5); "
                "the unit starts recovery"
            ),
        ),
        (  # 1.1: an Activation Group is a group of units
            ('group = "f"', 'army = "french army"'),
            "group f: no unit belongs to it: a group is a group of units (1.1)",
        ),
        (("die_sides = 6", "die_sides = 1"), "die_sides: a die has at least 2 sides, not 1 (1.10)"),
    ],
)
def test_1_3_to_6_6_a_value_the_rules_constrain_is_checked_on_load(change, problem):
    text = scenario(*line_group("r", "russian", 2, 10), *line_group("f", "french", 1, 1))
    assert change[0] in text
    with pytest.raises(ScenarioError) as exc:
        SYSTEM.load(text.replace(*change, 1), "mine.toml")
    assert str(exc.value).startswith("mine.toml: ") and problem in str(exc.value)


def test_6_6_a_russian_opolchenie_unit_and_an_equal_cohesion_load():
    text = scenario(
        *line_group("r", "russian", 2, 10),
        unit("op", "russian", "0901", "r", type="opolchenie", cohesion=3, cd=3),
    )
    assert SYSTEM.load(text, "mine.toml").scenario.units["op"].type == "opolchenie"


def test_1_11_hex_distance_on_the_board_numbering():
    m = HexGrid.numbered((1, 12), (1, 12), "odd")
    assert m.distance("0101", "0101") == 0
    assert sorted(m.neighbours("0303")) == ["0203", "0204", "0302", "0304", "0403", "0404"]
    assert sorted(m.neighbours("0404")) == ["0303", "0304", "0403", "0405", "0503", "0504"]
    assert m.distance("0101", "0105") == 4 and m.distance("0101", "0501") == 4
    even = HexGrid.numbered((1, 12), (1, 12), "even")
    assert sorted(even.neighbours("0303")) == ["0202", "0203", "0302", "0304", "0402", "0403"]
    assert HEAD  # the test scenarios use the odd layout of the sample
