"""The chat service (bots/chat.py): a game's life in a chat, seats and roles through the fairness
layer, private and public answers, linked chats, redelivery, and the posts after a phase.

Driven through `ChatService.handle` with plain Incoming messages (no platform); time is a
FakeClock. The posts to every chat of a game are read from the outbox."""

from __future__ import annotations

import dataclasses
import itertools
import re
from datetime import timedelta

import pytest

from app import images, post_queue
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots import chat as chat_module
from bots.chat import ChatService
from bots.chat_commands import no_game_help
from bots.clock import FakeClock
from storage import Store, chat_store, clocks

TG_GROUP = "-100500"
DC_CHANNEL = "880000000000000001"
ATTACK = "attack A1 with 47rc"  # with `dice 6` first: 1 hit, a losses decision for German


class Chat:
    """One chat on one platform; `say` sends a message as a user, with a fresh message id."""

    _ids = itertools.count(1)

    def __init__(self, service: ChatService, platform: str, chat_id: str, private=False):
        self.service, self.platform, self.chat_id, self.private = (
            service,
            platform,
            chat_id,
            private,
        )

    def incoming(self, user: int | str, text: str, **kw) -> Incoming:
        kw.setdefault("message_id", f"{self.platform}:{self.chat_id}:{next(self._ids)}")
        kw.setdefault("private", self.private)
        return Incoming(self.platform, self.chat_id, str(user), f"user{user}", text, **kw)

    def say(self, user: int | str, text: str, **kw) -> list[Outgoing]:
        return self.service.handle(self.incoming(user, text, **kw))

    def text(self, user: int | str, text: str, **kw) -> str:
        """The public answer's text (asserting there is exactly one answer, public)."""
        (out,) = self.say(user, text, **kw)
        assert not out.private, out
        return out.text


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "games.db"))
    yield s
    s.close()


@pytest.fixture
def chat(store, clock):
    return ChatService(GameService(store), clock=clock, images=False)


@pytest.fixture
def tg(chat):
    return Chat(chat, "telegram", TG_GROUP)


def game_of(chat: ChatService, c: Chat) -> str:
    name = chat_store.binding(chat.store, c.platform, c.chat_id)
    assert name is not None
    return name


def started(c: Chat, soviet=1, german=2, sandbox=True) -> str:
    """A started game in chat c: user 1 created it (moderator) and plays Soviet, 2 German."""
    assert "New game" in c.text(soviet, "new hells-gate" + (" sandbox" if sandbox else ""))
    assert "now plays soviet" in c.text(soviet, "join soviet")
    assert "now plays german" in c.text(german, "join german")
    assert "begins" in c.text(soviet, "start")
    return game_of(c.service, c)


def posts(store, chat_id: str | None = None) -> list[post_queue.Row]:
    return [r for r in post_queue.rows(store) if chat_id is None or r.outgoing.chat_id == chat_id]


def map_of(store, row: post_queue.Row) -> bytes:
    """The map a post carries: drawn by the outbox sender from the row's render spec."""
    assert row.outgoing.image is None and row.outgoing.render is not None
    return images.render_spec(store, row.game, row.outgoing.render)


def log_rows(chat: ChatService, game: str):
    return chat.store.log(game)


# -- a chat with no game
def test_help_in_a_chat_without_a_game_explains_how_to_start(tg):
    out = tg.text(1, "help")
    assert out == no_game_help()
    assert "new hells-gate" in out and "join soviet" in out and "link <CODE>" in out
    refusal = tg.text(1, "attack C6 with 20tk")  # nothing else works there: a short refusal
    assert refusal.startswith("Refused: no game is played in this chat")
    assert "`new hells-gate`" in refusal and "`help`" in refusal and len(refusal) < 300


