"""The working context of one order: scenario, the state being changed, dice, events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.dice import RecordingDice
from adjudicator.core.events import Event
from adjudicator.core.i18n import Msg, t
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState
from adjudicator.hells_gate.texts import designation as designation_of


@dataclass
class Ctx:
    scen: Scenario
    state: GameState
    dice: RecordingDice
    events: list[Event] = field(default_factory=list)
    combat: dict[str, Any] | None = None  # the last attack's detail (combat.AttackCalc.to_json)

    def emit(self, kind: str, text: str, **data: object) -> None:
        """An event; its text a core.i18n Msg (said in each chat's language)."""
        self.events.append(Event(kind, text, data))

    def roll(self, purpose: str) -> int:
        value = self.dice.roll(purpose)
        fixed = self.dice.rolls[-1].fixed
        said = _purpose(purpose)
        self.emit(
            "DieRolled",
            t("Die for {purpose}: {value} (fixed)", purpose=said, value=value)
            if fixed
            else t("Die for {purpose}: {value}", purpose=said, value=value),
            purpose=purpose,
            value=value,
            fixed=fixed,
        )
        return value

    def name(self, unit_id: str) -> str:
        """A unit as the events name it: "20tk (20th Tank Corps)"."""
        return unit_label(self.scen, unit_id)


def designation(scen: Scenario, unit_id: str) -> Msg:
    """A unit's designation, in Russian where the scenario data gives it (2.1)."""
    return designation_of(scen.units[unit_id])


def unit_label(scen: Scenario, unit_id: str) -> Msg:
    return t("{unit} ({designation})", unit=unit_id, designation=designation(scen, unit_id))


def _purpose(purpose: str) -> Msg | str:
    """What a die is rolled for ("combat C6", "weather", "breakout 20tk"), said in words (the
    purpose itself, recorded with the roll, stays as it is)."""
    head, _, rest = purpose.partition(" ")
    if head == "combat" and rest:
        return t("combat {hex}", hex=rest)
    if head == "breakout" and rest:
        return t("breakout {unit}", unit=rest)
    if purpose == "weather":
        return t("weather")
    return purpose
