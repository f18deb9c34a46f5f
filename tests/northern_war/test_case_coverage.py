"""Every numbered section of the block game's spec (rules/northern-war-blocks.md) is cited by at
least one case file's `rules` (issue 26: case files covering every rule section).

A case covers a section by citing it or any rule in it: "5.7" covers section 5, "N3 a" covers
N3. Left out, each with its reason, are the decisions that only say a part of the full game is
absent from the sample (NO_EFFECT): no case can show what a scenario does not have.

The spec is not part of the repository: SECTIONS lists its numbered sections with rules (1 to 8;
9 holds examples, 10 the open questions) and its part-B/C decisions N1 to N24, as it numbers them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

CASES = Path(__file__).resolve().parent / "cases"
NO_EFFECT = {
    "N6": "supply trains have no effect in the sample scenario (the attribute is stored)",
    "N9": "the sample scenario has no sea zones and no fleet blocks",
    "N16": "the Swedish Attrition Track is not used in the sample scenario",
    "N19": "the data a scenario needs: checked on load (tests/northern_war/test_scenario.py)",
}


SECTIONS = {str(n) for n in range(1, 9)} | {f"N{n}" for n in range(1, 25)}


def section_of(rule: str) -> str:
    """ "5.7" -> "5"; "N3 a", "N3a", "N3(f)" -> "N3"."""
    m = re.match(r"(N\d+|\d+)", rule.strip())
    assert m, f"not a rule number: {rule!r}"
    return m.group(1)


def cited() -> dict[str, list[str]]:
    by: dict[str, list[str]] = {}
    for path in sorted(CASES.glob("*.toml")):
        for rule in tomllib.loads(path.read_text("utf-8"))["rules"]:
            by.setdefault(section_of(rule), []).append(path.name)
    return by


def test_a_rule_number_names_its_section():
    assert section_of("N3 a") == section_of("N3(f)") == "N3" and section_of("5.17") == "5"


def test_every_numbered_section_of_the_spec_is_cited_by_a_case_file():
    wanted = SECTIONS - set(NO_EFFECT)
    missing = sorted(wanted - set(cited()), key=lambda s: (s.startswith("N"), int(s.lstrip("N"))))
    assert missing == [], f"no case file cites a rule of section(s) {missing}"


def test_the_sections_left_out_are_sections_of_the_spec_and_cited_by_no_case():
    assert set(NO_EFFECT) <= SECTIONS
    assert not set(NO_EFFECT) & set(cited())  # a case for one: take it off the list
