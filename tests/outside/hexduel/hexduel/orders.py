"""The orders and the question of Hex duel: what the grammar reads and writes, the gate lists
and the rules resolve. Frozen dataclasses: two orders that say the same are equal."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:  # H2: to a neighbouring hex, claiming it
    to: str


@dataclass(frozen=True)
class Hold:  # H2: a d6, 5 or 6 scores a point
    pass


@dataclass(frozen=True)
class Objective:  # the question `objective`: your secret hex, told to you alone
    pass
