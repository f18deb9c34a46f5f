"""The outbox's sender: posts are written to the database first, then sent by one task per process.

    ids = enqueue(store, game, outgoings, key="tg:-100:42")     # in any thread; idempotent by key
    await run_sender(store, {"telegram": tg.send, "discord": dc_send}, stop_event, clock)

Guarantees:
- Written before sent: a post survives a crash or a restart of the process; a restarted sender
  sends every pending row, and never a row marked sent.
- Idempotent writes: with a `key` (the idempotency key of the message that caused the posts)
  each row gets a unique `dedupe_key`: the same posts written again add nothing.
- Order per lane (one chat, or one user's private chat): a lane's rows go in id order, one at a
  time, a row waiting for its retry holding back those behind it; lanes go concurrently.
- Retries (bots/retry.py): a rate limit waits exactly its `retry_after`; other errors back off
  1 s, 2 s, 4 s ... at most 5 min, `max_attempts` times; `Undeliverable` fails at once. A partial
  send's `parts_sent` is kept and passed back as `start_part`: a retry resumes after them.
- A private message refused by the user's settings (`DmClosed`) waits instead, its group told
  once without its content, and is tried at once when its user is seen again (bots/dm_wait.py);
  so do a chat's posts it refuses for a permission (`NoPermission`, bots/chat_wait.py).
- Several processes on one PostgreSQL database: a row is claimed (claimed_by / claimed_until, a
  lease renewed while the send lasts) before it is sent; a lane another process holds is its.

Exactly once is impossible: a process that dies after the platform took a message and before
its row is marked sent sends it again after the restart (once its `LEASE` expired).

Senders: `async send(outgoing, *, start_part=0, fallback_chat_id=None, as_document=False,
raise_dm_closed=True)`, passed only the keywords its signature accepts.

Maps off the message path: a row's `render` spec is drawn by `renderer(game, spec) -> PNG` in a
worker thread, kept in the row's `image` for a retry; no renderer, or one that fails: text only.

SQL: storage/outbox.py; posts into rows (lanes, dedupe keys): app/post_queue.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import socket
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from app import post_queue
from app.messages import Outgoing
from app.post_queue import Row, dedupe_keys, lane_of
from bots import dm_wait, retry
from bots.chat_wait import ChatWait
from bots.dm_wait import DmWait
from storage import Store
from storage import outbox as sql
from storage.outbox import FAILED, OUTBOX, PENDING, SENT

log = logging.getLogger("bots.outbox")  # the outbox's one logger (dm_wait, chat_wait, retry)

MAX_ATTEMPTS = 12  # failures before a row is given up (1+2+4+...+256 s, then 5 min each)
MAX_WAITS = 100  # RetryAfter waits before a row is given up
BASE_BACKOFF = 1.0
MAX_BACKOFF = 300.0
LEASE = timedelta(minutes=2)
POLL = 1.0  # seconds between looks at the table when nothing wakes the sender
STOP_GRACE = 5.0  # seconds in-flight sends may take to finish when stopping

Sender = Callable[..., Awaitable[Any]]
Renderer = Callable[[str, dict[str, Any]], bytes]  # (game name, render spec) -> PNG bytes


def _now(clock: Any) -> datetime:
    now = datetime.now(UTC) if clock is None else clock.now()
    if now.utcoffset() is None:
        raise ValueError("the clock must give aware UTC datetimes")
    return now


# -- writing
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
    render: dict[str, Any] | None = None,
) -> list[int]:
    """Write the outgoings as pending rows, in order; return the ids of the rows written (rows
    whose dedupe key exists already are skipped). One transaction (`enqueue_in`: the caller's).

    key: the idempotency key of the cause (see `dedupe_keys`). image_index: the log row the
    posted map shows; the game's `last_image_index` moves to it in the same transaction.
    hold: (platform, lane) -> how long its rows wait before their first attempt (the chat
    service lets the adapter's direct reply to a message go out before the post it caused).
    render: the map to draw when sent, for the rows without an image (see the module doc).
    The running senders of this process are woken once the rows are committed."""
    return post_queue.write(  # it wakes the senders
        store,
        game,
        outgoings,
        key=key,
        now=now or _now(None),
        fallback_chat_id=fallback_chat_id,
        as_document=as_document,
        image_index=image_index,
        hold=hold,
        render=render,
    )


def enqueue_in(
    conn: Connection,
    game: str | None,
    outgoings: Iterable[Outgoing],
    *,
    key: str | None,
    now: datetime,
    image_index: int | None = None,
    hold: Mapping[tuple[str, str], timedelta] | None = None,
    render: dict[str, Any] | None = None,
) -> list[int]:
    """`enqueue` inside the caller's transaction (e.g. `GameTx.conn`): the rows commit with it.
    Once it has committed, `wake_senders()` (or `storage.outbox.notify()`) sends them at once;
    otherwise the senders find them at their next poll."""
    return post_queue.write_in(
        conn, game, outgoings, key=key, now=now, image_index=image_index, hold=hold, render=render
    )


known_keys = sql.known_keys  # which dedupe keys are written already
rows = post_queue.rows  # the rows (tests, operators)
purge_sent = sql.purge_sent  # delete the rows sent before a time (their images take room)


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


sql.listen(wake_senders)  # rows committed by the application core (app/post_queue.py) wake them too


# -- sending
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
        renderer: Renderer | None = None,
        bot_names: Mapping[str, str] | None = None,
    ):
        self.store = store
        self.renderer = renderer  # draws the maps of rows with a render spec (module doc)
        self.senders = dict(senders)
        self.dm = DmWait(store, self.senders, bot_names)  # refused private messages wait
        self.chats = ChatWait(store)  # so do the posts of a chat that refuses the bot
        self.clock = clock
        self.sleep = sleep or asyncio.sleep  # a test passes one that moves its fake clock
        self.poll = poll
        self.limits = retry.Limits(max_attempts, max_waits, base_backoff, max_backoff)
        self.lease = lease
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.inflight: dict[str, tuple[int, asyncio.Task[None]]] = {}  # lane -> (row id, task)
        self.kwargs = {p: _accepted_kwargs(s) for p, s in self.senders.items()}
        self._renewed = datetime.min.replace(tzinfo=UTC)

    def now(self) -> datetime:
        return _now(self.clock)

    # ---- the database side (run in a worker thread)
    def _heads(self, now: datetime) -> tuple[list[sql.Head], datetime | None]:
        """The first pending row of each lane (of my platforms) that is due and not claimed by
        another sender; and the earliest time a held-back head becomes due."""
        due, later = [], None
        for h in sql.lane_heads(self.store, self.senders):
            until = h.claimed_until
            if h.claimed_by not in (None, self.owner) and until is not None and until > now:
                later = until if later is None else min(later, until)
                continue
            if h.next_attempt_at > now:
                later = h.next_attempt_at if later is None else min(later, h.next_attempt_at)
                continue
            due.append(h)
        return due, later

    def _claim(self, row_id: int, now: datetime) -> dict[str, Any] | None:
        return sql.claim(self.store, row_id, self.owner, now, self.lease)

    def _finish(self, row_id: int, **values: Any) -> bool:
        done = sql.finish(self.store, row_id, self.owner, **values)
        if not done:
            log.warning("outbox row %d: the claim was lost before it was recorded", row_id)
        return done

    def _renew(self, ids: list[int], now: datetime) -> None:
        sql.renew(self.store, ids, self.owner, now + self.lease)

    def release(self, ids: list[int]) -> None:
        sql.release(self.store, ids, self.owner)

    # ---- one row
    async def deliver(self, r: dict[str, Any]) -> None:
        """Send one claimed row and record the outcome."""
        row = post_queue.row_of(r)
        if row.outgoing.render is not None and row.outgoing.image is None:
            row.outgoing = await self._drawn(row)
        send = self.senders[row.outgoing.platform]
        accepted = self.kwargs.get(row.outgoing.platform)
        kwargs = {
            "start_part": row.parts_sent,
            "fallback_chat_id": row.fallback_chat_id,
            "as_document": row.as_document,
            "raise_dm_closed": True,  # a refused DM waits here (bots/dm_wait.py)
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
        await asyncio.to_thread(self._finish, row.id, status=SENT, sent_at=self.now())
        await asyncio.to_thread(self._delivered, row)
        log.info("outbox row %d sent to %s %s", row.id, row.outgoing.platform, row.lane)

    async def _drawn(self, row: Row) -> Outgoing:
        """The row's post with its map drawn (and kept on the row), or without it if the
        renderer is missing or fails."""
        out = row.outgoing
        if self.renderer is None:
            log.warning("outbox row %d: a map to draw but no renderer; sent without it", row.id)
            return out
        try:
            image = await asyncio.to_thread(self.renderer, row.game or "", out.render or {})
        except Exception as exc:  # noqa: BLE001 - the text goes out without the picture
            log.warning("outbox row %d: drawing the map failed (%s); sent without it", row.id, exc)
            return out
        await asyncio.to_thread(sql.store_image, self.store, row.id, self.owner, image)
        return replace(out, image=image)

    def _failed(self, row: Row, exc: BaseException) -> None:
        now = self.now()
        values = self.chats.after_failure(row, exc, now)
        self._finish(row.id, **(values or self.dm.after_failure(row, exc, now, self.limits)))

    def _delivered(self, row: Row) -> None:
        self.dm.delivered(row)
        self.chats.delivered(row)

    # ---- the loop
    async def step(self) -> float:
        """Start sending every due lane head not in flight; the seconds until something is due
        (at most `poll`)."""
        now = self.now()
        await self.dm.retry_seen_now(now)  # users seen again: what waits for them is due now
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
        dm_wait.attach(self.dm, wake_senders)
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
            dm_wait.detach(self.dm)
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
    max_backoff, lease, owner, renderer, bot_names). Rows of platforms with no sender wait."""
    await OutboxSender(store, senders, clock, **options).run(stop_event)


__all__ = [
    "FAILED",
    "OUTBOX",
    "PENDING",
    "SENT",
    "OutboxSender",
    "Row",
    "dedupe_keys",
    "enqueue",
    "enqueue_in",
    "known_keys",
    "lane_of",
    "purge_sent",
    "rows",
    "run_sender",
    "wake_senders",
]
