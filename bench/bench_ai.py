"""The built-in opponent's strength: `normal` (its shipped settings, or --budget) against the
random legal player and against `easy`, on each side of Hell's Gate and of the Northern War.

    python bench/bench_ai.py [--games N] [--budget B] [--jobs J] [--systems ID,ID] [--sides ID,ID]

Each pairing (normal against random, normal against easy) is played N times with normal on
each side (default 16, about 8 minutes on 2 cores; the figures the docs quote take N >= 40,
`--games 40`: about 20 minutes). The games are played in-process on the
pure rules, no store: `core.system.start` with HashDice(game seed), `apply` for each order.
The random player is bots/demo.py's: the canonical texts of `legal_orders(state, side)`
sorted, `end` with chance 0.15 when anything else is legal, else any other order, drawn by
random.Random(game seed). The opponent's levels are given the side's view only
(`system.view(state, Viewer.of([side]))`) and a seed per decision (the game seed and the
order's number). A game that has no result after CAP orders is a draw. A draw counts half a
win; the intervals are Wilson's 95 % score intervals. The random player's own rate on each
side (random against random, the same N seeds) is printed beside normal's, so that a side the
scenario makes hard is read as such (marked "a hard side" below HARD).

Also measured: the CPU time of normal's decisions (time.process_time around `decide`, each
worker process alone; the worst and the mean), the bench's budget of normal and its wall time.
The games are shared over J worker processes (default 2). The LAST line is exactly

    ai: hells-gate W % vs random, E % vs easy; northern-war W2 % vs random, E2 % vs easy; N games per pairing

(normal's rate, both sides averaged). `--systems` and `--sides` (side ids, default every side)
play a part of the bench, for a quicker look at one system or side; the last line then
averages the sides played. Not part of the test run.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator import opponent
from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.events import Viewer
from adjudicator.core.system import GameSystem, start
from adjudicator.opponent.normal import NORMAL_BUDGET
from app import games
from bots.demo import choose

SYSTEMS = ("hells-gate", "northern-war")
GAMES = 16  # per pairing and side: about 8 minutes on 2 cores (40, the docs' figures: 20)
CAP = 3000  # orders; a game without a result by then is a draw
Z = 1.96  # 95 %
HARD = 0.3  # a side the random player wins less often than this against itself is a hard side

_bound: dict[str, GameSystem] = {}


def bind(system_id: str) -> GameSystem:
    """The system bound to its default scenario, once per process."""
    if system_id not in _bound:
        kind = registry.get(system_id)
        text, source = games.scenario_text(kind, None)
        _bound[system_id] = games.bind(system_id, text, source)
    return _bound[system_id]


@dataclass(frozen=True)
class Game:
    system: str
    players: tuple[tuple[str, str], ...]  # (side, player): "random", "easy" or "normal"
    seed: str
    budget: float


@dataclass(frozen=True)
class Played:
    game: Game
    winner: str  # a side, or "draw"
    orders: int
    times: tuple[float, ...]  # CPU seconds of each of normal's decisions
    cpu: float  # CPU seconds of the whole game


def play(game: Game) -> Played:
    """One game (the module doc)."""
    system = bind(game.system)
    players = dict(game.players)
    rng, dice = random.Random(game.seed), HashDice(game.seed)
    began = time.process_time()
    state = start(system, False, dice, None).state
    times: list[float] = []
    for n in range(CAP):
        here = system.situation(state)
        if here.over and here.result is not None:
            cpu = time.process_time() - began
            return Played(game, str(here.result["winner"]), n, tuple(times), cpu)
        side = here.to_move[0]
        order = _order(system, state, side, players[side], f"{game.seed}|{n}", rng, game, times)
        state = system.apply(state, side, order, dice).state
    return Played(game, "draw", CAP, tuple(times), time.process_time() - began)


def _order(
    system: GameSystem,
    state: Any,
    side: str,
    player: str,
    seed: str,
    rng: random.Random,
    game: Game,
    times: list[float],
) -> object:
    if player == "random":
        legal = sorted(system.grammar.format(o) for o in system.legal_orders(state, side))
        return system.grammar.parse(choose(rng, legal))
    view = system.view(state, Viewer.of([side]))
    began = time.process_time()
    order = opponent.decide(system, view, side, player, seed, game.budget)
    if player == "normal":
        times.append(time.process_time() - began)
    return order


def wilson(score: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate `score / n` (a draw counts half)."""
    if n == 0:
        return 0.0, 0.0
    p = score / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def score_of(played: list[Played], side: str) -> float:
    return sum(1.0 if p.winner == side else 0.5 if p.winner == "draw" else 0.0 for p in played)


