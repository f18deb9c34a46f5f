"""The state convention of the system kit (adjudicator/core/kit.py), measured.

    python bench/bench_state_copy.py [--seed N] [--orders N] [--repeat N]

For each installed game system: a random game (legal orders chosen at random, the deadline
default where a side has none listed), its largest state (by the length of its JSON) kept. Then,
for that state, the microseconds of
- clone: the system's `clone()` (a deep copy of what an order may change: what `apply` does
  today in every system, by the names clone, copy_state or copy);
- deepcopy: `copy.deepcopy` (a clone nobody writes by hand);
- replace: `dataclasses.replace` (all an immutable state would cost per order: nested values
  shared, only the changed path copied by the rules),
each with the system's to_json and from_json. Prints a table and the last line:

    state copy: clone M us, replace R us (R/M x)

M and R are the mean over the systems of copy + to_json + from_json. Not part of the test run.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import json
import random
import statistics
import sys
import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.core import commands as C
from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.system import SYSTEM_ACTOR
from app import games


def largest_state(system: Any, seed: int, orders: int) -> tuple[Any, int]:
    """The largest state of a random game (and the number of orders played)."""
    rng, dice = random.Random(seed), HashDice(seed)
    state = system.initial(False, dice).state
    best, size, played = state, 0, 0
    for played in range(orders):
        here = system.situation(state)
        if here.over:
            break
        side = here.pending[0].side if here.pending else here.to_move[0]
        legal = list(system.legal_orders(state, side))
        try:
            if legal and rng.random() < 0.9:
                state = system.apply(state, side, rng.choice(legal), dice).state
            else:
                state = system.apply(state, SYSTEM_ACTOR, C.Default(), dice).state
        except Rejection:
            state = system.apply(state, SYSTEM_ACTOR, C.Default(), dice).state
        length = len(json.dumps(system.state_to_json(state)))
        if length >= size:
            best, size = state, length
    return best, played


def micro(fn: Any, repeat: int) -> float:
    """Microseconds of one call, the best of five runs of `repeat` calls."""
    return min(timeit.repeat(fn, number=repeat, repeat=5)) / repeat * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--orders", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    head = f"{'system':<14}{'orders':>7}{'JSON':>8}{'clone':>8}{'deepcp':>8}{'replace':>8}"
    print(head + f"{'to_json':>9}{'from_js':>9}   (us)")
    clones, replaces = [], []
    for kind in registry.systems():
        system = kind.load(*games.default_scenario(kind))
        state, played = largest_state(system, args.seed, args.orders)
        data = system.state_to_json(state)
        n = args.repeat
        clone = micro(state.clone, n)
        deep = micro(functools.partial(copy.deepcopy, state), max(n // 10, 1))
        shallow = micro(functools.partial(dataclasses.replace, state), n)
        to_json = micro(functools.partial(system.state_to_json, state), n)
        from_json = micro(functools.partial(system.state_from_json, data), n)
        assert system.state_to_json(system.state_from_json(data)) == data
        clones.append(clone + to_json + from_json)
        replaces.append(shallow + to_json + from_json)
        print(f"{kind.id:<14}{played:>7}{len(json.dumps(data)):>8}{clone:>8.1f}{deep:>8.1f}"
              f"{shallow:>8.1f}{to_json:>9.1f}{from_json:>9.1f}")  # fmt: skip
    m, r = statistics.mean(clones), statistics.mean(replaces)
    print(f"state copy: clone {m:.0f} us, replace {r:.0f} us ({r / m:.2f}x)")


if __name__ == "__main__":
    main()
