"""A deck file is checked on load against every value the spec constrains (issue 26): each
refusal names the file, the entry (the card and its field) and the rule."""

from __future__ import annotations

from importlib import resources

import pytest

from adjudicator.core.scenario import ScenarioError
from adjudicator.stalins_war.data import load_deck

SAMPLE = (resources.files("adjudicator.stalins_war") / "sample_deck.toml").read_text("utf-8")
AXIS_9 = 'number = 9\nname = "Summer Offensive"'
SOVIET_1 = (
    'number = 1\nname = "Siberian Divisions"\nname_ru = "Сибирские дивизии"\ngroup = "blitzkrieg"'
)


def refusal(old: str, new: str) -> str:
    text = SAMPLE.replace(old, new, 1)
    assert text != SAMPLE, old
    with pytest.raises(ScenarioError) as err:
        load_deck(text, "my_deck.toml")
    return str(err.value)


@pytest.mark.parametrize(
    ("old", "new", "entry", "rule"),
    [
        ("turns = 18", "turns = 0", "turns", "1.2"),
        ("hand_size = 6", "hand_size = 0", "hand_size", "3.9"),
        ("6 = [6] }", "0 = [6] }", "reinforcements.0", "4.5"),
        ("mud_rounds = []", "mud_rounds = [[0, 1]]", "mud_rounds", "7.12"),
        ("1 = [1, 2], 3 = [3]", "1 = [1, 7], 3 = [3]", "reinforcements.1", "4.5"),
        ("axis_rp_two_turns = [5, 9]", "axis_rp_two_turns = [5, 5]", "axis_rp_two_turns", "10.5"),
        ("mud_rounds = []", "mud_rounds = [[3, 6]]", "mud_rounds", "5.2"),
        ('soviet = ["USSR"]', 'soviet = ["USSR", "USSR"]', "nationalities.soviet", "10.1"),
        (f"{AXIS_9}", AXIS_9.replace("9", "0"), "number", "3.5"),
        (f"{AXIS_9}", AXIS_9 + '\nowner_ru = "x"', "axis #9", "3.5"),
        (
            "ops = 3\nrp = { Germany = 1, Italy = 1 }",
            "ops = -1\nrp = { Germany = 1, Italy = 1 }",
            "axis #9): ops",
            "7.5, 7.8",
        ),
        (
            "ops = 3\nrp = { Germany = 1, Italy = 1 }",
            "ops = 0\nrp = { Germany = 1, Italy = 1 }",
            "axis #9): rp_with",
            "10.2",
        ),
        ("rp = { Germany = 1, Italy = 1 }", "rp = { Germany = 0 }", "axis #9): rp_with", "10.2"),
        (
            "rp = { Germany = 1, Italy = 1 }",
            "rp = { Germany = -1 }",
            "axis #9): rp.Germany",
            "10.1",
        ),
        ('rp_with = "ops"', 'rp_with = "both"', "axis #9): rp_with", "10.2"),
        ('rp_with = "ops"', "starred = 1", "axis #9): starred", "11.4"),
        ('rp_with = "ops"', "event_ops = -2", "axis #9): event_ops", "7.14"),
        ('rp_with = "ops"', "event_rp = { Narnia = 1 }", "axis #9): event_rp", "10.7"),
        (
            'name_ru = "Летнее наступление"\ngroup = "blitzkrieg"',
            'name_ru = "Летнее наступление"\ngroup = "late-war"',
            "axis #9): group",
            "3.2",
        ),
        (
            SOVIET_1,
            SOVIET_1.replace("blitzkrieg", "total-war"),
            "soviet card #1: group",
            "3.8, 3.10",
        ),
    ],
)
def test_3_5_every_value_the_spec_constrains_is_checked_naming_the_entry_and_the_rule(
    old, new, entry, rule
):
    said = refusal(old, new)
    assert said.startswith("my_deck.toml: ") and entry in said and f"(rule {rule})" in said


def test_3_5_the_sample_deck_and_the_case_deck_hold():
    assert load_deck(SAMPLE, "sample_deck.toml").turns == 18


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("turns = 18", "turns = 20"),  # a longer game, its arrivals and springs within it
        ("hand_size = 6", "hand_size = 7"),
        ("3 = [3], 4 = [4]", "2 = [3], 4 = [4]"),
        ("axis_rp_two_turns = [5, 9]", "axis_rp_two_turns = [5, 9, 13]"),
    ],
)
def test_a_variant_decks_own_numbers_load_so_its_stored_games_keep_loading(old, new):
    """Turns, hand size, arrivals and spring turns are the deck's data: a variant or a house
    rule sets its own; they are checked against each other, not against the sample's."""
    text = SAMPLE.replace(old, new, 1)
    assert text != SAMPLE
    assert load_deck(text, "variant.toml").turns in (18, 20)
