"""Throughput of the order path, each figure next to a bare SQLite commit measured in the same run.

    python bench/bench_engine.py [--seed N] [--dir DIR] [--repeat N]

1. engine alone: parse + validate + resolve (the system's grammar and apply) of a whole recorded
   game, with its recorded dice;
2. service: the same orders through GameService.say, including the SQLite commit of each order
   (chained log row(s) + snapshot + dice bookkeeping, one transaction) on a file in DIR;
3. bare SQLite: one-row INSERT + COMMIT with the sqlite3 module, same DIR, WAL, synchronous=FULL;
4. wall time of `pbem demo` in a fresh process.

Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.core.dice import FixedDice
from app.service import GameService
from bots.demo import DemoSeeds, run_demo
from storage import Store


def record_game(seed: int, directory: Path):
    store = Store(str(directory / "recorded.db"))
    result = run_demo(seed, store, write=lambda _line: None)
    return store, result.name


def drawn(rolls):
    return [r["value"] for r in rolls if not r["fixed"]]


def orders_of(rec) -> list:
    return [r for r in rec.log if r.kind == "order"]


def bench_engine(store: Store, name: str, repeat: int) -> tuple[int, float]:
    rec = store.load(name)
    system = GameService(store).system(name)
    rows = orders_of(rec)
    start = time.perf_counter()
    for _ in range(repeat):
        state = system.initial(rec.sandbox, FixedDice([])).state
        for row in rows:
            order = system.grammar.parse(row.text)
            state = system.apply(state, row.actor, order, FixedDice(drawn(row.rolls))).state
    return len(rows) * repeat, time.perf_counter() - start


def bench_service(store: Store, name: str, directory: Path, seed: int) -> tuple[int, float]:
    """The recorded orders through the service into a new database. The same demo seeds and game
    uid give the same committed dice, so the game goes exactly as recorded."""
    rec = store.load(name)
    rows = orders_of(rec)
    target = Store(str(directory / "service.db"))
    service = GameService(target, seeds=DemoSeeds(seed), uids=lambda: rec.uid)
    service.new_game("bench")
    start = time.perf_counter()
    for row in rows:
        replies = service.say("bench", row.actor, row.text)
        assert replies[0].ok, replies[0].error
    elapsed = time.perf_counter() - start
    target.close()
    return len(rows), elapsed


def bench_sqlite(directory: Path, n: int) -> tuple[int, float]:
    con = sqlite3.connect(directory / "bare.db", isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")  # as the store runs it
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, actor TEXT, text TEXT, rolls TEXT)")
    row = ("soviet", "attack C6 with 5gd 20tk", json.dumps([{"purpose": "combat", "value": 3}]))
    start = time.perf_counter()
    for _ in range(n):
        con.execute("BEGIN")
        con.execute("INSERT INTO t (actor, text, rolls) VALUES (?, ?, ?)", row)
        con.execute("COMMIT")
    elapsed = time.perf_counter() - start
    con.close()
    return n, elapsed


def bench_demo(seed: int) -> float:
    exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "bots.cli"]
    start = time.perf_counter()
    subprocess.run(
        [*cmd, "demo", "--seed", str(seed)],
        check=True,
        capture_output=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", help="where the SQLite files go (default: a temporary directory)")
    p.add_argument("--repeat", type=int, default=5, help="engine-only passes over the game")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        store, name = record_game(args.seed, directory)
        n_eng, t_eng = bench_engine(store, name, args.repeat)
        n_svc, t_svc = bench_service(store, name, directory, args.seed)
        n_sql, t_sql = bench_sqlite(directory, max(n_svc, 200))
        t_demo = bench_demo(args.seed)
    sql_rate = n_sql / t_sql
    rows = [
        ("engine alone (parse+validate+resolve)", n_eng, t_eng),
        ("GameService.say incl. SQLite commit", n_svc, t_svc),
        ("bare sqlite3 INSERT+COMMIT (WAL)", n_sql, t_sql),
    ]
    print(
        f"recorded game: seed {args.seed}, {n_svc} orders; files in a temp dir under "
        f"{args.dir or tempfile.gettempdir()}"
    )
    print(f"{'path':<40} {'n':>6} {'seconds':>9} {'per second':>11} {'vs sqlite':>10}")
    for label, n, t in rows:
        rate = n / t
        print(f"{label:<40} {n:>6} {t:>9.3f} {rate:>11.0f} {rate / sql_rate:>9.2f}x")
    print(f"{'pbem demo, wall time (fresh process)':<40} {'':>6} {t_demo:>9.3f}")


if __name__ == "__main__":
    main()
