"""The opponent thinking beside the order path (bench_order_path.py `--opponent`): the service's
own worker pool (bots/opponent_worker.py: PBEM_OPPONENT_WORKERS processes, default one, at
lowered priority) kept busy with decisions at its shipped level and budget for the whole time a
block of messages is timed, as a game against the opponent keeps it busy in `pbem serve`.

    with Thinking(level="normal") as thinking:
        ... time the messages ...
    thinking.decisions, thinking.seconds   # how many it made meanwhile, and their mean time

The positions are those of one random Hell's Gate game played by the rules alone (a seeded
dice source, a random legal order of the side to move), every fifth one. Not part of the tests.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any, Self

from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.system import start
from app import games
from app.opponent_turns import Job
from bots.demo import choose
from bots.opponent_worker import OpponentWorker

SYSTEM = "hells-gate"
EVERY = 5  # one position in five of the game is asked about


def positions(seed: int, count: int) -> tuple[str, list[tuple[dict[str, Any], str]]]:
    """(the scenario text, `count` (state JSON, side to move) of one random game)."""
    text, _ = games.default_scenario(registry.get(SYSTEM))
    system = games.bind(SYSTEM, text)
    dice = HashDice(f"beside-{seed}")
    state = start(system, False, dice, None).state
    rng = random.Random(seed)
    found: list[tuple[dict[str, Any], str]] = []
    step = 0
    while len(found) < count and not (here := system.situation(state)).over:
        side = here.pending[0].side if here.pending else here.to_move[0]
        if step % EVERY == 0:
            found.append((system.state_to_json(state), side))
        legal = sorted(system.grammar.format(o) for o in system.legal_orders(state, side))
        order = system.grammar.parse(choose(rng, legal))
        state = system.apply(state, side, order, dice).state
        step += 1
    return text, found


class Thinking:
    """The worker pool kept busy with one decision after another until the block ends."""

    def __init__(self, level: str = "normal", seed: int = 1, count: int = 40):
        self.level = level
        self.text, self.positions = positions(seed, count)
        self.worker = OpponentWorker()
        self.decisions = 0
        self.seconds = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="opponent-beside", daemon=True)

    def job(self, n: int) -> Job:
        state, side = self.positions[n % len(self.positions)]
        return Job("bench", "bench", SYSTEM, self.text, state, side, "ai", self.level,
                   f"bench-{n}", n)  # fmt: skip

    def warm(self) -> None:
        """One decision before the block: the worker process started and the system bound."""
        asyncio.run(self.worker.decide(self.job(0)))

    def _run(self) -> None:
        asyncio.run(self._decisions())

    async def _decisions(self) -> None:
        n = 1
        while not self._stop.is_set():
            start_at = time.perf_counter()
            await self.worker.decide(self.job(n))
            self.seconds += time.perf_counter() - start_at
            self.decisions += 1
            n += 1

    def __enter__(self) -> Self:
        self.warm()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.worker.close()

    @property
    def mean(self) -> float:
        return self.seconds / self.decisions if self.decisions else 0.0
