"""Server-side latency of a chat message: from the incoming message to its reply queued, over whole
games played through the chat service, next to a bare SQLite commit measured in the same run.

    python bench/bench_chat.py [--seed N] [--games N] [--dir DIR] [--bare N]

What is timed, per message: `ChatService.handle(incoming)` (find the game bound to the chat, the
seat and role checks, grammar, engine, committed dice, the chained log rows and snapshot in one
transaction, the deadline re-armed, and on a phase end the summary post written to the outbox,
with its map rendered when images are on), until the reply is handed back to the adapter, which
sends it at once: what `pbem serve` does with every message (the order is durable by then, and a
redelivered message is answered again from its log rows). Also timed, as its own rows: the
same plus `delivery.enqueue` of the replies (one more transaction), which serve does only for a
reply whose direct send failed. Not timed: choosing the order (legal orders of the position, as
`pbem demo` chooses them) and the platforms.

Each game: `new hells-gate` in one Telegram-like chat, user 1 joins Soviet, user 2 German,
`start`, then random legal orders, each sent by the user of the side to move, until the game
ends. The same seeds are played twice, images off, then images on (the map of every phase end
rendered and queued with its post), after one warm-up game that is not counted (imports, caches
and the static map layer are built once per process, not per message).

Baseline: one-row INSERT + COMMIT with the sqlite3 module, WAL and synchronous=FULL (as the
store runs SQLite), BEGIN IMMEDIATE, on a file in the same directory, measured in the same run.

Rows of the table: every message; the phase-ending messages (those whose handling queued an
after-phase post); with images off and on. Not part of the test run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from app.messages import Incoming
from app.service import GameService
from bots import delivery
from bots.chat import ChatService
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from storage import Store, chat_store
from storage.chat_models import OutboxRow

CHAT = "-1000001"
USERS = {"soviet": "1", "german": "2"}
NAMES = {"1": "alice", "2": "bob"}


@dataclass
class Run:
    """Per message: seconds, and whether it queued an after-phase post."""

    times: list[float] = field(default_factory=list)  # until the reply is handed back
    queued: list[float] = field(default_factory=list)  # ... and written to the outbox as well
    posting: list[bool] = field(default_factory=list)
    games: int = 0
    orders: int = 0

    def pick(self, posting_only: bool, queued: bool = False) -> list[float]:
        times = self.queued if queued else self.times
        if not posting_only:
            return times
        return [t for t, p in zip(times, self.posting, strict=True) if p]


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, round(0.99 * len(ordered)) - 1)]


def bench_sqlite(path: Path, n: int) -> list[float]:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, chat TEXT, text TEXT, payload TEXT)")
    row = (CHAT, "attack C6 with 20tk 75rc", json.dumps([{"purpose": "combat", "value": 3}]))
    times = []
    for _ in range(n):
        start = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO t (chat, text, payload) VALUES (?, ?, ?)", row)
        con.execute("COMMIT")
        times.append(time.perf_counter() - start)
    con.close()
    return times


def _max_outbox_id(store: Store) -> int:
    with store.reader.connect() as conn:
        return conn.execute(select(func.max(OutboxRow.__table__.c.id))).scalar() or 0


def play(directory: Path, seed: int, games: int, images: bool) -> Run:
    """Whole games through the chat service, timing each message (see the module doc)."""
    directory.mkdir(parents=True, exist_ok=True)
    store = Store(str(directory / f"chat-{'images' if images else 'text'}.db"))
    run = Run()
    ids = itertools.count(1)
    try:
        for g in range(games):
            game_seed = seed * 1000 + g
            uids = itertools.count(1)
            service = GameService(
                store,
                seeds=DemoSeeds(game_seed),
                uids=lambda s=game_seed, u=uids: demo_uid(s, f"g{next(u)}"),
            )
            chat = ChatService(service, images=images)
            chat_id = f"{CHAT}{g}"

            def say(user: str, text: str, chat=chat, chat_id=chat_id) -> None:
                mid = f"tg:{chat_id}:{next(ids)}"
                incoming = Incoming("telegram", chat_id, user, NAMES[user], text, message_id=mid)
                before = _max_outbox_id(store)
                start = time.perf_counter()
                outs = chat.handle(incoming)
                run.times.append(time.perf_counter() - start)  # handed to the adapter
                delivery.enqueue(store, None, outs, key=f"{mid}:reply")
                run.queued.append(time.perf_counter() - start)  # and in the outbox too
                after = _max_outbox_id(store)
                run.posting.append(after - before > len(outs))  # more rows than the replies
                if not outs or outs[0].text.startswith("Refused"):
                    raise RuntimeError(f"{text!r} by {user}: {outs}")

            for user, text in (
                ("1", "new hells-gate"),
                ("1", "join soviet"),
                ("2", "join german"),
                ("1", "start"),
            ):
                say(user, text)
            name = chat_store.binding(store, "telegram", chat_id)
            assert name is not None
            system = service.system(name)
            rng = random.Random(game_seed)
            here = system.situation(service.state(name))
            while not here.over:
                side = here.to_move[0]
                say(USERS[side], choose(rng, legal_texts(system, service.state(name), side)))
                run.orders += 1
                here = system.situation(service.state(name))
            run.games += 1
    finally:
        store.close()
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=3, help="whole games per configuration")
    parser.add_argument("--dir", help="where the databases go (default: a temporary directory)")
    parser.add_argument("--bare", type=int, default=2000, help="bare SQLite commits")
    args = parser.parse_args(argv)

    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-chat-") if own else args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    try:
        play(directory / "warm-up", args.seed + 1, 1, images=True)  # imports, caches, the
        # static map layer: the cold start is not what a running service pays per message
        bare = bench_sqlite(directory / "bare-1.db", args.bare // 2)  # before and after
        text = play(directory, args.seed, args.games, images=False)
        images = play(directory, args.seed, args.games, images=True)
        bare += bench_sqlite(directory / "bare-2.db", args.bare - args.bare // 2)
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)

    base, base99 = statistics.median(bare), p99(bare)
    rows = [
        ("bare SQLite INSERT + COMMIT", bare),
        ("message -> reply handed back, every message, images off", text.pick(False)),
        ("  phase-ending messages only, images off", text.pick(True)),
        ("message -> reply handed back, every message, images on", images.pick(False)),
        ("  phase-ending messages only, images on (map)", images.pick(True)),
        ("  ... and the reply in the outbox too, images off", text.pick(False, queued=True)),
    ]
    print(
        f"{text.games} games per configuration, {text.orders} orders "
        f"(+{4 * text.games} chat commands), seed {args.seed}; "
        f"SQLite WAL synchronous=FULL in {'a temporary directory' if own else directory}"
    )
    print()
    head = f"{'':<58}{'n':>6}{'median ms':>11}{'p99 ms':>9}{'x bare':>8}{'p99 x bare':>12}"
    print(head)
    print("-" * len(head))
    for label, values in rows:
        med, top = statistics.median(values) * 1000, p99(values) * 1000
        print(
            f"{label:<58}{len(values):>6}{med:>11.2f}{top:>9.2f}"
            f"{med / (base * 1000):>8.1f}{top / (base99 * 1000):>12.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
