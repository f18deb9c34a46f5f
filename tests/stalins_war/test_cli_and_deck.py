"""The deck file (rule 3.5, Q1) and the command line: `pbem new --game stalins-war` with the
sample deck, `--sandbox`, an owner's own deck (`--scenario`), a bad deck refused naming the
entry, `pbem demo --game stalins-war` to the end of turn 18 (12.5) and `pbem audit` after it."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from adjudicator.core.scenario import ScenarioError
from adjudicator.stalins_war.data import load_deck
from bots import cli

SAMPLE = (resources.files("adjudicator.stalins_war") / "sample_deck.toml").read_text("utf-8")


def test_3_5_the_sample_deck_is_named_a_sample_and_holds_every_attribute():
    deck = load_deck(SAMPLE, "sample_deck.toml")
    assert deck.sample and "SAMPLE" in deck.title
    assert len(deck.cards["axis"]) == 16 and len(deck.cards["soviet"]) == 18
    cards = [c for owner in deck.cards.values() for c in owner.values()]
    assert any(c.starred for c in cards) and any(c.rp_with == "event" for c in cards)
    assert any(c.rp_with == "ops" for c in cards) and any(c.event_ops for c in cards)
    assert any(c.gives_rp for c in cards) and {c.group for c in cards} == {
        "blitzkrieg",
        "total-war",
    }
    assert deck.axis_rp_limit(5) == deck.axis_rp_limit(9) == 2 and deck.axis_rp_limit(6) == 1
    assert deck.reinforcements == {1: (1, 2), 3: (3,), 4: (4,), 5: (5,), 6: (6,)}


@pytest.mark.parametrize(
    ("change", "entry"),
    [
        (('number = 3\nname = "Guards Armies"', 'number = 2\nname = "Guards Armies"'), "card 19"),
        (("ops = 4\nrp = { Germany = 1 }", "ops = -1\nrp = { Germany = 1 }"), "ops"),
        (("rp = { Finland = 2 }", "rp = { Narnia = 2 }"), "rp"),
        (('group = "total-war"', 'group = "late-war"'), "group"),
        (('rp_with = "event"', 'rp_with = "both"'), "rp_with"),
        (("hand_size = 6", "hand_size = 0"), "hand_size"),
    ],
)
def test_3_5_a_bad_deck_is_refused_naming_the_entry(change, entry):
    text = SAMPLE.replace(*change, 1)
    assert text != SAMPLE
    with pytest.raises(ScenarioError) as err:
        load_deck(text, "my_deck.toml")
    assert "my_deck.toml" in str(err.value) and entry in str(err.value)


def test_3_8_a_deck_without_the_soviet_cards_1_to_6_is_refused():
    text = SAMPLE.replace('owner = "soviet"\nnumber = 6\n', 'owner = "soviet"\nnumber = 60\n')
    with pytest.raises(ScenarioError, match="3.8"):
        load_deck(text, "d.toml")


def test_pbem_new_with_the_sample_a_sandbox_and_an_owners_deck(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert cli.main(["new", "a", "--game", "stalins-war", "--db", db]) == 0
    assert "SAMPLE deck" in capsys.readouterr().out
    assert cli.main(["new", "b", "--game", "stalins-war", "--sandbox", "--db", db]) == 0
    own = tmp_path / "mine.toml"
    own.write_text(SAMPLE.replace("SAMPLE deck: invented cards", "my own cards"), "utf-8")
    assert cli.main(["new", "c", "--game", "stalins-war", "--scenario", str(own), "--db", db]) == 0
    assert "my own cards" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(SAMPLE.replace("hand_size = 6", 'hand_size = "x"'), "utf-8")
    assert cli.main(["new", "d", "--game", "stalins-war", "--scenario", str(bad), "--db", db]) == 2
    assert "hand_size" in capsys.readouterr().err
    assert cli.main(["say", "c", "--as", "axis", "draw", "--db", db]) == 0
    assert "Your hand (Axis, 6 cards" in capsys.readouterr().out
    assert cli.main(["show", "c", "--view", "soviet", "--db", db]) == 0
    assert "Your hand" not in capsys.readouterr().out


def test_12_5_the_demo_plays_18_turns_says_so_and_the_audit_replays_every_shuffle(tmp_path, capsys):
    db = str(tmp_path / "demo.db")
    assert cli.main(["demo", "--game", "stalins-war", "--seed", "2", "--db", db]) == 0
    out = capsys.readouterr().out
    assert (
        re.search(r"^T18 ", out, re.MULTILINE)
        and "after the end-of-turn phase of turn 18 (rule 12.5)" in out
    )
    assert cli.main(["audit", "demo-2", "--db", db]) == 0
    report = capsys.readouterr().out
    found = re.search(r"hidden seed revealed, (\d+) hidden value", report)
    assert found and int(found.group(1)) > 300, report
    assert "every event, state hash and the final state matches" in report
