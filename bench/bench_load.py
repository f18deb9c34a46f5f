"""Throughput: many active games in one database, one service process through the chat service,
next to the bare SQLite commit rate measured in the same run.

    python bench/bench_load.py [--games G] [--seconds S] [--seed N] [--dir DIR]
    python bench/bench_load.py --postgres URL [--games G] [--seconds S]

SQLite (the default): G Hell's Gate games are made through the chat service (`new`, two joins,
`start` in a chat of their own; not timed), then for S seconds the one service process takes
orders: a random game, a random legal order of the side to move, sent by that side's user;
each is timed from `ChatService.handle` to its reply handed back to the adapter (the order
committed), as bench_order_path.py times it. The orders are sent one after another (a closed loop), so the
rate is the service's capacity: orders / the seconds spent handling them (the load generator's
choosing of orders, in the same process, is not counted; the wall-clock rate is printed too).
Afterwards every acknowledged order (its reply not a refusal) is looked up in its game's log by
its message key: an acknowledged order missing there is lost. The bare commit (one-row INSERT +
COMMIT, WAL, synchronous=FULL, bench_chat.py) is measured before and after the load, half each.
The bare commit rate is 1 / the median bare commit time (its p99 printed beside it), not
1 / the mean: a few slow fsyncs (95 ms outliers on a shared disk) pulled the mean-based rate
down to 129/s where the median gives 750/s, and so made the load's share of it look several
times better than it is. The orders' rate stays orders / the seconds spent handling them.
Last line:

    load: N orders/s (F % of the bare commit rate) for S s over G games, p99 P ms (Q x bare p99), lost L

Measured on the shared 2-core machine, `--games 100 --seconds 30`, one run: bare commit median
0.33 ms, 3053/s (1 / mean would have said 2064/s), p99 3.21 ms; orders median 7.08 ms, CPU
9.10 ms per order (the choosing included); `load: 125 orders/s (4.1 % of the bare commit rate)
for 30 s over 100 games, p99 19.1 ms (6.0 x bare p99), lost 0`. The goal of issue 28 is 10 %
of the median-based rate over 1,000 games for 60 s (the default settings).

PostgreSQL (--postgres URL, a database of its own: its tables are emptied): the same load run by
one service process, then by two (each on half of the games, each with its own closed-loop load
generator; the rate is orders per second of wall clock), side by side; prints the
throughput of each, the ratio, and each party's share of the CPU time of each run (the service
processes, each running its own closed-loop load generator; PostgreSQL's processes as /proc shows
them; the parent that starts them). Not part of the test run.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_chat import CHAT, NAMES, USERS, bench_sqlite, p99
from sqlmodel import SQLModel

from app.messages import Incoming
from app.service import GameService
from bots.chat import ChatService
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from storage import Store, chat_store


@dataclass
class Load:
    times: list[float] = field(default_factory=list)
    acked: list[tuple[str, str]] = field(default_factory=list)  # (game, message key)
    wall: float = 0.0
    cpu: float = 0.0


class Service:
    """One service process's chat service over a store, and a way to send it a message."""

    def __init__(self, store: Store, seed: int):
        self.store = store
        uids = itertools.count(1)
        self.service = GameService(
            store, seeds=DemoSeeds(seed), uids=lambda: demo_uid(seed, f"g{next(uids)}")
        )
        self.chat = ChatService(self.service, images=False)
        self.ids = itertools.count(1)
        self.tag = f"{seed}-{os.getpid()}"

    def say(self, chat_id: str, user: str, text: str) -> tuple[str, bool, float]:
        mid = f"tg:{chat_id}:{self.tag}:{next(self.ids)}"
        incoming = Incoming("telegram", chat_id, user, NAMES[user], text, message_id=mid)
        start = time.perf_counter()
        outs = self.chat.handle(incoming)
        took = time.perf_counter() - start
        ok = bool(outs) and not outs[0].text.startswith("Refused")
        return mid, ok, took


def make_games(store: Store, first: int, n: int, seed: int) -> list[str]:
    """n games through the chat service, each in a chat of its own; their chat ids."""
    svc = Service(store, seed)
    chats = []
    for g in range(first, first + n):
        chat_id = f"{CHAT}{g}"
        for user, text in (
            ("1", "new hells-gate"),
            ("1", "join soviet"),
            ("2", "join german"),
            ("1", "start"),
        ):
            _, ok, _ = svc.say(chat_id, user, text)
            if not ok:
                raise RuntimeError(f"{text!r} in {chat_id} was refused")
        chats.append(chat_id)
    return chats


def run_load(store: Store, chats: list[str], seconds: float, seed: int) -> Load:
    """Closed-loop orders to random games for `seconds` (see the module doc)."""
    svc = Service(store, seed)
    rng = random.Random(seed)
    names = {c: chat_store.binding(store, "telegram", c) for c in chats}
    load = Load()
    cpu0, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        chat_id = rng.choice(chats)
        name = names[chat_id]
        assert name is not None
        system = svc.service.system(name)
        state = svc.service.state(name)
        here = system.situation(state)
        if here.over:
            continue
        side = here.to_move[0]
        text = choose(rng, legal_texts(system, state, side))
        mid, ok, took = svc.say(chat_id, USERS[side], text)
        load.times.append(took)
        if ok:
            load.acked.append((name, mid))
    load.wall = time.perf_counter() - start
    load.cpu = time.process_time() - cpu0
    return load


def lost(store: Store, acked: list[tuple[str, str]]) -> int:
    """Acknowledged orders whose row is not in their game's log."""
    by_game: dict[str, set[str]] = {}
    for name, key in acked:
        by_game.setdefault(name, set()).add(key)
    missing = 0
    for name, keys in by_game.items():
        logged = {r.key for r in store.log(name)}
        missing += len(keys - logged)
    return missing


