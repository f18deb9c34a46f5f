"""The changing state of a Hell's Gate game (rule 2.7), as plain data, by the kit's state
convention (core.kit: `clone()`, `to_json()`, `GameState.from_json()`).

Invariants (checked by the fuzz test): no hex holds units of both sides; a unit on the map has a
hex and every other unit has none; markers only on units on the map; reduced only on two-step units.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from adjudicator.core.decisions import Decision

PHASES = (
    "soviet-supply",
    "soviet-combat",
    "soviet-movement",
    "soviet-recovery",
    "german-supply",
    "german-combat",
    "german-movement",
    "german-recovery",
    "joint",
)
AUTOMATIC_PHASES = frozenset(
    {"soviet-supply", "soviet-recovery", "german-supply", "german-recovery", "joint"}
)
BOXES = ("map", "turn_track", "eliminated", "broken_out", "never_entered", "off")
# The rules versions (core.system's module doc): 1, the rules every stored game was played under;
# 2, a bare `losses` is refused unless exactly one answer is legal (8.25, 8.29, 8.31).
RULES_VERSION = 2


def phase_side(phase: str) -> str | None:
    """1.7: the phasing player (None in the joint phase)."""
    if phase.startswith("soviet"):
        return "soviet"
    if phase.startswith("german"):
        return "german"
    return None


def phasing_side(phase: str) -> str:
    """1.7: the phasing player of a phase that has one (every phase but the joint phase)."""
    side = phase_side(phase)
    if side is None:
        raise ValueError(f"the {phase} phase has no phasing player")
    return side


def phase_kind(phase: str) -> str:
    return phase.split("-", 1)[1] if "-" in phase else phase


def other(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


class Result(TypedDict):
    """14.7: the result of a finished game."""

    winner: str  # "soviet", "german" or "draw"
    soviet: int  # VP totals
    german: int


class SideVP(TypedDict):
    """14.1-14.5: the victory points of one side."""

    total: int
    eliminated_steps: int
    reduced_units: int
    supply_hexes: list[str]
    balance: int


@dataclass(slots=True)
class UnitState:
    id: str
    side: str
    box: str = "map"
    hex: str | None = None
    track_turn: int | None = None  # the turn-track box, while box == "turn_track"
    reduced: bool = False
    oos: bool = False
    retreated: bool = False
    moved: bool = False  # moved_this_phase
    attacked: bool = False  # attacked_this_phase
    entered_turn: int | None = None  # turn it entered as a reinforcement (12.4)

    @property
    def on_map(self) -> bool:
        return self.box == "map"

    @property
    def map_hex(self) -> str:
        """The hex of a unit on the map (a unit on the map has a hex: the state's invariant)."""
        if self.hex is None:
            raise ValueError(f"{self.id} is not in a hex of the map ({self.box})")
        return self.hex

    def copy(self) -> UnitState:
        return UnitState(
            self.id,
            self.side,
            self.box,
            self.hex,
            self.track_turn,
            self.reduced,
            self.oos,
            self.retreated,
            self.moved,
            self.attacked,
            self.entered_turn,
        )


@dataclass
class GameState:
    turn: int
    phase: str
    weather: str
    units: dict[str, UnitState]
    sandbox: bool = False
    pending: list[Decision] = field(default_factory=list)
    attacked_hexes: list[str] = field(default_factory=list)  # 8.4(b), 12.3(c)
    soviet_entered_trigger: bool = False  # 7.8/7.9: a Soviet unit was ever in A2-A6
    airfield_freeze_lifted: bool = False  # 12.14
    fixed_dice: list[int] = field(default_factory=list)  # a moderator's `dice` (sandbox)
    result: Result | None = None
    vp: dict[str, SideVP] | None = None  # final VP breakdown, once the game ends
    rules: int = 1  # the rules version the game was set up under (RULES_VERSION)

    @property
    def active_side(self) -> str | None:
        """Whose move it is: the side a pending decision waits for, else the phasing player."""
        if self.result is not None:
            return None
        if self.pending:
            return self.pending[0].side
        return phase_side(self.phase)

    def clone(self) -> GameState:
        """A copy an order may change (the kit's state convention); the original stays."""
        return GameState(
            self.turn,
            self.phase,
            self.weather,
            {k: u.copy() for k, u in self.units.items()},
            self.sandbox,
            [Decision(d.kind, d.side, d.prompt, dict(d.data)) for d in self.pending],
            list(self.attacked_hexes),
            self.soviet_entered_trigger,
            self.airfield_freeze_lifted,
            list(self.fixed_dice),
            None if self.result is None else self.result.copy(),
            None if self.vp is None else dict(self.vp),
            self.rules,
        )

    # -- queries by location
    def units_in(self, hex_id: str) -> list[UnitState]:
        return [u for u in self.units.values() if u.hex == hex_id and u.box == "map"]

    def side_in(self, hex_id: str) -> str | None:
        for u in self.units.values():
            if u.hex == hex_id and u.box == "map":
                return u.side
        return None

    def on_map(self, side: str | None = None) -> list[UnitState]:
        return [
            u for u in self.units.values() if u.box == "map" and (side is None or u.side == side)
        ]

    def occupied(self) -> dict[str, str]:
        """Hex -> side of the units in it."""
        return {u.map_hex: u.side for u in self.units.values() if u.box == "map"}

    # -- the state as JSON (the kit's state convention, core.kit; storage snapshots)
    def to_json(self) -> dict[str, Any]:
        """Every field, `fixed_dice` always written (the JSON of every stored game has it);
        `rules` only above 1, so that the state of a game under rules 1 is written as it always
        was (its snapshots and state hashes stay equal) and reads back as rules 1."""
        doc: dict[str, Any] = {
            "turn": self.turn,
            "phase": self.phase,
            "weather": self.weather,
            "units": {k: _unit_dict(u) for k, u in self.units.items()},
            "sandbox": self.sandbox,
            "pending": [p.to_dict() for p in self.pending],
            "attacked_hexes": list(self.attacked_hexes),
            "soviet_entered_trigger": self.soviet_entered_trigger,
            "airfield_freeze_lifted": self.airfield_freeze_lifted,
            "fixed_dice": list(self.fixed_dice),
            "result": None if self.result is None else dict(self.result),
            "vp": None if self.vp is None else copy.deepcopy(self.vp),
        }
        if self.rules != 1:
            doc["rules"] = self.rules
        return doc

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GameState:
        doc = dict(d)
        doc["units"] = {k: UnitState(**v) for k, v in doc["units"].items()}
        doc["pending"] = [Decision.from_dict(p) for p in doc["pending"]]
        return cls(**doc)


def _unit_dict(u: UnitState) -> dict[str, object]:
    """Every field of the unit, in field order (spelt out: every order's snapshot and every
    state hash a replay checks write every unit; a test checks the keys against the fields)."""
    return {
        "id": u.id,
        "side": u.side,
        "box": u.box,
        "hex": u.hex,
        "track_turn": u.track_turn,
        "reduced": u.reduced,
        "oos": u.oos,
        "retreated": u.retreated,
        "moved": u.moved,
        "attacked": u.attacked,
        "entered_turn": u.entered_turn,
    }
