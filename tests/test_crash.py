"""Crash safety: order storms in a child process killed with SIGKILL at random points.

"Done when": the crash harness passes with at least 200 random kills, on SQLite. After each kill
and restart: every order the client saw acknowledged is in the log exactly once, no order is half
applied, the chain verifies, and replaying the log gives the stored snapshot.

The child is forked from this process (everything is imported already, so a kill loop is cheap).
It sends keyed orders in sequence and writes a key to a pipe only after the store returned, i.e.
after the commit: that is what "the client saw it acknowledged" means. The next child starts at
the first key not acknowledged, so an order whose commit made it to disk but whose ack did not is
delivered again, and must not apply twice. Each round of kills uses a fresh game, so the logs
(and the replays that check them) stay short.
"""

from __future__ import annotations

import os
import random
import signal
import time
import warnings
from collections import Counter

from app.service import GameService
from storage import Store
from storage.chain import verify_chain
from tests.storm import MODERATOR, new_storm_game, storm_text

KILLS = 200
ROUNDS = 8  # games; KILLS / ROUNDS kills each
MAX_DELAY = 0.12  # seconds a child lives at most


def order_text(n: int) -> str:
    return storm_text(random.Random(n))


def child(db: str, game: str, start: int, ack: int) -> None:
    """Send orders start, start+1, ... forever; ack each after it committed (or was refused)."""
    store = Store(db)
    service = GameService(store)
    n = start
    while True:
        (reply,) = service.say(game, None, order_text(n), user=MODERATOR, key=f"k{n}")
        os.write(ack, f"{'a' if reply.ok else 'r'}{n}\n".encode())
        n += 1


def kill_one(db: str, game: str, start: int, rng: random.Random) -> list[str]:
    """Fork a child, kill it after a random delay; the acks it wrote."""
    read, write = os.pipe()
    with warnings.catch_warnings():  # fork() in a process that may have threads: ours has none
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            child(db, game, start, write)
        finally:
            os._exit(0)
    os.close(write)
    time.sleep(rng.uniform(0, MAX_DELAY))
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    return b"".join(chunks).decode().split()


def check_after_restart(db: str, game: str, acked: set[str], sent_below: int) -> set[str]:
    """The checks after a kill; returns the keys in the log."""
    store = Store(db)
    try:
        service = GameService(store)
        rec = store.load(game)
        log = rec.log
        keys = Counter(r.key for r in log if r.kind == "order")
        assert all(keys[k] == 1 for k in acked), "an acknowledged order is missing or doubled"
        assert all(int(k[1:]) < sent_below for k in keys)  # nothing that was never sent
        assert [r.index for r in log] == list(range(len(log)))
        assert rec.head_index == log[-1].index and rec.head_hash == log[-1].hash  # not half applied
        assert verify_chain(store.rows(game)) is None
        service.verify(game)  # replaying the log gives the snapshot (and every row's events)
        ok, text, _ = service.audit(game)
        assert ok, text
        return set(keys)
    finally:
        store.close()


def test_200_sigkills_lose_no_acknowledged_order_and_half_apply_none(tmp_path):
    db = str(tmp_path / "crash.db")
    rng = random.Random(2024)
    kills = mid_order = 0
    for rnd in range(ROUNDS):
        game = f"g{rnd}"
        store = Store(db)
        new_storm_game(store, game)
        store.close()  # no connection of ours crosses a fork
        acked: set[str] = set()
        done_below = 0  # every key below it was acknowledged (or refused) once
        for _ in range(KILLS // ROUNDS):
            lines = kill_one(db, game, done_below, rng)
            kills += 1
            for line in lines:
                if line[0] == "a":
                    acked.add(f"k{line[1:]}")
            if lines:
                done_below = int(lines[-1][1:]) + 1
            log_keys = check_after_restart(db, game, acked, done_below + 1)
            mid_order += f"k{done_below}" in log_keys  # committed, killed before its ack
        assert len(acked) > KILLS // ROUNDS // 2  # the storms did get orders through
    assert kills >= 200
    assert mid_order > 0, "no kill fell between a commit and its acknowledgement"
