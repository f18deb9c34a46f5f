"""Balance of the Northern War sample scenario under random play: 200 seeded games, the share of
each result.

    python bench/bench_balance.py [--games N] [--scenario FILE]

Game `seed` (0..N-1) is played with the newest rules (core.system.start, rules None) on the pure
rules, no store: HashDice(seed) for the dice, random.Random(seed) for the choices. The side to
move picks among its own legal orders (`legal_orders(state, side)`, the list the contract
driver and tests/northern_war/test_fuzz.py draw from; a side's view cannot list them, since
the enemy's blocks in it are hidden), as `pbem demo` picks (bots/demo.py): the canonical texts
sorted, `end` with chance 0.15 when anything else is legal, else any other order. A game that
has no result after 2,000 orders is an error.

Prints each result's count and share, of all games and of the decided ones, the mean number of
orders and the time; the LAST line is exactly

    balance: sweden S %, coalition C %, draw D % over N games

(shares of all games, one decimal). Issue 26 asks each side to win 30-70 % of the decided
games over 200 seeds (tests/northern_war/test_balance.py checks a small run). A few seconds on
one core. Not part of the test run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.core.dice import HashDice
from adjudicator.core.system import GameSystem, start
from adjudicator.northern_war import system as nw_system
from app import games
from bots.demo import choose

GAMES = 200
BOUND = 2000  # orders; a random game of the sample ends after a few hundred
RESULTS = ("sweden", "coalition", "draw")


@dataclass(frozen=True)
class Balance:
    games: int
    results: Counter[str]
    orders: int  # all games together
    seconds: float

    def share(self, result: str) -> float:
        return 100.0 * self.results[result] / self.games if self.games else 0.0

    def decided_share(self, side: str) -> float:
        decided = self.results["sweden"] + self.results["coalition"]
        return 100.0 * self.results[side] / decided if decided else 0.0

    def last_line(self) -> str:
        s, c, d = (self.share(r) for r in RESULTS)
        return f"balance: sweden {s:.1f} %, coalition {c:.1f} %, draw {d:.1f} % over {self.games} games"


def bind(scenario: str | Path | None = None) -> GameSystem:
    """The Northern War bound to `scenario` (a file), or to its sample beside the rules."""
    text, source = games.scenario_text(nw_system.SYSTEM, scenario)
    return games.bind(nw_system.SYSTEM.id, text, source)


def play(system: GameSystem, seed: int) -> tuple[str, int]:
    """One random game: (the winner, "draw" included; the number of orders)."""
    rng, dice = random.Random(seed), HashDice(seed)
    state = start(system, False, dice, None).state
    for n in range(BOUND):
        here = system.situation(state)
        if here.over and here.result is not None:
            return str(here.result["winner"]), n
        side = here.to_move[0]
        legal = sorted(system.grammar.format(o) for o in system.legal_orders(state, side))
        order = system.grammar.parse(choose(rng, legal))
        state = system.apply(state, side, order, dice).state
    raise AssertionError(f"game {seed}: no result after {BOUND} orders")


def balance(
    games_n: int = GAMES,
    system: GameSystem | None = None,
    progress: Callable[[int, str], None] | None = None,
) -> Balance:
    """Games 0..games_n-1 of random play."""
    system = system or bind()
    results: Counter[str] = Counter()
    orders, started = 0, time.perf_counter()
    for seed in range(games_n):
        winner, n = play(system, seed)
        results[winner] += 1
        orders += n
        if progress:
            progress(seed, winner)
    return Balance(games_n, results, orders, time.perf_counter() - started)


def report(b: Balance) -> list[str]:
    lines = [f"games: {b.games} in {b.seconds:.1f} s, {b.orders / max(b.games, 1):.0f} orders each"]
    for r in RESULTS:
        lines.append(f"{r}: {b.results[r]} ({b.share(r):.1f} % of all games)")
    decided = b.results["sweden"] + b.results["coalition"]
    lines.append(
        f"decided: {decided}; sweden {b.decided_share('sweden'):.1f} %, "
        f"coalition {b.decided_share('coalition'):.1f} % of them (target 30-70 % each)"
    )
    lines.append(b.last_line())
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games to play (default {GAMES})")
    parser.add_argument("--scenario", help="a scenario file (default: the sample)")
    args = parser.parse_args(argv)
    print("\n".join(report(balance(args.games, bind(args.scenario)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
