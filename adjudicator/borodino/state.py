"""The state of a Borodino referee game: where every unit is, the phase, the boxes, the markers.

Unit locations (rule 1.5 and its Decision): "map" (with a hex, Formed or Disordered),
"withdrawn", "recovery", "recovered" (in the Recovery Box, recovered, awaiting placement, 4.5),
"eliminated" (the Permanently Eliminated box, 1.7) and "later" (not yet entered, 6.4).

Phases: "activations" (between activations: reports, `activate`, `morale`, `recovery`),
"activation" (one AG's or independent unit's Activation Phase), "rally" (its Rally phase),
"recovery" (the Morale Phase is done; the Recovery Phase is next) and "placement" (recovered
units are being returned, one side at a time).

The kit's state convention (adjudicator/core/kit.py): `clone()` copies what an order may change,
`to_json()` is the plain JSON every stored game holds (field by field, in this order: stored
snapshots and state hashes rest on its bytes), `from_json()` reads it back;
`State.from_json(s.to_json()) == s`. `rules` (the rules version, 1 or 2) is left out of the
JSON when it is 1, so that a state stored before versions existed reads as version 1 and its
bytes do not change.

Rules versions: 1, the rules every game stored before version 2 was played under; 2, rule 6.6's
decision: artillery and Opolchenie units of a collapsed group are outside 6.8 and 2.5 too (they
may still rally and leave the Disordered state; 4.7).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from adjudicator.borodino.data import Scenario

OFF_MAP = ("withdrawn", "recovery", "recovered", "eliminated")  # 1.8 (+ awaiting placement, 4.5)


@dataclass
class Spot:
    """Where one unit is and which side is up."""

    where: str  # map | withdrawn | recovery | recovered | eliminated | later
    hex: str | None = None
    disordered: bool = False

    @property
    def on_map(self) -> bool:
        return self.where == "map"

    @property
    def off_map(self) -> bool:
        return self.where in OFF_MAP


@dataclass
class State:
    units: dict[str, Spot]
    turn: int = 1
    phase: str = "activations"
    active: str | None = None  # the AG (or independent unit) of the activation / Rally phase
    initiative: str = "russian"  # the side the open phase waits for first (alternates)
    activated: list[str] = field(default_factory=list)  # activations of this turn
    acted: dict[str, list[str]] = field(default_factory=dict)  # 2.2: unit -> what it did
    attempted: list[str] = field(default_factory=list)  # 2.7: rally attempts of the phase
    morale_done: bool = False  # the Morale Phase of this turn has been held
    collapsed: list[str] = field(default_factory=list)  # 6.7: Collapsed markers; 6.9
    out_of_game: list[str] = field(default_factory=list)  # 3.2: AGs out for good
    placing: list[str] = field(default_factory=list)  # the sides still to place, first first
    first: str | None = None  # 3.8: who went first in the last Recovery Phase
    recovery_phases: int = 0  # Recovery Phases held
    entered: list[str] = field(default_factory=list)  # 6.4: units that have entered play
    disputes: list[dict[str, Any]] = field(default_factory=list)
    fixed_dice: list[int] = field(default_factory=list)  # a sandbox moderator's `dice`
    result: dict[str, Any] | None = None
    sandbox: bool = False
    rules: int = 1  # the rules version the game started under (system.BorodinoSystem)

    def clone(self) -> State:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        if doc["rules"] == 1:
            del doc["rules"]  # version 1: the JSON (and the state hash) of every stored game
        return doc

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        doc = copy.deepcopy(data)
        doc["units"] = {u: Spot(**s) for u, s in doc["units"].items()}
        return cls(**doc)


def initial_state(scen: Scenario, sandbox: bool, rules: int = 1) -> State:
    """The setup: every unit where the order of battle starts it (6.4: "later" not yet in play)."""
    units = {
        u.id: Spot(u.start, u.hex, u.disordered and u.start == "map") for u in scen.units.values()
    }
    entered = [u.id for u in scen.units.values() if u.start != "later"]
    return State(units, entered=entered, sandbox=sandbox, rules=rules)
