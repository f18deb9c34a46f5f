"""Shared test helpers: a game driven through its GameSystem with fixed dice, and states built
by hand."""

from __future__ import annotations

from adjudicator.core.dice import FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate import views
from adjudicator.hells_gate.grammar import SIDES, HellsGateGrammar
from adjudicator.hells_gate.state import RULES_VERSION, GameState, UnitState
from adjudicator.hells_gate.system import HellsGateSystem


def new_game(scenario, sandbox: bool = False):
    """The Outcome of a new game (its setup rolls no die: FixedDice([]) would raise)."""
    return HellsGateSystem(scenario).initial(sandbox, FixedDice([]))


class Game:
    """A game under test: `g.do(side, order, dice=[...])` applies an order with fixed dice,
    through the GameSystem as the application core does (the kit's `dice` and `default`)."""

    def __init__(self, scenario, state: GameState | None = None, sandbox: bool = False):
        self.system = HellsGateSystem(scenario)
        self.scen = scenario
        self.state = state if state is not None else new_game(scenario, sandbox).state
        self.events = []
        self.last = None

    def do(self, side: str, order, dice=()):
        out = self.system.apply(self.state, side, order, FixedDice(list(dice)))
        self.state, self.last = out.state, out
        self.events.extend(out.events)
        return out

    def refuse(self, side: str, order, dice=()) -> Rejection:
        before = self.state.to_json()
        try:
            self.system.apply(self.state, side, order, FixedDice(list(dice)))
        except Rejection as exc:
            assert self.state.to_json() == before
            return exc
        raise AssertionError(f"{order} was accepted")

    def legal(self, side: str) -> list:
        """legal_orders(state, side) of the game as it stands."""
        return self.system.legal_orders(self.state, side)

    def preview(self, side: str, attack) -> dict:
        """The numbers of an attack (views.preview), asked of any side in any phase."""
        return views.preview(self.scen, self.state, side, attack)

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
    rules=RULES_VERSION,
) -> GameState:
    """A state with only the given units on the map, e.g. `units={"29tk": "B6"}`; every other
    unit is out of play ('off'). Markers are given as lists of unit ids; `rules`: the rules
    version (the newest, as a new game's; 1 as every stored game's)."""
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
    return GameState(turn, phase, weather, state, rules=rules)


A = O.Attack
L = O.Losses
M = O.Move
END = O.End()
