"""Many writers on one game: no order lost, none applied twice, never two against one state.

"Done when": at least 8 writers on one game, as threads and as two processes, lose no order and
apply none twice, on SQLite and PostgreSQL. Each writer has its own Store (its own connections),
as two bot processes sharing one database would. Keys are distinct per order; some deliveries are
repeated (by the same writer later, and by two writers at about the same time).

The proof that no order was applied against a stale state: every order row records the hash of
the state after it, and the replay through the rules checks each one (GameService.verify), so a
lost update would break the replay at the first row written on top of it.

The two processes start together and meet again halfway (tests/storm.py), so each writes on top
of rows the other wrote, however the machine schedules them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from app.service import GameService
from storage.chain import verify_chain
from tests.storm import new_storm_game, storm

ROOT = Path(__file__).resolve().parent.parent
WRITERS = 8
ORDERS = 25  # per writer
WAIT = 600  # seconds: a ceiling for the writer processes that only a hang reaches


def check_storm(service: GameService, records: list[dict]) -> None:
    log = service.store.log("g")
    orders = [r for r in log if r.kind == "order"]
    in_log = Counter(r.key for r in orders)
    assert None not in in_log  # every order came with a key
    assert max(in_log.values()) == 1  # applied once at most (the key is unique per game)

    by_key: dict[str, list[dict]] = {}
    for rec in records:
        by_key.setdefault(rec["key"], []).append(rec)
    acked = {k for k, recs in by_key.items() if any(r["ok"] for r in recs)}
    assert set(in_log) == acked  # no acknowledged order lost, no refused order applied
    for key, recs in by_key.items():
        fresh = [r for r in recs if r["ok"] and not r["duplicate"]]
        assert len(fresh) <= 1, key  # a repeated delivery never applied again
        if fresh:  # ...and got the very reply of the first delivery
            assert all(r["reply"] == fresh[0]["reply"] for r in recs if r["ok"]), key
        for r in recs:
            if not r["ok"]:
                assert r["error"]["code"] != "conflict", r  # retries absorb every conflict

    assert any(r["duplicate"] for r in records)
    assert sum(1 for recs in by_key.values() if len(recs) > 1) > WRITERS
    assert verify_chain(service.store.rows("g")) is None
    service.verify("g")  # every row's state hash replays: no update was lost
    ok, text, report = service.audit("g")
    assert ok, text
    assert report.rolls_checked + len(report.epochs_open) > 0


def test_eight_threads_on_one_game(db_url, stores):
    service = new_storm_game(stores(db_url), "g")
    records = storm(db_url, "g", "t", WRITERS, ORDERS, seed=1)
    assert len(records) >= WRITERS * ORDERS
    check_storm(service, records)


def test_two_processes_of_four_threads_on_one_game(db_url, stores, tmp_path):
    service = new_storm_game(stores(db_url), "g")
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.storm",
                db_url,
                "g",
                f"p{p}",
                str(WRITERS // 2),
                str(ORDERS),
                str(p + 7),
                str(go),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            cwd=ROOT,
            env=env,
        )
        for p in range(2)
    ]
    rendezvous(procs, [tmp_path / f"go.p{p}" for p in range(2)], go)  # they start together
    rendezvous(procs, [tmp_path / f"go.p{p}.half" for p in range(2)], tmp_path / "go.half")
    records = []
    for proc in procs:
        out, err = proc.communicate(timeout=WAIT)
        assert proc.returncode == 0, err.decode()
        records += json.loads(out)
    keys = {r["key"][:2] for r in records}
    assert keys == {"p0", "p1"} and len(records) >= WRITERS * ORDERS
    check_storm(service, records)
    order_rows = [r for r in service.store.log("g") if r.kind == "order"]
    spans = {p: [i for i, r in enumerate(order_rows) if r.key.startswith(p)] for p in ("p0", "p1")}
    overlap = min(spans["p0"]) < max(spans["p1"]) and min(spans["p1"]) < max(spans["p0"])
    assert overlap, "the two processes did not write into each other's rows"


def rendezvous(procs: list, ready: list[Path], go: Path) -> None:
    """Wait until every process said it is there (its `ready` file), then let them all go."""
    deadline = time.monotonic() + WAIT
    while not all(path.exists() for path in ready):
        assert all(proc.poll() is None for proc in procs), "a writer process ended early"
        assert time.monotonic() < deadline, "the writer processes never got there"
        time.sleep(0.01)
    go.touch()
