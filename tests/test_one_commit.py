"""One order through the chat service is one database transaction: the log rows, the snapshot,
the deadline re-arm and the outbox rows (the after-phase post, or the mirror to a linked chat,
and the private message of the speaker's own lines) commit together, or not at all."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import event

from app import post_queue as outbox_in
from app import submit
from app.messages import Outgoing
from app.service import GameService
from bots import delivery
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store, clocks
from storage import outbox as outbox_rows
from tests.test_chat_service import TG_GROUP, Chat, game_of, started


class Commits:
    """Counts the commits of every connection of a store's engine."""

    def __init__(self, store: Store):
        self.n = 0
        event.listen(store.engine, "commit", self._count)

    def _count(self, conn) -> None:
        self.n += 1


@pytest.fixture
def chat(tmp_path):
    store = Store(str(tmp_path / "games.db"))
    yield ChatService(GameService(store), clock=FakeClock(), images=False)
    store.close()


def linked(chat: ChatService) -> tuple[Chat, Chat, str]:
    """A started game in a Telegram group, followed by a linked Discord channel."""
    tg = Chat(chat, "telegram", TG_GROUP)
    game = started(tg)
    code = tg.text(1, "link").split("`")[1]
    dc = Chat(chat, "discord", "880000000000000009")
    assert "now follows" in dc.text(3, f"link {code}")
    return tg, dc, game


def deadline(chat: ChatService, game: str):
    return clocks.load(chat.store, game).deadline_at


def test_an_order_that_ends_a_phase_is_one_commit_with_its_post_and_deadline(chat):
    tg, dc, game = linked(chat)
    before = len(outbox_rows.select_rows(chat.store, game=game))
    armed = deadline(chat, game)
    chat.clock.advance(timedelta(hours=1))
    commits = Commits(chat.store)
    answer = tg.text(1, "end")
    assert commits.n == 1
    assert "ends the soviet-combat phase" in answer
    new = outbox_rows.select_rows(chat.store, game=game)[before:]
    assert sorted(r["chat_id"] for r in new) == sorted([tg.chat_id, dc.chat_id])  # the posts
    assert all("soviet-movement" in r["text"] for r in new)
    assert deadline(chat, game) == armed + timedelta(hours=1)  # re-armed in the same commit


def test_an_order_that_ends_no_phase_is_one_commit_with_its_mirror(chat):
    tg, dc, game = linked(chat)
    before = len(outbox_rows.select_rows(chat.store, game=game))
    commits = Commits(chat.store)
    answer = tg.text(1, "salt the cat walked on the keyboard")
    assert commits.n == 1
    assert "Salt added to dice epoch 1" in answer
    new = outbox_rows.select_rows(chat.store, game=game)[before:]
    assert [r["chat_id"] for r in new] == [dc.chat_id]  # mirrored to the other chat only
    assert "salt the cat walked on the keyboard" in new[0]["text"]


def test_a_refused_order_commits_nothing(chat):
    tg, _, game = linked(chat)
    rows = chat.store.count_rows(game)
    commits = Commits(chat.store)
    assert "Refused" in tg.text(2, "end")  # German, in the Soviet combat phase
    assert commits.n == 0 and chat.store.count_rows(game) == rows


def test_a_question_commits_nothing(chat):
    tg = Chat(chat, "telegram", TG_GROUP)
    started(tg)
    commits = Commits(chat.store)
    assert "Turn 1" in tg.text(1, "status")
    assert commits.n == 0


class Statements:
    """The statements of every connection of a store's engine, in order."""

    def __init__(self, store: Store):
        self.said: list[str] = []
        event.listen(store.engine, "before_cursor_execute", self._said)
        event.listen(store.engine, "commit", lambda conn: self.said.append("COMMIT"))

    def _said(self, conn, cursor, statement, *args) -> None:
        self.said.append(" ".join(statement.split()[:2]).upper())


