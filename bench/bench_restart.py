"""Restart after an outage: `pbem serve` over N games in progress with armed deadlines, its
heartbeat an hour back, next to `pbem serve` over an empty database, measured in one run.

    python bench/bench_restart.py [--games N] [--stops K] [--dir DIR] [--rebuild]

The database of N in-progress games (sandbox Hell's Gate games, their phase deadlines armed: one
made through GameService, its rows copied in bulk in SQL, 10,000 in seconds) is built once and
kept under the temporary directory (`pbem-bench-restart/games-N-<schema>.db`); every run works on a
copy, with every deadline re-armed 30 h ahead and the heartbeat set an hour back, so that each
start finds an outage covering every game. Then, with `pbem serve` in terminal mode (no tokens):

- the empty database, then the full one: the time to the first answer (`help`), the resident
  set then (VmRSS) and its peak (VmHWM) once the catch-up has finished;
- the catch-up: its duration and its batches (the scheduler's log lines, `outage=batch`);
- K more starts on one fresh copy, each sent SIGTERM (the last SIGINT) at a different point of
  the catch-up (at once after its first answer, then spread over the batches), each start
  continuing where the last stopped: the time from the signal to the exit (the goal: at most
  1 s each); then a last start finishes it, and every game is checked to be moved exactly once
  (one and the same new deadline for all).

Last line:

    restart: first answer X x empty, memory M x empty, SIGTERM within S s (N games)

Measured on the shared 2-core machine, 10,000 games (the database built in bulk in 1 s): first
answer 0.73 s (empty 0.68 s), RSS then 79.4 MB (empty 72.1 MB), peak 92.4 MB once caught up;
10,000 deadlines moved in 50 batches, 20.5 s after the start; SIGTERM at once after the first
answer, after batches 12 and 25, SIGINT after 38: exits after 0.07-0.11 s: `restart: first
answer 1.07 x empty, memory 1.28 x empty, SIGTERM within 0.11 s (10000 games)`. Before the chain
check's pass ended between games when the process stops, SIGTERM at the first batch waited
3.07 s for a pass over a thousand games. Before the batches, the catch-up held the first answer
and ignored SIGTERM.

Not part of the test run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BATCH_LINE = re.compile(r"outage=batch .*moved=(\d+)")
DONE_LINE = re.compile(r"outage=caught-up .*batches=(\d+)")


# -- the database
def _schema_tag() -> str:
    """A digest of the migrations: a cached database from another schema is rebuilt."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "storage" / "migrations").rglob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def cached_db(n: int, rebuild: bool = False) -> Path:
    home = Path(tempfile.gettempdir()) / "pbem-bench-restart"
    home.mkdir(exist_ok=True)
    db = home / f"games-{n}-{_schema_tag()}.db"
    if rebuild or not db.exists():
        part = db.with_suffix(".part")
        part.unlink(missing_ok=True)
        t0 = time.perf_counter()
        build(part, n)
        part.rename(db)
        print(f"{n} in-progress games built in {time.perf_counter() - t0:.0f} s (kept: {db})")
    return db


def build(db: Path, n: int) -> None:
    """N games in progress in bulk: one sandbox game made through GameService and its phase
    deadline armed, then its rows copied N - 1 times in SQL (the game row under a new name and
    uid, its log, seeds, seats, moderators and clock), as if each had been made the same way."""
    from app import clock as C
    from app.service import GameService
    from storage import Store

    store = Store(str(db))
    service = GameService(store)
    first = "g00000"
    service.new_game(first, sandbox=True, creator="terminal:moderator")
    C.rearm(store, first, service.system(first).situation(service.state(first)), datetime.now(UTC))
    store.close()
    with sqlite3.connect(db) as conn:
        copy_games(conn, first, n - 1)


def _columns(conn: sqlite3.Connection, table: str, without: tuple[str, ...]) -> list[str]:
    return [f'"{r[1]}"' for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in without]