def sqlite_main(args: argparse.Namespace) -> int:
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-load-") if own else args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    try:
        store = Store(str(directory / "load.db"))
        t0 = time.perf_counter()
        chats = make_games(store, 0, args.games, args.seed)
        made = time.perf_counter() - t0
        run_load(store, chats, min(2.0, args.seconds), args.seed + 7)  # warm-up, not counted
        bare = bench_sqlite(directory / "bare-1.db", args.bare // 2)
        load = run_load(store, chats, args.seconds, args.seed)
        bare += bench_sqlite(directory / "bare-2.db", args.bare - args.bare // 2)
        missing = lost(store, load.acked)
        store.close()
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    busy = sum(load.times)
    rate = len(load.times) / busy
    bare_rate = 1 / statistics.median(bare)  # not 1 / mean: see the module doc
    mean_rate = 1 / statistics.mean(bare)
    top, base99 = p99(load.times) * 1000, p99(bare) * 1000
    print(
        f"{args.games} games made in {made:.1f} s; SQLite WAL, synchronous=FULL; seed {args.seed}"
    )
    print(f"bare SQLite INSERT + COMMIT: {bare_rate:.0f} commits/s (1 / median "
          f"{statistics.median(bare) * 1000:.2f} ms; 1 / mean would say {mean_rate:.0f}/s), "
          f"p99 {base99:.2f} ms, n {len(bare)}")  # fmt: skip
    print(f"orders: {len(load.times)} in {load.wall:.1f} s of wall clock "
          f"({len(load.times) / load.wall:.1f}/s with the load generator's choosing), "
          f"{busy:.1f} s handling them; median {statistics.median(load.times) * 1000:.2f} ms; "
          f"CPU {load.cpu:.1f} s ({1000 * load.cpu / max(1, len(load.times)):.2f} ms per order, "
          f"the load generator's choosing included); acknowledged {len(load.acked)}")  # fmt: skip
    print(
        f"load: {rate:.0f} orders/s ({100 * rate / bare_rate:.1f} % of the bare commit rate) for "
        f"{args.seconds:g} s over {args.games} games, p99 {top:.1f} ms "
        f"({top / base99:.1f} x bare p99), lost {missing}"
    )
    return 0


# -- PostgreSQL: one service process against two
def _pg_cpu() -> float:
    """CPU seconds of every process named postgres this machine's /proc shows, with those of
    the backends that ended (counted in their parent's children times)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        if name.startswith("postgres"):
            fields = stat[stat.rindex(")") + 2 :].split()
            total += sum(int(x) for x in fields[11:15])  # its own and its ended backends'
    return total / tick


def _worker(url: str, chats: list[str], seconds: float, seed: int, out) -> None:
    store = Store(url)
    load = run_load(store, chats, seconds, seed)
    out.put((len(load.times), sum(load.times), load.wall, load.cpu, p99(load.times), load.acked))
    store.close()


def _pg_run(url: str, chats: list[str], procs: int, seconds: float, seed: int) -> dict:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    parts = [chats[i::procs] for i in range(procs)]
    pg0, me0, start = _pg_cpu(), time.process_time(), time.perf_counter()
    workers = [
        ctx.Process(target=_worker, args=(url, part, seconds, seed + i, out))
        for i, part in enumerate(parts)
    ]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    wall = time.perf_counter() - start
    orders = sum(r[0] for r in results)
    return {
        "orders": orders,
        "rate": orders / max(r[2] for r in results),
        "p99": max(r[4] for r in results) * 1000,
        "service_cpu": sum(r[3] for r in results),
        "pg_cpu": _pg_cpu() - pg0,
        "me_cpu": time.process_time() - me0,
        "wall": wall,
        "acked": [a for r in results for a in r[5]],
    }


def pg_main(args: argparse.Namespace) -> int:
    store = Store(args.postgres)
    tables = ", ".join(t.name for t in SQLModel.metadata.sorted_tables)
    with store.engine.begin() as conn:  # a database of its own: start from no games
        conn.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    chats = make_games(store, 0, args.games, args.seed)
    runs = {}
    for procs in (1, 2):
        runs[procs] = _pg_run(args.postgres, chats, procs, args.seconds, args.seed + 10 * procs)
    missing = lost(store, runs[1]["acked"] + runs[2]["acked"])
    store.close()
    print(f"{args.games} games on PostgreSQL, {args.seconds:g} s per run; {os.cpu_count()} cores")
    for procs, r in runs.items():
        total = r["service_cpu"] + r["pg_cpu"] + r["me_cpu"]
        print(
            f"{procs} service process(es): {r['orders']} orders, {r['rate']:.0f} orders/s, "
            f"p99 {r['p99']:.1f} ms; CPU share: service processes (each with its load "
            f"generator) {100 * r['service_cpu'] / total:.0f} %, PostgreSQL "
            f"{100 * r['pg_cpu'] / total:.0f} %, the parent {100 * r['me_cpu'] / total:.0f} % "
            f"({total / r['wall']:.2f} cores busy)"
        )
    print(
        f"postgres load: two processes {runs[2]['rate'] / runs[1]['rate']:.2f} x one, lost {missing}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bare", type=int, default=2000, help="bare SQLite commits")
    parser.add_argument("--dir", help="where the SQLite databases go (default: a temporary one)")
    parser.add_argument("--postgres", help="a PostgreSQL URL: one service process against two")
    args = parser.parse_args(argv)
    return pg_main(args) if args.postgres else sqlite_main(args)


if __name__ == "__main__":
    sys.exit(main())
