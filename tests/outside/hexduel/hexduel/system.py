"""Hex duel as a pbem game system: the GameSystem (adjudicator/core/system.py) over the rules,
its grammar (the shared kit plus `move` and `hold`), and the SystemType the entry point names."""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, replace
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.events import GAME_ENDED, Event, Viewer
from adjudicator.core.scenario import ScenarioError
from adjudicator.core.system import SYSTEM_ACTOR, Answer, Outcome, Side, Situation
from adjudicator.grammar import Cursor, GrammarKit, Kind, Lexicon, Verb
from hexduel import rules
from hexduel.rules import Board, Hold, Move, State

SIDES = (Side("red", "Red", ("r",)), Side("blue", "Blue", ("b",)))


def parse_move(c: Cursor) -> Move:
    to = c.thing("hex")
    c.done()
    return Move(to)


def parse_hold(c: Cursor) -> Hold:
    c.done()
    return Hold()


MOVE = ("move <HEX>", "Move to a neighbouring hex and claim it. Example: move B2")
HOLD = ("hold", "Hold your hex: a d6 of 5 or 6 scores a point. Example: hold")
VERBS = (
    Verb("move", parse_move, {"move": MOVE}, {Move: lambda o: f"move {o.to}"}),
    Verb("hold", parse_hold, {"hold": HOLD}, {Hold: lambda o: "hold"}),
)


class HexDuel:
    id = "hexduel"
    sides = SIDES
    drawer = "hexduel.drawer"
    headlines = frozenset({"Moved", "Held", GAME_ENDED})
    hidden_information = True
    side_maps = False  # the secret is a text, sent privately

    def __init__(self, board: Board):
        self.board, self.title = board, board.title
        self.grammar = GrammarKit(Lexicon([Kind("hex", dict.fromkeys(board.hexes))]), SIDES, VERBS)

    def initial(self, sandbox: bool, dice: DiceSource) -> Outcome:
        return Outcome(rules.start(self.board), [Event("GameStarted", f"{self.title}: red moves.")])

    def apply(self, state: State, actor: str, order: object, dice: DiceSource) -> Outcome:
        if isinstance(order, C.Default):
            order = self.default_order(state)
        if actor == SYSTEM_ACTOR:  # the deadline (or a moderator's `default`) acts for the side
            actor = state.to_move
        recording = RecordingDice(dice)  # every die comes back in the Outcome: the log keeps it
        new, events = rules.apply(self.board, state, actor, order, recording)
        return Outcome(new, events, recording.rolls)

    def legal_orders(self, state: State, side: str) -> list[object]:
        return rules.legal(self.board, state, side)

    def order_templates(self, state: State, side: str) -> tuple[str, ...]:
        return ()

    def default_order(self, state: State) -> object:
        return Hold()

    def situation(self, state: State) -> Situation:
        over = state.result is not None
        to_move = () if over else (state.to_move,)
        key = "" if over else f"{state.turn}|{state.to_move}"
        label = f"turn {state.turn}, {state.to_move} to move"
        return Situation(state.turn, "duel", label, to_move, (), state.result, key)

    def view(self, state: State, viewer: Viewer) -> State:
        if viewer.over:
            return state
        seen = {s: (h if s in viewer.sides else None) for s, h in state.objective.items()}
        return replace(state, objective=seen)

    def kind_of(self, order: object) -> str:
        return "query" if isinstance(order, C.Status | C.Help | C.Log) else "order"

    def is_private(self, query: object) -> bool:
        return False

    def answer(self, state: State, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return Answer(self.grammar.help(query.command))
        scores = ", ".join(f"{s} {rules.total(self.board, state, s, False)}" for s in rules.SIDES)
        text = f"Turn {state.turn} of {self.board.turns}: {scores}."
        mine = state.objective.get(actor)
        return Answer(text + (f" Your objective: {mine}." if mine else ""))

    def show(self, state: State) -> dict[str, Any]:
        return self.state_to_json(state)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return asdict(state)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return State(**data)


@dataclass(frozen=True)
class HexDuelType:
    id: str = "hexduel"
    title: str = "Hex duel"
    name: str = "Hex duel"
    sides: tuple[Side, ...] = SIDES
    data_package: str = "hexduel"
    data_file: str = "hexduel.toml"
    default_source: str = "hexduel/hexduel.toml"

    def load(self, text: str, source: str) -> HexDuel:
        try:
            data = tomllib.loads(text)
            board = Board(**data)
        except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ScenarioError(source, "file", f"not a hex duel scenario: {exc}") from None
        homes = set(board.homes.values())
        if set(board.homes) != set(rules.SIDES) or not homes <= set(board.hexes):
            raise ScenarioError(source, "homes", "a home hex on the map for red and for blue")
        return HexDuel(board)


SYSTEM = HexDuelType()