# -- the life of a game
def test_new_join_start_and_the_seats_it_takes(chat, tg, store):
    text = tg.text(1, "new hells-gate")
    game = game_of(chat, tg)
    assert game == "hells-gate-1" and f"New game **{game}**" in text
    rec = chat.service.record(game)
    assert rec.moderators == ("telegram:1",) and not rec.sandbox
    assert "one game per chat" in tg.text(1, "new hells-gate sandbox")

    assert "has not started" in tg.text(1, "end")  # no orders before the start
    assert "Turn 1" in tg.text(3, "status")  # questions work, for anyone
    assert "not taken yet" in tg.text(1, "start")
    tg.text(1, "join soviet")
    assert "one side per player" in tg.text(1, "join german")
    assert "played by user1" in tg.text(2, "join soviet")
    assert "Both sides are taken" in tg.text(2, "join german")
    assert "no longer plays german" in tg.text(2, "leave")  # before the start: free to go
    tg.text(2, "join german")
    assert "only a player or a moderator" in tg.text(3, "start")
    assert "begins: Soviet (user1) against German (user2)" in tg.text(1, "start")
    assert "started already" in tg.text(2, "start")
    assert "has started" in tg.text(2, "leave")  # after the start only a moderator unseats
    assert chat.service.record(game).seats == {"soviet": "telegram:1", "german": "telegram:2"}
    seat_rows = [r for r in log_rows(chat, game) if r.kind == "moderation"]
    assert [(r.payload["action"], r.payload["side"], r.user) for r in seat_rows] == [
        ("seat", "soviet", "telegram:1"),
        ("seat", "german", "telegram:2"),
        ("unseat", "german", "telegram:2"),
        ("seat", "german", "telegram:2"),
    ]
    ok, report, _ = chat.service.audit(game)  # the seat rows are chained like any other
    assert ok, report


def test_a_sandbox_game_lets_one_player_take_both_sides(tg):
    tg.text(1, "new hells-gate sandbox")
    tg.text(1, "join soviet")
    assert "now plays german" in tg.text(1, "join german")
    assert "begins" in tg.text(1, "start")
    assert "soviet-movement" in tg.text(1, "end")


def test_a_finished_game_makes_room_for_a_new_one(chat, tg, store):
    game = started(tg)
    tg.text(1, "set turn 8")
    tg.text(1, "set phase german-movement")
    tg.text(2, "end")  # the last phase: the game ends
    assert chat.service.state(game).result is not None
    final = posts(store)[-1].outgoing
    assert "Game over" in final.text and final.mentions == []
    assert "New game" in tg.text(1, "new hells-gate")
    assert game_of(chat, tg) == game[:-1] + "2"


# -- seats and roles through the fairness layer
def test_a_player_cannot_order_the_other_side_and_a_spectator_not_at_all(chat, tg):
    game = started(tg, sandbox=False)
    before = len(log_rows(chat, game))
    assert "only the Soviet player acts now" in tg.text(2, "end")  # German in a Soviet phase
    assert "Refused" in tg.text(2, ATTACK)  # German ordering a Soviet unit
    assert "holds no seat in this game: a spectator" in tg.text(3, "end")
    assert "user3 holds no seat" in tg.text(3, "end")  # shown by name, not "telegram:3"
    assert "Turn 1" in tg.text(3, "status")  # but a spectator asks questions
    assert len(log_rows(chat, game)) == before
    assert "soviet-movement" in tg.text(1, "end")  # the Soviet player can


def test_moderator_commands_need_the_moderator_and_mentions_name_users(chat, store):
    dc = Chat(chat, "discord", DC_CHANNEL)
    game = started(dc, soviet=111, german=222)
    assert "not a moderator" in dc.text(222, "pause lunch")
    assert "now plays german" in dc.text(111, "seat german <@333> replacing 222")
    assert chat.service.record(game).seats["german"] == "discord:333"
    chat.handle(dc.incoming(444, "status"))  # user444 is now a known name on Discord
    assert "now a moderator" in dc.text(111, "moderator add @user444 helps out")
    assert "discord:444" in chat.service.record(game).moderators


