"""Fuzz the chat service with random messages: text is data (app.intext), `handle` never raises.

    python bench/bench_fuzz_messages.py [--messages 500000] [--seed 1] [--dir DIR]

(500,000 messages, the default, take about 7 minutes on the 2-core machine: 1,250 a second.)

One started sandbox game of Hell's Gate in a Telegram-like chat, user 1 its moderator playing
Soviet, user 2 German, user 3 a spectator. Each message is drawn from a seeded generator: text of
arbitrary code points (lone surrogates, NUL, controls, non-characters, astral planes, CR/LF),
the shared commands with random free text (`pause`, `resume`, `salt`, `seat`, `unseat`, `rewind`,
`confirm rewind`, `join`, `status`, ...), orders with random arguments, messages over the length
and line limits; from any of the three users, in the group or in a private chat.

Counted: messages; exceptions (raised out of `handle`, or caught and logged by its last-resort
handler: both are failures); refused messages (every answer a refusal); state changes from
refused input (a refused message after which the log, the seats, the moderators, the pause flag
or the outbox differ from before it). The pass condition is 0 exceptions and 0 such changes.

Not part of the test run (tests/test_text_is_data.py runs a short version of the same generator).
"""

from __future__ import annotations

import argparse
import logging
import random
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.messages import Incoming
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store, chat_store

GROUP = "-100777"
HEADS = (
    "pause", "resume", "salt", "seat soviet", "seat german", "unseat soviet", "unseat german",
    "rewind", "rewind 1", "confirm rewind", "cancel rewind", "join", "join soviet", "leave",
    "status", "log", "rolls", "help", "units", "options", "preview", "attack", "move", "end",
    "undo", "moderator add", "moderator remove", "identity", "link", "deadline", "extend", "map",
    "whoami", "use", "new", "audit", "dice", "default", "start",
)  # fmt: skip
NASTY = ("\ud800", "\udfff", "\x00", "\x1b[31m", "\u202e", "\ufeff", "\uffff", "\U0010ffff",
         "\r\n", "\r", "\t", "@", "`", "**", "<@1>", "\u0301", "🎲", "𝔘")  # fmt: skip


def _char(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        return chr(rng.randint(0x20, 0x7E))
    if r < 0.6:
        return rng.choice(NASTY)
    if r < 0.7:
        return chr(rng.randint(0xD800, 0xDFFF))  # a lone surrogate
    if r < 0.8:
        return chr(rng.randint(0, 0x1F))
    return chr(rng.randint(0, 0x10FFFF))


def _junk(rng: random.Random, most: int = 24) -> str:
    return "".join(_char(rng) for _ in range(rng.randint(0, most)))


def message(rng: random.Random) -> str:
    """One message of the fuzz."""
    r = rng.random()
    if r < 0.3:
        return _junk(rng, 40)
    if r < 0.85:
        lines = [f"{rng.choice(HEADS)} {_junk(rng)}" for _ in range(rng.choice((1, 1, 1, 2, 3)))]
        return rng.choice(("\n", "\r\n", "\r")).join(lines)
    if r < 0.9:
        return "pause " + "x" * rng.randint(4000, 6000)  # over the length limit
    if r < 0.95:
        return "\n".join(_junk(rng, 3) for _ in range(rng.randint(90, 150)))  # around the limit
    return rng.choice(HEADS).upper() + " " + rng.choice(NASTY) * rng.randint(1, 5)


@dataclass
class Counts:
    messages: int = 0
    exceptions: int = 0
    refused: int = 0
    changed_by_refused: int = 0
    first_failures: list[str] | None = None

    def line(self) -> str:
        return (
            f"messages {self.messages}, exceptions {self.exceptions}, refused {self.refused}, "
            f"state changes from refused input {self.changed_by_refused}"
        )


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.last: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        self.last = record.getMessage() + (f" {record.exc_info[1]!r}" if record.exc_info else "")


class Fuzz:
    """The game the messages are sent to, and the fingerprint of its state."""

    def __init__(self, directory: str) -> None:
        self.path = str(Path(directory) / "fuzz.db")
        self.store = Store(self.path)
        self.chat = ChatService(GameService(self.store), clock=FakeClock(), images=False)
        self.n = 0
        for user, text in ((1, "new hells-gate sandbox"), (1, "join soviet"),
                           (2, "join german"), (1, "start")):  # fmt: skip
            self.say(user, text, private=False)
        game = chat_store.binding(self.store, "telegram", GROUP)
        assert game is not None
        self.game = game
        self.raw = sqlite3.connect(self.path)
        self.errors = _Errors()
        logging.getLogger("bots").addHandler(self.errors)

    def close(self) -> None:
        logging.getLogger("bots").removeHandler(self.errors)
        self.raw.close()
        self.store.close()

    def say(self, user: int, text: str, *, private: bool):
        self.n += 1
        chat = f"dm:{user}" if private else GROUP
        inc = Incoming("telegram", chat, str(user), f"user{user}", text, f"m{self.n}", private)
        return self.chat.handle(inc)

    def fingerprint(self) -> tuple:
        q = self.raw.execute
        return (
            q("SELECT count(*), max(id) FROM logentry").fetchone(),
            q("SELECT count(*), max(id) FROM outbox").fetchone(),
            tuple(q("SELECT side, user FROM seat ORDER BY side").fetchall()),
            tuple(q("SELECT user FROM moderator ORDER BY user").fetchall()),
            q("SELECT paused, head_hash, epoch FROM game").fetchall(),
        )

    def run(self, count: int, seed: int, counts: Counts | None = None) -> Counts:
        rng = random.Random(seed)
        counts = counts or Counts(first_failures=[])
        failures = counts.first_failures if counts.first_failures is not None else []
        for _ in range(count):
            text = message(rng)
            user = rng.choice((1, 2, 3))
            before = self.fingerprint()
            errors = self.errors.count
            try:
                outs = self.say(user, text, private=rng.random() < 0.1)
            except Exception as exc:  # noqa: BLE001 (a failure of the service: counted)
                counts.exceptions += 1
                failures.append(f"{text!r}: {exc!r}")
                outs = []
            if self.errors.count != errors:
                counts.exceptions += 1
                failures.append(f"{text!r}: {self.errors.last}")
            counts.messages += 1
            if outs and all("Refused" in o.text.split("\n")[0] for o in outs):
                counts.refused += 1
                if self.fingerprint() != before:
                    counts.changed_by_refused += 1
                    failures.append(f"{text!r}: refused but changed the game")
        counts.first_failures = failures[:20]
        return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--every", type=int, default=50_000, help="progress line every N")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        fuzz = Fuzz(tmp)
        counts = Counts(first_failures=[])
        start = time.perf_counter()
        done = 0
        while done < args.messages:
            step = min(args.every, args.messages - done)
            fuzz.run(step, args.seed * 1_000_003 + done, counts)
            done += step
            took = time.perf_counter() - start
            print(f"{counts.line()} ({took:.0f} s)", flush=True)
        fuzz.close()
    for failure in counts.first_failures or []:
        print("FAILURE", failure)
    ok = counts.exceptions == 0 and counts.changed_by_refused == 0
    print("OK" if ok else "FAILED", counts.line())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
