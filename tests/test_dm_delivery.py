"""Private messages that cannot be delivered wait (bots/dm_wait.py): a private row the platform
refuses because of the user's settings (`DmClosed`) stays pending in its lane, retried with a long
backoff and never given up; the group it came from is told once per user and period of failing,
without the content; a later delivery sends the waiting rows and ends the period. And `join`,
`seat`, `start` warn a player whose private messages are known to fail.

The outbox sender runs on a FakeClock (tests/test_outbox.py `drive`): backoffs of minutes take no
real time."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from app.messages import Outgoing
from app.service import GameService
from bots import delivery
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.dm_wait import NOTICE, how_to_open
from bots.platforms.common import DmClosed, Undeliverable
from storage import Store, chat_store
from storage import outbox as sql
from tests.test_chat_service import Chat
from tests.test_outbox import drive

GROUP = "-100500"
X, Y = "7", "8"


class DmSender:
    """Delivers everything but the private messages to the users in `closed` (DmClosed) or in
    `gone` (Undeliverable); records every try of a private message as (user, text, time)."""

    def __init__(self, clock: FakeClock):
        self.clock = clock
        self.closed: set[str] = set()
        self.gone: set[str] = set()
        self.tries: list[tuple[str, str, object]] = []
        self.delivered: list[tuple[str, str]] = []  # (chat or "dm:<user>", text)
        self.posts: list[Outgoing] = []  # the public posts delivered

    async def send(self, outgoing: Outgoing, *, start_part: int = 0, raise_dm_closed=False):
        if outgoing.private:
            assert raise_dm_closed  # the outbox asks for DmClosed, not the adapter's own notice
            assert outgoing.user_id is not None
            self.tries.append((outgoing.user_id, outgoing.text, self.clock.now()))
            if outgoing.user_id in self.closed:
                raise DmClosed(f"user {outgoing.user_id} does not accept private messages")
            if outgoing.user_id in self.gone:
                raise Undeliverable(f"user {outgoing.user_id} is gone")
            self.delivered.append((f"dm:{outgoing.user_id}", outgoing.text))
            return
        self.posts.append(outgoing)
        self.delivered.append((outgoing.chat_id or "", outgoing.text))

    def tries_of(self, user: str) -> list[tuple[str, str, object]]:
        return [t for t in self.tries if t[0] == user]

    def group_texts(self) -> list[str]:
        return [text for chat, text in self.delivered if chat == GROUP]


def private(user: str, text: str, chat: str | None = GROUP) -> Outgoing:
    return Outgoing("telegram", chat, text, user_id=user, private=True)


def gaps(tries) -> list[float]:
    times = [t[2] for t in tries]
    return [(b - a).total_seconds() for a, b in itertools.pairwise(times)]


def notice_for(name: str, bot: str = "pbem_bot") -> str:
    return NOTICE.format(mention=name, how=how_to_open("telegram", bot))


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def store(db_url, stores):
    return stores(db_url)


@pytest.fixture
def sender(clock):
    return DmSender(clock)


def run_until(store, sender, clock, until) -> None:
    senders = {"telegram": sender.send}
    asyncio.run(drive(store, senders, clock, until, bot_names={"telegram": "pbem_bot"}))


# -- the outbox
def test_a_refused_private_message_waits_and_the_group_is_told_once(store, clock, sender):
    chat_store.remember_user(store, f"telegram:{X}", "alice", now=clock.now())
    sender.closed.add(X)
    outs = [
        private(X, "secret one: your reserve is at B4"),
        private(X, "secret two"),
        Outgoing("telegram", GROUP, "public post"),
        private(Y, "for Y only"),
    ]
    first, *_ = delivery.enqueue(store, "g", outs, key="tg:1:1", now=clock.now())
    run_until(store, sender, clock, lambda: len(sender.tries_of(X)) >= 4)

    assert [t[1] for t in sender.tries_of(X)] == ["secret one: your reserve is at B4"] * 4
    assert gaps(sender.tries_of(X)) == [60.0, 120.0, 240.0]  # 1 min, doubling
    assert ("dm:8", "for Y only") in sender.delivered  # other lanes are not held back
    assert sender.group_texts() == ["public post", notice_for("alice")]
    [notice] = [p for p in sender.posts if p.text.startswith("A private message")]
    assert notice.mentions == [X] and not notice.private
    assert all("secret" not in text for text in sender.group_texts())
    rows = {r.outgoing.text: r for r in delivery.rows(store)}
    head = rows["secret one: your reserve is at B4"]
    assert (head.status, head.attempts) == (delivery.PENDING, 0)  # not counted as failures
    assert "DmClosed" in (head.last_error or "")
    assert rows["secret two"].status == delivery.PENDING
    state = sql.dm_failure(store, "telegram", X)
    assert state is not None and state["row"] == first and state["tries"] == 4
    assert "@pbem_bot" in state["how"]

    sender.closed.clear()  # the user pressed Start: the waiting rows go out, in order
    run_until(
        store, sender, clock, lambda: all(r.status == delivery.SENT for r in delivery.rows(store))
    )
    dms = [text for chat, text in sender.delivered if chat == f"dm:{X}"]
    assert dms == ["secret one: your reserve is at B4", "secret two"]
    assert sql.dm_failure(store, "telegram", X) is None
    assert sender.group_texts() == ["public post", notice_for("alice")]  # still one notice


def test_the_backoff_is_capped_at_30_minutes_and_never_gives_up(store, clock, sender):
    sender.closed.add(X)
    delivery.enqueue(store, None, [private(X, "hidden")], now=clock.now())
    run_until(store, sender, clock, lambda: len(sender.tries_of(X)) >= 15)  # > max_attempts
    assert gaps(sender.tries_of(X)) == [60.0, 120.0, 240.0, 480.0, 960.0] + [1800.0] * 9
    [row] = delivery.rows(store, key_prefix=None, status=delivery.PENDING)
    assert row.outgoing.text == "hidden"
    assert sender.group_texts() == [notice_for("you")]


def test_a_new_period_of_failing_tells_the_group_again(store, clock, sender):
    sender.closed.add(X)
    delivery.enqueue(store, None, [private(X, "one")], now=clock.now())
    run_until(store, sender, clock, lambda: len(sender.group_texts()) == 1)
    sender.closed.clear()
    run_until(store, sender, clock, lambda: ("dm:7", "one") in sender.delivered)
    assert sql.dm_failure(store, "telegram", X) is None
    sender.closed.add(X)  # blocked the bot again
    delivery.enqueue(store, None, [private(X, "two")], now=clock.now())
    run_until(store, sender, clock, lambda: len(sender.tries_of(X)) >= 4)
    assert sender.group_texts() == [notice_for("you")] * 2


def test_the_fallback_chat_is_told_and_with_no_group_the_message_still_waits(store, clock, sender):
    sender.closed |= {X, Y}
    delivery.enqueue(
        store, None, [private(X, "x", chat=None)], now=clock.now(), fallback_chat_id=GROUP
    )
    delivery.enqueue(store, None, [private(Y, "y", chat=None)], now=clock.now())
    run_until(store, sender, clock, lambda: len(sender.tries_of(Y)) >= 2)
    assert sender.group_texts() == [notice_for("you")]
    assert [p.mentions for p in sender.posts] == [[X]]  # no notice for Y: no chat to tell
    assert statuses(store) == [delivery.PENDING, delivery.PENDING, delivery.SENT]


def test_other_refusals_still_fail_at_once(store, clock, sender):
    sender.gone.add(X)
    delivery.enqueue(store, None, [private(X, "lost")], now=clock.now())
    run_until(store, sender, clock, lambda: statuses(store) == [delivery.FAILED])
    assert sender.group_texts() == [] and sql.dm_failure(store, "telegram", X) is None


def statuses(store) -> list[str]:
    return [r.status for r in delivery.rows(store)]


# -- the storage of the failing state
def test_the_failing_state_keeps_its_first_row_and_counts_the_tries(store, clock):
    assert sql.dm_failure(store, "discord", "5") is None
    sql.note_dm_failure(store, "discord", "5", row_id=3, now=clock.now(), how="h")
    state = sql.note_dm_failure(store, "discord", "5", row_id=4, now=clock.now())
    assert (state["row"], state["tries"], state["how"]) == (3, 2, "h")
    assert sql.dm_failure(store, "discord", "5") == state
    assert chat_store.get_state(store, "dm-failed:discord:5") is not None
    assert sql.clear_dm_failure(store, "discord", "5")
    assert not sql.clear_dm_failure(store, "discord", "5")


# -- the chat commands warn
def test_join_seat_and_start_warn_a_player_whose_private_messages_fail(tmp_path, clock):
    store = Store(str(tmp_path / "games.db"))
    try:
        chat = ChatService(GameService(store), clock=clock, images=False)
        tg = Chat(chat, "telegram", GROUP)
        how = how_to_open("telegram", "pbem_bot")
        sql.note_dm_failure(store, "telegram", "2", row_id=1, now=clock.now(), how=how)
        note = (
            f"Note: private messages to user2 cannot be delivered yet ({how}); hidden "
            "information and private answers will wait until they can."
        )
        tg.text(1, "new hells-gate")
        assert "Note:" not in tg.text(1, "join soviet")
        assert tg.text(2, "join german").endswith(f"\n{note}")
        started = tg.text(1, "start")
        assert "begins" in started and started.count("Note:") == 1 and note in started

        tg.text(3, "status")  # user3 is a known name now
        sql.note_dm_failure(store, "telegram", "3", row_id=2, now=clock.now())
        seated = tg.text(1, "seat german telegram:3")
        assert "now plays german" in seated
        assert "Note: private messages to user3 cannot be delivered yet" in seated
        assert "press Start in a private chat with the bot" in seated  # no bot name recorded
        assert sql.clear_dm_failure(store, "telegram", "2")  # user2 opened his private chat
        assert "Note:" not in tg.text(1, "seat german telegram:2")
    finally:
        store.close()