def test_every_command_of_the_order_language_reaches_the_service(chat, tg, monkeypatch):
    game = started(tg, soviet=1, german=1)  # one user on both sides, and the moderator
    seen: list[tuple[str, dict | None]] = []
    real = chat_module.submit  # the one path every order and question of a chat takes

    def spy(core, name, actor, text, key=None, **kw):
        done = real(core, name, actor, text, key, **kw)
        seen.extend((r.line, r.error) for r in done.replies)
        return done

    monkeypatch.setattr(chat_module, "submit", spy)
    commands = chat.service.system(game).grammar.commands
    examples = {
        name: re.search(r"Example: (.+)$", help_text).group(1)
        for name, (_, help_text) in commands.items()
    }
    assert len(examples) == len(commands) > 25
    for name, example in examples.items():
        if name in ("pause",):
            continue  # a paused game would refuse what follows; `resume` comes after it
        answers = tg.say(1, example)
        assert answers, name
        assert all(no_game_help() not in a.text for a in answers)
    tg.say(1, examples["pause"])
    tg.say(1, examples["resume"])
    said = {line for line, _ in seen}
    missing = [n for n, ex in examples.items() if ex not in said]
    # help: the chat's own help; seat and moderator name users nobody here has seen
    # (alice, carol), which the chat refuses before the service (test_e2e_chat_replies)
    assert set(missing) <= {"help", "seat", "moderator add", "moderator remove"}, missing
    assert "no user the bot has seen" in tg.text(1, examples["seat"])
    bad = [(line, e["code"]) for line, e in seen if e and e["code"] in ("unknown-command",)]
    assert bad == []
    assert game_of(chat, tg) == game


# -- private and public answers
def test_options_and_preview_go_to_the_asking_player_privately(tg):
    started(tg)
    (out,) = tg.say(1, "options")
    assert out.private and out.user_id == "1" and out.chat_id == TG_GROUP
    assert "attack" in out.text
    (out,) = tg.say(1, "preview attack A1 with 47rc")
    assert out.private and "3:2" in out.text
    (out,) = tg.say(1, "status")
    assert not out.private and out.reply_to is not None


def test_refusals_are_private_where_the_platform_answers_in_place(chat):
    dc = Chat(chat, "discord", DC_CHANNEL)
    started(dc, soviet=111, german=222)
    (out,) = dc.say(222, "end", ephemeral_ok=True)  # a slash command
    assert out.private and out.user_id == "222" and "Refused" in out.text
    (out,) = dc.say(222, "end")  # a typed command: refusals reveal nothing, so public
    assert not out.private and "Refused" in out.text
    (out,) = dc.say(111, "status", ephemeral_ok=True)  # answers stay public
    assert not out.private


def test_a_private_chat_speaks_for_the_users_one_game(chat, tg):
    game = started(tg)
    dm = Chat(chat, "telegram", "1", private=True)
    outs = dm.say(1, "options")
    assert [(o.private, o.chat_id) for o in outs] == [(False, "1")]  # answered right there
    assert "soviet-movement" in dm.text(1, "end")
    assert chat.service.state(game).phase == "soviet-movement"
    stranger = Chat(chat, "telegram", "9", private=True)
    assert stranger.text(9, "status").startswith("Refused: no game is played in this chat")


# -- linked chats
def test_linked_chats_both_receive_every_post(chat, tg, store, clock):
    game = started(tg, soviet=1, german=2)
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    dc = Chat(chat, "discord", DC_CHANNEL)
    assert "now follows **" + game in dc.text(222, f"link {code.lower()}")
    assert chat_store.bindings(store, game) == [("telegram", TG_GROUP), ("discord", DC_CHANNEL)]
    assert "used already" in Chat(chat, "discord", "5").text(1, f"link {code}")
    assert "now plays german" in tg.text(1, "seat german discord:222 plays from Discord")

    before = len(posts(store))
    tg.text(1, "dice 6")  # a moderator's fixed die (a sandbox game): mirrored to Discord
    mirrored = posts(store)[before:]
    assert [(r.outgoing.platform, r.outgoing.chat_id) for r in mirrored] == [
        ("discord", DC_CHANNEL)
    ]
    assert "dice 6" in mirrored[0].outgoing.text

    before = len(posts(store))
    tg.text(1, ATTACK)  # a hit: a decision for German, who plays on Discord
    new = posts(store)[before:]
    assert sorted((r.outgoing.platform, r.outgoing.mentions) for r in new) == [
        ("discord", ["222"]),  # pinged where he plays
        ("telegram", []),
    ]
    for r in new:
        assert "German (user222) must decide" in r.outgoing.text
        assert "1 hit" in r.outgoing.text
    assert "retreats A1 → A2" in dc.text(222, "retreat A2")  # answered from the other platform

    # codes expire after 24 h
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    clock.advance(hours=25)
    assert "expired" in Chat(chat, "telegram", "-77").text(1, f"link {code}")


