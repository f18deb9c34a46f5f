"""Shared test helpers: a game driven with fixed dice, and states built by hand."""

from __future__ import annotations

from adjudicator.core.dice import FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.grammar import SIDES, HellsGateGrammar
from adjudicator.hells_gate.rules import HellsGate
from adjudicator.hells_gate.state import GameState, UnitState


class Game:
    """A game under test: `g.do(side, order, dice=[...])` applies an order with fixed dice."""

    def __init__(self, scenario, state: GameState | None = None, sandbox: bool = False):
        self.rules = HellsGate(scenario)
        self.scen = scenario
        self.state = state if state is not None else self.rules.new_game(sandbox).state
        self.events = []
        self.last = None

    def do(self, side: str, order, dice=()):
        out = self.rules.apply(self.state, side, order, FixedDice(list(dice)))
        self.state, self.last = out.state, out
        self.events.extend(out.events)
        return out

    def refuse(self, side: str, order, dice=()) -> Rejection:
        before = self.state.to_dict()
        try:
            self.rules.apply(self.state, side, order, FixedDice(list(dice)))
        except Rejection as exc:
            assert self.state.to_dict() == before
            return exc
        raise AssertionError(f"{order} was accepted")

    def unit(self, uid: str) -> UnitState:
        return self.state.units[uid]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def grammar_of(scenario) -> HellsGateGrammar:
    """The order language of a scenario, with the sides of Hell's Gate."""
    return HellsGateGrammar(scenario, SIDES)


def empty_state(
    scenario,
    units: dict[str, str],
    turn=1,
    phase="soviet-combat",
    weather="snow",
    reduced=(),
    oos=(),
    retreated=(),
    moved=(),
    attacked=(),
) -> GameState:
    """A state with only the given units on the map, e.g. `units={"29tk": "B6"}`; every other
    unit is out of play ('off'). Markers are given as lists of unit ids."""
    state = {uid: UnitState(uid, spec.side, "off") for uid, spec in scenario.units.items()}
    for uid, hex_id in units.items():
        state[uid].box, state[uid].hex = "map", hex_id
    for attr, ids in (
        ("reduced", reduced),
        ("oos", oos),
        ("retreated", retreated),
        ("moved", moved),
        ("attacked", attacked),
    ):
        for uid in ids:
            setattr(state[uid], attr, True)
    return GameState(turn, phase, weather, state)


A = O.Attack
L = O.Losses
M = O.Move
END = O.End()
