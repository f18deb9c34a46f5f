"""The working context of one order: scenario, the state being changed, dice, events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.dice import RecordingDice
from adjudicator.core.events import Event
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState


@dataclass
class Ctx:
    scen: Scenario
    state: GameState
    dice: RecordingDice
    events: list[Event] = field(default_factory=list)
    combat: dict[str, Any] | None = None  # the last attack's detail (combat.AttackCalc.to_json)

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append(Event(kind, text, data))

    def roll(self, purpose: str) -> int:
        value = self.dice.roll(purpose)
        fixed = self.dice.rolls[-1].fixed
        self.emit(
            "DieRolled",
            f"Die for {purpose}: {value}" + (" (fixed)" if fixed else ""),
            purpose=purpose,
            value=value,
            fixed=fixed,
        )
        return value

    def name(self, unit_id: str) -> str:
        return f"{unit_id} ({self.scen.units[unit_id].designation})"
