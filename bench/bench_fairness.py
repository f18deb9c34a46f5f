"""What fairness and atomicity cost, each figure next to a bare SQLite commit measured in the same run.

    python bench/bench_fairness.py [--seed N] [--dir DIR] [--n N]

1. bare SQLite: one-row INSERT + COMMIT with the sqlite3 module (WAL, synchronous=FULL, as the
   store runs it), in DIR;
2. a committed roll: HMAC-SHA256 of the epoch seed + rejection sampling (storage.dice), CPU only;
3. a chained log row: canonical JSON + SHA-256 over the previous hash (storage.chain), CPU only;
4. a chained, committed roll, stored: one transaction that draws a roll from the open epoch and
   appends the chained order row holding it (Store.transact), on a file in DIR;
5. the atomic order: a recorded game's orders through GameService.say (grammar, seat check,
   idempotency lookup, engine, committed dice, chained rows, snapshot, epoch reveal/commitment,
   one commit each);
6. `pbem audit` of that whole game: in process (audit + replay through the rules), and the
   command line in a fresh process, plus `pbem audit --verify` of its export.

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

from app.service import GameService
from bots.demo import DemoSeeds, run_demo
from storage import Store
from storage.chain import GENESIS, row_hash
from storage.dice import EMPTY_SALT_DIGEST, CommittedDice, new_seed

ROOT = Path(__file__).resolve().parent.parent


def timed(n: int, fn) -> tuple[int, float]:
    start = time.perf_counter()
    for i in range(n):
        fn(i)
    return n, time.perf_counter() - start


def bench_sqlite(directory: Path, n: int) -> tuple[int, float]:
    con = sqlite3.connect(directory / "bare.db", isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, actor TEXT, text TEXT, payload TEXT)")
    row = ("soviet", "attack C6 with 5gd 20tk", json.dumps([{"purpose": "combat", "value": 3}]))

    def one(_):
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO t (actor, text, payload) VALUES (?, ?, ?)", row)
        con.execute("COMMIT")

    result = timed(n, one)
    con.close()
    return result


def bench_roll(n: int) -> tuple[int, float]:
    dice = CommittedDice(new_seed(), "0" * 32, 1, 1, EMPTY_SALT_DIGEST)
    return timed(n, lambda _: dice.roll("combat C6"))


def bench_chain(n: int) -> tuple[int, float]:
    row = {
        "index": 12,
        "kind": "order",
        "actor": "soviet",
        "user": "alice",
        "text": "attack C6 with 20tk 75rc",
        "payload": {
            "rolls": [
                {
                    "purpose": "combat C6",
                    "value": 4,
                    "fixed": False,
                    "epoch": 2,
                    "n": 3,
                    "hidden": False,
                }
            ],
            "events": [{"kind": "AttackResolved", "text": "Attack on C6 ... die 4: 1 hit."}],
            "state_sha256": "ab" * 32,
        },
        "key": "msg-123",
        "created_at": "2026-01-01T00:00:00.000000+00:00",
    }
    return timed(n, lambda _: row_hash(GENESIS, row))


def bench_stored_roll(directory: Path, n: int) -> tuple[int, float]:
    store = Store(str(directory / "rolls.db"))
    GameService(store).new_game("r")

    def one(i):
        def fn(tx):
            dice = CommittedDice(tx.seed(), tx.uid, tx.epoch, tx.next_n, tx.salt_digest)
            value = dice.roll("combat C6")
            draw = dice.drawn[0] | {"fixed": False}
            payload = {"rolls": [draw], "events": [], "state_sha256": None, "value": value}
            tx.append("order", "soviet", "bench roll", payload, key=f"b{i}", epoch=tx.epoch)
            tx.set_next_n(dice.next_n)

        store.transact("r", fn)

    result = timed(n, one)
    store.close()
    return result


def record_game(seed: int, directory: Path) -> tuple[Store, str]:
    store = Store(str(directory / "recorded.db"))
    return store, run_demo(seed, store, write=lambda _line: None).name


def bench_orders(store: Store, name: str, directory: Path, seed: int) -> tuple[int, float]:
    rec = store.load(name)
    orders = [r for r in rec.log if r.kind == "order"]
    target = Store(str(directory / "service.db"))
    service = GameService(target, seeds=DemoSeeds(seed), uids=lambda: rec.uid)
    service.new_game("bench")
    start = time.perf_counter()
    for i, row in enumerate(orders):
        (reply,) = service.say("bench", row.actor, row.text, key=f"o{i}")
        assert reply.ok, reply.reply
    elapsed = time.perf_counter() - start
    target.close()
    return len(orders), elapsed


def bench_audit(store: Store, name: str, directory: Path) -> dict:
    service = GameService(store)
    start = time.perf_counter()
    ok, text, report = service.audit(name)
    in_process = time.perf_counter() - start
    assert ok, text
    exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "bots.cli"]
    export = directory / "game.jsonl"
    start = time.perf_counter()
    subprocess.run(
        [*cmd, "audit", name, "--export", str(export), "--db", store.url],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    cli = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run(
        [*cmd, "audit", "--verify", str(export)], check=True, capture_output=True, cwd=ROOT
    )
    verify = time.perf_counter() - start
    return {
        "rows": report.rows,
        "rolls": report.rolls_checked,
        "in_process": in_process,
        "cli": cli,
        "verify": verify,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", help="where the SQLite files go (default: a temporary directory)")
    p.add_argument("--n", type=int, default=300, help="commits per database figure")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        bare = bench_sqlite(directory, args.n)
        roll = bench_roll(100_000)
        chain = bench_chain(100_000)
        stored = bench_stored_roll(directory, args.n)
        store, name = record_game(args.seed, directory)
        orders = bench_orders(store, name, directory, args.seed)
        audit = bench_audit(store, name, directory)
        store.close()
    bare_ms = bare[1] / bare[0] * 1000
    print(
        f"files in a temp dir under {args.dir or tempfile.gettempdir()}; demo game seed {args.seed}"
    )
    print(f"{'what':<52} {'n':>7} {'ms each':>9} {'vs bare commit':>15}")
    rows = [
        ("bare sqlite3 INSERT+COMMIT (WAL, synchronous=FULL)", bare),
        ("committed roll: HMAC-SHA256 + rejection (CPU)", roll),
        ("chained row hash: canonical JSON + SHA-256 (CPU)", chain),
        ("chained committed roll, stored (one transaction)", stored),
        ("atomic order via GameService.say (whole game)", orders),
    ]
    for label, (n, t) in rows:
        ms = t / n * 1000
        print(f"{label:<52} {n:>7} {ms:>9.4f} {ms / bare_ms:>14.2f}x")
    print(
        f"pbem audit of the whole game ({audit['rows']} rows, {audit['rolls']} rolls "
        "recomputed, replay included):"
    )
    print(f"  {'in process':<50} {audit['in_process'] * 1000:>9.1f} ms")
    print(f"  {'pbem audit NAME --export, fresh process':<50} {audit['cli'] * 1000:>9.1f} ms")
    print(f"  {'pbem audit --verify FILE, fresh process':<50} {audit['verify'] * 1000:>9.1f} ms")


if __name__ == "__main__":
    main()