def copy_games(conn: sqlite3.Connection, first: str, copies: int) -> None:
    """The game `first` copied `copies` times (g00001, g00002, ...), in one transaction."""
    (tid,) = conn.execute("SELECT id FROM game WHERE name = ?", (first,)).fetchone()
    cols = _columns(conn, "game", ("id", "name", "uid"))
    conn.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        f"INSERT INTO game (name, uid, {', '.join(cols)}) "
        f"SELECT printf('g%05d', i), lower(hex(randomblob(16))), {', '.join(cols)} "
        "FROM n, game WHERE game.id = ?",
        (copies, tid),
    )
    for table in ("logentry", "dicesecret", "seat", "moderator"):
        cols = _columns(conn, table, ("id", "game_id"))
        listed = ", ".join(cols)
        conn.execute(
            f"INSERT INTO {table} (game_id, {listed}) SELECT g.id, "
            + ", ".join(f"t.{c}" for c in cols)
            + f" FROM {table} t, game g WHERE t.game_id = ? AND g.id != ?",
            (tid, tid),
        )
    conn.execute(
        "INSERT INTO service_state (key, value, updated_at) SELECT 'clock:' || g.name, s.value, "
        "s.updated_at FROM service_state s, game g WHERE s.key = ? AND g.id != ?",
        (f"clock:{first}", tid),
    )


def prepare(source: Path, target: Path, now: datetime) -> int:
    """A copy whose every deadline runs 30 h from now, moved by no outage yet, its heartbeat
    an hour back (and no outage recorded); the number of armed games."""
    from sqlalchemy import select, update

    from storage import Store
    from storage import clocks as sql
    from storage.chat_models import game_clock

    shutil.copyfile(source, target)
    store = Store(str(target))
    with store.engine.begin() as conn:
        conn.execute(
            update(game_clock)
            .where(game_clock.c.deadline_at.is_not(None))
            .values(deadline_at=now + timedelta(hours=30), reminders_sent=json.dumps([24.0]))
        )
        memos = conn.execute(
            select(sql.STATE.c.key, sql.STATE.c.value).where(
                sql.STATE.c.key.like(sql.MEMO_PREFIX + "%")
            )
        ).all()
        for key, value in memos:
            memo = {k: v for k, v in json.loads(value).items() if k != "outage"}
            sql.put_state(conn, key, json.dumps(memo), now)
        conn.execute(sql.STATE.delete().where(sql.STATE.c.key == sql.OUTAGE_KEY))
        sql.put_state(conn, sql.HEARTBEAT_KEY, "", now - timedelta(hours=1))
        armed = len(sql.read_armed(conn))
    store.close()
    return armed


def moved_once(db: Path, n: int) -> tuple[int, int]:
    """(games moved for the outage, games whose deadline is not exactly 1 h later than armed)."""
    from storage import Store
    from storage import clocks as sql

    store = Store(str(db))
    rows = sql.armed(store)
    store.close()
    moved = sum(1 for r in rows if r.memo.get("outage"))
    offsets = {r.deadline_at for r in rows}
    return moved, len(offsets)


# -- the service
def _status(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])  # kB
    return out


