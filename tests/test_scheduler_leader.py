"""The scheduler: exactly one leader per database, takeover when the leader's connection dies,
the catch-up at startup, and the job at the exact next due time.

Leadership runs against a real PostgreSQL server when PBEM_TEST_PG is set (CI), and always
against an in-process stand-in of the advisory lock (the same election code), so nothing here is
skipped. SQLite always leads.

Nothing here depends on how fast the machine is: the tests wait for election rounds and runs to
happen (counted), never for a time to pass, with ceilings only a hang reaches; the game clock of
the deadline test is a FakeClock, so what is due does not depend on when the scheduler starts."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from app import clock as C
from app import outage as D
from app.service import GameService
from bots.clock import FakeClock
from bots.scheduler import JOB_FUNC, JOB_NEXT, JOB_TICK, AlwaysLeader, PgAdvisoryLock, Scheduler
from storage import Store, chat_store
from tests.conftest import PG_URL, PgSchema

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ("PBEM_", "DISCORD_", "TELEGRAM_")
RETRY = 0.1  # seconds between a follower's tries (15 s in production)
TIMEOUT = 600  # seconds: only a hang gets there, however loaded the machine
ROUNDS = 5  # election rounds that must leave the leadership where it is
AHEAD = timedelta(seconds=1)  # the deadline test's deadline, from the start of its scheduler


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


class LockServer:
    """An in-process stand-in of the PostgreSQL advisory lock: one holder; a holder whose
    connection is closed loses it."""

    def __init__(self):
        self.holder: FakeLock | None = None
        self.mutex = threading.Lock()


class FakeLock:
    def __init__(self, server: LockServer):
        self.server = server
        self.connected = True

    def acquire(self) -> bool:
        with self.server.mutex:
            self.connected = True
            if self.server.holder in (None, self):
                self.server.holder = self
                return True
            return False

    def check(self) -> bool:
        with self.server.mutex:
            return self.connected and self.server.holder is self

    def release(self) -> None:
        self.close_connection()

    def close_connection(self) -> None:
        """What a dead process or network does: the session ends, the lock is released."""
        with self.server.mutex:
            self.connected = False
            if self.server.holder is self:
                self.server.holder = None


class Counted:
    """A leadership handle that counts the election's calls to it (one per round), so a test
    waits for rounds to happen instead of sleeping for them."""

    def __init__(self, inner):
        self.inner = inner
        self.calls = 0

    def acquire(self) -> bool:
        self.calls += 1
        return self.inner.acquire()

    def check(self) -> bool:
        self.calls += 1
        return self.inner.check()

    def release(self) -> None:
        self.inner.release()


async def rounds(*schedulers: Scheduler, n: int = ROUNDS) -> None:
    """Until each scheduler's election ran `n` more rounds (its handle is a Counted)."""
    goal = [s.leadership.calls + n for s in schedulers]
    await wait_until(lambda: all(s.leadership.calls >= g for s, g in zip(schedulers, goal)))


@pytest.fixture
def sqlite_store(tmp_path, stores):
    return stores(str(tmp_path / "games.db"))


@pytest.fixture(params=["stand-in", *(["postgresql"] if PG_URL else [])])
def election(request, tmp_path, stores):
    """(store, make_lock(), kill(lock)): the store both schedulers use, a fresh leadership
    handle (Counted), and the death of a handle's connection."""
    if request.param == "stand-in":
        server = LockServer()
        yield (
            stores(str(tmp_path / "games.db")),
            lambda: Counted(FakeLock(server)),
            lambda lock: lock.inner.close_connection(),
        )
        return
    schema = PgSchema(PG_URL)

    def kill(lock: Counted) -> None:  # the leader's connection dies (pg_terminate_backend)
        with schema.admin.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": lock.inner.backend_pid})

    try:
        yield stores(schema.url), lambda: Counted(PgAdvisoryLock(schema.url)), kill
    finally:
        schema.drop()


def scheduler(store, lock, **kw) -> Scheduler:
    service = GameService(store)
    kw.setdefault("tick_seconds", 60)
    return Scheduler(service, store, retry_seconds=RETRY, leadership=lock, post=_ignore, **kw)


def _ignore(game, outs, key):
    pass


async def wait_until(predicate, timeout: float = TIMEOUT) -> None:
    """Until predicate() holds; the ceiling is only reached when it never will."""
    start = asyncio.get_running_loop().time()
    while not predicate():
        if asyncio.get_running_loop().time() - start > timeout:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def test_only_one_leader_and_the_follower_takes_over_when_its_connection_dies(election):
    store, make_lock, kill = election

    async def scenario():
        a = scheduler(store, make_lock())
        b = scheduler(store, make_lock())
        await a.start()
        await b.start()
        try:
            await rounds(a, b)  # several election rounds: still exactly one leader
            assert (a.is_leader, b.is_leader) == (True, False)
            assert a.runs == 1 and b.runs == 0  # the leader caught up once at startup
            assert {j.id for j in a.aps.get_jobs()} >= {JOB_TICK}
            assert b.aps.get_jobs() == []
            kill(a.leadership)
            await wait_until(lambda: b.is_leader and not a.is_leader)  # the next retry takes it
            await wait_until(lambda: b.runs >= 1)  # its catch-up pass follows its election
            assert b.runs == 1  # the new leader caught up at once
            assert a.aps.get_jobs() == []  # the old one stepped down: its jobs are gone
            await rounds(a, b)
            assert (a.is_leader, b.is_leader) == (False, True)  # a cannot take it back
            await b.stop()  # a clean stop releases the lock: a leads again
            await wait_until(lambda: a.is_leader)
        finally:
            await a.stop()
            await b.stop()

    run(scenario())