def test_an_order_reads_once_before_its_transaction_and_nothing_after(chat):
    """The chat's binding and the languages its answer is said in are one read; the answer is
    said from them, so the order's whole path is that read and its one write transaction."""
    tg = Chat(chat, "telegram", TG_GROUP)
    started(tg)
    assert "Русский" in tg.text(1, "language ru")
    statements = Statements(chat.store)
    answer = tg.text(1, "salt the cat walked on the keyboard")
    assert "добавлена соль" in answer, answer  # said in the chat's language
    said = statements.said
    begin = said.index("BEGIN IMMEDIATE")
    begin = said.index("BEGIN IMMEDIATE")
    reads = [s for s in said[:begin] if s.startswith("SELECT")]
    assert len(reads) == 1, said  # the binding with the languages (storage/chat_languages.py)
    assert said.count("COMMIT") == 1 and said[-1] == "COMMIT", said  # nothing read after it


# -- the speaker's own private line (a drawn card): in the order's transaction


def stalins_war(chat: ChatService) -> tuple[Chat, str]:
    """A started Stalin's War game in a Telegram group: user 1 plays Axis, user 2 Soviet."""
    tg = Chat(chat, "telegram", TG_GROUP)
    assert "New game" in tg.text(1, "new stalins-war")
    assert "now plays axis" in tg.text(1, "join axis")
    assert "now plays soviet" in tg.text(2, "join soviet")
    tg.say(1, "start")
    return tg, game_of(chat, tg)


def mine(store: Store, game: str) -> list[dict]:
    """The private messages to user 1 (his hand), as outbox rows."""
    rows = outbox_rows.select_rows(store, game=game)
    return [r for r in rows if r["lane"] == "dm:1" and "Your hand" in r["text"]]


async def deliver(store: Store, clock: FakeClock) -> list[tuple[str, str]]:
    """Every due row of the outbox, through a recording sender: (lane, text) delivered."""
    clock.advance(timedelta(minutes=1))  # past the hold that lets a direct reply go first
    delivered: list[tuple[str, str]] = []

    async def send(out: Outgoing, **_: object) -> None:
        delivered.append((outbox_in.lane_of(out), out.text))

    sender = delivery.OutboxSender(store, {"telegram": send}, clock, owner="test")
    while delivery.rows(store, status=delivery.PENDING):
        await sender.step()
        await asyncio.gather(*(task for _, task in sender.inflight.values()))
    return delivered


def test_the_speakers_private_line_is_written_in_the_orders_one_commit(chat):
    tg, game = stalins_war(chat)
    commits = Commits(chat.store)
    incoming = tg.incoming(1, "draw")
    (answer,) = chat.handle(incoming)
    assert commits.n == 1, "the order and the private message to its speaker: one commit"
    assert "draws 6 cards" in answer.text and "Your hand" not in answer.text
    assert not answer.private  # the group's answer; the hand goes by private message
    (row,) = mine(chat.store, game)
    assert row["dedupe_key"].startswith(f"{incoming.message_id}:mine|")
    assert row["fallback_chat_id"] == TG_GROUP  # told there, without the hand, if DMs are closed
    chat.handle(incoming)  # a redelivery: answered again, nothing written again
    assert len(mine(chat.store, game)) == 1
    delivered = asyncio.run(deliver(chat.store, chat.clock))
    assert [text for lane, text in delivered if lane == "dm:1" and "Your hand" in text]


def test_a_failure_after_the_commit_loses_neither_the_order_nor_the_private_line(chat, monkeypatch):
    tg, game = stalins_war(chat)
    rows = chat.store.count_rows(game)

    def failing() -> None:
        raise RuntimeError("injected after the commit")

    monkeypatch.setattr(submit.outbox_rows, "notify", failing)
    (answer,) = tg.say(1, "draw")
    assert "could not be handled" in answer.text  # the failure is answered ...
    monkeypatch.undo()
    assert chat.store.count_rows(game) > rows  # ... but the order stands
    (row,) = mine(chat.store, game)  # and so does his hand, to be sent
    delivered = asyncio.run(deliver(chat.store, chat.clock))
    assert (row["lane"], row["text"]) in delivered
