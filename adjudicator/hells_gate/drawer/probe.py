"""The fixed palette of a Hell's Gate map (render/palette.py), from two synthetic, busy frames
drawn with the real pipeline.

Every unit on the map with every face and marker, attacks and retreats of both sides, move
trails, the Tychinovka marker, both weathers, both banners and the game-over banner: every
colour the drawer uses (and the anti-aliased blends between them) is therefore close to a
palette entry. It depends only on the scenario, so images stay reproducible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState
from render.canvas import Canvas
from render.palette import build_palette

EventDict = dict[str, Any]  # an event as stored (Event.to_dict())
Compose = Callable[
    [Scenario, GameState, list[EventDict], str | None, str | None], tuple[Canvas, dict[str, Any]]
]


def palette(scenario: Scenario, compose: Compose) -> Canvas:
    """The palette of the scenario's map; compose(scenario, state, events, view, title) -> (RGB
    image, debug data) draws a frame."""
    frames: list[Canvas] = []
    for st in _probe_states(scenario):
        img, _ = compose(scenario, st, _probe_events(scenario, st), None, "Palette probe")
        frames.append(img)
    return build_palette(frames)


def _probe_states(scenario: Scenario) -> tuple[GameState, GameState]:
    units: dict[str, UnitState] = {}
    for i, spec in enumerate(scenario.units.values()):
        h = spec.setup_hex or spec.entry_hex
        units[spec.id] = UnitState(
            spec.id,
            spec.side,
            "map",
            h,
            reduced=spec.steps == 2 and i % 3 == 1,
            oos=i % 4 == 2,
            retreated=i % 5 == 3,
        )
    a = GameState(2, "soviet-combat", "mud", units)
    units_b = {
        k: UnitState(
            u.id, u.side, "map", u.hex, reduced=not u.reduced and scenario.units[k].steps == 2
        )
        for k, u in units.items()
    }
    b = GameState(scenario.turns, "german-movement", "snow", units_b)
    b.result = {"winner": "german", "soviet": 10, "german": 12}
    return a, b


def _probe_events(scenario: Scenario, state: GameState) -> list[EventDict]:
    return _probe_attacks(scenario, state) + _probe_moves(scenario, state)


def _attack_event(state: GameState, h: str, n: str, number: int) -> EventDict:
    attackers = [u.id for u in state.units_in(h)]
    return {
        "kind": "AttackResolved",
        "text": "",
        "hex": n,
        "attackers": attackers,
        "origins": {u: h for u in attackers},
        "attack_strength": 6,
        "defense_strength": 2,
        "raw_column": "3:1",
        "final_column": "2:1",
        "shifts": [{"code": "S4", "columns": -1, "reason": "woods"}],
        "decisive": number % 2 == 0,
        "overstack": False,
        "die": 4,
        "hits": number % 3,
    }


def _probe_attacks(scenario: Scenario, state: GameState) -> list[EventDict]:
    """Attacks and retreats between adjacent hexes held by the two sides."""
    held = state.occupied()
    events: list[EventDict] = []
    done: set[str] = set()
    for h, side in sorted(held.items()):
        for n in scenario.grid.neighbours(h):
            if held.get(n) not in (None, side) and n not in done and len(done) < 8:
                done.add(n)
                events.append(_attack_event(state, h, n, len(done)))
                if len(done) % 2:
                    unit = state.units_in(n)[0].id
                    events.append(
                        {"kind": "UnitRetreated", "text": "", "unit": unit, "origin": h, "hex": n}
                    )
    return events


def _probe_moves(scenario: Scenario, state: GameState) -> list[EventDict]:
    """A move and an elimination per side."""
    grid = scenario.grid
    events: list[EventDict] = []
    for side in ("soviet", "german"):
        u = next((u for u in state.units.values() if u.side == side), None)
        first = list(grid.neighbours(u.map_hex))[:1] if u else []
        if u is None or not first:
            continue
        path = first + [n for n in grid.neighbours(first[0]) if n != u.hex][:1]
        events.append(
            {
                "kind": "UnitMoved",
                "text": "",
                "unit": u.id,
                "origin": u.hex,
                "path": path,
                "hex": path[-1],
            }
        )
        events.append({"kind": "UnitEliminated", "text": "", "unit": u.id, "hex": u.hex})
    return events
