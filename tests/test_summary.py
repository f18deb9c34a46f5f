"""The after-phase post: what happened, told once each."""

from __future__ import annotations

from adjudicator.core.dice import FixedDice
from adjudicator.hells_gate.system import SYSTEM
from app import games, summary


def hells_gate():
    return games.bind(SYSTEM.id, games.default_scenario(SYSTEM)[0])


def test_a_step_loss_is_told_in_the_summary():
    events = [
        {
            "kind": "UnitFlipped",
            "text": "106id (106th Infantry Division) takes a hit and is reduced.",
        }
    ]
    assert summary.happened(events, hells_gate().headlines) == [events[0]["text"]]


def test_a_deadline_default_is_told_once_when_the_note_says_it():
    system = hells_gate()
    state = system.initial(False, FixedDice([])).state
    line = "Deadline default for Soviet: end."
    post = summary.Post(
        "g",
        system.situation(state),
        system.sides,
        system.headlines,
        [{"kind": "DefaultApplied", "text": line}],
        note=f"Done: {line}",
    )
    text = summary.post_text(post, {"soviet": "alice", "german": "bob"})
    assert text.count(line) == 1
