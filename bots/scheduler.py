"""The deadline scheduler: APScheduler 3.11 (AsyncIOScheduler) calling `adjudicate_due`, run by
exactly one process per database (the leader).

The jobs hold no state: the deadlines live in the game rows, and every job calls the same thin,
stable entry point `bots.scheduler:tick` (a job store keeps functions as "module:function"; this
name must never change), which runs `app.deadlines.adjudicate_due` once: idempotent, so a job
that runs late, twice, or after a restart does no harm. The leader runs

- the catch-up, once, as soon as it leads (startup: an outage found by the heartbeat moves the
  deadlines that it covered instead of executing them, in bounded batches; app/outage.py),
  beside the start with `catch_up_beside` (`pbem serve`: the bots answer meanwhile);
- an interval job every `tick_seconds` (30 s): reminders, defaults and the heartbeat;
- a date job at the exact next due time (a deadline or a reminder), re-planned after each run.
`stop()` sets `halt` first: the pass in progress (a thread) returns after its game or batch.
Jobs use `misfire_grace_time=None, coalesce=True`: a job whose time passed while the loop was
busy (or the process down) runs once, late, instead of being dropped.

Leadership (`Leadership`):
- PostgreSQL: `pg_try_advisory_lock(LOCK_CLASS, <schema key>)`, a session lock held on a
  dedicated connection (outside the pool, autocommit, TCP keepalives) for the life of the
  process. A follower tries again every `retry_seconds` (15 s). When the leader process dies its
  connection closes and the server releases the lock at once; when its host or network dies,
  the keepalives (idle 10 s, 3 probes 5 s apart) make the server drop the session within about
  25 s: the follower leads within a minute. A leader checks its connection before every run and
  at every retry: a lost connection means the lock is lost, and it steps down at once.
- SQLite (one host): always the leader.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

# APScheduler 3 ships neither types nor py.typed (no stubs exist)
from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]

from app import deadlines
from app.messages import Outgoing
from bots.clock import Clock, SystemClock
from storage import Store

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from app.service import GameService

log = logging.getLogger(__name__)

LOCK_CLASS = 0x7BE3_0005  # the advisory lock's first key (storage uses 0x7BE3_0003 to migrate)
TICK_SECONDS = 30.0
RETRY_SECONDS = 15.0
JOB_TICK = "pbem-tick"
JOB_NEXT = "pbem-next-due"
JOB_FUNC = "bots.scheduler:tick"  # stable: never rename (see the module doc)

_INSTANCES: dict[str, Scheduler] = {}
_NUMBERS = itertools.count(1)


async def tick(instance: str) -> None:
    """The job function (keep it thin and its name stable): one adjudication pass."""
    scheduler = _INSTANCES.get(instance)
    if scheduler is None:
        log.warning("scheduler %s is gone; a stale job was skipped", instance)
        return
    await scheduler.run_once()


# -- leadership
class Leadership(Protocol):
    def acquire(self) -> bool:
        """Try to become the leader (never blocks long); True if this process leads now."""
        ...

    def check(self) -> bool:
        """Whether the leadership is still held (False: it was lost)."""
        ...

    def release(self) -> None: ...


class AlwaysLeader:
    """SQLite (one host): the process leads; nothing to elect."""

    def acquire(self) -> bool:
        return True

    def check(self) -> bool:
        return True

    def release(self) -> None:
        pass


class PgAdvisoryLock:
    """Leadership by a session-level PostgreSQL advisory lock on a dedicated connection."""

    def __init__(self, url: str, lock_class: int = LOCK_CLASS):
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool

        self.lock_class = lock_class
        self.engine = create_engine(
            url,
            poolclass=NullPool,  # a connection of its own, never returned to a pool
            connect_args={
                "keepalives": 1,
                "keepalives_idle": 10,
                "keepalives_interval": 5,
                "keepalives_count": 3,
                "connect_timeout": 10,
            },
        )
        self.conn: Connection | None = None
        self.held = False
        self.key: int | None = None
        self.backend_pid: int | None = None  # the server process of the lock's session
        self._mutex = threading.Lock()  # the election and a run may check at the same time

    def _connect(self) -> Connection:
        from sqlalchemy import text

        conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        for setting in ("tcp_keepalives_idle = 10", "tcp_keepalives_interval = 5"):
            conn.execute(text(f"SET {setting}"))
        conn.execute(text("SET tcp_keepalives_count = 3"))
        schema = conn.execute(text("SELECT current_schema()")).scalar() or "public"
        self.key = zlib.crc32(schema.encode()) & 0x7FFF_FFFF  # one leader per schema
        self.backend_pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
        return conn

    def acquire(self) -> bool:
        with self._mutex:
            return self._acquire()

    def _acquire(self) -> bool:
        from sqlalchemy import text

        if self.held and self._check():
            return True
        try:
            if self.conn is None:
                self.conn = self._connect()
            got = self.conn.execute(
                text("SELECT pg_try_advisory_lock(:a, :b)"), {"a": self.lock_class, "b": self.key}
            ).scalar()
        except Exception as exc:  # noqa: BLE001 - the database is away: try again later
            log.warning("leader election: no database connection (%s)", type(exc).__name__)
            self._drop()
            return False
        self.held = bool(got)
        return self.held

    def check(self) -> bool:
        with self._mutex:
            return self._check()

    def _check(self) -> bool:
        from sqlalchemy import text

        if not self.held or self.conn is None:
            return False
        try:
            self.conn.execute(text("SELECT 1"))  # the session lives: its lock is still held
            return True
        except Exception:  # noqa: BLE001 - the connection died: the lock is gone with it
            log.warning("leader election: the lock's connection was lost")
            self._drop()
            return False

    def release(self) -> None:
        with self._mutex:
            return self._release()

    def _release(self) -> None:
        from sqlalchemy import text

        if self.conn is not None and self.held:
            with contextlib.suppress(Exception):
                self.conn.execute(
                    text("SELECT pg_advisory_unlock(:a, :b)"), {"a": self.lock_class, "b": self.key}
                )
        self._drop()
        self.engine.dispose()

    def _drop(self) -> None:
        conn, self.conn, self.held = self.conn, None, False
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()
            with contextlib.suppress(Exception):
                conn.close()


def leadership_for(store: Store) -> Leadership:
    if store.dialect == "postgresql":
        return PgAdvisoryLock(store.engine.url.render_as_string(hide_password=False))
    return AlwaysLeader()


# -- the scheduler
class Scheduler:
    """Leader election + APScheduler jobs around `adjudicate_due`, in the running event loop.

    scheduler = Scheduler(service, store); await scheduler.start(); ...; await scheduler.stop()
    """

    def __init__(
        self,
        service: GameService,
        store: Store | None = None,
        clock: Clock | None = None,
        *,
        tick_seconds: float = TICK_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
        outage_after: timedelta = deadlines.OUTAGE_AFTER,
        post: deadlines.Post | None = None,
        leadership: Leadership | None = None,
        on_posted: Callable[[list[Outgoing]], None] | None = None,
        catch_up_beside: bool = False,
        between_batches: Callable[[int], None] | None = None,
    ):
        self.service = service
        self.store = store or service.store
        self.clock = clock or SystemClock()
        self.tick_seconds = tick_seconds
        self.retry_seconds = retry_seconds
        self.outage_after = outage_after
        self.post = post
        self.leadership = leadership or leadership_for(self.store)
        self.on_posted = on_posted
        self.id = f"scheduler-{next(_NUMBERS)}"
        self.is_leader = False
        self.runs = 0
        self.aps: AsyncIOScheduler | None = None
        self._lock = asyncio.Lock()
        self._stop = asyncio.Event()
        self._elector: asyncio.Task[None] | None = None
        self._led = asyncio.Event()  # set while leading (tests wait on it)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.halt = threading.Event()  # stop() sets it first: the pass returns within a batch
        self.catch_up_beside = catch_up_beside  # the catch-up runs beside the start (serve)
        self.between_batches = between_batches  # after each batch of an outage (tests)
        self._catching: asyncio.Task[None] | None = None

    # -- lifecycle
    async def start(self) -> None:
        _INSTANCES[self.id] = self
        self._loop = asyncio.get_running_loop()
        self.aps = AsyncIOScheduler(
            timezone=UTC,
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
        )
        self.aps.start()
        await self._try_lead()
        self._elector = asyncio.create_task(self._elect(), name=f"{self.id}-elector")

    async def stop(self) -> None:
        self.halt.set()  # first: the pass in progress returns after its batch
        self._stop.set()
        if self._elector is not None:
            self._elector.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._elector
        await self._step_down("stopping")
        if self.aps is not None and self.aps.running:
            self.aps.shutdown(wait=False)
            await asyncio.sleep(0)  # AsyncIOScheduler shuts down in the loop
        if self._catching is not None:
            await self._catching  # returns soon: the halted pass returns
        async with self._lock:  # a run in progress returns (halted) first
            pass
        await asyncio.to_thread(self.leadership.release)
        _INSTANCES.pop(self.id, None)

    async def wait_leading(self, timeout: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._led.wait(), timeout)
        return self.is_leader

    # -- election
    async def _elect(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.retry_seconds)
            if self._stop.is_set():
                return
            try:
                if self.is_leader:
                    if not await asyncio.to_thread(self.leadership.check):
                        await self._step_down("the lock was lost")
                else:
                    await self._try_lead()
            except Exception:  # keep electing
                log.exception("leader election failed; retrying")

    async def _try_lead(self) -> None:
        if await asyncio.to_thread(self.leadership.acquire):
            await self._lead()

    async def _lead(self) -> None:
        self.is_leader = True
        self._led.set()
        log.info("scheduler=%s role=leader", self.id)
        if self.catch_up_beside:  # the start goes on (the bots answer) while it catches up
            self._catching = asyncio.create_task(self._catch_up(), name=f"{self.id}-catch-up")
            return
        await self._catch_up()

    async def _catch_up(self) -> None:
        """The leader's first pass (whatever became due while no one led), then the ticks."""
        try:
            await self.run_once()
        except Exception:
            if not self.catch_up_beside:
                raise  # the start fails with it
            log.exception("scheduler=%s catch-up failed; the next tick retries it", self.id)
        if self.halt.is_set() or not self.is_leader or self.aps is None or not self.aps.running:
            return
        self.aps.add_job(
            JOB_FUNC,
            "interval",
            seconds=self.tick_seconds,
            args=[self.id],
            id=JOB_TICK,
            replace_existing=True,
        )

    async def _step_down(self, why: str) -> None:
        if not self.is_leader:
            return
        self.is_leader = False
        self._led.clear()
        if self.aps is not None and self.aps.running:
            for job_id in (JOB_TICK, JOB_NEXT):
                with contextlib.suppress(Exception):
                    self.aps.remove_job(job_id)
        log.info("scheduler=%s role=follower reason=%r", self.id, why)

    # -- one pass
    async def run_once(self) -> list[Outgoing]:
        """One adjudication pass (the leader only), then plan the job at the next due time."""
        async with self._lock:
            if not self.is_leader or self.halt.is_set():
                return []
            if not await asyncio.to_thread(self.leadership.check):
                await self._step_down("the lock was lost")
                return []
            posted = await asyncio.to_thread(
                deadlines.adjudicate_due,
                self.store,
                self.clock.now(),
                core=getattr(self.service, "core", None),
                post=self.post,
                outage_after=self.outage_after,
                stop=self.halt,
                between=self.between_batches,
            )
            self.runs += 1
            if posted:
                log.info("scheduler=%s posted=%d", self.id, len(posted))
                if self.on_posted is not None:
                    self.on_posted(posted)
            if not self.halt.is_set():  # stopping: nothing to plan (next_due reads every clock)
                await self._plan_next()
            return posted

    async def _plan_next(self) -> None:
        nxt = await asyncio.to_thread(deadlines.next_due, self.store, self.halt)
        if self.aps is None or not self.aps.running or not self.is_leader:
            return
        wait = None if nxt is None else nxt - self.clock.now()
        if wait is None or wait <= timedelta():
            # nothing due; or due and still there after this run (it failed): the interval
            # tick retries it, never a busy loop
            with contextlib.suppress(Exception):
                self.aps.remove_job(JOB_NEXT)
            return
        self.aps.add_job(
            JOB_FUNC,
            "date",
            run_date=datetime.now(UTC) + wait,  # APScheduler runs on the wall clock
            args=[self.id],
            id=JOB_NEXT,
            replace_existing=True,
        )

    def poke(self) -> None:
        """Something changed (a deadline re-armed): plan the exact job again, soon. Thread-safe."""
        if self.aps is None or not self.is_leader:
            return
        if self._loop is not None:
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._plan_next()))
