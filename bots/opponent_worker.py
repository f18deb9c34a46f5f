"""Where the opponent thinks: worker PROCESSES, never the event loop nor a thread that answers
messages, so that no reply in any game waits for a decision.

    worker = OpponentWorker(count=1)       # PBEM_OPPONENT_WORKERS (default 1)
    text = await worker.decide(job)        # the canonical text of the order
    worker.close()

A worker process is started with "spawn" (a fresh interpreter: the service's threads and
connections are not copied into it), lowers its own priority (`os.nice(NICE)`) and binds each
game system once per scenario text (app.games.bind keeps them). It gets a job
(app/opponent_turns.py: the system id and scenario text, the state's JSON, the side, the
level, the seed), builds the side's view (`system.view(state, Viewer of that side)`), asks
`adjudicator.opponent.decide` with the opponent package's own default budget, and returns the
order as `system.grammar.format` writes it. The pool starts its processes on the first job.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from adjudicator import opponent
from adjudicator.core.events import Viewer
from app import games
from app.opponent_turns import Job

NICE = 10  # added to the worker's niceness: the message path keeps the CPU first
DEFAULT_WORKERS = 1


def lower_priority() -> None:
    """The worker process's initializer."""
    with contextlib.suppress(OSError, AttributeError):  # (no os.nice on some platforms)
        os.nice(NICE)


def think(job: Job) -> str:
    """The decision of `job`, in the worker process: the order's canonical text."""
    system = games.bind(job.system_id, job.scenario)
    state = system.state_from_json(job.state)
    view = system.view(state, Viewer.of([job.side]))
    order = opponent.decide(system, view, job.side, job.level, job.seed, job.budget)
    return system.grammar.format(order)


class OpponentWorker:
    """A pool of `count` worker processes (at least one) running `think` (a module-level
    function: the child imports it by name)."""

    def __init__(self, count: int = DEFAULT_WORKERS, fn: Callable[[Job], str] = think):
        self.count, self.fn = max(1, count), fn
        self.pool: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.count,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
            )
        return self.pool

    async def decide(self, job: Job) -> str:
        return await asyncio.wrap_future(self._pool().submit(self.fn, job))

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["DEFAULT_WORKERS", "NICE", "OpponentWorker", "lower_priority", "think"]
