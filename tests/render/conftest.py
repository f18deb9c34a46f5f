"""States and events for the renderer tests.

`synthetic`: built by hand from the scenario's setup (markers, an attack, a retreat, a move, a
destroyed unit, turn 2 for the Tychinovka marker), independent of how the engine plays.
`busy`: a real game, random legal orders with a fixed seed, stopped at the start of the German
combat phase of turn 2, with the events of the Soviet player turn (attacks, retreats, moves).
"""

from __future__ import annotations

import random

import pytest

from adjudicator.core.dice import HashDice
from adjudicator.hells_gate import grammar
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.setup import initial_state
from adjudicator.hells_gate.system import HellsGateSystem


def _attack(hex_id, origins, att, dfn, raw, final, die, hits, shifts=(), decisive=False):
    return {
        "kind": "AttackResolved",
        "text": f"Attack on {hex_id}",
        "hex": hex_id,
        "attackers": list(origins),
        "origins": dict(origins),
        "attack_strength": att,
        "defense_strength": dfn,
        "raw_column": raw,
        "final_column": final,
        "shifts": list(shifts),
        "decisive": decisive,
        "overstack": False,
        "die": die,
        "hits": hits,
    }


@pytest.fixture(scope="session")
def synthetic(scenario):
    state = initial_state(scenario)
    state.turn, state.phase, state.weather = 2, "soviet-movement", "snow"
    u = state.units
    u["5gtk"].reduced = True
    u["389id"].reduced = True
    u["389id"].retreated = True
    u["5ss"].oos = True
    u["wiking"].oos = True
    u["106id"].hex, u["106id"].retreated = "A7", True
    u["kg168"].box, u["kg168"].hex = "eliminated", None
    u["206rd"].hex = "E1"
    u["18tk"].box, u["18tk"].hex, u["18tk"].track_turn = "map", "D7", None
    events = [
        {
            "kind": "PhaseBegan",
            "text": "Turn 2, soviet-combat phase.",
            "turn": 2,
            "phase": "soviet-combat",
        },
        _attack("C6", {"20tk": "C7", "29tk": "C7", "21grc": "D7"}, 16, 2, "8:1", "8:1", 3, 1),
        {"kind": "UnitFlipped", "text": "389id takes a hit.", "unit": "389id", "hex": "C6"},
        _attack("B7", {"48rc": "C7", "75rc": "C7"}, 6, 4, "3:2", "3:2", 5, 1),
        {
            "kind": "UnitRetreated",
            "text": "106id retreats B7 to A7.",
            "unit": "106id",
            "origin": "B7",
            "hex": "A7",
        },
        _attack(
            "C2",
            {"180rd": "C1", "337rd": "C1"},
            3,
            1,
            "3:1",
            "2:1",
            6,
            1,
            shifts=[{"code": "S4", "columns": -1, "reason": "C2 is woods"}],
        ),
        {"kind": "UnitEliminated", "text": "kg168 is destroyed.", "unit": "kg168", "hex": "C2"},
        {
            "kind": "PhaseBegan",
            "text": "Turn 2, soviet-movement phase.",
            "turn": 2,
            "phase": "soviet-movement",
        },
        {"kind": "ReinforcementEntered", "text": "18tk enters at D7.", "unit": "18tk", "hex": "D7"},
        {
            "kind": "UnitMoved",
            "text": "206rd moves F1-E1.",
            "unit": "206rd",
            "origin": "F1",
            "path": ["E1"],
            "hex": "E1",
        },
    ]
    return state, events


@pytest.fixture(scope="session")
def busy(scenario):
    rules = HellsGateSystem(scenario)
    out = rules.initial(False, HashDice("b6-setup"))
    state, events = out.state, list(out.events)
    rng = random.Random(6)
    n = 0
    while (
        not (state.turn == 2 and state.phase == "german-combat")
        and state.result is None
        and n < 400
    ):
        legal = sorted(rules.legal_orders(state, state.active_side), key=grammar.format_order)
        ends = [o for o in legal if isinstance(o, O.End)]
        others = [o for o in legal if not isinstance(o, O.End)]
        order = ends[0] if ends and (not others or rng.random() < 0.15) else rng.choice(others)
        out = rules.apply(state, state.active_side, order, HashDice(f"b6-{n}"))
        n += 1
        for e in out.events:
            if e.kind == "PhaseBegan" and e.data["phase"] == "soviet-supply":
                events = []
            events.append(e)
        state = out.state
    return state, events