def test_link_needs_a_player_or_moderator_and_one_game_per_chat(chat, tg):
    started(tg)
    assert "only the players and moderators" in tg.text(3, "link")
    other = Chat(chat, "discord", DC_CHANNEL)
    other.text(5, "new hells-gate")
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    assert "one game per chat" in other.text(5, f"link {code}")
    assert "unknown code 'ZZZZZZZZ'" in Chat(chat, "telegram", "-8").text(1, "link ZZZZZZZZ")


# -- redelivery
def test_a_redelivered_message_is_applied_once_and_answered_the_same(chat, tg, store):
    game = started(tg)
    tg.text(1, "dice 6")
    first = tg.incoming(1, ATTACK)
    replies = chat.handle(first)
    rows, queued = len(log_rows(chat, game)), len(posts(store))
    again = chat.handle(first)  # the platform delivers it once more
    assert [o.text for o in again] == [o.text for o in replies]
    assert len(log_rows(chat, game)) == rows
    assert len(posts(store)) == queued  # no second post

    other = Chat(chat, "telegram", "-3")
    new = other.incoming(7, "new hells-gate")  # the chat commands too
    assert [o.text for o in chat.handle(new)] == [o.text for o in chat.handle(new)]
    assert len(store.list_games()) == 2  # the redelivered `new` made no second game
    join = other.incoming(7, "join german")
    assert [o.text for o in chat.handle(join)] == [o.text for o in chat.handle(join)]
    link = other.incoming(7, "link")
    assert [o.text for o in chat.handle(link)] == [o.text for o in chat.handle(link)]
    code = re.search(r"`([A-Z0-9]{8})`", chat.handle(link)[0].text).group(1)
    here = Chat(chat, "discord", DC_CHANNEL).incoming(8, f"link {code}")
    assert [o.text for o in chat.handle(here)] == [o.text for o in chat.handle(here)]


# -- after a phase
def test_a_phase_end_posts_summary_image_and_mention_in_each_bound_chat(store, clock):
    chat = ChatService(GameService(store), clock=clock, images=True)
    tg = Chat(chat, "telegram", TG_GROUP)
    game = started(tg, soviet=1, german=2)
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    dc = Chat(chat, "discord", DC_CHANNEL)
    dc.text(3, f"link {code}")
    start_posts = posts(store, TG_GROUP)
    assert start_posts and map_of(store, start_posts[-1]).startswith(b"\x89PNG")
    assert start_posts[-1].outgoing.mentions == ["1"]  # the Soviet player is called

    before = len(posts(store))
    tg.text(1, "end")  # soviet-combat ends
    new = posts(store)[before:]
    assert {(r.outgoing.platform, r.outgoing.chat_id) for r in new} == {
        ("telegram", TG_GROUP),
        ("discord", DC_CHANNEL),
    }
    rec = chat.service.record(game)
    for r in new:
        out = r.outgoing
        assert map_of(store, r).startswith(b"\x89PNG")
        assert f"**{game}: turn 1, soviet-movement**" in out.text
        assert "Soviet (user1) to move" in out.text
        assert f"head hash {rec.head_hash[:20]}." in out.text  # short on a phone
        assert re.search(r"Deadline: 2030-01-\d\d \d\d:\d\d UTC \(in \d+ h\)", out.text)
    tg_post = next(r for r in new if r.outgoing.platform == "telegram")
    dc_post = next(r for r in new if r.outgoing.platform == "discord")
    assert tg_post.outgoing.mentions == ["1"] and dc_post.outgoing.mentions == []
    assert clocks.load(store, game).last_image_index == rec.head_index