class Serve:
    """`pbem serve` in terminal mode on a database, its log lines read as they come."""

    def __init__(self, db: Path, workdir: Path):
        exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
        cmd = [exe] if exe else [sys.executable, "-m", "bots.cli_main"]
        env = os.environ | {"PBEM_DB": str(db), "PBEM_LOG_LEVEL": "INFO"}
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [*cmd, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env=env,
            text=True,
        )
        self.batches: list[float] = []  # when each batch of the catch-up was logged
        self.moved = 0
        self.done: float | None = None
        self.lines: list[str] = []
        self.changed = threading.Condition()
        assert self.proc.stderr is not None
        self.reader = threading.Thread(target=self._read, args=(self.proc.stderr,), daemon=True)
        self.reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self.changed:
                self.lines.append(line)
                if m := BATCH_LINE.search(line):
                    self.batches.append(time.perf_counter())
                    self.moved += int(m.group(1))
                elif DONE_LINE.search(line):
                    self.done = time.perf_counter()
                self.changed.notify_all()

    def first_answer(self) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("help\n")
        self.proc.stdin.flush()
        self.proc.stdout.readline()
        return time.perf_counter() - self.started

    def wait_for(self, test, timeout: float = 600) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: test() or self.proc.poll() is not None, timeout)

    def end(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.stdout.read()
        self.proc.wait(timeout=600)

    def signal_exit(self, sig: int) -> float:
        """Seconds from the signal to the exit."""
        sent = time.perf_counter()
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return float("inf")
        return time.perf_counter() - sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--stops", type=int, default=4, help="SIGTERM/SIGINT starts (default 4)")
    parser.add_argument("--dir", help="where the working copies go (default: a temporary one)")
    parser.add_argument("--rebuild", action="store_true", help="build the cached database again")
    parser.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    source = cached_db(args.games, args.rebuild)
    if args.build_only:
        return 0
    own = args.dir is None
    work = Path(tempfile.mkdtemp(prefix="bench-restart-") if own else args.dir)
    work.mkdir(parents=True, exist_ok=True)
    try:
        return run(args, source, work)
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace, source: Path, work: Path) -> int:
    from storage import Store

    n = args.games
    empty = work / "empty.db"
    Store(str(empty)).close()
    e = Serve(empty, work)
    e_took = e.first_answer()
    e_mem = _status(e.proc.pid)
    e.end()

    db = work / "full.db"
    armed = prepare(source, db, datetime.now(UTC))
    f = Serve(db, work)
    f_took = f.first_answer()
    f_mem = _status(f.proc.pid)
    f.wait_for(lambda: f.done is not None)
    peak = _status(f.proc.pid)["VmHWM"] if f.proc.poll() is None else f_mem["VmHWM"]
    catch_up = (f.done or time.perf_counter()) - f.started
    batches = len(f.batches)
    f.end()
    moved, offsets = moved_once(db, n)
    print(f"{n} games in progress, {armed} deadlines armed, heartbeat 1 h back")
    print(f"pbem serve, empty database   first answer {e_took:6.2f} s, RSS "
          f"{e_mem['VmRSS'] / 1024:6.1f} MB, peak {e_mem['VmHWM'] / 1024:6.1f} MB")  # fmt: skip
    print(f"pbem serve, {n} games  first answer {f_took:6.2f} s, RSS "
          f"{f_mem['VmRSS'] / 1024:6.1f} MB, peak {peak / 1024:6.1f} MB")  # fmt: skip
    print(f"catch-up: {f.moved} deadlines moved in {batches} batches, done {catch_up:.1f} s "
          f"after the start; {moved} games moved once, {offsets} distinct deadline(s)")  # fmt: skip

    # the stops, on one copy: each start continues the catch-up the last one was stopped in
    waits = []
    prepare(source, db, datetime.now(UTC))
    reached = 0  # batches committed by the starts so far
    for k in range(args.stops):
        goal = round(k * batches / args.stops)  # 0: at once after the first answer
        sig = signal.SIGINT if k == args.stops - 1 else signal.SIGTERM
        s = Serve(db, work)
        s.first_answer()
        s.wait_for(lambda s=s, goal=goal - reached: len(s.batches) >= goal)
        took = s.signal_exit(sig)
        waits.append(took)
        reached += len(s.batches)
        print(f"{signal.Signals(sig).name} after batch {reached} of {batches}: exit after "
              f"{took:.2f} s (code {s.proc.returncode})")  # fmt: skip
    last = Serve(db, work)
    last.first_answer()
    last.wait_for(lambda: last.done is not None)
    last.end()
    moved, offsets = moved_once(db, n)
    print(f"the next start finished the catch-up ({reached + len(last.batches)} batches in all): "
          f"{moved} games moved once, {offsets} distinct deadline(s)")  # fmt: skip
    worst = max(waits) if waits else float("nan")
    print(
        f"restart: first answer {f_took / e_took:.2f} x empty, memory "
        f"{peak / e_mem['VmHWM']:.2f} x empty, SIGTERM within {worst:.2f} s ({n} games)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
