"""A position deep in a game set up with the moderator's editor only (issue 26): turn 2, the
Russian group collapsed with 4 of 5 lost, a unit recovered and awaiting placement (4.5), another
in the Recovery Box; then real orders play on (an activation, the Rally phase of a collapsed
group where the artillery may rally under rules version 2 (6.6), the Morale and Recovery Phases,
the placement), and the stored game audits clean and replays to the same state."""

from __future__ import annotations

from app.service import GameService
from storage import Store, state_hash

SETUP = [
    "set turn 2",
    "set losses neverovsky 4",  # tarnopol, vilna, simbirsk, 49jag rout (the last first)
    "set collapsed neverovsky yes",
    "place tarnopol awaiting",  # recovered, awaiting placement (4.5)
    "place simbirsk recovery",
    "set state odessa disordered",  # 6.5(a) by hand
    "set state 27art disordered",
]


def say(service: GameService, actor: str, text: str) -> str:
    (reply,) = service.say("deep", actor, text)
    assert reply.ok, (actor, text, reply.reply)
    return reply.reply


def test_a_collapsed_group_with_a_unit_awaiting_placement_in_turn_2_plays_on_and_audits():
    store = Store(":memory:")
    service = GameService(store)
    service.new_game("deep", sandbox=True, system="borodino")
    for text in SETUP:
        say(service, "moderator", text)
    st = service.state("deep")
    assert (st.turn, st.phase, st.collapsed, st.rules) == (2, "activations", ["neverovsky"], 2)
    assert st.units["tarnopol"].where == "recovered" and st.units["simbirsk"].where == "recovery"
    assert "neverovsky 4 of 5 lost (COLLAPSED)" in service.status("deep")

    say(service, "french", "activate compans")
    say(service, "french", "end")
    say(service, "russian", "activate neverovsky")
    said = say(service, "russian", "end")
    assert "may attempt: 27art" in said  # odessa is barred (6.8); the artillery is not (6.6)
    say(service, "moderator", "dice 2")
    said = say(service, "russian", "rally 27art")
    assert "27art (27th Division Artillery) rallies: die 2 <= cohesion 3 (2.6)." in said
    say(service, "moderator", "dice 1")
    said = say(service, "russian", "recovery")  # simbirsk rolls 1: recovered; tarnopol waited
    assert "simbirsk (Simbirsk Infantry Regiment) recovers: die 1" in said
    st = service.state("deep")
    assert st.phase == "placement" and st.placing == ["russian"]
    said = say(service, "russian", "return tarnopol 0701")
    assert "It stays Disordered: its group has collapsed (4.7, 6.8)." in said
    said = say(service, "russian", "return simbirsk 0702")
    st = service.state("deep")
    assert st.turn == 3 and st.units["tarnopol"].hex == "0701"
    assert not st.units["27art"].disordered and st.units["odessa"].disordered

    ok, text, _ = service.audit("deep")
    assert ok, text
    replayed = service.replay("deep")
    system = service.system("deep")
    assert state_hash(system.state_to_json(replayed)) == state_hash(system.state_to_json(st))
    service.verify("deep")
    store.close()
