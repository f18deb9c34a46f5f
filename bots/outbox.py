"""The persisted outbox: posts are written to the database first, then sent by one task per process.

    ids = enqueue(store, game, outgoings, key="tg:-100:42")     # in any thread; idempotent by key
    await run_sender(store, {"telegram": tg.send, "discord": dc_send}, stop_event, clock)

Guarantees:
- Written before sent: a post survives a crash or a restart of the process; a restarted sender
  sends every pending row, and never a row marked sent.
- Idempotent writes: with a `key` (the idempotency key of the incoming message that caused the
  posts) each row gets a deterministic `dedupe_key` (unique in the table); writing the same posts
  again (a redelivered message) adds nothing.
- Order per lane: a lane is one chat (or one user's private chat). Rows of a lane are sent in id
  order, one at a time; a row waiting for its retry holds back the rows behind it. Different
  lanes are sent concurrently.
- Retries: `RetryLater(retry_after=s)` (a 429 the adapter did not wait out) waits exactly s
  seconds and does not count as a failure; any other error (RetryLater without retry_after,
  DeliveryError, an unexpected exception) backs off exponentially: 1 s, 2 s, 4 s ... at most 5 min,
  and after `max_attempts` failures the row is `failed` with `last_error`. `Undeliverable` (and
  an HTTP 403/404 from an adapter that raises its library's errors) fails the row at once.
- Partial sends: an adapter splits one Outgoing into parts (text chunks, the image); the error it
  raises carries `parts_sent`, stored with the row and passed back as `start_part`, so a retry
  resumes after the parts already delivered.
- Several processes on one PostgreSQL database: a row is claimed (claimed_by / claimed_until, a
  lease renewed while the send lasts) before it is sent, so only one process sends it; a lane
  whose head row is claimed by another process is left to that process.

Exactly once to the platform is impossible: if the process dies after the platform accepted a
message and before the row is marked sent, that one Outgoing is sent again after the restart (once
its lease, `LEASE`, has expired). The window is one Outgoing per lane and is kept short: the row
is marked sent right after the adapter returns, in a transaction of its own.

Senders: `async send(outgoing, *, start_part=0, fallback_chat_id=None, as_document=False)`; only
the keyword arguments a sender's signature accepts are passed (`TelegramBot.send` takes all three;
`bots.platforms.discord.send_outgoing` bound to its bot takes none).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import os
import socket
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from bots.messages import Outgoing
from bots.platforms.common import DeliveryError, Undeliverable
from storage import Store, chat_store
from storage.chat_models import OutboxRow

log = logging.getLogger(__name__)

OUTBOX = OutboxRow.__table__
PENDING, SENT, FAILED = "pending", "sent", "failed"
MAX_ATTEMPTS = 12  # failures before a row is given up (1+2+4+...+256 s, then 5 min each)
MAX_WAITS = 100  # RetryAfter waits before a row is given up
BASE_BACKOFF = 1.0
MAX_BACKOFF = 300.0
LEASE = timedelta(minutes=2)
POLL = 1.0  # seconds between looks at the table when nothing wakes the sender
STOP_GRACE = 5.0  # seconds in-flight sends may take to finish when stopping

Sender = Callable[..., Awaitable[Any]]


class _SystemClock:
    @staticmethod
    def now() -> datetime:
        return datetime.now(UTC)


def _now(clock: Any) -> datetime:
    now = (clock or _SystemClock).now()
    if now.utcoffset() is None:
        raise ValueError("the clock must give aware UTC datetimes")
    return now


# -- writing
def lane_of(out: Outgoing) -> str:
    """What orders the rows: the chat posted to, or "dm:<user>" for a private message."""
    if out.private and out.user_id:
        return f"dm:{out.user_id}"
    if out.chat_id is None:
        raise ValueError("an Outgoing needs chat_id, or private=True with user_id")
    return out.chat_id


def dedupe_keys(key: str | None, outgoings: Iterable[Outgoing]) -> list[str | None]:
    """Deterministic keys: f"{key}|{platform}|{lane}|{n}" (n counts the rows of one lane), so a
    redelivered message gives the same keys even if the game got another chat meanwhile."""
    if key is None:
        return [None for _ in outgoings]
    seen: dict[tuple[str, str], int] = {}
    keys: list[str | None] = []
    for out in outgoings:
        lane = (out.platform, lane_of(out))
        n = seen.get(lane, 0)
        seen[lane] = n + 1
        keys.append(f"{key}|{out.platform}|{lane[1]}|{n}")
    return keys


def enqueue(
    store: Store,
    game: str | None,
    outgoings: Iterable[Outgoing],
    *,
    key: str | None = None,
    now: datetime | None = None,
    fallback_chat_id: str | None = None,
    as_document: bool = False,
    image_index: int | None = None,
    hold: Mapping[tuple[str, str], timedelta] | None = None,
    conn: Connection | None = None,
) -> list[int]:
    """Write the outgoings as pending rows, in order; return the ids of the rows written (rows
    whose dedupe key exists already are skipped). One transaction (or the caller's `conn`).

    key: the idempotency key of the cause (see `dedupe_keys`). image_index: the log row the
    posted map shows; the game's `last_image_index` moves to it in the same transaction.
    hold: (platform, lane) -> how long its rows wait before their first attempt (the chat
    service lets the adapter's direct reply to a message go out before the post it caused).
    The running senders of this process are woken once the rows are committed."""
    outs = list(outgoings)
    now = now or _now(None)
    keys = dedupe_keys(key, outs)
    if conn is not None:
        ids = _write(conn, game, outs, keys, now, fallback_chat_id, as_document, image_index, hold)
    else:
        with store.engine.begin() as c:
            ids = _write(c, game, outs, keys, now, fallback_chat_id, as_document, image_index, hold)
    if ids:
        wake_senders()
    return ids


def _write(
    conn: Connection,
    game: str | None,
    outs: list[Outgoing],
    keys: list[str | None],
    now: datetime,
    fallback_chat_id: str | None,
    as_document: bool,
    image_index: int | None,
    hold: Mapping[tuple[str, str], timedelta] | None = None,
) -> list[int]:
    wanted = [k for k in keys if k is not None]
    existing: set[str] = set()
    if wanted:
        q = select(OUTBOX.c.dedupe_key).where(OUTBOX.c.dedupe_key.in_(wanted))
        existing = set(conn.execute(q).scalars())
    ids: list[int] = []
    for out, k in zip(outs, keys, strict=True):
        if k is not None and k in existing:
            continue
        values = {
            "game": game,
            "platform": out.platform,
            "chat_id": out.chat_id,
            "user_id": out.user_id,
            "lane": lane_of(out),
            "text": out.text or "",
            "image": out.image,
            "image_name": out.image_name,
            "private": out.private,
            "mentions": json.dumps(list(out.mentions)),
            "reply_to": out.reply_to,
            "fallback_chat_id": fallback_chat_id,
            "as_document": as_document,
            "created_at": now,
            "status": PENDING,
            "attempts": 0,
            "waits": 0,
            "next_attempt_at": now + (hold or {}).get((out.platform, lane_of(out)), timedelta()),
            "parts_sent": 0,
            "dedupe_key": k,
        }
        ids.append(conn.execute(insert(OUTBOX).values(**values)).inserted_primary_key[0])
    if image_index is not None and game is not None:
        chat_store.advance_image_index(conn, game, image_index)
    return ids


def known_keys(store: Store, keys: Iterable[str]) -> set[str]:
    """Which of these dedupe keys are written already (to skip rendering a post twice)."""
    keys = list(keys)
    if not keys:
        return set()
    with store.reader.connect() as conn:
        q = select(OUTBOX.c.dedupe_key).where(OUTBOX.c.dedupe_key.in_(keys))
        return set(conn.execute(q).scalars())


# -- reading (tests, operators)
@dataclass
class Row:
    id: int
    game: str | None
    lane: str
    status: str
    attempts: int
    waits: int
    parts_sent: int
    next_attempt_at: datetime
    sent_at: datetime | None
    last_error: str | None
    dedupe_key: str | None
    outgoing: Outgoing
    fallback_chat_id: str | None = None
    as_document: bool = False


def _row(r) -> Row:
    out = Outgoing(
        platform=r.platform,
        chat_id=r.chat_id,
        text=r.text,
        user_id=r.user_id,
        image=r.image,
        image_name=r.image_name,
        private=r.private,
        mentions=json.loads(r.mentions or "[]"),
        reply_to=r.reply_to,
    )
    return Row(
        r.id,
        r.game,
        r.lane,
        r.status,
        r.attempts,
        r.waits,
        r.parts_sent,
        _aware(r.next_attempt_at),
        _aware(r.sent_at),
        r.last_error,
        r.dedupe_key,
        out,
        r.fallback_chat_id,
        r.as_document,
    )


def rows(store: Store, *, game: str | None = None, status: str | None = None) -> list[Row]:
    q = select(OUTBOX)
    if game is not None:
        q = q.where(OUTBOX.c.game == game)
    if status is not None:
        q = q.where(OUTBOX.c.status == status)
    with store.reader.connect() as conn:
        return [_row(r) for r in conn.execute(q.order_by(OUTBOX.c.id))]


def purge_sent(store: Store, *, before: datetime) -> int:
    """Delete the rows sent before `before` (their images take room); the count deleted."""
    with store.engine.begin() as conn:
        stmt = delete(OUTBOX).where(OUTBOX.c.status == SENT, OUTBOX.c.sent_at < before)
        return conn.execute(stmt).rowcount


# -- waking the senders of this process
_senders: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
_senders_lock = threading.Lock()


def wake_senders() -> None:
    """Tell the senders running in this process that rows were written (from any thread)."""
    with _senders_lock:
        targets = list(_senders)
    for loop, event in targets:
        with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
            loop.call_soon_threadsafe(event.set)


# -- sending
def _backoff(attempts: int, base: float, cap: float) -> float:
    return min(base * 2 ** max(attempts - 1, 0), cap)


def _permanent(exc: BaseException) -> bool:
    """A platform library's error that retrying cannot fix (HTTP 403 / 404)."""
    status = getattr(exc, "status", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status", None)
    return status in (403, 404)


def _accepted_kwargs(send: Sender) -> set[str] | None:
    """The keyword arguments `send` accepts (None: any)."""
    try:
        params = inspect.signature(send).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY}


class OutboxSender:
    """The sender loop's state. `run_sender` makes one and runs it; tests may drive `step`."""

    def __init__(
        self,
        store: Store,
        senders: Mapping[str, Sender],
        clock: Any = None,
        *,
        sleep: Callable[[float], Awaitable[Any]] | None = None,
        poll: float = POLL,
        max_attempts: int = MAX_ATTEMPTS,
        max_waits: int = MAX_WAITS,
        base_backoff: float = BASE_BACKOFF,
        max_backoff: float = MAX_BACKOFF,
        lease: timedelta = LEASE,
        owner: str | None = None,
    ):
        self.store = store
        self.senders = dict(senders)
        self.clock = clock
        self.sleep = sleep or asyncio.sleep  # a test passes one that moves its fake clock
        self.poll = poll
        self.max_attempts = max_attempts
        self.max_waits = max_waits
        self.base_backoff = base_backoff
        self.max_backoff = max_backoff
        self.lease = lease
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.inflight: dict[str, tuple[int, asyncio.Task[None]]] = {}  # lane -> (row id, task)
        self.kwargs = {p: _accepted_kwargs(s) for p, s in self.senders.items()}
        self._renewed = datetime.min.replace(tzinfo=UTC)

    def now(self) -> datetime:
        return _now(self.clock)

    # ---- the database side (run in a worker thread)
    def _heads(self, now: datetime) -> tuple[list[Any], datetime | None]:
        """The first pending row of each lane (of my platforms) that is due and not claimed by
        another sender; and the earliest time a held-back head becomes due."""
        if not self.senders:
            return [], None
        mine = and_(OUTBOX.c.status == PENDING, OUTBOX.c.platform.in_(list(self.senders)))
        first = select(func.min(OUTBOX.c.id)).where(mine).group_by(OUTBOX.c.platform, OUTBOX.c.lane)
        cols = [
            OUTBOX.c.id,
            OUTBOX.c.platform,
            OUTBOX.c.lane,
            OUTBOX.c.next_attempt_at,
            OUTBOX.c.claimed_by,
            OUTBOX.c.claimed_until,
        ]
        with self.store.reader.connect() as conn:
            heads = conn.execute(select(*cols).where(OUTBOX.c.id.in_(first))).all()
        due, later = [], None
        for h in sorted(heads, key=lambda h: h.id):
            until = _aware(h.claimed_until)
            if h.claimed_by not in (None, self.owner) and until is not None and until > now:
                later = until if later is None else min(later, until)
                continue
            at = _aware(h.next_attempt_at)
            if at > now:
                later = at if later is None else min(later, at)
                continue
            due.append(h)
        return due, later

    def _claim(self, row_id: int, now: datetime) -> Any | None:
        free = or_(
            OUTBOX.c.claimed_by.is_(None),
            OUTBOX.c.claimed_by == self.owner,
            OUTBOX.c.claimed_until.is_(None),
            OUTBOX.c.claimed_until < now,
        )
        with self.store.engine.begin() as conn:
            got = conn.execute(
                update(OUTBOX)
                .where(OUTBOX.c.id == row_id, OUTBOX.c.status == PENDING, free)
                .values(claimed_by=self.owner, claimed_until=now + self.lease)
            ).rowcount
            if got != 1:
                return None
            return conn.execute(select(OUTBOX).where(OUTBOX.c.id == row_id)).first()

    def _finish(self, row_id: int, **values: Any) -> bool:
        values |= {"claimed_by": None, "claimed_until": None}
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(OUTBOX)
                .where(OUTBOX.c.id == row_id, OUTBOX.c.claimed_by == self.owner)
                .values(**values)
            ).rowcount
        if not done:
            log.warning("outbox row %d: the claim was lost before it was recorded", row_id)
        return bool(done)

    def _renew(self, ids: list[int], now: datetime) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                update(OUTBOX)
                .where(OUTBOX.c.id.in_(ids), OUTBOX.c.claimed_by == self.owner)
                .values(claimed_until=now + self.lease)
            )

    def release(self, ids: list[int]) -> None:
        if not ids:
            return
        with self.store.engine.begin() as conn:
            conn.execute(
                update(OUTBOX)
                .where(OUTBOX.c.id.in_(ids), OUTBOX.c.claimed_by == self.owner)
                .values(claimed_by=None, claimed_until=None)
            )

    # ---- one row
    async def deliver(self, r: Any) -> None:
        """Send one claimed row and record the outcome."""
        row = _row(r)
        send = self.senders[r.platform]
        accepted = self.kwargs.get(r.platform)
        kwargs = {
            "start_part": row.parts_sent,
            "fallback_chat_id": row.fallback_chat_id,
            "as_document": row.as_document,
        }
        if accepted is not None:
            kwargs = {k: v for k, v in kwargs.items() if k in accepted}
        try:
            await send(row.outgoing, **kwargs)
        except asyncio.CancelledError:
            await asyncio.to_thread(self.release, [row.id])
            raise
        except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
            await asyncio.to_thread(self._failed, row, exc)
            return
        now = self.now()
        await asyncio.to_thread(self._finish, row.id, status=SENT, sent_at=now)
        log.info("outbox row %d sent to %s %s", row.id, r.platform, row.lane)

    def _failed(self, row: Row, exc: BaseException) -> None:
        now = self.now()
        parts = max(row.parts_sent, getattr(exc, "parts_sent", 0) or 0)
        error = f"{type(exc).__name__}: {exc}"[:2000]
        retry_after = getattr(exc, "retry_after", None)
        if isinstance(retry_after, timedelta):
            retry_after = retry_after.total_seconds()
        if isinstance(exc, Undeliverable) or (
            not isinstance(exc, DeliveryError) and _permanent(exc)
        ):
            log.warning("outbox row %d undeliverable: %s", row.id, error)
            self._finish(row.id, status=FAILED, parts_sent=parts, last_error=error)
            return
        if retry_after is not None:
            waits = row.waits + 1
            if waits > self.max_waits:
                self._finish(row.id, status=FAILED, waits=waits, parts_sent=parts, last_error=error)
                return
            log.info("outbox row %d: rate limited, retry in %gs", row.id, retry_after)
            self._finish(
                row.id,
                waits=waits,
                parts_sent=parts,
                last_error=error,
                next_attempt_at=now + timedelta(seconds=float(retry_after)),
            )
            return
        attempts = row.attempts + 1
        if attempts >= self.max_attempts:
            log.error("outbox row %d failed after %d attempts: %s", row.id, attempts, error)
            self._finish(
                row.id, status=FAILED, attempts=attempts, parts_sent=parts, last_error=error
            )
            return
        delay = _backoff(attempts, self.base_backoff, self.max_backoff)
        log.info(
            "outbox row %d: attempt %d failed (%s); retry in %gs", row.id, attempts, error, delay
        )
        self._finish(
            row.id,
            attempts=attempts,
            parts_sent=parts,
            last_error=error,
            next_attempt_at=now + timedelta(seconds=delay),
        )

    # ---- the loop
    async def step(self) -> float:
        """Start sending every due lane head not in flight; the seconds until something is due
        (at most `poll`)."""
        now = self.now()
        for lane, (_, task) in list(self.inflight.items()):
            if task.done():
                del self.inflight[lane]
                if not task.cancelled() and task.exception() is not None:
                    log.error("outbox send task failed", exc_info=task.exception())
        if self.inflight and now - self._renewed >= self.lease / 4:
            await asyncio.to_thread(self._renew, [i for i, _ in self.inflight.values()], now)
            self._renewed = now
        heads, later = await asyncio.to_thread(self._heads, now)
        for h in heads:
            key = f"{h.platform}|{h.lane}"
            if key in self.inflight:
                continue
            r = await asyncio.to_thread(self._claim, h.id, now)
            if r is None:
                continue
            task = asyncio.create_task(self.deliver(r), name=f"outbox-{h.id}")
            self.inflight[key] = (h.id, task)
        if later is None:
            return self.poll
        return max(0.0, min(self.poll, (later - now).total_seconds()))

    async def run(self, stop_event: asyncio.Event) -> None:
        wake = asyncio.Event()
        entry = (asyncio.get_running_loop(), wake)
        with _senders_lock:
            _senders.append(entry)
        try:
            while not stop_event.is_set():
                wake.clear()
                try:
                    delay = await self.step()
                except Exception:
                    log.exception("outbox sender step failed")
                    delay = self.poll
                await self._wait(delay, wake, stop_event)
        finally:
            with _senders_lock:
                _senders.remove(entry)
            await self._drain()

    async def _wait(self, delay: float, wake: asyncio.Event, stop: asyncio.Event) -> None:
        if wake.is_set() or stop.is_set():
            return
        waiters = [
            asyncio.ensure_future(self.sleep(delay)),
            asyncio.ensure_future(wake.wait()),
            asyncio.ensure_future(stop.wait()),
        ]
        inflight = [task for _, task in self.inflight.values()]
        try:
            await asyncio.wait([*waiters, *inflight], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()
            await asyncio.gather(*waiters, return_exceptions=True)

    async def _drain(self) -> None:
        """Let in-flight sends finish (STOP_GRACE s), then cancel them (their claims released)."""
        tasks = [task for _, task in self.inflight.values()]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=STOP_GRACE)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        self.inflight.clear()


async def run_sender(
    store: Store,
    senders: Mapping[str, Sender],
    stop_event: asyncio.Event,
    clock: Any = None,
    **options: Any,
) -> None:
    """Send the pending rows of the platforms in `senders` until `stop_event` is set.

    senders: platform -> async send (see the module doc). clock: `now()` gives aware UTC (None:
    the system clock). options: see OutboxSender (sleep, poll, max_attempts, base_backoff,
    max_backoff, lease, owner). Rows for platforms with no sender stay pending."""
    await OutboxSender(store, senders, clock, **options).run(stop_event)


def _aware(value: datetime | None) -> datetime | None:
    if value is None or value.utcoffset() is not None:
        return value
    return value.replace(tzinfo=UTC)


__all__ = [
    "FAILED",
    "PENDING",
    "SENT",
    "OutboxSender",
    "Row",
    "dedupe_keys",
    "enqueue",
    "known_keys",
    "lane_of",
    "purge_sent",
    "rows",
    "run_sender",
    "wake_senders",
]
