"""What happened since the last Hell's Gate map image, read from events given as Event objects
or as dicts.

`Event.to_dict()` = {"kind", "text", **data}; the service stores that form in its log, the
engine returns Event objects. Both are accepted. Attacks are taken from the last combat phase
seen in the events (a combat phase starts with a PhaseBegan event whose phase ends in
"-combat"); moves, retreats, eliminations, entries and breakouts are taken from all the events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.events import Event, event_text
from adjudicator.hells_gate.scenario import Scenario

EventLike = Event | dict[str, Any]  # an Event, or its dict (Event.to_dict(), as stored)


def as_dict(event: EventLike) -> dict[str, Any]:
    if isinstance(event, dict):
        return event
    out = dict(getattr(event, "data", {}) or {})
    out["kind"] = event.kind
    out["text"] = getattr(event, "text", "")
    return out


@dataclass
class Attack:
    number: int
    hex: str | None
    attackers: list[str]
    origins: dict[str, str]
    side: str | None
    attack_strength: int | None
    defense_strength: int | None
    raw_column: str | None
    final_column: str | None
    shifts: list[dict[str, Any]]  # combat.Shift, as in the event
    decisive: bool
    overstack: bool
    die: int | None
    hits: int | None

    @property
    def result(self) -> str:
        if self.hits is None:
            return "?"
        return "no effect" if self.hits == 0 else f"{self.hits} hit{'s' if self.hits != 1 else ''}"


@dataclass
class Summary:
    attacks: list[Attack] = field(default_factory=list)
    combat_phase: tuple[int | None, str] | None = None
    moves: list[tuple[str, list[str]]] = field(default_factory=list)  # unit, [origin, *path]
    retreats: list[tuple[str, str, str]] = field(default_factory=list)  # unit, origin, dest
    destroyed: list[tuple[str, str | None, str]] = field(default_factory=list)  # unit, hex, text
    entered: list[tuple[str, str | None]] = field(default_factory=list)
    broke_out: list[tuple[str, str | None]] = field(default_factory=list)
    flipped: list[str] = field(default_factory=list)
    rebuilt: list[str] = field(default_factory=list)
    never_entered: list[str] = field(default_factory=list)
    weather: str | None = None


def summarise(scenario: Scenario, events: Iterable[EventLike] | None) -> Summary:
    s = Summary()
    phase: tuple[int | None, str] | None = None
    groups: list[tuple[tuple[int | None, str] | None, list[dict[str, Any]]]] = []
    for ev in map(as_dict, events or ()):
        kind = ev.get("kind")
        if kind == "PhaseBegan":
            phase = (ev.get("turn"), str(ev.get("phase", "")))
        elif kind == "AttackResolved":
            if not groups or groups[-1][0] != phase:
                groups.append((phase, []))
            groups[-1][1].append(ev)
        else:
            _note(s, kind, ev)
    if groups:
        # a group with phase None (no PhaseBegan before it) belongs to the phase in progress
        s.combat_phase, last = groups[-1]
        s.attacks = [_attack(scenario, i, ev) for i, ev in enumerate(last, 1)]
    return s


def _note(s: Summary, kind: str | None, ev: dict[str, Any]) -> None:
    """Record an event other than a phase start or an attack."""
    if kind == "UnitMoved":
        path = [h for h in ev.get("path") or [] if h]
        origin = ev.get("origin")
        if origin and path:
            s.moves.append((ev["unit"], [origin, *path]))
    elif kind == "UnitRetreated":
        if ev.get("origin") and ev.get("hex"):
            s.retreats.append((ev["unit"], ev["origin"], ev["hex"]))
    elif kind == "UnitEliminated":  # listed as destroyed only, not also as reduced before
        s.destroyed.append((ev["unit"], ev.get("hex"), ev.get("text", "")))
        s.flipped = [u for u in s.flipped if u != ev["unit"]]
    elif kind == "ReinforcementEntered":
        s.entered.append((ev["unit"], ev.get("hex")))
    elif kind == "ReinforcementLost":
        s.never_entered.append(ev["unit"])
    elif kind == "UnitBrokeOut":
        s.broke_out.append((ev["unit"], ev.get("hex")))
    elif kind == "UnitFlipped":
        s.flipped.append(ev["unit"])
    elif kind == "UnitRebuilt":
        s.rebuilt.append(ev["unit"])
    elif kind in ("WeatherChanged", "WeatherStays"):
        s.weather = event_text(ev)  # a Msg where the event stored one


def _attack(scenario: Scenario, number: int, ev: dict[str, Any]) -> Attack:
    attackers = list(ev.get("attackers") or [])
    spec = scenario.units.get(attackers[0]) if attackers else None
    return Attack(
        number=number,
        hex=ev.get("hex"),
        attackers=attackers,
        origins=dict(ev.get("origins") or {}),
        side=spec.side if spec else None,
        attack_strength=ev.get("attack_strength"),
        defense_strength=ev.get("defense_strength"),
        raw_column=ev.get("raw_column"),
        final_column=ev.get("final_column"),
        shifts=list(ev.get("shifts") or []),
        decisive=bool(ev.get("decisive")),
        overstack=bool(ev.get("overstack")),
        die=ev.get("die"),
        hits=ev.get("hits"),
    )
