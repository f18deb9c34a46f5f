"""Order storms for the concurrency and crash tests (a helper module, not a test module).

A storm is a stream of moderator commands on a sandbox game, each with an idempotency key:
flips, weather, OOS and Retreat markers change the state (so a lost update would show in the
replay), and `default` moves the game on through its phases, rolling committed dice and opening
new epochs. Some deliveries are repeated on purpose, by the same writer or by two at once.

    python -m tests.storm DB_URL GAME PREFIX WRITERS ORDERS SEED GO_FILE

runs WRITERS threads in a fresh process and prints one JSON list of their records. It creates
GO_FILE.PREFIX when it is ready and starts when GO_FILE exists, so two processes start together;
when all its writers are halfway it creates GO_FILE.PREFIX.half and goes on when GO_FILE.half
exists, so each process writes both before and after the other's first half, however the
machine schedules them.
"""

from __future__ import annotations

import functools
import json
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from app.service import GameService
from storage import Store

UNITS = ("20tk", "29tk", "5gtk", "389id", "57id", "88id", "72id")  # two-step units on the map
MODERATOR = "mod"
WAIT = 600  # seconds a process waits for the others at a rendezvous: only a hang reaches it


def storm_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.12:
        return "default"
    if roll < 0.45:
        return f"flip {rng.choice(UNITS)}"
    if roll < 0.6:
        return f"set weather {rng.choice(['mud', 'snow'])}"
    if roll < 0.8:
        return f"set oos {rng.choice(UNITS)} {rng.choice(['on', 'off'])}"
    return f"set retreat {rng.choice(UNITS)} {rng.choice(['on', 'off'])}"


def new_storm_game(store: Store, name: str) -> GameService:
    service = GameService(store)
    service.new_game(name, sandbox=True, creator=MODERATOR)
    return service


def writer_plan(prefix: str, writer: int, writers: int, orders: int, seed: int) -> list:
    """(key, text) to send, in order. Every 5th slot holds a key shared with the next writer,
    so two writers (0 and 1, 2 and 3, ...) deliver it at about the same time."""
    rng = random.Random(f"{seed}-{prefix}-{writer}")
    plan = []
    for i in range(orders):
        if i % 5 == 4:
            plan.append((f"{prefix}s{writer // 2}-{i}", "set weather mud"))  # a pair shares it
            continue
        plan.append((f"{prefix}w{writer}-{i}", storm_text(rng)))
    return plan


def run_writer(
    db_url: str, game: str, plan: list, seed: str, out: list, halfway: threading.Barrier
) -> None:
    """Send a plan through a store of its own; sometimes deliver an acknowledged key again.
    Halfway through, wait at the barrier for the other writers."""
    try:
        send_plan(db_url, game, plan, seed, out, halfway)
    except BaseException:
        halfway.abort()  # the others stop too, rather than wait for this one for ever
        raise


def send_plan(
    db_url: str, game: str, plan: list, seed: str, out: list, halfway: threading.Barrier
) -> None:
    rng = random.Random(seed)
    store = Store(db_url)
    service = GameService(store)
    done: list[tuple[str, str]] = []
    try:
        for n, (key, text) in enumerate(plan):
            if n == len(plan) // 2:
                halfway.wait()
            deliveries = [(key, text)]
            if done and rng.random() < 0.2:
                deliveries.append(rng.choice(done))  # a retried delivery of an earlier order
            for k, t in deliveries:
                (reply,) = service.say(game, None, t, user=MODERATOR, key=k)
                out.append(
                    {
                        "key": k,
                        "text": t,
                        "ok": reply.ok,
                        "duplicate": reply.duplicate,
                        "reply": reply.reply,
                        "error": reply.error,
                    }
                )
                if reply.ok and (k, t) not in done:
                    done.append((k, t))
    finally:
        store.close()


def storm(
    db_url: str,
    game: str,
    prefix: str,
    writers: int,
    orders: int,
    seed: int,
    halfway: Callable[[], None] | None = None,
) -> list:
    """WRITERS threads at once, each with its own store (as separate bots would be); `halfway`
    runs once when every writer has sent half its plan, before any sends the rest."""
    out: list = []
    barrier = threading.Barrier(writers, action=halfway)
    threads = [
        threading.Thread(
            target=run_writer,
            args=(
                db_url,
                game,
                writer_plan(prefix, w, writers, orders, seed),
                f"{seed}{w}",
                out,
                barrier,
            ),
        )
        for w in range(writers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def rendezvous(mine: Path, everyone: Path) -> None:
    """Say this process is there (`mine`), then wait until the test says all are (`everyone`)."""
    mine.touch()
    deadline = time.monotonic() + WAIT
    while not everyone.exists() and time.monotonic() < deadline:
        time.sleep(0.005)


def main(argv: list[str]) -> None:
    db_url, game, prefix, writers, orders, seed, go = argv
    rendezvous(Path(f"{go}.{prefix}"), Path(go))
    halfway = functools.partial(rendezvous, Path(f"{go}.{prefix}.half"), Path(f"{go}.half"))
    records = storm(db_url, game, prefix, int(writers), int(orders), int(seed), halfway)
    json.dump(records, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
