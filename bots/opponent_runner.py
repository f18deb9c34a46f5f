"""The opponent's moves as due work in a running service: a task beside the scheduler.

    runner = OpponentRunner(core, worker, leading=lambda: scheduler.is_leader)
    await runner.start(); ...; await runner.stop()

A pass (`run_once`) finds every game that waits for an opponent's seat (app/opponent_turns.py:
one statement over the games the opponent sits in, and only those that changed since they last
waited for no one are read) and, for each game that has no decision in progress, sends its job
to the worker processes (bots/opponent_worker.py); the order that comes back is submitted through `submit`, in a thread,
as the seat's user. A pass runs at the start (after a restart every waiting game gets its move),
whenever this process commits a change (the outbox's listeners: a player's order, the
opponent's own, a moderator's resume), and every `interval` seconds (changes made by another
process). Several processes over one PostgreSQL database: only the scheduler's leader passes
(`leading`), and a decision is applied only at the log row it was made for, so a second mover
could never apply a stale or a duplicate order anyway.

A decision that fails (the worker died, the order was refused) is logged and not tried again at
the same position until the next interval's pass; the game's deadline runs as for a person, so its default still comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app import opponent_turns
from app.context import Core
from app.opponent_turns import Job
from bots.opponent_worker import OpponentWorker
from storage import outbox as outbox_rows

log = logging.getLogger(__name__)

INTERVAL = 30.0


class Decider(Protocol):
    async def decide(self, job: Job) -> str: ...


class OpponentRunner:
    def __init__(
        self,
        core: Core,
        worker: Decider,
        *,
        leading: Callable[[], bool] = lambda: True,
        interval: float = INTERVAL,
    ):
        self.core, self.worker, self.leading, self.interval = core, worker, leading, interval
        self.busy: dict[str, asyncio.Task[None]] = {}  # game -> its decision in progress
        self.played = 0  # orders applied (tests and the health report read it)
        self.failed: dict[str, int] = {}  # game -> the head its last decision failed at
        self.idle: dict[str, object] = {}  # games that waited for no one, and their marks then
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        outbox_rows.listen(self.wake)
        self._task = asyncio.create_task(self._run(), name="opponent")

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            await self._task
        for task in list(self.busy.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def wake(self) -> None:
        """Something was committed (from any thread): pass again soon."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                await self.run_once()
            except Exception:
                log.exception("the opponent's pass failed; the next pass retries it")
            try:
                await asyncio.wait_for(self._wake.wait(), self.interval)
            except TimeoutError:
                self.failed.clear()  # the interval's pass tries a failed decision again

    async def run_once(self) -> list[Job]:
        """Send every due game without a decision in progress to the worker: the jobs sent."""
        if not self.leading() or self._stop.is_set():
            return []
        jobs = await asyncio.to_thread(opponent_turns.due_jobs, self.core.store, self.idle)
        sent = [
            job
            for job in jobs
            if job.game not in self.busy and self.failed.get(job.game) != job.head
        ]
        for job in sent:
            self.busy[job.game] = asyncio.create_task(self._decide(job), name=f"ai-{job.game}")
        return sent

    async def _decide(self, job: Job) -> None:
        try:
            text = await self.worker.decide(job)
            reply = await asyncio.to_thread(opponent_turns.play, self.core, job, text)
            if reply.ok and not reply.duplicate:
                self.played += 1
            elif not reply.ok:
                self.failed[job.game] = job.head
        except Exception:
            log.exception("game=%s the opponent's decision failed", job.game)
            self.failed[job.game] = job.head
        finally:
            self.busy.pop(job.game, None)
            self._wake.set()  # the game may wait for it again

    def status(self) -> dict[str, int]:
        """For the health report (bots/health.py)."""
        count = getattr(self.worker, "count", 0)
        return {
            "workers": count,
            "thinking": len(self.busy),
            "played": self.played,
            "failed": len(self.failed),
        }

    async def settle(self) -> None:
        """Pass until no game waits for the opponent and no decision is in progress (the
        command line's games and tests: each of its orders is awaited, none is timed)."""
        while True:
            sent = await self.run_once()
            if self.busy:
                await asyncio.gather(*self.busy.values(), return_exceptions=True)
            elif not sent:
                return


async def serve(
    core: Core, scheduler: Any, workers: int
) -> tuple[OpponentRunner, Callable[[], Awaitable[None]]]:
    """Start the opponent's runner with `workers` worker processes, passing while `scheduler`
    leads: the runner and its stop (the runner, then the processes)."""
    worker = OpponentWorker(workers)
    runner = OpponentRunner(core, worker, leading=lambda: bool(scheduler.is_leader))
    await runner.start()

    async def stop() -> None:
        await runner.stop()
        await asyncio.to_thread(worker.close)

    return runner, stop


__all__ = ["INTERVAL", "OpponentRunner", "serve"]
