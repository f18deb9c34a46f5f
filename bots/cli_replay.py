"""`pbem replay --all` in parallel: the games are independent, so they are replayed by a pool of
processes (one per core), each with its own connection to the database; the results come back
in the games' order. The processes are forked once this one has imported the first game's system
and bound its scenario, so that a worker starts with the rules loaded instead of each
importing and parsing them again (for small games that start-up was most of a worker's time);
a game with another scenario is bound in the worker that replays it, once per worker."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage import Store

_store: Store | None = None  # the worker's own Store (or the caller's)


def _open(url: str) -> None:
    global _store
    from storage import Store

    _store = Store(url, migrate_schema=False)


def _replay(name: str) -> tuple[str, int | None, str]:
    """(name, the first differing row or None, the message)."""
    from app.fold import ReplayMismatch
    from app.service import GameService

    assert _store is not None
    try:
        GameService(_store).verify(name)
    except ReplayMismatch as exc:
        return name, exc.index, str(exc)
    return name, None, ""


def _warm(store: Store, name: str) -> None:
    """Import `name`'s game system and bind its scenario in this process (see the module doc).
    Only a head start: a scenario that does not bind fails in the worker, as it did before."""
    from app import games

    with contextlib.suppress(Exception):
        games.system_of(store, name)


def replay_all(store: Store, names: list[str], procs: int | None = None) -> Iterator[tuple]:
    """(name, index or None, message) of each game, in order, replayed by `procs` processes
    (one, this one, for a single game or a database in memory)."""
    global _store
    procs = max(1, min(procs or os.cpu_count() or 1, len(names)))
    url = store.url
    if procs == 1 or ":memory:" in url or url.rstrip("/") in ("sqlite:", "sqlite+pysqlite:"):
        _store = store
        yield from map(_replay, names)
        return
    _warm(store, names[0])
    store.engine.dispose()  # the workers open their own connections (no shared socket or file)
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(procs, initializer=_open, initargs=(url,)) as pool:
        yield from pool.imap(_replay, names, chunksize=max(1, len(names) // (procs * 8)))


__all__ = ["replay_all"]
