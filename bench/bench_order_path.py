"""The order path against its floor: a chat message from in to its reply queued (the durable
commit included), through the chat service, for every game system, each message paired with a
bare SQLite insert+commit timed right before it (same journal_mode WAL, synchronous FULL, a file
in the same directory), and with the rules alone on the same orders, all in one run.

"Queued" is what `pbem serve` does with the reply: `ChatService.handle` returns it to the platform
adapter, which sends it at once (the order's transaction has committed by then, and a message
delivered again is answered again from the rows it wrote). The outbox takes a reply only when
its direct send fails; the row "reply written to the outbox as well" times that second
transaction too.

    python bench/bench_order_path.py [--seed N] [--games N] [--max-orders N] [--systems A,B]
        [--dir DIR] [--no-opponent]

For each system (all registered ones unless --systems names some), whole games are played as
bench_chat.py plays Hell's Gate's (`new SYSTEM`, a join per side, `start`, then random legal
orders by the side to move until the game ends or --max-orders orders are sent), images off;
Hell's Gate's games are played again with images on (a phase end queues its post with a render
spec, the map drawn by the outbox sender off the message path). One warm-up game per system is
not counted (imports, caches, the bound scenario). Then Hell's Gate's games are played a third
time, images off, with the opponent thinking beside them (bench/opponent_beside.py: the
service's own worker pool, one process at lowered priority, kept busy with `normal` decisions
the whole time), as a game against the opponent keeps it busy in `pbem serve`: its report and
the line "the opponent thinking beside: ..." give the order path's median and p99 meanwhile.

Pairing: before every message, one bare commit (one-row INSERT + COMMIT, BEGIN IMMEDIATE, on a
connection held open to bare.db beside the game's database) is timed, then the message. So
the bare figures and the message figures see the same moment of the machine, message by message
(bare, message, bare, message, ...). A block of bare commits timed before and after the games
instead read 47.4 x where the same code read 6.0 x paired minutes later: a shared machine's disk
and CPU drift by more than the quantity measured.

CPU: every wall time has its CPU time (time.process_time: the process's user + system time)
beside it. The rules alone: after the games, each game's log is read back and its orders are
replayed through the system alone (grammar parse + apply, with the dice each order drew, from
the setup's state; no store, no chain, no service, no text rendering), timing each order's CPU.
The CPU ratio is the mean CPU per order message / (the rules' mean CPU per order + the paired
bare commits' mean CPU): the order path's own work beyond the rules and the commit. Means, not
medians, for CPU: CPU adds up, and the phase ends are the heavy messages of both sides.

Prints per system the bare commit, the messages (every message, then the order messages only)
with median, p99, the ratios to the paired bare commits, CPU per message and the CPU ratio; then
the one line the issue's figure is read from (Hell's Gate, every message, images off):

    order path: median M ms (R x bare commit), p99 P ms (Q x bare p99)

Measured on the shared 2-core machine, `--games 1` (whole games: Borodino 60 orders, Hell's
Gate 151, the Northern War 30, Stalin's War 327), one run, images off; medians and p99 against
the paired bare commits, CPU per order message against the rules alone + one bare commit (the
issue's goals: median <= 2 x, p99 <= 5 x the bare p99, CPU <= 2 x):

    system        bare ms (p99)  message ms  x bare  p99 ms  x bare p99  CPU ms  rules ms  CPU x
    borodino      0.38 (0.67)    3.73        9.8     16.85   25.1        4.10    0.25      9.2
    hells-gate    0.53 (0.94)    5.54        10.4    21.89   23.2        6.02    0.19      13.3
    northern-war  0.53 (2.17)    7.41        14.1    25.05   11.5        7.98    0.34      14.6
    stalins-war   0.54 (1.15)    8.24        15.3    19.72   17.1        8.81    0.32      15.7
    hells-gate, images on: 5.76 ms (11.8 x), p99 14.10 ms (19.1 x); CPU 5.68 ms (14.3 x)
    order path: median 5.54 ms (10.4 x bare commit), p99 21.89 ms (23.2 x bare p99)

(The bare commit's CPU: 0.20-0.26 ms. "CPU ms" is per order message, `new`/joins/`start`
excluded; the wall columns are every message. "Messages that queued a post too" are those whose
handling wrote more outbox rows than their replies: Hell's Gate's phase ends, nearly every
order in the Northern War and Stalin's War.) None of the goals is reached; the gap is the
order path's own CPU, 9-16 x what the rules and the commit need.

The defaults (3 games per system) a few minutes later took 37 s: median x bare 10.5 (Borodino),
10.9 (Hell's Gate), 17.6 (the Northern War), 19.0 (Stalin's War); CPU x 12.2, 15.8, 12.8, 17.2;
`order path: median 6.00 ms (10.9 x bare commit), p99 14.39 ms (8.5 x bare p99)`. The median
ratios held from one run to the other; the p99 ratio did not (23.2 x, then 8.5 x: with a few
hundred pairs the bare p99 is one or two slow fsyncs), so read it over the default run or more.

Not part of the test run.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_chat import CHAT, _max_outbox_id, p99
from opponent_beside import Thinking

from adjudicator.core import registry
from adjudicator.core.dice import FixedDice
from app import fold, games
from app.messages import Incoming
from app.service import GameService
from bots import delivery
from bots.chat import ChatService
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from bots.opponent_worker import NICE
from storage import Store, chat_store

HEAD = "hells-gate"  # the system of the last line


class Bare:
    """A bare SQLite INSERT + COMMIT (WAL, synchronous=FULL) on a connection held open."""

    def __init__(self, path: Path):
        self.con = sqlite3.connect(path, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute(
            "CREATE TABLE IF NOT EXISTS t"
            " (id INTEGER PRIMARY KEY, chat TEXT, text TEXT, payload TEXT)"
        )
        self.row = (
            CHAT,
            "attack C6 with 20tk 75rc",
            json.dumps([{"purpose": "combat", "value": 3}]),
        )

    def once(self) -> tuple[float, float]:
        """(wall seconds, CPU seconds) of one commit."""
        cpu, start = time.process_time(), time.perf_counter()
        self.con.execute("BEGIN IMMEDIATE")
        self.con.execute("INSERT INTO t (chat, text, payload) VALUES (?, ?, ?)", self.row)
        self.con.execute("COMMIT")
        return time.perf_counter() - start, time.process_time() - cpu

    def close(self) -> None:
        self.con.close()


@dataclass
class Run:
    """Per message, in order: wall and CPU seconds, the paired bare commit's, whether it is an
    order (not `new`, a join, `start`) and whether it queued an after-phase post."""

    times: list[float] = field(default_factory=list)  # until the reply is handed back
    cpus: list[float] = field(default_factory=list)
    queued: list[float] = field(default_factory=list)  # ... and written to the outbox as well
    bare: list[float] = field(default_factory=list)
    bare_cpus: list[float] = field(default_factory=list)
    order: list[bool] = field(default_factory=list)
    posting: list[bool] = field(default_factory=list)
    rules_cpus: list[float] = field(default_factory=list)  # per order, the rules alone
    games: int = 0
    orders: int = 0

    def pick(self, values: list[float], orders_only=False, posting_only=False) -> list[float]:
        return [
            v
            for v, o, p in zip(values, self.order, self.posting, strict=True)
            if (o or not orders_only) and (p or not posting_only)
        ]


def play(
    directory: Path, system_id: str, seed: int, games_n: int, max_orders: int, images: bool
) -> Run:
    """Whole games of one system through the chat service, each message paired with a bare
    commit right before it (see the module doc); then the rules alone on the same orders."""
    directory.mkdir(parents=True, exist_ok=True)
    store = Store(str(directory / f"chat-{system_id}-{'images' if images else 'text'}.db"))
    bare = Bare(directory / "bare.db")
    run = Run()
    ids = itertools.count(1)
    sides = [s.id for s in registry.get(system_id).sides]
    users = {side: str(i + 1) for i, side in enumerate(sides)}
    names = {u: f"player{u}" for u in users.values()}
    played: list[str] = []
    try:
        for g in range(games_n):
            game_seed = seed * 1000 + g
            uids = itertools.count(1)
            service = GameService(
                store,
                seeds=DemoSeeds(game_seed),
                uids=lambda s=game_seed, u=uids: demo_uid(s, f"g{next(u)}"),
            )
            chat = ChatService(service, images=images)
            chat_id = f"{CHAT}{g}"

            def say(user: str, text: str, order: bool, chat=chat, chat_id=chat_id) -> None:
                mid = f"tg:{chat_id}:{next(ids)}"
                incoming = Incoming("telegram", chat_id, user, names[user], text, message_id=mid)
                before = _max_outbox_id(store)
                wall, cpu = bare.once()  # the pair: a bare commit right before the message
                run.bare.append(wall)
                run.bare_cpus.append(cpu)
                cpu0, start = time.process_time(), time.perf_counter()
                outs = chat.handle(incoming)
                run.times.append(time.perf_counter() - start)  # handed to the adapter
                run.cpus.append(time.process_time() - cpu0)
                delivery.enqueue(store, None, outs, key=f"{mid}:reply")
                run.queued.append(time.perf_counter() - start)  # and in the outbox too
                after = _max_outbox_id(store)
                run.posting.append(after - before > len(outs))  # more rows than the replies
                run.order.append(order)
                if not outs or outs[0].text.startswith("Refused"):
                    raise RuntimeError(f"{system_id}: {text!r} by {user}: {outs}")

            say("1", f"new {system_id}", False)
            for side, user in users.items():
                say(user, f"join {side}", False)
            say("1", "start", False)
            name = chat_store.binding(store, "telegram", chat_id)
            assert name is not None
            played.append(name)
            system = service.system(name)
            rng = random.Random(game_seed)
            here = system.situation(service.state(name))
            sent = 0
            while not here.over and sent < max_orders:
                side = here.to_move[0]
                text = choose(rng, legal_texts(system, service.state(name), side))
                say(users[side], text, True)
                sent += 1
                here = system.situation(service.state(name))
            run.orders += sent
            run.games += 1
        for name in played:
            run.rules_cpus += rules_alone(store, name)
    finally:
        bare.close()
        store.close()
    return run


def rules_alone(store: Store, name: str) -> list[float]:
    """CPU seconds per order of the rules alone replaying a stored game's orders (grammar
    parse + apply with the dice each drew), from the setup's state (not timed)."""
    system = games.system_of(store, name)
    rows = fold.with_secrets(store.log(name))
    state = fold.setup(system, rows).state
    cpus = []
    for row in fold.effective_orders(rows):
        dice = FixedDice(fold.drawn(row["payload"].get("rolls", []), row.get("secret")))
        cpu = time.process_time()
        order = system.grammar.parse(row["text"])
        state = system.apply(state, row["actor"], order, dice).state
        cpus.append(time.process_time() - cpu)
    return cpus


