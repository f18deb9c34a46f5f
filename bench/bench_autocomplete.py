"""Completion against the order path: the time to answer a Discord autocomplete (bots/taps.py
`complete`: what a player has typed so far -> at most 25 of his legal orders) next to the time
of the order path itself (a chat message in, its reply queued, the durable commit included),
measured side by side in one run, per system.

    python bench/bench_autocomplete.py [--seed N] [--systems hells-gate,...] [--dir DIR]

Each system plays one whole game through the chat service (`new`, two joins, `start`, then
random legal orders of the side to move, as bench_chat.py plays them), timing every order. At
the position with the most legal orders of the game (found as it is played), a player types one
of his longest orders key by key, as Discord asks for completions: the first key computes the
legal orders (the tap service caches them per game, log row and side), each later key filters
them. Prints a line per system, then the one line the issue's figure is read from (Hell's
Gate's):

    autocomplete: median M ms (R x the order path), p99 P ms

Not part of the test run.
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.messages import Incoming
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import legal_texts
from storage import Store, chat_store

SYSTEMS = ("hells-gate", "northern-war", "stalins-war", "borodino")
GROUP = "-100900"
MAX_ORDERS = 400


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class Run:
    """One game of one system, its orders timed, its richest position typed into."""

    def __init__(self, path: Path, system: str, seed: int):
        self.store = Store(str(path))
        self.chat = ChatService(GameService(self.store), clock=FakeClock(), images=False)
        self.ids = itertools.count(1)
        self.rng = random.Random(seed)
        self.orders: list[float] = []
        self.keys: list[float] = []
        self.most = 0
        self.say(1, f"new {system}")
        self.game = chat_store.binding(self.store, "discord", GROUP) or ""
        sides = [s.id for s in self.chat.service.system(self.game).sides]
        self.say(1, f"join {sides[0]}")
        self.say(2, f"join {sides[1]}")
        self.say(1, "start")
        self.users = {sides[0]: 1, sides[1]: 2}

    def incoming(self, user: int, text: str) -> Incoming:
        return Incoming(
            "discord", GROUP, str(user), f"p{user}", text, message_id=f"m{next(self.ids)}"
        )

    def say(self, user: int, text: str) -> float:
        start = time.perf_counter()
        self.chat.handle(self.incoming(user, text))
        return time.perf_counter() - start

    def play(self) -> None:
        for _ in range(MAX_ORDERS):
            place = self.chat.taps.place(self.game, None, None)
            here = place.situation
            if here.over or not (here.pending or here.to_move):
                return
            side = here.pending[0].side if here.pending else here.to_move[0]
            texts = legal_texts(place.system, place.state, side)
            if not texts:
                return
            if len(texts) > self.most:
                self.most = len(texts)
                self.keys = self.type(self.users[side], texts)
            self.orders.append(self.say(self.users[side], self.rng.choice(texts)))

    def type(self, user: int, texts: list[str]) -> list[float]:
        """Type one of the longest legal orders key by key; the time of each completion."""
        longest = max(len(t) for t in texts)
        text = self.rng.choice([t for t in texts if len(t) == longest])
        self.chat.taps._cache.clear()  # the first key computes, as after a new log row
        took = []
        for n in range(1, len(text) + 1):
            start = time.perf_counter()
            found = self.chat.taps.complete(self.incoming(user, text[:n]))
            took.append(time.perf_counter() - start)
            assert found, f"no completion of {text[:n]!r}"
        return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--dir", help="where the databases go (default: a temporary directory)")
    args = parser.parse_args(argv)
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-complete-") if own else args.dir)
    results = {}
    try:
        Run(directory / "warm-up.db", "hells-gate", args.seed + 1).play()  # imports, caches
        for system in args.systems.split(","):
            run = Run(directory / f"{system}.db", system, args.seed)
            run.play()
            results[system] = run
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    print(
        f"{'system':<14}{'legal':>7}{'keys':>6}{'first ms':>10}{'median ms':>11}{'p99 ms':>9}"
        f"{'order ms':>10}{'x order':>9}"
    )
    for system, run in results.items():
        med, order = statistics.median(run.keys) * 1000, statistics.median(run.orders) * 1000
        print(
            f"{system:<14}{run.most:>7}{len(run.keys):>6}{run.keys[0] * 1000:>10.2f}"
            f"{med:>11.2f}{p99(run.keys) * 1000:>9.2f}{order:>10.2f}{med / order:>9.2f}"
        )
    head = results.get("hells-gate") or next(iter(results.values()))
    med = statistics.median(head.keys) * 1000
    ratio = med / (statistics.median(head.orders) * 1000)
    print(
        f"autocomplete: median {med:.2f} ms ({ratio:.2f} x the order path), "
        f"p99 {p99(head.keys) * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
