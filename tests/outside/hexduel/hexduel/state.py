"""The state of a game of Hex duel, by the kit's state convention (adjudicator/core/kit.py): a
mutable dataclass; `apply` never changes the state it is given (the rules change its `clone()`);
`to_json()` is plain JSON and `State.from_json(s.to_json()) == s`. Pure.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class State:
    first: str  # H1: the side that moves first each turn (the setup's die)
    to_move: str
    at: dict[str, str]  # side -> the hex of its patrol
    owner: dict[str, str]  # hex -> the side that claimed it
    objective: dict[str, str | None]  # side -> its secret hex (None in a view that may not see it)
    score: dict[str, int]  # the points scored by holding (the hexes count at the end)
    turn: int = 1
    result: dict[str, Any] | None = None
    sandbox: bool = False  # a sandbox game: a moderator may fix the dice (`dice 5`)
    fixed_dice: list[int] = field(default_factory=list)  # the values fixed, still to come

    def clone(self) -> State:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(**copy.deepcopy(data))
