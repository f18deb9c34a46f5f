"""The state of a block game: plain data, its copy and its JSON (every field is plain JSON).

Hidden values: `strength` of every block (its owner's secret), `seen` and `sieges_seen` (each
side's private records). The view (views.py) removes what a viewer may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ON_MAP, POOL, REMOVED, EXILE = "map", "pool", "removed", "exile"


@dataclass
class NWState:
    year: int  # the year of the game, from 1
    turn: int  # the turn of the year (1..turns_per_year); the winter campaign keeps the last
    count: int  # the game turn, from 1 (the dice epoch)
    phase: str  # "action" | "battle" | "winter" | "over"
    at: dict[str, str | None]  # block -> its territory (None: off the map)
    strength: dict[str, int]  # block -> current strength (hidden from the opponent, 2.4)
    status: dict[str, str]  # block -> map | pool | removed | exile
    control: dict[str, str]  # territory -> side (N5)
    rolls: dict[str, int] = field(default_factory=dict)  # this turn's action rolls (5.1)
    first: str | None = None  # the first player of this turn (5.4)
    prev_second: str | None = None  # the second player of the previous turn (5.5)
    prev_event: list[str] = field(default_factory=list)  # sides whose last roll was an event
    actions: dict[str, int] = field(default_factory=dict)  # actions left this turn
    last_kind: dict[str, int] = field(default_factory=dict)  # index in KINDS of the last action
    to_move: str | None = None
    finished: list[str] = field(default_factory=list)  # sides done with this action phase
    moved: list[str] = field(default_factory=list)  # blocks that moved this turn (7.8)
    move_open: str | None = None  # the origin of the movement action still open (7.2)
    move_group: list[str] = field(default_factory=list)  # the blocks of that action so far
    free_sieges: list[list[Any]] = field(
        default_factory=list
    )  # where a free declaration may be made
    sieges: list[list[Any]] = field(default_factory=list)  # [territory, side, [blocks]] (N4)
    holders: dict[str, str] = field(default_factory=dict)  # territory -> side there first (N3 b)
    policy_used: list[str] = field(default_factory=list)  # nations, this year (5.30)
    exile_attempts: int | None = None  # None: Charles XII is not in exile (4.6-4.11)
    winter_moved: bool = False
    battle: dict[str, Any] | None = None  # the battle in progress (battle.py)
    pending: dict[str, Any] | None = None  # a decision put to a side
    truce_due: list[str] = field(default_factory=list)  # nations whose royal fell (4.4)
    armistice: list[str] = field(default_factory=list)  # nations out of the war (N11)
    seen: dict[str, dict[str, list[Any]]] = field(default_factory=dict)  # side -> block -> rec
    sieges_seen: dict[str, list[list[Any]]] = field(default_factory=dict)  # side -> siege dice
    result: dict[str, Any] | None = None
    sandbox: bool = False
    fixed_dice: list[int] = field(default_factory=list)  # a sandbox moderator's `dice`
    rules: int = 1  # the rules version of the game (system.NorthernWar.rules_version)

    def clone(self) -> NWState:
        """A copy sharing nothing mutable (plain data all through: faster than copy.deepcopy)."""
        return NWState(**{k: _deep(v) for k, v in vars(self).items()})

    def to_json(self) -> dict[str, Any]:
        """Every field; `fixed_dice` only when some wait, `rules` only above 1 (the JSON of older
        states unchanged: a stored state without `rules` reads as version 1)."""
        return {
            k: _deep(v)
            for k, v in vars(self).items()
            if not (k == "fixed_dice" and not v) and not (k == "rules" and v == 1)
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NWState:
        return cls(**_deep(data))


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value
