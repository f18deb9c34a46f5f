"""The after-phase post: what happened, told once each."""

from __future__ import annotations

from adjudicator.hells_gate.rules import HellsGate
from bots import summary


def test_a_step_loss_is_told_in_the_summary(scenario):
    events = [
        {
            "kind": "UnitFlipped",
            "text": "106id (106th Infantry Division) takes a hit and is reduced.",
        }
    ]
    assert summary.happened(events) == [events[0]["text"]]


def test_a_deadline_default_is_told_once_when_the_note_says_it(scenario):
    state = HellsGate(scenario).new_game().state
    line = "Deadline default for Soviet: end."
    post = summary.Post(
        "g", state, [{"kind": "DefaultApplied", "text": line}], note=f"Done: {line}"
    )
    text = summary.post_text(post, {"soviet": "alice", "german": "bob"})
    assert text.count(line) == 1
