"""The case files of Stalin's War cover its spec (stalins-war-cards.md, issue 26): every numbered
section is cited by the `rules` of some case file, every rule a case cites is a rule of the spec,
and there are at least 25 cases. The spec lives outside the repository; its numbered rules are
written down here (SPEC), as the spec numbers them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

CASES = sorted((Path(__file__).parent / "cases").glob("*.toml"))
# section -> its numbered rules (N.1 to N.count); 14 is the worked example (W1 to W7, T1 to T14)
# and 15 the open questions (Q1 to Q32)
SPEC = {1: 11, 2: 5, 3: 13, 4: 8, 5: 12, 6: 4, 7: 14, 8: 22, 9: 10, 10: 14, 11: 7, 12: 6, 13: 3}
SPEC |= {16: 7}
WORKED = {"W": 7, "T": 14}
QUESTIONS = 32
SPEC_FILE = "stalins-war-cards.md"


def cited() -> dict[str, list[str]]:
    """Every rule cited by a case file -> the case files citing it."""
    found: dict[str, list[str]] = {}
    for path in CASES:
        for rule in tomllib.loads(path.read_text("utf-8"))["rules"]:
            found.setdefault(rule, []).append(path.name)
    return found


def section_of(rule: str) -> int | None:
    """The section a rule number is in: 7.10 -> 7, Q6 -> 15, W3 and T11 -> 14, 14 -> 14."""
    if re.fullmatch(r"Q\d+", rule):
        return 15 if 1 <= int(rule[1:]) <= QUESTIONS else None
    if re.fullmatch(r"[WT]\d+", rule):
        return 14 if 1 <= int(rule[1:]) <= WORKED[rule[0]] else None
    if re.fullmatch(r"1[45]", rule):
        return int(rule)
    match = re.fullmatch(r"(\d+)\.(\d+)", rule)
    if match is None:
        return None
    section, number = int(match[1]), int(match[2])
    return section if 1 <= number <= SPEC.get(section, 0) else None


def test_every_numbered_section_of_the_spec_is_cited_by_a_case():
    sections = {section_of(rule) for rule in cited()}
    missing = sorted(set(range(1, 17)) - sections)
    assert missing == [], f"no case file cites a rule of section(s) {missing}"


def test_every_rule_a_case_cites_is_a_rule_of_the_spec():
    unknown = {rule: files for rule, files in cited().items() if section_of(rule) is None}
    assert unknown == {}


def test_there_are_at_least_25_cases():
    assert len(CASES) >= 25


def test_13_the_editor_sections_are_cited():
    rules = cited()
    assert "13.1" in rules and "13.2" in rules and "8.4" in rules
