"""Dice as an injected source (rule 1.3: one d6, results 1 to 6).

The engine never rolls by itself: it asks a DiceSource for a roll and names the purpose
("combat C6", "weather", "breakout 20tk"). Every roll the engine makes is recorded as a Roll,
so storage can log it and a replay can feed the same results back through FixedDice.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol


class DiceSource(Protocol):
    def roll(self, purpose: str) -> int:
        """One d6 result, 1..6."""


@dataclass(frozen=True)
class Roll:
    purpose: str
    value: int
    fixed: bool = False  # set by a moderator's `dice` command in a sandbox game

    def to_dict(self) -> dict:
        return {"purpose": self.purpose, "value": self.value, "fixed": self.fixed}

    @classmethod
    def from_dict(cls, d: dict) -> Roll:
        return cls(d["purpose"], int(d["value"]), bool(d.get("fixed", False)))


class DiceExhausted(Exception):
    """A FixedDice source was asked for more rolls than it holds."""


class FixedDice:
    """Plays back given results in order: tests and log replay."""

    def __init__(self, values):
        self._values = list(values)
        self.used = 0

    def roll(self, purpose: str) -> int:
        if self.used >= len(self._values):
            raise DiceExhausted(f"no die result left for {purpose!r}")
        value = self._values[self.used]
        self.used += 1
        if not 1 <= value <= 6:
            raise ValueError(f"die result {value} is not 1-6")
        return value


class HashDice:
    """Deterministic d6 stream from a seed: SHA-256 over (seed, n, purpose), rejection sampled.

    Pure (no global random); used by the demo and by tests that need many random rolls.
    """

    def __init__(self, seed: str | int):
        self._seed = str(seed).encode()
        self.n = 0

    def roll(self, purpose: str) -> int:
        while True:
            self.n += 1
            digest = hashlib.sha256(self._seed + b"|%d|" % self.n + purpose.encode()).digest()
            for byte in digest:
                if byte < 252:  # 252 = 6 * 42: no modulo bias
                    return byte % 6 + 1


class RecordingDice:
    """Wraps a source, consuming moderator-fixed results first, and records every roll."""

    def __init__(self, source: DiceSource | None, fixed: list[int] | None = None):
        self._source = source
        self.fixed = list(fixed or [])
        self.rolls: list[Roll] = []

    def roll(self, purpose: str) -> int:
        if self.fixed:
            value = self.fixed.pop(0)
            self.rolls.append(Roll(purpose, value, fixed=True))
            return value
        if self._source is None:
            raise DiceExhausted(f"no dice source for {purpose!r}")
        value = self._source.roll(purpose)
        if not 1 <= value <= 6:
            raise ValueError(f"die result {value} is not 1-6")
        self.rolls.append(Roll(purpose, value))
        return value
