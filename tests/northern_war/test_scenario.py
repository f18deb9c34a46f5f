"""Scenario validation on load (data.py): every value the spec constrains is checked, and a
refusal names the entry with its field and cites the rule. The map's adjacency is mutual and
joins two areas (5.24, 7.1, N19); each nation has one royal army block and Charles XII is
Sweden's (4.1, 4.2); a block's strength is within its maximum (2.6, 2.9) and it is set up in a
territory of the map (N17)."""

from __future__ import annotations

import re

import pytest

from adjudicator.core.scenario import ScenarioError
from adjudicator.northern_war import data
from adjudicator.northern_war.system import SYSTEM
from app import games

SAMPLE, _ = games.default_scenario(SYSTEM)


def _table(text: str, kind: str, key: str, old: str, new: str) -> str:
    """The sample with `old` replaced by `new` in the [[kind]] table of id `key`."""
    parts = text.split(f"[[{kind}]]")
    for n, part in enumerate(parts):
        if re.search(rf'^id = "{key}"$', part, re.MULTILINE):
            assert old in part, (key, old)
            parts[n] = part.replace(old, new, 1)
            return f"[[{kind}]]".join(parts)
    raise AssertionError(key)


def _block(text: str, block: str, old: str, new: str) -> str:
    return _table(text, "blocks", block, old, new)


def _once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


CASES = {
    "5_24_a_border_is_mutual": (
        lambda s: _once(
            s, 'borders = ["scania", "finland"]', 'borders = ["scania", "finland", "zealand"]'
        ),
        "territories.stockholm.borders",
        ["'zealand' does not list 'stockholm'", "(5.24)"],
    ),
    "7_1_a_territory_does_not_border_itself": (
        lambda s: _once(s, 'borders = ["scania", "finland"]', 'borders = ["scania", "stockholm"]'),
        "territories.stockholm.borders",
        ["'stockholm' borders itself", "(5.24, 7.1)"],
    ),
    "N19_a_border_names_a_territory_of_the_map": (
        lambda s: _once(s, 'borders = ["scania", "finland"]', 'borders = ["scania", "lapland"]'),
        "territories.stockholm.borders",
        ["unknown territory 'lapland' (N19)"],
    ),
    "4_1_each_nation_has_a_royal_block": (
        lambda s: _block(s, "peter", "royal = true\n", ""),
        "nations.russia",
        ["exactly one block with royal = true, not 0 (4.1)"],
    ),
    "4_1_a_nation_has_only_one_royal_block": (
        lambda s: _block(s, "menshikov", "at =", "royal = true\nat ="),
        "nations.russia",
        ["not 2 (4.1)"],
    ),
    "4_2_charles_is_the_royal_block_of_sweden": (
        lambda s: _once(
            _once(s, 'id = "charles"', 'id = "karl"'), 'id = "peter"', 'id = "charles"'
        ),
        "blocks.charles",
        ["nation of the side 'sweden' (4.2)"],
    ),
    "4_1_a_royal_block_is_an_army": (
        lambda s: _block(
            s,
            "peter",
            'type = "army"\nmax_strength = 4\nfire = "C2"\nmove = 2\nsupply_trains = 1',
            'type = "regiment"\narm = "infantry"\nmax_strength = 3\nfire = "C2"\nmove = 2',
        ),
        "blocks.peter.royal",
        ["a royal block is an army block (4.1)"],
    ),
    "2_9_a_strength_never_exceeds_the_maximum": (
        lambda s: _block(s, "uppland", "strength = 2", "strength = 4"),
        "blocks.uppland.strength",
        ["max_strength 3", "(2.6, 2.9, N17)"],
    ),
    "2_6_a_strength_is_at_least_1": (
        lambda s: _block(s, "uppland", "strength = 2", "strength = 0"),
        "blocks.uppland.strength",
        ["(2.6, 2.9, N17)"],
    ),
    "N17_a_block_is_set_up_in_a_territory_of_the_map": (
        lambda s: _block(s, "charles", 'at = "estonia"', 'at = "lapland"'),
        "blocks.charles.at",
        ["unknown territory 'lapland' (N17)"],
    ),
    "N19_a_block_id_is_given_once": (
        lambda s: _block(s, "rehnskiold", 'id = "rehnskiold"', 'id = "charles"'),
        "blocks.charles.id",
        ["given twice (N19)"],
    ),
    "2_10_the_rating_is_a_letter_a_d_and_a_number": (
        lambda s: _block(s, "charles", 'fire = "A2"', 'fire = "E2"'),
        "blocks.charles.fire",
        ["(2.10, 2.12)"],
    ),
    "1_5_a_territory_group_is_sweden_russia_or_none": (
        lambda s: _table(s, "territories", "stockholm", 'group = "sweden"', 'group = "svea"'),
        "territories.stockholm.group",
        ["(1.5)"],
    ),
    "4_9_charles_needs_a_territory_in_sweden_to_return_to": (
        lambda s: s.replace('group = "sweden"', 'group = ""'),
        "territories",
        ["Charles XII returns to one (4.9)"],
    ),
    "1_3_each_side_has_a_nation": (
        lambda s: s.replace('side = "coalition"', 'side = "sweden"'),
        "nations",
        ["no nation plays the side 'coalition' (1.3)"],
    ),
}


def test_the_sample_scenario_loads():
    sc = data.load(SAMPLE, "sample.toml")
    assert sc.blocks["charles"].royal and len(sc.territories) == 17


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_scenario_breaking_a_rule_is_refused_naming_the_field_and_the_rule(case):
    change, entry, says = CASES[case]
    text = change(SAMPLE)
    assert text != SAMPLE
    with pytest.raises(ScenarioError) as err:
        data.load(text, "test.toml")
    assert err.value.entry == entry, str(err.value)
    for part in says:
        assert part in str(err.value.problem), str(err.value)
    assert str(err.value).startswith(f"test.toml: {entry}: ")
