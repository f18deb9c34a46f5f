"""The referee's verdict when its part ends (a Decision of turns.finish: the source has no
victory rules): the side with the smaller share of its order of battle off the map is ahead,
not the side with fewer units off it (a side that lost 8 of 8 is not ahead of one that lost 9
of 10); a scenario without `verdict` (the games begun before) keeps the count."""

from __future__ import annotations

import pytest

from adjudicator.borodino.data import VERDICTS
from adjudicator.borodino.system import SYSTEM
from adjudicator.core.scenario import ScenarioError
from app.games import default_scenario
from tests.borodino.helpers import Table, scenario, unit

RUSSIANS = [unit(f"r{i}", "russian", f"01{i:02d}") for i in range(1, 3)]  # 2 units
FRENCH = [unit(f"f{i}", "french", f"12{i:02d}") for i in range(1, 5)]  # 4 units


def ended(verdict: str | None) -> Table:
    """Russian 2 of 2 units eliminated, French 3 of 4: one Recovery Phase ends the game."""
    text = scenario(*RUSSIANS, *FRENCH, phases=1)
    if verdict is not None:
        text = text.replace(
            "on_collapse = false\n", f'on_collapse = false\nverdict = "{verdict}"\n'
        )
    t = Table(text)
    for uid in ("r1", "r2"):
        t.say("russian", f"eliminate {uid}")
    for uid in ("f1", "f2", "f3"):
        t.say("french", f"eliminate {uid}")
    t.say("russian", "recovery")
    assert t.state.result is not None
    return t


def test_3_1_the_verdict_is_by_the_share_of_each_sides_units_off_the_map():
    t = ended("share")
    result = t.state.result
    assert result["winner"] == "french"  # 3 of 4 lost is a smaller share than 2 of 2
    assert result["lost"] == {"russian": 2, "french": 3} and result["of"] == {
        "russian": 2,
        "french": 4,
    }
    said = str(result["text"])
    assert (
        "Russian 2 of 2 units off the map, French 3 of 4 units off the map); French ahead" in said
    )
    assert t.system.state_from_json(t.system.state_to_json(t.state)) == t.state


def test_3_1_a_scenario_without_a_verdict_keeps_the_count_of_the_games_begun_before():
    result = ended(None).state.result
    assert result["winner"] == "russian" and "of" not in result  # fewer units off the map
    assert "Russian 2 units off the map, French 3 units off the map); Russian ahead" in str(
        result["text"]
    )


def test_3_1_equal_shares_are_a_draw_and_the_sample_judges_by_share():
    text = scenario(*RUSSIANS, *FRENCH[:2], phases=1).replace(
        "on_collapse = false\n", 'on_collapse = false\nverdict = "share"\n'
    )
    t = Table(text)
    t.say("russian", "eliminate r1")
    t.say("french", "eliminate f1")
    t.say("russian", "recovery")
    assert t.state.result["winner"] == "draw"
    assert SYSTEM.load(*default_scenario(SYSTEM)).scenario.ending.verdict == "share"


def test_3_1_an_unknown_verdict_is_refused_on_load():
    text = scenario(*RUSSIANS, *FRENCH).replace(
        "on_collapse = false\n", 'on_collapse = false\nverdict = "vp"\n'
    )
    with pytest.raises(ScenarioError) as exc:
        Table(text)
    assert "verdict" in str(exc.value) and VERDICTS == ("count", "share")