def schedule(
    systems: tuple[str, ...], n: int, budget: float, only: tuple[str, ...] = ()
) -> list[Game]:
    """Every game of the bench: for each system, side (those of `only`, if any) and opponent
    (random, easy) N games of normal against it, and N of random against random (the random
    player's own rate)."""
    out = []
    for sid in systems:
        sides = [s.id for s in bind(sid).sides]
        for side in sides:
            if only and side not in only:
                continue
            enemy = next(s for s in sides if s != side)
            for them in ("random", "easy", "baseline"):
                me = "random" if them == "baseline" else "normal"
                rival = "random" if them == "baseline" else them
                for i in range(n):
                    seed = f"{sid}|{side}|{them}|{i}"
                    out.append(Game(sid, ((side, me), (enemy, rival)), seed, budget))
    return out


def run(games_: list[Game], jobs: int, progress: Callable[[Played], None]) -> list[Played]:
    if jobs <= 1:
        done = []
        for g in games_:
            done.append(play(g))
            progress(done[-1])
        return done
    with ProcessPoolExecutor(jobs) as pool:
        done = []
        for p in pool.map(play, games_, chunksize=1):
            done.append(p)
            progress(p)
        return done


def kind_of(game: Game) -> tuple[str, str, str]:
    """(system, the side of the first player, what it plays against)."""
    (side, me), (_, rival) = game.players
    return game.system, side, ("baseline" if me == "random" else rival)


def report(
    played: list[Played], systems: tuple[str, ...], n: int, budget: float, seconds: float
) -> list[str]:
    lines = [f"normal's budget: {budget:g} evaluations a decision; {n} games per pairing and side"]
    cpu = sum(p.cpu for p in played)
    lines.append(
        f"move cap: {CAP} orders (then a draw); wall time {seconds:.0f} s, "
        f"CPU {cpu:.0f} s in the games ({cpu / 120:.1f} min on 2 cores)"
    )
    groups: dict[tuple[str, str, str], list[Played]] = {}
    for p in played:
        groups.setdefault(kind_of(p.game), []).append(p)
    rates: dict[tuple[str, str], list[float]] = {}
    for sid in systems:
        for side in (s.id for s in bind(sid).sides):
            if (sid, side, "random") not in groups:
                continue  # a side not played (--sides)
            base = groups.get((sid, side, "baseline"), [])
            base_rate = score_of(base, side) / max(len(base), 1)
            for them in ("random", "easy"):
                mine = groups.get((sid, side, them), [])
                score = score_of(mine, side)
                low, high = wilson(score, len(mine))
                rate = score / max(len(mine), 1)
                rates.setdefault((sid, them), []).append(rate)
                hard = "; a hard side" if base_rate < HARD else ""
                lines.append(
                    f"{sid} {side}: normal vs {them}: {100 * rate:.1f} % "
                    f"[{100 * low:.1f}, {100 * high:.1f}] over {len(mine)} games "
                    f"(random as {side} vs random: {100 * base_rate:.1f} %{hard})"
                )
    times = [t for p in played for t in p.times]
    if times:
        lines.append(
            f"normal's decisions: {len(times)}, CPU mean {1000 * sum(times) / len(times):.0f} ms, "
            f"worst {1000 * max(times):.0f} ms"
        )
    said = []
    for sid in systems:
        w = 100 * sum(rates.get((sid, "random"), [0])) / max(len(rates.get((sid, "random"), [])), 1)
        e = 100 * sum(rates.get((sid, "easy"), [0])) / max(len(rates.get((sid, "easy"), [])), 1)
        said.append(f"{sid} {w:.1f} % vs random, {e:.1f} % vs easy")
    lines.append(f"ai: {'; '.join(said)}; {n} games per pairing")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games per pairing and side")
    parser.add_argument("--budget", type=float, default=NORMAL_BUDGET, help="normal's budget")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="system ids")
    parser.add_argument("--sides", default="", help="side ids to play (default: every side)")
    args = parser.parse_args(argv)
    systems = tuple(args.systems.split(","))
    only = tuple(s for s in args.sides.split(",") if s)
    began = time.perf_counter()
    todo = schedule(systems, args.games, args.budget, only)
    count = [0]

    def progress(p: Played) -> None:
        count[0] += 1
        if count[0] % 20 == 0:
            print(f"  {count[0]}/{len(todo)} games", file=sys.stderr, flush=True)

    played = run(todo, args.jobs, progress)
    seconds = time.perf_counter() - began
    print("\n".join(report(played, systems, args.games, args.budget, seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