def test_the_summary_tells_what_happened_since_the_last_post(chat, tg, store):
    started(tg)
    tg.text(1, "dice 6")
    before = len(posts(store))
    tg.text(1, ATTACK)  # a decision appears: a post
    (decision,) = posts(store)[before:]
    assert "What happened:\n- Attack on A1 by 47rc" in decision.outgoing.text
    assert decision.outgoing.mentions == ["2"]
    tg.text(2, "retreat A2")  # answered: no post (one chat, nothing to mirror)
    assert len(posts(store)) == before + 1
    tg.text(1, "end")
    text = posts(store)[-1].outgoing.text
    assert "retreats A1 → A2" in text and "Attack on A1" not in text  # told once


def test_a_migrated_chat_keeps_its_game_and_its_pending_posts(chat, tg, store):
    game = started(tg)
    pending = len(posts(store, TG_GROUP))
    chat.chat_migrated("telegram", TG_GROUP, "-100999")
    assert chat_store.binding(store, "telegram", "-100999") == game
    assert chat_store.binding(store, "telegram", TG_GROUP) is None
    assert len(posts(store, "-100999")) == pending
    assert "Turn 1" in Chat(chat, "telegram", "-100999").text(3, "status")


def test_map_answers_with_the_image_now(store, clock):
    chat = ChatService(GameService(store), clock=clock)
    tg = Chat(chat, "telegram", TG_GROUP)
    started(tg)
    (out,) = tg.say(3, "map")
    assert out.image.startswith(b"\x89PNG") and "turn 1" in out.text


def test_deadline_and_extend_are_for_moderators_and_apply_once(chat, tg, store, clock):
    game = started(tg)
    assert "only the moderators" in tg.text(2, "extend 2h")
    assert "only the moderators" in tg.text(2, "deadline 24h")
    tg.text(2, "deadline")  # describing it is for everyone
    at = chat_store.clock(store, game).deadline_at
    assert at is not None
    inc = tg.incoming(1, "extend 2h")
    first = chat.handle(inc)
    assert chat.handle(inc)[0].text == first[0].text
    assert chat_store.clock(store, game).deadline_at == at + timedelta(hours=2)
    assert "2 h" in first[0].text or "2h" in first[0].text
    assert "Refused" in tg.text(1, "extend soon")


def test_bindings_codes_and_posts_on_both_databases(db_url, stores, clock):
    store = stores(db_url)
    chat = ChatService(GameService(store), clock=clock, images=False)
    tg = Chat(chat, "telegram", TG_GROUP)
    game = started(tg)
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    Chat(chat, "discord", DC_CHANNEL).text(2, f"link {code}")
    inc = tg.incoming(1, "end")
    assert chat.handle(inc)[0].text == chat.handle(inc)[0].text
    phase_posts = [r for r in posts(store) if "soviet-movement**" in r.outgoing.text]
    assert sorted(r.outgoing.chat_id for r in phase_posts) == sorted([TG_GROUP, DC_CHANNEL])
    assert chat_store.bindings(store, game)[1] == ("discord", DC_CHANNEL)


def test_a_front_end_leaves_the_shared_core_as_it_was(store, clock):
    """Issue 25: the chat service works on a Core of its own (its clock, no maps); the service
    it was given keeps its wall clock and its maps, and no Core can be changed once made."""
    service = GameService(store)
    shared = service.core
    chat = ChatService(service, clock=clock, images=False)
    assert service.core is shared and shared.images and shared.now() != clock.now()
    assert chat.core.now() == clock.now() and not chat.core.images
    assert chat.service.core is chat.core and chat.core.store is store
    with pytest.raises(dataclasses.FrozenInstanceError):
        shared.now = clock.now  # type: ignore[misc]