def test_a_leader_that_lost_its_lock_does_not_run(election):
    store, make_lock, kill = election

    async def scenario():
        a = scheduler(store, make_lock())
        a.retry_seconds = 60  # no election round will notice: the run itself must check
        await a.start()
        try:
            assert a.is_leader and a.runs == 1
            kill(a.leadership)
            assert await a.run_once() == [] and a.runs == 1
            assert not a.is_leader
        finally:
            await a.stop()

    run(scenario())


def test_on_sqlite_every_process_leads(sqlite_store):
    """One host, one SQLite file: no election (the adjudication is idempotent anyway)."""

    async def scenario():
        a, b = scheduler(sqlite_store, None), scheduler(sqlite_store, None)
        assert isinstance(a.leadership, AlwaysLeader)
        await a.start()
        await b.start()
        try:
            assert a.is_leader and b.is_leader
            assert D.last_heartbeat(sqlite_store) is not None  # the catch-up ran
        finally:
            await a.stop()
            await b.stop()

    run(scenario())


def test_jobs_are_thin_stable_entry_points_that_never_drop_a_late_run(sqlite_store):
    async def scenario():
        s = scheduler(sqlite_store, None, tick_seconds=0.05)
        await s.start()
        try:
            job = s.aps.get_job(JOB_TICK)
            assert job.func_ref == JOB_FUNC == "bots.scheduler:tick"
            assert job.misfire_grace_time is None and job.coalesce is True
            await wait_until(lambda: s.runs >= 3)  # the interval job ticks
        finally:
            await s.stop()

    run(scenario())


def test_the_exact_job_applies_a_deadline_when_it_falls_due(sqlite_store):
    """The start-up catch-up plans a date job for the next deadline, `AHEAD` on the wall clock;
    when it fires, the deadline applies. The game's time is a FakeClock: the catch-up sees the
    deadline still ahead however long the start took, and the test moves the clock to the
    deadline before the job can fire (no await between the two)."""
    store = sqlite_store
    seeds = (f"{n:064x}" for n in itertools.count(1))
    service = GameService(store, seeds=lambda: next(seeds))
    service.new_game("g", creator="telegram:9")
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))  # near the log's wall clock
    chat_store.bind(store, "telegram", "-100", "g", now=clock.now())
    C.rearm(store, "g", service.system("g").situation(service.state("g")), clock)
    due = clock.now() + AHEAD
    chat_store.set_clock(store, "g", deadline_at=due, reminders_sent=[24, 1])
    posted = []

    async def scenario():
        s = Scheduler(
            service,
            store,
            clock,
            tick_seconds=3600,  # only the exact job can do it in time
            retry_seconds=RETRY,
            post=lambda game, outs, key: posted.append(key),
        )
        before = datetime.now(UTC)
        await s.start()
        after = datetime.now(UTC)
        try:
            assert s.runs == 1 and posted == []  # the catch-up: nothing due yet
            job = s.aps.get_job(JOB_NEXT)
            assert job is not None and before + AHEAD <= job.next_run_time <= after + AHEAD
            clock.set(due)  # the deadline's time has come when the job fires
            await wait_until(lambda: posted)
        finally:
            await s.stop()

    run(scenario())
    assert posted == [f"deadline:g:{due.isoformat()}"]
    assert service.state("g").phase != "soviet-combat"  # the default ended the phase


def test_a_killed_serve_process_is_replaced_as_the_scheduler_leader(tmp_path):
    """`pbem serve` leads in its own process; killed (SIGKILL), an in-process scheduler on the
    same PostgreSQL database takes over within the retry interval. Without a server: on SQLite
    the process leads (its startup catch-up writes the heartbeat) and so does every other."""
    schema = PgSchema(PG_URL) if PG_URL else None
    url = schema.url if schema else str(tmp_path / "games.db")
    env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}
    env |= {"PYTHONPATH": str(ROOT), "PBEM_DB": url, "PBEM_LEADER_RETRY_SECONDS": "0.2"}
    log = (tmp_path / "serve.log").open("wb")  # a file: a pipe nobody reads could fill and stall it
    proc = subprocess.Popen(
        [sys.executable, "-m", "bots.cli", "serve"],
        stdin=subprocess.PIPE,  # kept open: the terminal front end waits for more input
        stdout=subprocess.DEVNULL,
        stderr=log,
        env=env,
        cwd=tmp_path,
    )
    store = None
    try:
        deadline = time.monotonic() + TIMEOUT
        while store is None or D.last_heartbeat(store) is None:  # the process leads
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the serve process never led"
            time.sleep(0.05)
            if store is None and _migrated(url):
                store = Store(url)

        async def scenario():
            b = scheduler(store, Counted(PgAdvisoryLock(url)) if schema else None)
            await b.start()
            try:
                if schema is None:
                    assert b.is_leader  # SQLite: every process leads
                    return
                await rounds(b)
                assert not b.is_leader  # the serve process holds the lock
                proc.kill()
                await wait_until(lambda: b.is_leader)
            finally:
                await b.stop()

        run(scenario())  # the follower took over
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(TIMEOUT)
        proc.stdin.close()
        log.close()
        if store is not None:
            store.close()
        if schema is not None:
            schema.drop()


def _migrated(url: str) -> bool:
    """Whether the serve process has created the schema (opening it earlier would race)."""
    from sqlalchemy import create_engine, inspect

    from storage.store import HEAD_REVISION, database_url

    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return False
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
                HEAD_REVISION
            )
    except Exception:  # noqa: BLE001 - not there yet
        return False
    finally:
        engine.dispose()
