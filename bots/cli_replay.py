"""`pbem replay NAME | --all`: re-adjudicate stored games with the current rules.

It runs in bots/cli_base.py without bots/cli.py (bots/cli_main.py): the replay needs only the
store, the fold and the rules (app/stored_replay.py), so neither this process nor its workers
import the chat, render or order-path code. The games are independent, so `--all` replays them
in a pool of processes (one per core), each with its own connection to the database; the results come back
in the games' order. The processes are forked once this one has imported the games' systems
and bound their scenarios (the first WARMED distinct ones), so that a worker starts with the
rules loaded instead of each importing and parsing them again (for small games that start-up
was most of a worker's time); a game with yet another scenario is bound in the worker that
replays it, once per worker."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from bots.cli_base import OK, REFUSED, open_store
from storage.chain import without_row

if TYPE_CHECKING:
    from storage import Store

_store: Store | None = None  # the worker's own Store (or the caller's)


def _open(url: str) -> None:
    global _store
    from storage import Store

    _store = Store(url, migrate_schema=False)


WARMED = 16  # the scenarios bound before the workers start (at most: app/games.py keeps 32)
UNREADABLE = -1  # the "row" of a game whose stored rows cannot be replayed at all


def _replay(name: str) -> tuple[str, int | None, str]:
    """(name, the first differing row, UNREADABLE or None, the message). A game whose stored
    data is not what pbem wrote (a payload that is no JSON object, a snapshot that is no state)
    is reported as such, and the other games are replayed still."""
    from app import stored_replay
    from app.fold import ReplayMismatch

    assert _store is not None
    try:
        stored_replay.verify(_store, name)
    except ReplayMismatch as exc:
        return name, exc.index, str(exc)
    except Exception as exc:  # noqa: BLE001 - any database content: a sentence, no traceback
        return name, UNREADABLE, _checked(_store, name, exc)
    return name, None, ""


def _checked(store: Store, name: str, exc: Exception) -> str:
    """Why a game cannot be replayed: the first row its chain check finds bad (as `pbem audit`
    names it), else what could not be read."""
    try:
        failure = store.verify(name)
    except Exception:  # noqa: BLE001 - the check cannot read it either
        failure = None
    if failure is not None:
        return (
            f"its stored log fails its checks at row {failure.get('index')}: "
            f"{without_row(failure.get('index'), failure.get('problem'))}; `pbem repair NAME` rebuilds the game from its last good "
            "row (docs/threat-model.md)"
        )
    return unreadable(exc)


def unreadable(exc: BaseException) -> str:
    """What a command says of stored data it could not read: the error's kind and first line
    (at most 160 characters), never a Python value's repr."""
    first = (str(exc).strip().splitlines() or [""])[0][:160]
    said = f"{type(exc).__name__}: {first}" if first and "{'" not in first else type(exc).__name__
    return (
        f"its stored data is not what pbem wrote ({said}); `pbem repair NAME` rebuilds the "
        "game from its log (docs/threat-model.md)"
    )


def game_names(store: Store) -> list[str]:
    """Every game's name, in the order the games were made (nothing else of a game is read)."""
    from sqlalchemy import select

    from storage.models import Game, table

    games = table(Game)
    with store.reader.connect() as conn:
        return [str(n) for n in conn.execute(select(games.c.name).order_by(games.c.id)).scalars()]


def _warm(store: Store) -> None:
    """Import the replay, and every game system the database's games use with their scenarios
    bound, in this process (see the module doc): each scenario bound once, not once in every
    worker. Only a head start: a scenario that does not bind fails in the worker, as it did
    before."""
    from sqlalchemy import select

    from app import games, stored_replay  # noqa: F401  (imported for the workers)
    from storage.models import Game, table

    g = table(Game)
    with contextlib.suppress(Exception), store.reader.connect() as conn:
        found = conn.execute(select(g.c.game, g.c.scenario_text).distinct().limit(WARMED)).all()
        for system_id, text in found:
            with contextlib.suppress(Exception):
                games.bind(str(system_id), str(text))


def replay_all(
    store: Store, names: list[str], procs: int | None = None
) -> Iterator[tuple[str, int | None, str]]:
    """(name, index or None, message) of each game, in order, replayed by `procs` processes
    (one, this one, for a single game or a database in memory)."""
    global _store
    procs = max(1, min(procs or os.cpu_count() or 1, len(names)))
    url = store.url
    if procs == 1 or ":memory:" in url or url.rstrip("/") in ("sqlite:", "sqlite+pysqlite:"):
        _store = store
        yield from map(_replay, names)
        return
    _warm(store)
    store.engine.dispose()  # the workers open their own connections (no shared socket or file)
    ctx = multiprocessing.get_context("fork")
    gc.freeze()  # what the workers inherit: no collection of theirs walks (and copies) it
    try:
        pool = ctx.Pool(procs, initializer=_open, initargs=(url,))
    finally:
        gc.unfreeze()  # (in this process only: the workers are forked)
    with pool:
        yield from pool.imap(_replay, names, chunksize=max(1, len(names) // (procs * 8)))


def cmd_replay(args: Any) -> int:
    """Re-adjudicate stored games with the current rules: each game whose events, states or
    result differ is reported with the first differing row (after the progress bar)."""
    store = open_store(args, existing=True)  # a wrong path is refused, never a new empty database
    if args.all:
        names = game_names(store)  # one game's unreadable row stops no other game's replay
    else:
        store.load(args.name, with_log=False)  # an unknown game is a usage error (exit 2)
        names = [args.name]
    bar = ProgressBar(len(names), "games") if args.all and sys.stderr.isatty() else None
    differ: list[str] = []
    lines: list[str] = []
    for done, (name, index, problem) in enumerate(replay_all(store, names), 1):
        if index == UNREADABLE:
            differ.append(name)
            lines.append(f"{name}: cannot be replayed: {problem.replace('NAME', name)}")
        elif index is not None:
            differ.append(name)
            lines.append(f"{name}: differs at row {index}: {problem}")
        else:
            lines.append(f"{name}: the log replays to the stored state.")
        if bar:
            bar.update(done)
    if bar:
        bar.close()
    if args.all:
        lines = [line for line in lines if ": differs at row " in line or ": cannot be " in line]
        lines.append(
            f"{len(names) - len(differ)} of {len(names)} games replay to their stored state"
            + (f"; differing: {', '.join(differ)}" if differ else ".")
        )
    print("\n".join(lines))
    return REFUSED if differ else OK


class ProgressBar:
    """`\r[########........] 12/40 games` on stderr, redrawn in place: only on a terminal (a
    redirected stderr would collect every redraw, carriage returns included)."""

    def __init__(self, total: int, what: str, width: int = 30, stream: IO[str] | None = None):
        self.total, self.what, self.width = total, what, width
        self.stream = stream or sys.stderr
        self.update(0)

    def update(self, done: int) -> None:
        filled = self.width * done // self.total if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} {self.what}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


__all__ = ["UNREADABLE", "ProgressBar", "cmd_replay", "replay_all", "unreadable"]
