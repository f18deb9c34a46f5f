"""What the background check of every game's chain costs (storage/watch.py), against one order.

    python bench/bench_chain_check.py [--games N] [--max-orders N] [--orders N] [--rounds N]
        [--seed N] [--db URL]

--games games of Hell's Gate are played into one database (a SQLite file in a temporary
directory unless --db names another, e.g. a PostgreSQL schema), each by random legal orders of
the side to move (tests/playing.py's way) until it ends or --max-orders orders were given, images
off. Then, in the same run:

- the order path: --orders more orders through the service (`GameService.say`: the parse, the
  checks before the write, the rules, the commit, the post), one at a time on a game of their
  own, each timed in wall and CPU (time.process_time); the medians;
- the check: --rounds rounds of a fresh `app.chain_watch.watch(store)` (every game walked whole:
  each row read, hashed, linked, its epoch column checked; then each game's caches, head, dice
  bookkeeping, snapshot and the guards), each round timed in wall and CPU; the median round,
  per 1,000 rows read.

The last line is the figure: the check's wall time per 1,000 rows, and how many orders' worth
of wall time that is:

    chain check: X ms per 1000 rows (R x one order)

Not part of the test run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.chain_watch import watch
from app.service import GameService
from bots.demo import choose, legal_texts
from storage import Store


def order(service: GameService, name: str, rng: random.Random) -> bool:
    """One random legal order of the side to move; False when the game is over."""
    state = service.state(name)
    system = service.system(name)
    here = system.situation(state)
    if here.over:
        return False
    side = here.to_move[0]
    reply = service.say(name, side, choose(rng, legal_texts(system, state, side)))[0]
    assert reply.ok, reply.reply
    return True


def timed(fn) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--max-orders", type=int, default=400)
    ap.add_argument("--orders", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.db or str(Path(tmp) / "games.db"))
        try:
            run(store, args)
        finally:
            store.close()
    return 0


def run(store: Store, args: argparse.Namespace) -> None:
    service = GameService(store, images=False)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    for n in range(args.games):
        service.new_game(f"g{n}", sandbox=True)
        for _ in range(args.max_orders):
            if not order(service, f"g{n}", rng):
                break
    rows = sum(store.count_rows(g.name) for g in store.list_games())
    print(f"{args.games} games of Hell's Gate, {rows} log rows ({store.dialect}), played in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip

    service.new_game("timed", sandbox=True)
    walls, cpus = [], []
    for _ in range(args.orders):
        wall, cpu, more = timed(lambda: order(service, "timed", rng))
        if not more:
            break
        walls.append(wall)
        cpus.append(cpu)
    one_wall, one_cpu = statistics.median(walls) * 1000, statistics.median(cpus) * 1000
    print(f"one order (median of {len(walls)}): {one_wall:.2f} ms wall, {one_cpu:.2f} ms CPU")

    rounds = []
    for _ in range(args.rounds):
        checks = watch(store)
        wall, cpu, found = timed(checks.run_round)
        assert found == [], found
        rounds.append((wall, cpu, checks.rows_read))
        print(f"  round: {checks.rows_read} rows in {wall * 1000:.1f} ms wall, "
              f"{cpu * 1000:.1f} ms CPU")  # fmt: skip
    wall, cpu, read = sorted(rounds)[len(rounds) // 2]
    per_wall, per_cpu = wall * 1e6 / read, cpu * 1e6 / read  # ms per 1,000 rows
    print(f"chain check, median round: {per_wall:.2f} ms wall, {per_cpu:.2f} ms CPU per 1000 rows "
          f"({per_cpu / one_cpu:.2f} x one order's CPU); a 2,000-row pass about "
          f"{2 * per_wall:.0f} ms")  # fmt: skip
    print(f"chain check: {per_wall:.2f} ms per 1000 rows ({per_wall / one_wall:.2f} x one order)")


if __name__ == "__main__":
    sys.exit(main())
