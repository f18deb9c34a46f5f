"""`end` with something left (rule 5.19: a player may leave actions unused; 5.3: they are not
saved): the reply says what is left, the actions and any free siege declaration still open
(7.10). The line is the reply's alone (Outcome.notes), not an event: the events of stored games,
which a replay compares, stay as they were."""

from __future__ import annotations

import hashlib

from adjudicator.core.dice import FixedDice
from adjudicator.core.i18n import say
from adjudicator.northern_war import orders as O
from app.i18n import language
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store
from tests.northern_war.helpers import sample
from tests.northern_war.test_rules import actions_for, go, winter_state
from tests.test_chat_service import Chat

RU = language("ru")


def test_5_19_end_with_actions_left_says_how_many_in_the_reply_and_adds_no_event():
    system = sample()
    state = actions_for(system, "sweden", 3)  # Sweden first with 3 actions
    out = system.apply(state, "sweden", O.End(), FixedDice([]))
    assert out.notes == ["Sweden ends its actions: 3 actions left unused (5.19)."]
    assert out.events == [] and out.state.finished == ["sweden"]  # as before: no event
    RU.missing.clear()
    assert (
        say(out.notes[0], RU)
        == "Швеция завершает свои действия; не использовано: 3 действия (5.19)."
    )
    assert RU.missing == set()


def test_7_10_end_with_a_free_siege_open_names_it():
    system = sample()
    state = go(
        system, actions_for(system, "coalition", 2), "coalition", "move peter,repnin ingermanland"
    )
    out = system.apply(state, "coalition", O.End(), FixedDice([]))
    said = (
        "Coalition ends its actions: 1 action, the free siege declaration in Ingermanland "
        "(7.10) left unused (5.19)."
    )
    assert out.notes == [said]
    assert not any(e.kind == "Note" for e in out.events)


def test_5_19_nothing_left_no_line_and_the_first_entry_phase_says_none():
    system = sample()
    state = system.initial(False, FixedDice([])).state
    assert system.apply(state, "sweden", O.End(), FixedDice([5, 1])).notes == []
    state = winter_state(system)
    state.control["ingermanland"] = "coalition"  # an enemy fortress (N4 b) to march into
    state = go(system, state, "sweden", "winter charles,rehnskiold ingermanland")
    assert state.phase == "winter" and state.winter_moved  # a free siege waits (6.4, 7.10)
    out = system.apply(state, "sweden", O.End(), FixedDice([1, 2]))  # the next year's rolls
    said = (
        "Sweden ends the winter campaign: the free siege declaration in Ingermanland (7.10) "
        "left unused."
    )
    assert out.notes == [said]


def test_5_19_the_reply_to_end_says_what_is_left_and_the_game_still_replays():
    store = Store(":memory:")
    epochs = iter(hashlib.sha256(b"epoch %d" % n).hexdigest() for n in range(1, 100))
    service = GameService(  # the same rolls every run
        store, seeds=lambda: next(epochs), uids=lambda: "c0ffee00c0ffee00c0ffee00c0ffee00"
    )
    chat = ChatService(service, clock=FakeClock(), images=False)
    group = Chat(chat, "telegram", "-100951")
    group.say("31", "new northern-war")
    group.say("31", "join sweden")
    group.say("32", "join coalition")
    group.say("31", "start")
    group.say("31", "end")  # the first entry phase: the action rolls
    game = service.store.list_games()[0].name
    system, state = service.system(game), service.state(game)
    side = system.situation(state).to_move[0]
    left = state.actions[side]
    (reply, *_) = group.say("31" if side == "sweden" else "32", "end")
    assert "Refused" not in reply.text and "left unused (5.19)" in reply.text, reply.text
    assert f"{left} action" in reply.text
    row = [r for r in store.load(game).log if r.kind == "order" and r.text == "end"][-1]
    assert [e["kind"] for e in row.payload["notes"]] == ["Note"]
    assert not any(e["kind"] == "Note" for e in row.payload["events"])
    ok, text, _ = service.audit(game)
    assert ok and "every event, state hash" in text, text
    store.close()
