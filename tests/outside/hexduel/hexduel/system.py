"""Hex duel as a pbem game system, on the kit (adjudicator/core/kit.py): `HexDuel`, the rules
bound to a board, and `SYSTEM`, the SystemKind the entry point `pbem.games` names.

The kit's `apply` does the rest: who acts for a `default` (the deadline's, or a sandbox
moderator's), a sandbox moderator's `dice`, the gate (exactly what legal_orders lists), then
`resolve` with the dice. Pure.
"""

from __future__ import annotations

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.events import GAME_ENDED, Viewer
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import Answer, Outcome, Situation
from hexduel import legal, rules, views
from hexduel.data import Board, read
from hexduel.grammar import SIDES, grammar
from hexduel.orders import Hold, Objective
from hexduel.state import State


class HexDuel(RulesSystem):
    id = "hexduel"
    sides = SIDES
    drawer = "hexduel.drawer"
    headlines = frozenset({"Moved", "Held", GAME_ENDED})  # what a post after a turn tells
    hidden_information = True  # each side's objective
    side_maps = False  # the secret is a text, told privately: one map for everyone
    state_type = State

    def __init__(self, board: Board):
        self.board, self.title = board, board.title
        self.grammar = grammar(board)

    def initial(self, sandbox: bool, dice: DiceSource) -> Outcome:
        recording = RecordingDice(dice)
        state, events = rules.setup(self.board, sandbox, recording)
        return Outcome(state, events, recording.rolls)

    def resolve(self, state: State, side: str, order: object, dice: DiceSource) -> Outcome:
        new, events = rules.resolve(self.board, state, side, order, dice)
        return Outcome(new, events)  # the kit adds the dice drawn

    def legal_orders(self, state: State, side: str) -> list[object]:
        return legal.legal_orders(self.board, state, side)

    def default_order(self, state: State) -> object:
        return Hold()  # a passed deadline holds

    def situation(self, state: State) -> Situation:
        if state.result is not None:
            label = f"turn {state.turn}, game over"
            return Situation(state.turn, rules.PHASE, label, (), (), state.result, "")
        label, key = f"turn {state.turn}, {state.to_move} to move", f"{state.turn}|{state.to_move}"
        return Situation(state.turn, rules.PHASE, label, (state.to_move,), (), None, key)

    def view(self, state: State, viewer: Viewer) -> State:
        return views.view(state, viewer)

    def answer(self, state: State, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)  # each side's commands, from the verbs
        if isinstance(query, Objective):
            return Answer(views.objective(state, actor))
        return Answer(views.status(self.board, state, actor))


SYSTEM = SystemKind(
    id="hexduel",
    title="Hex duel: two patrols",
    name="Hex duel",
    sides=SIDES,
    data="hexduel/hexduel.toml",
    read=read,
    rules=HexDuel,
)