def _ms(seconds: float) -> float:
    return seconds * 1000


def report(system_id: str, run: Run, label: str, outbox: bool = False) -> None:
    base, base99 = statistics.median(run.bare), p99(run.bare)
    bare_cpu = statistics.mean(run.bare_cpus)
    print(f"{system_id}, {label}: {run.games} game(s), {run.orders} orders "
          f"(+{len(run.times) - run.orders} chat commands)")  # fmt: skip
    head = (
        f"  {'':<40}{'n':>5}{'median ms':>10}{'p99 ms':>8}{'x bare':>8}{'p99 x':>7}"
        f"{'CPU ms':>8}{'CPU x':>7}"
    )
    print(head)
    print("  " + "-" * (len(head) - 2))
    print(f"  {'bare INSERT + COMMIT, paired':<40}{len(run.bare):>5}{_ms(base):>10.2f}"
          f"{_ms(base99):>8.2f}{1:>8.1f}{1:>7.1f}{_ms(bare_cpu):>8.2f}{'':>7}")  # fmt: skip
    rules = statistics.mean(run.rules_cpus) if run.rules_cpus else 0.0
    rows = [
        ("every message", False, False, run.times),
        ("order messages", True, False, run.times),
        ("  messages that queued a post too", False, True, run.times),
    ]
    if outbox:
        rows.append(("reply written to the outbox as well", False, False, run.queued))
    for name, orders_only, posting_only, values in rows:
        vals = run.pick(values, orders_only, posting_only)
        cpus = run.pick(run.cpus, orders_only, posting_only)
        if not vals:
            continue
        med, top = statistics.median(vals), p99(vals)
        cpu = statistics.mean(cpus)
        ratio = f"{cpu / (rules + bare_cpu):>7.1f}" if orders_only and rules else f"{'':>7}"
        print(f"  {name:<40}{len(vals):>5}{_ms(med):>10.2f}{_ms(top):>8.2f}"
              f"{med / base:>8.1f}{top / base99:>7.1f}{_ms(cpu):>8.2f}{ratio}")  # fmt: skip
    if run.rules_cpus:
        print(f"  {'rules alone (parse + apply), per order':<40}{len(run.rules_cpus):>5}"
              f"{'':>10}{'':>8}{'':>8}{'':>7}{_ms(rules):>8.2f}")  # fmt: skip
        spent = statistics.mean(run.pick(run.cpus, True))
        print(
            f"  CPU per order message {_ms(spent):.2f} ms = {spent / (rules + bare_cpu):.1f} x "
            f"(rules alone {_ms(rules):.2f} ms + bare commit {_ms(bare_cpu):.2f} ms)"
        )
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=3, help="games per system and configuration")
    parser.add_argument("--max-orders", type=int, default=400, help="orders per game at most")
    parser.add_argument("--systems", help="comma-separated system ids (default: every one)")
    parser.add_argument("--dir", help="where the databases go (default: a temporary directory)")
    parser.add_argument(
        "--no-opponent",
        action="store_true",
        help="skip Hell's Gate's games played again with the opponent thinking beside them",
    )
    args = parser.parse_args(argv)
    ids = args.systems.split(",") if args.systems else sorted(s.id for s in registry.systems())
    if HEAD not in ids:
        ids.insert(0, HEAD)
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-order-") if own else args.dir)
    runs: dict[str, Run] = {}
    try:
        for system_id in ids:
            play(
                directory / "warm-up", system_id, args.seed + 1, 1, min(20, args.max_orders), False
            )
            runs[system_id] = play(
                directory / "text", system_id, args.seed, args.games, args.max_orders, False
            )
        maps = play(directory / "maps", HEAD, args.seed, args.games, args.max_orders, True)
        beside = None
        if not args.no_opponent:
            with Thinking(seed=args.seed) as thinking:
                beside = play(
                    directory / "beside", HEAD, args.seed, args.games, args.max_orders, False
                )
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    print(f"seed {args.seed}; SQLite WAL, synchronous=FULL; each message paired with a bare "
          "commit timed right before it; CPU = process time (mean)")  # fmt: skip
    print()
    for system_id, run in runs.items():
        report(system_id, run, "images off", outbox=system_id == HEAD)
    report(HEAD, maps, "images on (spec queued)")
    if beside is not None:
        report(HEAD, beside, f"images off, the opponent ({thinking.level}) thinking beside")
        b_base, b_base99 = statistics.median(beside.bare), p99(beside.bare)
        b_med, b_top = statistics.median(beside.times), p99(beside.times)
        print(
            f"the opponent thinking beside: {thinking.decisions} decisions meanwhile "
            f"({thinking.mean:.2f} s each, {thinking.worker.count} worker process at nice "
            f"+{NICE}); median {_ms(b_med):.2f} ms ({b_med / b_base:.1f} x bare commit), p99 "
            f"{_ms(b_top):.2f} ms ({b_top / b_base99:.1f} x bare p99)"
        )
    text = runs[HEAD]
    base, base99 = statistics.median(text.bare) * 1000, p99(text.bare) * 1000
    med, top = statistics.median(text.times) * 1000, p99(text.times) * 1000
    print(
        f"order path: median {med:.2f} ms ({med / base:.1f} x bare commit), "
        f"p99 {top:.2f} ms ({top / base99:.1f} x bare p99)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
