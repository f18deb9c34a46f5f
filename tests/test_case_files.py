"""The case files of every game system (tests/<package>/cases/*.toml, read by tests/cases.py):
each case holds, and the harness itself catches a case that does not (the canaries)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cases import CaseError, load, run_case

TESTS = Path(__file__).resolve().parent
CASES = sorted(TESTS.glob("*/cases/*.toml"))
CANARY = """
name = "a canary"
rules = ["4.6"]
[[step]]
side = "german"
order = "end"
"""


def system_of(path: Path) -> str:
    """The system a case is for: its package's folder, `hells_gate` -> `hells-gate`."""
    return path.parent.parent.name.replace("_", "-")


def case_id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", CASES, ids=case_id)
def test_case(path):
    doc = load(path)
    failures = run_case(system_of(path), doc, path.parent)
    assert failures == [], f"{path.name} (rules {', '.join(doc['rules'])}):\n" + "\n".join(failures)


def test_every_case_file_names_a_rule_in_its_file_name_or_name():
    for path in CASES:
        doc = load(path)
        assert all(isinstance(r, str) and r for r in doc["rules"]), path.name


def canary(tmp_path: Path, extra: str) -> list[str]:
    path = tmp_path / "canary.toml"
    path.write_text(CANARY + extra, "utf-8")
    return run_case("hells-gate", load(path), tmp_path)


def test_a_case_that_holds_gives_no_failure(tmp_path):
    assert canary(tmp_path, 'refused = "4.6"\n') == []


def test_a_wrong_rule_in_a_refusal_is_a_failure(tmp_path):
    (failure,) = canary(tmp_path, 'refused = "9.9"\n')
    assert "citing '4.6', not '9.9'" in failure


def test_an_expected_event_that_does_not_come_is_a_failure(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'name = "c"\nrules = ["8.1"]\n[[step]]\nside = "soviet"\norder = "attack A1 with 5gtk"\n'
        'dice = [6]\nevents = ["UnitRebuilt"]\n',
        "utf-8",
    )
    (failure,) = run_case("hells-gate", load(path), tmp_path)
    assert "events ['UnitRebuilt'] do not come" in failure


def test_unused_dice_are_a_failure(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'name = "c"\nrules = ["8.1"]\n[[step]]\nside = "soviet"\norder = "attack A1 with 5gtk"\n'
        'dice = [6, 6, 6]\nevents = ["AttackResolved"]\n',
        "utf-8",
    )
    assert any("were not used" in f for f in run_case("hells-gate", load(path), tmp_path))


def test_a_refused_step_checks_its_state_and_situation_too(tmp_path):
    (failure,) = canary(tmp_path, 'refused = "4.6"\nsituation = { phase = "german-movement" }\n')
    assert "the situation's phase is 'soviet-combat', not 'german-movement'" in failure


def test_a_secret_in_an_event_that_must_lack_it_is_a_failure(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'name = "c"\nrules = ["4.1"]\n[position]\npatch = { phase = "draw", to_move = "soviet", '
        'players = { soviet = { hand = [8, 13] } } }\n[[step]]\nside = "soviet"\n'
        'order = "discard 8"\n[[step.event]]\nkind = "CardsDiscarded"\nlacks = ["1 card"]\n',
        "utf-8",
    )
    (failure,) = run_case("stalins-war", load(path), tmp_path)
    assert "no event matches" in failure
    holds = path.read_text("utf-8").replace('lacks = ["1 card"]', 'lacks = ["Scorched Earth"]')
    path.write_text(holds, "utf-8")
    assert run_case("stalins-war", load(path), tmp_path) == []


def test_a_misspelt_expectation_is_refused_as_a_case(tmp_path):
    with pytest.raises(CaseError, match="unknown key"):
        canary(tmp_path, 'refuse = "4.6"\n')


def test_a_case_expecting_nothing_is_refused(tmp_path):
    with pytest.raises(CaseError, match="expects nothing"):
        canary(tmp_path, "")


def test_an_event_that_holds_a_text_it_must_lack_is_a_failure(tmp_path):
    """`lacks` in [[step.event]]: a public event that names a hidden block does not match."""
    path = tmp_path / "c.toml"
    path.write_text(
        'name = "c"\nrules = ["N23"]\n[position]\npatch = { strength = { repnin = 2 } }\n'
        '[[position.play]]\nside = "sweden"\norder = "end"\ndice = [1, 5]\n[[step]]\n'
        'side = "coalition"\norder = "replace repnin"\n[[step.event]]\nkind = "OwnStepReplaced"\n'
        'lacks = ["Repnin"]\n',
        "utf-8",
    )
    (failure,) = run_case("northern-war", load(path), tmp_path)
    assert "no event matches" in failure
    path.write_text(path.read_text("utf-8").replace("OwnStepReplaced", "StepReplaced"), "utf-8")
    assert run_case("northern-war", load(path), tmp_path) == []


def test_every_installed_game_system_has_at_least_20_case_files():
    from importlib.metadata import entry_points

    installed = {  # the project's own systems (an outside one keeps its cases in its package)
        ep.name for ep in entry_points(group="pbem.games") if ep.value.startswith("adjudicator.")
    }
    counts = {
        s: len(list((TESTS / s.replace("-", "_") / "cases").glob("*.toml"))) for s in installed
    }
    assert {"hells-gate", "borodino", "stalins-war", "northern-war"} <= installed
    assert {s: n for s, n in counts.items() if n < 20} == {}, counts
