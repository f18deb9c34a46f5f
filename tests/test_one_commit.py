"""One order through the chat service is one database transaction: the log rows, the snapshot,
the deadline re-arm and the outbox rows (the after-phase post, or the mirror to a linked chat)
commit together, or not at all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event

from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store, clocks
from storage import outbox as outbox_rows
from tests.test_chat_service import TG_GROUP, Chat, started


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
