"""Shared test helpers: a game driven with fixed dice, and states built by hand."""

from __future__ import annotations

from adjudicator.core.dice import FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
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


def empty_state(scenario, turn=1, phase="soviet-combat", weather="snow", **placements) -> GameState:
    """A state with only the named units on the map: placements like `u29tk="B6"`.

    Every other unit is 'off'. Pass `reduced`, `oos`, `retreated` sets as keyword lists:
    `reduced=["29tk"]`."""
    flags = {k: set(placements.pop(k, ())) for k in ("reduced", "oos", "retreated", "moved", "attacked")}
    units = {}
    for uid, spec in scenario.units.items():
        units[uid] = UnitState(uid, spec.side, "off")
    for key, hex_id in placements.items():
        uid = key[1:] if key.startswith("u") else key
        u = units[uid]
        u.box, u.hex = "map", hex_id
    for flag, ids in flags.items():
        for uid in ids:
            setattr(units[uid], "reduced" if flag == "reduced" else flag, True)
    return GameState(turn, phase, weather, units)


A = O.Attack
L = O.Losses
M = O.Move
END = O.End()
