"""Dice race: a minimal game system, defined in a test, registered only by tests.

Two sides, red and blue, take turns; on his turn a player says `roll` (a d6 is added to his
score) or `pass`; when blue has moved, the next turn begins. The first to reach the scenario's
goal wins; after the last turn the higher score wins (or it is a draw). The deadline default is
`pass`. Everything a system offers goes through the GameSystem protocol: its grammar is the
shared kit with two verbs, its data a small TOML text, its drawer the render toolkit.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field

from adjudicator.core import commands as C
from adjudicator.core.dice import RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Event
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.scenario import ScenarioError
from adjudicator.core.system import Answer, Outcome, Side, Situation
from adjudicator.grammar import Cursor, GrammarKit, Lexicon, Verb

SIDES = (Side("red", "Red", ("r",)), Side("blue", "Blue", ("b",)))
SCENARIO = 'title = "Dice race to 12"\ngoal = 12\nturns = 6\n'


@dataclass(frozen=True)
class Roll:
    pass


@dataclass(frozen=True)
class Pass:
    pass


@dataclass
class RaceState:
    turn: int = 1
    to_move: str = "red"
    score: dict = field(default_factory=lambda: {"red": 0, "blue": 0})
    result: dict | None = None
    sandbox: bool = False


def _done(c: Cursor, order):
    c.done()
    return order


VERBS = (
    Verb("roll", lambda c: _done(c, Roll()), {"roll": ("roll", "Roll a die. Example: roll")},
         {Roll: lambda o: "roll"}),
    Verb("pass", lambda c: _done(c, Pass()), {"pass": ("pass", "Pass. Example: pass")},
         {Pass: lambda o: "pass"}, aliases=("end",)),
)  # fmt: skip


class Race(RulesSystem):
    id = "dice-race"
    sides = SIDES
    drawer = "tests.systems.race_drawer"
    headlines = frozenset({"Rolled", GAME_ENDED})
    hidden_information = False
    side_maps = False  # no hidden information

    def __init__(self, scenario: dict):
        self.goal, self.turns, self.title = scenario["goal"], scenario["turns"], scenario["title"]
        self.grammar = GrammarKit(Lexicon([]), SIDES, VERBS)

    def initial(self, sandbox, dice):
        state = RaceState(sandbox=sandbox)
        return Outcome(state, [Event("GameStarted", f"{self.title}: red to roll.")])

    def check(self, state: RaceState, actor, order) -> None:
        if state.result is not None:
            raise Rejection("game-over", "the race is over", "R3")
        if actor != state.to_move:
            raise Rejection("not-your-turn", f"it is {state.to_move}'s turn", "R1")

    def resolve(self, state: RaceState, actor, order, dice):
        new = RaceState(state.turn, state.to_move, dict(state.score), None, state.sandbox)
        events = []
        dice = RecordingDice(dice)  # every roll comes back in the Outcome (the log keeps it)
        if isinstance(order, Roll):
            die = dice.roll(f"race {actor}")
            new.score[actor] += die
            events.append(
                Event("Rolled", f"{actor} rolls {die}: {new.score[actor]}.", {"die": die})
            )
        elif not isinstance(order, Pass):
            raise Rejection("not-an-order", "say `roll` or `pass`", "R1")
        self._next(new, events)
        return Outcome(new, events, dice.rolls)

    def _next(self, new: RaceState, events: list) -> None:
        best = max(new.score.values())
        if best >= self.goal or (new.to_move == "blue" and new.turn == self.turns):
            leaders = [s for s, v in new.score.items() if v == best]
            winner = leaders[0] if len(leaders) == 1 else "draw"
            new.result = {"winner": winner, "text": f"{winner} wins the race", **new.score}
            events.append(Event(GAME_ENDED, f"Game over: {new.result['text']}.", new.result))
        elif new.to_move == "red":
            new.to_move = "blue"
        else:
            new.turn, new.to_move = new.turn + 1, "red"
            events.append(
                Event(PHASE_BEGAN, f"Turn {new.turn}.", {"turn": new.turn, "phase": "race"})
            )

    def legal_orders(self, state, side):
        return [] if state.result or side != state.to_move else [Roll(), Pass()]

    def situation(self, state):
        over = state.result is not None
        key = "" if over else f"{state.turn}|{state.to_move}"
        to_move = () if over else (state.to_move,)
        return Situation(
            state.turn, "race", f"turn {state.turn}, race", to_move, (), state.result, key
        )

    def default_order(self, state):
        return Pass()

    def answer(self, state, actor, query):
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        return Answer(f"Turn {state.turn}: red {state.score['red']}, blue {state.score['blue']}; "
                      f"{state.to_move} to move.")  # fmt: skip

    def state_to_json(self, state):
        return {"turn": state.turn, "to_move": state.to_move, "score": dict(state.score),
                "result": state.result, "sandbox": state.sandbox}  # fmt: skip

    def state_from_json(self, data):
        return RaceState(data["turn"], data["to_move"], dict(data["score"]), data["result"],
                         data["sandbox"])  # fmt: skip


def read(text: str, source: str) -> dict:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "file", f"not valid TOML: {exc}") from None
    return {"goal": int(data["goal"]), "turns": int(data["turns"]), "title": str(data["title"])}


SYSTEM = SystemKind(
    id="dice-race",
    title="Dice race",
    name="Dice race",
    sides=SIDES,
    data="tests.systems/race.toml",
    read=read,
    rules=Race,
)
