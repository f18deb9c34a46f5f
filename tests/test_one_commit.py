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
