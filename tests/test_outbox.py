"""The persisted outbox: idempotent writes, ordered sending per chat, retry with backoff,
RetryAfter honoured, partial sends resumed, restarts that resend pending rows and never sent ones,
and two senders on one database that never send a row twice.

Time is a FakeClock; the sender's sleep moves it, so backoffs of minutes take no real time."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from dataclasses import replace
from datetime import timedelta

import pytest

from app.messages import Outgoing
from bots import delivery
from bots.clock import FakeClock
from bots.platforms.common import DeliveryError, RetryLater, Undeliverable
from storage import Store


class FakeSender:
    """Records each send (with the fake time); `script` is a list of exceptions (or None for
    success) consumed one per call, then every call succeeds."""

    def __init__(self, clock: FakeClock, script=None, delay: float = 0.0):
        self.clock = clock
        self.script = list(script or [])
        self.delay = delay
        self.calls: list[tuple[str, str, int, object]] = []  # (chat, text, start_part, at)
        self.delivered: list[tuple[str, str]] = []

    async def send(self, outgoing: Outgoing, *, start_part: int = 0, fallback_chat_id=None):
        self.calls.append(
            (
                outgoing.chat_id or f"dm:{outgoing.user_id}",
                outgoing.text,
                start_part,
                self.clock.now(),
            )
        )
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.script:
            exc = self.script.pop(0)
            if exc is not None:
                raise exc
        self.delivered.append((outgoing.chat_id or f"dm:{outgoing.user_id}", outgoing.text))


def fake_sleep(clock: FakeClock, holder: list | None = None):
    """The sender's sleep on fake time: the clock jumps, but only once no send is in flight
    (a send ending cancels the sleep first, as it would on real time)."""

    async def sleep(seconds: float) -> None:
        while holder and any(not task.done() for _, task in holder[0].inflight.values()):
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.001)
        clock.advance(seconds=seconds)

    return sleep


async def drive(store, senders, clock, until, *, timeout: float = 300.0, **options):
    """Run the sender until `until()` holds (real time at most `timeout`), then stop it."""
    stop = asyncio.Event()
    holder: list[delivery.OutboxSender] = []
    options.setdefault("sleep", fake_sleep(clock, holder))
    options.setdefault("poll", 3600.0)  # on fake time: wake exactly when something is due
    holder.append(delivery.OutboxSender(store, senders, clock, **options))
    task = asyncio.create_task(holder[0].run(stop))
    deadline = time.monotonic() + timeout
    try:
        while not until():
            if task.done():
                task.result()
                raise AssertionError("the sender stopped by itself")
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for the sender")
            await asyncio.sleep(0.002)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


def post(chat: str, text: str, platform: str = "telegram", **kw) -> Outgoing:
    return Outgoing(platform, chat, text, **kw)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def store(db_url, stores):
    return stores(db_url)


def statuses(store) -> list[str]:
    return [r.status for r in delivery.rows(store)]


# -- writing
def test_enqueue_writes_rows_in_order_and_a_key_makes_it_idempotent(store, clock):
    outs = [post("A", "one"), post("A", "two"), post("B", "three", mentions=["7"])]
    ids = delivery.enqueue(store, None, outs, key="tg:1:5", now=clock.now())
    assert len(ids) == 3 and ids == sorted(ids)
    assert delivery.enqueue(store, None, outs, key="tg:1:5", now=clock.now()) == []
    rows = delivery.rows(store)
    assert [r.outgoing.text for r in rows] == ["one", "two", "three"]
    assert rows[2].outgoing.mentions == ["7"]
    assert [r.dedupe_key for r in rows] == [
        "tg:1:5|telegram|A|0",
        "tg:1:5|telegram|A|1",
        "tg:1:5|telegram|B|0",
    ]
    # without a key nothing is deduplicated
    delivery.enqueue(store, None, [post("A", "x")], now=clock.now())
    delivery.enqueue(store, None, [post("A", "x")], now=clock.now())
    assert len(delivery.rows(store)) == 5


def test_a_private_message_keeps_its_fields_and_has_its_own_lane(store, clock):
    out = Outgoing("discord", "123", "secret", user_id="9", private=True, reply_to="dc:1")
    delivery.enqueue(store, "g", [out], fallback_chat_id="123", as_document=True, now=clock.now())
    (row,) = delivery.rows(store)
    assert row.lane == "dm:9" and row.game == "g"
    assert row.outgoing == replace(out, document=True)  # the row's as_document, read back
    assert row.fallback_chat_id == "123" and row.as_document


def test_images_round_trip_as_bytes(store, clock):
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    delivery.enqueue(
        store, None, [post("A", "map", image=png, image_name="m.png")], now=clock.now()
    )
    (row,) = delivery.rows(store)
    assert row.outgoing.image == png and row.outgoing.image_name == "m.png"


# -- sending
def test_rows_are_sent_in_order_per_chat_and_marked_sent(store, clock):
    sender = FakeSender(clock)
    outs = [post("A", "a1"), post("B", "b1"), post("A", "a2"), post("B", "b2"), post("A", "a3")]
    delivery.enqueue(store, None, outs, now=clock.now())
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: len(sender.delivered) == 5))
    assert [t for c, t in sender.delivered if c == "A"] == ["a1", "a2", "a3"]
    assert [t for c, t in sender.delivered if c == "B"] == ["b1", "b2"]
    rows = delivery.rows(store)
    assert statuses(store) == ["sent"] * 5
    assert all(r.sent_at is not None for r in rows)


def test_rows_for_a_platform_without_sender_stay_pending(store, clock):
    sender = FakeSender(clock)
    delivery.enqueue(
        store, None, [post("A", "tg"), post("X", "dc", platform="discord")], now=clock.now()
    )
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert statuses(store) == ["sent", "pending"]


def test_a_failure_backs_off_exponentially_and_holds_back_its_chat(store, clock):
    boom = DeliveryError("500 from the platform")
    sender = FakeSender(clock, [boom, boom, boom, None])
    delivery.enqueue(store, None, [post("A", "first"), post("A", "second")], now=clock.now())
    start = clock.now()
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: len(sender.delivered) == 2))
    first = [at - start for chat, text, _, at in sender.calls if text == "first"]
    assert first == [timedelta(0), timedelta(seconds=1), timedelta(seconds=3), timedelta(seconds=7)]
    assert [t for _, t in sender.delivered] == ["first", "second"]  # never overtaken
    row = delivery.rows(store)[0]
    assert row.attempts == 3 and row.status == "sent" and "500" in row.last_error


def test_backoff_is_capped_and_a_row_fails_after_max_attempts(store, clock):
    sender = FakeSender(clock, [RuntimeError("network down")] * 12)
    delivery.enqueue(store, None, [post("A", "doomed"), post("A", "next")], now=clock.now())
    start = clock.now()
    asyncio.run(
        drive(
            store,
            {"telegram": sender.send},
            clock,
            lambda: len(sender.delivered) == 1,
            max_attempts=12,
        )
    )
    times = [at - start for _, text, _, at in sender.calls if text == "doomed"]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps[:9] == [timedelta(seconds=2**i) for i in range(9)]  # 1, 2, 4 ... 256 s
    assert gaps[9:] == [timedelta(seconds=300)] * 2  # capped at 5 min
    doomed, nxt = delivery.rows(store)
    assert doomed.status == "failed" and doomed.attempts == 12
    assert "RuntimeError: network down" in doomed.last_error
    assert nxt.status == "sent"  # a failed row no longer holds its chat back


def test_retry_after_is_waited_exactly_and_is_not_a_failure(store, clock):
    sender = FakeSender(clock, [RetryLater("429", retry_after=37.0), None])
    delivery.enqueue(store, None, [post("A", "hello")], now=clock.now())
    start = clock.now()
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert [at - start for *_, at in sender.calls] == [timedelta(0), timedelta(seconds=37)]
    (row,) = delivery.rows(store)
    assert row.attempts == 0 and row.waits == 1 and row.status == "sent"


def test_a_library_rate_limit_with_retry_after_is_honoured_too(store, clock):
    class RateLimited(Exception):  # e.g. discord.RateLimited
        retry_after = 12.5

    sender = FakeSender(clock, [RateLimited("slow down"), None])
    delivery.enqueue(store, None, [post("A", "x")], now=clock.now())
    start = clock.now()
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert sender.calls[1][3] - start == timedelta(seconds=12.5)


def test_undeliverable_fails_at_once_and_the_chat_goes_on(store, clock):
    class Forbidden(Exception):  # a library's 403
        status = 403

    sender = FakeSender(clock, [Undeliverable("bot removed"), Forbidden("no access"), None])
    delivery.enqueue(store, None, [post("A", "1"), post("A", "2"), post("A", "3")], now=clock.now())
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert statuses(store) == ["failed", "failed", "sent"]
    assert len(sender.calls) == 3


def test_a_partial_send_resumes_after_the_parts_delivered(store, clock):
    sender = FakeSender(clock, [RetryLater("timeout", parts_sent=2), None])
    delivery.enqueue(store, None, [post("A", "long\n" * 3000)], now=clock.now())
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert [start for _, _, start, _ in sender.calls] == [0, 2]
    (row,) = delivery.rows(store)
    assert row.parts_sent == 2 and row.attempts == 1


def test_only_the_keyword_arguments_a_sender_accepts_are_passed(store, clock):
    got = []

    async def plain(out):  # e.g. functools.partial(discord.send_outgoing, bot)
        got.append(out.text)

    delivery.enqueue(store, None, [post("A", "hi", platform="discord")], now=clock.now())
    asyncio.run(drive(store, {"discord": plain}, clock, lambda: got))
    assert got == ["hi"] and statuses(store) == ["sent"]


class OverlapSender(FakeSender):
    """Each send waits (on its own, not on the clock) until another send is in flight beside
    it, and records whether one ever was: sends one after another would each wait alone."""

    def __init__(self, clock: FakeClock):
        super().__init__(clock)
        self.in_flight = 0
        self.most = 0
        self.company: asyncio.Event | None = None

    async def send(self, outgoing: Outgoing, *, start_part: int = 0, fallback_chat_id=None):
        self.company = self.company or asyncio.Event()
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        if self.in_flight > 1:
            self.company.set()
        try:  # the bound only ends a wait that sequential sending would make endless
            await asyncio.wait_for(self.company.wait(), timeout=120)
        except TimeoutError:
            pass
        finally:
            self.in_flight -= 1
        await super().send(outgoing, start_part=start_part, fallback_chat_id=fallback_chat_id)


def test_different_chats_are_sent_concurrently(store, clock):
    sender = OverlapSender(clock)
    delivery.enqueue(store, None, [post(f"C{i}", "x") for i in range(6)], now=clock.now())
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: len(sender.delivered) == 6))
    assert sender.most > 1  # a second chat's send began while the first was still in flight


# -- restarts
def test_a_restart_sends_pending_rows_and_never_a_sent_one(tmp_path, clock):
    db = str(tmp_path / "games.db")
    first = Store(db)
    delivery.enqueue(first, None, [post("A", "one"), post("A", "two")], now=clock.now())
    sender = FakeSender(clock, [None, DeliveryError("the process dies now")])
    asyncio.run(drive(first, {"telegram": sender.send}, clock, lambda: len(sender.calls) == 2))
    first.close()  # "one" sent; "two" pending (its retry due in 1 s)
    assert [t for _, t in sender.delivered] == ["one"]

    clock.advance(seconds=5)
    second = Store(db)  # a new process on the same file
    again = FakeSender(clock)
    asyncio.run(drive(second, {"telegram": again.send}, clock, lambda: again.delivered))
    assert again.delivered == [("A", "two")]
    assert statuses(second) == ["sent", "sent"]
    third = FakeSender(clock)  # once more: nothing is left to send
    later = clock.now() + timedelta(seconds=10)
    asyncio.run(drive(Store(db), {"telegram": third.send}, clock, lambda: clock.now() >= later))
    assert third.calls == []
    second.close()


def test_a_row_claimed_by_a_dead_process_is_sent_when_its_lease_expires(tmp_path, clock):
    db = str(tmp_path / "games.db")
    store = Store(db)
    delivery.enqueue(store, None, [post("A", "in flight at the crash")], now=clock.now())
    dead = delivery.OutboxSender(store, {"telegram": None}, clock, owner="dead")
    (head,), _ = dead._heads(clock.now())
    assert dead._claim(head.id, clock.now()) is not None  # claimed, then the process died

    sender = FakeSender(clock)
    start = clock.now()
    asyncio.run(drive(Store(db), {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert sender.calls[0][3] - start >= delivery.LEASE
    assert statuses(store) == ["sent"]


def test_stopping_releases_the_claims_of_sends_in_flight(store, clock):
    never = asyncio.Event()

    async def hang(out, **kw):
        await never.wait()

    delivery.enqueue(store, None, [post("A", "x")], now=clock.now())

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(
            delivery.run_sender(store, {"telegram": hang}, stop, clock, sleep=fake_sleep(clock))
        )
        await asyncio.sleep(0.1)
        stop.set()
        await asyncio.wait_for(task, 10)

    old = delivery.STOP_GRACE
    delivery.STOP_GRACE = 0.05
    try:
        asyncio.run(scenario())
    finally:
        delivery.STOP_GRACE = old
    from sqlalchemy import select

    from bots.delivery import OUTBOX

    with store.reader.connect() as conn:
        (claimed,) = conn.execute(select(OUTBOX.c.claimed_by)).scalars().all()
    assert claimed is None and statuses(store) == ["pending"]


def test_two_senders_on_one_database_send_each_row_once(db_url, stores, clock):
    a, b = stores(db_url), stores(db_url)
    outs = [post(f"C{i % 4}", f"m{i}") for i in range(24)]
    delivery.enqueue(a, None, outs, now=clock.now())
    delivered: list[tuple[str, str]] = []

    def sender(who):
        async def send(out, **kw):
            await asyncio.sleep(0.001)
            delivered.append((out.chat_id, out.text))

        return send

    async def both():
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(delivery.run_sender(s, {"telegram": sender(n)}, stop, clock))
            for n, s in (("a", a), ("b", b))
        ]
        deadline = time.monotonic() + 20
        while len(delivered) < 24 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        stop.set()
        await asyncio.gather(*tasks)

    asyncio.run(both())
    assert sorted(t for _, t in delivered) == sorted(o.text for o in outs)  # each once
    for chat in ("C0", "C1", "C2", "C3"):
        mine = [t for c, t in delivered if c == chat]
        assert mine == [o.text for o in outs if o.chat_id == chat]  # in order per chat


def test_rows_written_from_another_thread_wake_the_sender(store, clock):
    sender = FakeSender(clock)

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(
            delivery.run_sender(store, {"telegram": sender.send}, stop, clock, poll=30.0)
        )
        await asyncio.sleep(0.05)  # the sender now waits (30 s of real time)
        written = time.monotonic()
        thread = threading.Thread(
            target=delivery.enqueue,
            args=(store, None, [post("A", "now")]),
            kwargs={"now": clock.now()},
        )
        thread.start()
        while not sender.delivered and time.monotonic() - written < 5:
            await asyncio.sleep(0.005)
        thread.join()
        stop.set()
        await asyncio.wait_for(task, 10)
        return time.monotonic() - written

    took = asyncio.run(scenario())
    assert sender.delivered == [("A", "now")] and took < 1.0


def test_purge_deletes_only_old_sent_rows(store, clock):
    sender = FakeSender(clock)
    delivery.enqueue(store, None, [post("A", "old")], now=clock.now())
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    delivery.enqueue(store, None, [post("B", "pending")], now=clock.now())
    assert delivery.purge_sent(store, before=clock.now() + timedelta(seconds=1)) == 1
    assert [r.outgoing.text for r in delivery.rows(store)] == ["pending"]
