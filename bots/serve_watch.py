"""The background check of every game's chain in `pbem serve` (storage/watch.py): a pass every
PBEM_CHAIN_CHECK_SECONDS, and one soon after a phase of a game ended (app/after.py pokes it).

Each pass runs in a worker thread (`asyncio.to_thread`), never on the message path, and holds no
game's lock. A round that did not fit in one pass (a big database: at most `BUDGET` rows a pass)
goes on after a pause of ten times the pass's own time (at most the period), so the check takes
about a tenth of one core until every game was walked, and nothing between rounds. A pass ends
between two games once `stop` is set: SIGTERM does not wait for it (a pass over a thousand
games of a few rows each takes seconds, each game's walk ending with its caches' checks)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from storage import watch as chain_watch
from storage.watch import Watch

log = logging.getLogger("pbem.serve")


async def run_watch(watch: Watch, stop: asyncio.Event, period: float) -> None:
    """Passes until `stop` is set (a failed pass is logged; the next one runs as due)."""
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def poked(game: str) -> None:  # from any thread: a phase of `game` ended
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(wake.set)

    chain_watch.listen(poked)
    try:
        while not stop.is_set():
            wake.clear()
            started = time.perf_counter()
            rounds = watch.rounds
            try:
                found = await asyncio.to_thread(watch.run_pass, stop.is_set)
            except Exception:
                log.exception("chain check: the pass failed")
                found = []
            for name, failure in found:
                log.error("chain check: game %r frozen at row %s", name, failure.get("index"))
            pause = period
            if watch.rounds == rounds:  # the round goes on: soon, at a tenth of a core
                pause = min(period, 10 * (time.perf_counter() - started))
            stopping = asyncio.ensure_future(stop.wait())
            waking = asyncio.ensure_future(wake.wait())
            try:
                await asyncio.wait({stopping, waking}, timeout=pause, return_when="FIRST_COMPLETED")
            finally:
                stopping.cancel()
                waking.cancel()
    finally:
        chain_watch.unlisten(poked)


__all__ = ["run_watch"]
