"""Soak of the block game: 1,000 seeded games of the sample scenario with random legal orders,
each to its result, with the map images drawn along the way.

    python bench/bench_northern_war_soak.py [--games N] [--seed S]

For every game: random legal orders (as `pbem demo` chooses them) until the result, the rules'
invariants after each order (strengths 1..max on the map, no contact at the start of an action
phase, the JSON round trip, some legal order for the side to move), and at the first action
phase of each year and at the end three images: the group's (public) and each side's, from
their views; the group's image is also drawn from a state whose hidden values differ and must be
the same bytes. Reports games, orders, results, battles and sieges, image counts and times.
Not part of the test run.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.core.events import Viewer
from adjudicator.northern_war import drawer
from tests.northern_war.helpers import perturbed, play, sample
from tests.northern_war.test_fuzz import check_invariants


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    system, rng = sample(), random.Random(args.seed)
    results: collections.Counter[str] = collections.Counter()
    kinds: collections.Counter[str] = collections.Counter()
    orders, draw_times, sizes, mismatches = [], [], [], 0
    started = time.perf_counter()
    for game in range(args.seed, args.seed + args.games):
        n, year, last = 0, 0, None
        for state, _side, _order, out in play(system, game):
            n += 1
            check_invariants(system, out.state)
            kinds.update(e.kind for e in out.events)
            last = out.state
            if last.phase == "action" and last.year != year or last.result is not None:
                year = last.year
                mismatches += draw_all(system, last, rng, draw_times, sizes)
        assert last is not None and last.result is not None
        results[last.result["winner"]] += 1
        orders.append(n)
    took = time.perf_counter() - started
    print(f"games: {args.games} in {took:.1f} s ({args.games / took:.2f} games/s)")
    print(f"orders per game: mean {statistics.mean(orders):.1f}, max {max(orders)}")
    print(f"results: {dict(results)}")
    print(f"battles {kinds['BattleBegan']}, sieges {kinds['SiegeResolved']}, recons "
          f"{kinds['Reconnoitred']}, armistices {kinds['Armistice']}, Charles returned "
          f"{kinds['CharlesReturned']}")  # fmt: skip
    times = sorted(draw_times)
    print(f"images: {len(times)}, {statistics.mean(times) * 1000:.1f} ms mean, p95 "
          f"{times[int(len(times) * 0.95)] * 1000:.1f} ms, mean size "
          f"{statistics.mean(sizes) / 1024:.0f} KiB")  # fmt: skip
    print(f"group images that changed with hidden values: {mismatches}")
    return 0 if mismatches == 0 else 1


def draw_all(system, state, rng, draw_times, sizes) -> int:
    images = {}
    for view in (None, "sweden", "coalition"):
        viewer = Viewer.of([view] if view else [], over=state.result is not None)
        t = time.perf_counter()
        images[view] = drawer.draw(system, system.view(state, viewer), view=view)
        draw_times.append(time.perf_counter() - t)
        sizes.append(len(images[view]))
    if state.result is not None:
        return 0
    other = perturbed(system, state, Viewer.public(), rng)
    return int(drawer.draw(system, system.view(other, Viewer.public())) != images[None])


if __name__ == "__main__":
    raise SystemExit(main())
