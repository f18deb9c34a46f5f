"""The opponent's own randomness: a DiceSource over a small seeded generator (SplitMix64).

The rules code may not use the global random (nor import `random`: tests/test_purity.py), and
the opponent must never draw from the game's committed dice, so it has its own: the seed string
is hashed (SHA-256) into the generator's state, and `fork(label)` derives an independent source
for one purpose (a candidate's samples), so that what one candidate draws never shifts what
another gets. Same seed, same draws, on any machine. Pure.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from adjudicator.core.dice import DiceMethods

T = TypeVar("T")
MASK = (1 << 64) - 1


class OwnDice(DiceMethods):
    """A DiceSource (core.dice) drawing from SplitMix64 seeded by a string."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._x = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")

    def _next(self) -> int:
        self._x = (self._x + 0x9E3779B97F4A7C15) & MASK
        z = self._x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        return self._next() % faces + 1  # bias below 2**-47 for any die of the rules

    def fork(self, label: str) -> OwnDice:
        """An independent source for one purpose, derived from this one's seed."""
        return OwnDice(f"{self.seed}|{label}")

    def choice(self, items: Sequence[T]) -> T:
        """One of `items`, each equally likely (a tie broken)."""
        return items[self._next() % len(items)]


__all__ = ["OwnDice"]
