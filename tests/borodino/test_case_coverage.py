"""The case files of Borodino (tests/borodino/cases) cite every numbered rule of its spec,
borodino-recovery.md (issue 26: case files covering every rule section, at least 25 cases), but
the few rules with no effect a referee could show, each named here with why.

The spec is not part of the repository: its numbered rules are listed here, section by section
(rule N.1 to N.count), as the spec numbers them."""

from __future__ import annotations

import tomllib
from pathlib import Path

CASES = Path(__file__).resolve().parent / "cases"
SECTIONS = {  # section: its numbered rules, N.1 to N.count (section 9 holds open questions)
    1: 11,  # terms, unit states and locations
    2: 8,  # rally
    3: 8,  # Recovery Phase
    4: 7,  # return to the map [10.3]
    5: 3,  # Withdrawn Boxes
    6: 11,  # Activation Group collapse [10.51, 10.52]
    7: 14,  # jagers [11.0]
    8: 7,  # the Shevardino scenario, introduction only
}
NO_EFFECT = {  # rules a referee cannot show: a description, not a rule of play
    "8.1": "the scenario is a learning scenario (a description)",
    "8.3": "5 turns whose structure is not in the source (the scenario's data, `[end]`)",
    "8.4": "playing time",
    "8.5": "balance",
    "8.6": "a historical note with no game effect",
}


def spec_rules() -> list[str]:
    return [f"{s}.{n}" for s, count in SECTIONS.items() for n in range(1, count + 1)]


def cited() -> dict[str, list[str]]:
    """rule -> the case files citing it."""
    found: dict[str, list[str]] = {}
    for path in sorted(CASES.glob("*.toml")):
        for rule in tomllib.loads(path.read_text("utf-8"))["rules"]:
            found.setdefault(rule, []).append(path.name)
    return found


def test_every_numbered_rule_of_the_spec_is_cited_by_a_case_file():
    by = cited()
    missing = [r for r in spec_rules() if r not in by and r not in NO_EFFECT]
    assert missing == [], f"no case file cites {missing}"


def test_every_section_of_the_spec_is_cited_by_a_case_file():
    sections = {rule.split(".")[0] for rule in cited()}
    assert {str(s) for s in SECTIONS} <= sections


def test_case_files_cite_only_rules_of_the_spec_and_the_exempt_ones_are_rules():
    rules = set(spec_rules())
    assert set(NO_EFFECT) <= rules
    unknown = {r: files for r, files in cited().items() if r not in rules}
    assert unknown == {}, f"case files cite rules the spec does not number: {unknown}"


def test_at_least_25_case_files():
    assert len(list(CASES.glob("*.toml"))) >= 25
