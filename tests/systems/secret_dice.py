"""Secret dice: a game system whose setup rolls, defined in a test, registered only by tests.

Two sides, red and blue. At the setup a public d6 decides who moves first (odd: red) and each
side is dealt a hidden d6, its secret die, told to that side alone by a private event. Each of
the scenario's turns both sides, the first player first, `roll` (a public d6 added to the
side's score) or `pass`. After the last turn each side adds its secret die; the higher total
wins. The deadline default is `pass`.

Hidden information: each side's secret die until the game ends (`view` hides the other side's).
It shows the setup's dice going the way of every other die: committed, audited, sealed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace

from adjudicator.core import commands as C
from adjudicator.core.dice import RecordingDice
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Audience, Event, Viewer
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.scenario import ScenarioError
from adjudicator.core.system import Answer, Outcome, Side, Situation
from adjudicator.grammar import Cursor, GrammarKit, Lexicon, Verb

SIDES = (Side("red", "Red", ("r",)), Side("blue", "Blue", ("b",)))
PHASE = "dice"


@dataclass(frozen=True)
class Roll:
    pass


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class SecretState:
    first: str
    secret: dict  # side -> its secret die (None in a view that may not see it)
    turn: int = 1
    to_move: str = "red"
    score: dict = field(default_factory=lambda: {"red": 0, "blue": 0})
    result: dict | None = None
    sandbox: bool = False


def _done(c: Cursor, order):
    c.done()
    return order


VERBS = (
    Verb(
        "roll",
        lambda c: _done(c, Roll()),
        {"roll": ("roll", "Roll a d6. Example: roll")},
        {Roll: lambda o: "roll"},
    ),
    Verb(
        "pass",
        lambda c: _done(c, Pass()),
        {"pass": ("pass", "Pass. Example: pass")},
        {Pass: lambda o: "pass"},
    ),
)


class SecretDice(RulesSystem):
    id = "secret-dice"
    sides = SIDES
    drawer = "tests.systems.race_drawer"
    headlines = frozenset({GAME_ENDED})
    hidden_information = True
    side_maps = False  # the secret is text, sent as a private event

    def __init__(self, scenario: tuple[int, str]):
        self.turns, self.title = scenario
        self.grammar = GrammarKit(Lexicon([]), SIDES, VERBS)

    def initial(self, sandbox, dice):
        dice = RecordingDice(dice)
        first = "red" if dice.roll("first player") % 2 else "blue"
        secret = {s.id: dice.die(6, f"secret {s.id}", hidden=True) for s in SIDES}
        state = SecretState(first, secret, to_move=first, sandbox=sandbox)
        events = [Event("FirstPlayer", f"{self.title}: {first} moves first.", {"first": first})]
        events += [
            Event("SecretDealt", f"Your secret die is {v}.", {"die": v}, Audience.of_side(s))
            for s, v in secret.items()
        ]
        return Outcome(state, events, dice.rolls)

    def resolve(self, state: SecretState, actor, order, dice):
        """An order the kit's default gate let through (exactly what legal_orders lists)."""
        score, events = dict(state.score), []
        if isinstance(order, Roll):
            die = dice.roll(f"roll {actor}")
            score[actor] += die
            events.append(Event("Rolled", f"{actor} rolls {die}: {score[actor]}.", {"die": die}))
        new, more = self._next(replace(state, score=score))
        return Outcome(new, events + more)

    def _next(self, state: SecretState) -> tuple[SecretState, list[Event]]:
        other = "blue" if state.to_move == "red" else "red"
        if other != state.first:
            return replace(state, to_move=other), []
        if state.turn < self.turns:
            turn = state.turn + 1
            began = Event(PHASE_BEGAN, f"Turn {turn}.", {"turn": turn, "phase": PHASE})
            return replace(state, turn=turn, to_move=state.first), [began]
        total = {s: state.score[s] + state.secret[s] for s in state.score}
        best = max(total.values())
        leaders = [s for s, v in total.items() if v == best]
        winner = leaders[0] if len(leaders) == 1 else "draw"
        text = f"{winner} wins {total['red']} to {total['blue']} (secret dice {state.secret})"
        result = {"winner": winner, "text": text, **total}
        return replace(state, result=result), [Event(GAME_ENDED, f"Game over: {text}.", result)]

    def legal_orders(self, state, side):
        return [] if state.result or side != state.to_move else [Roll(), Pass()]

    def situation(self, state):
        over = state.result is not None
        key = "" if over else f"{state.turn}|{state.to_move}"
        to_move = () if over else (state.to_move,)
        return Situation(state.turn, PHASE, f"turn {state.turn}", to_move, (), state.result, key)

    def default_order(self, state):
        return Pass()

    def view(self, state: SecretState, viewer: Viewer) -> SecretState:
        if viewer.over:
            return state
        seen = {s: (v if s in viewer.sides else None) for s, v in state.secret.items()}
        return replace(state, secret=seen)

    def answer(self, state, actor, query):
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        mine = state.secret.get(actor)
        text = f"Turn {state.turn}: red {state.score['red']}, blue {state.score['blue']}."
        return Answer(text + (f" Your secret die: {mine}." if mine is not None else ""))

    def state_to_json(self, state):
        return {
            "first": state.first,
            "secret": dict(state.secret),
            "turn": state.turn,
            "to_move": state.to_move,
            "score": dict(state.score),
            "result": state.result,
            "sandbox": state.sandbox,
        }

    def state_from_json(self, data):
        return SecretState(**{**data, "secret": dict(data["secret"]), "score": dict(data["score"])})


def read(text: str, source: str) -> tuple[int, str]:
    try:
        data = tomllib.loads(text)
        return int(data["turns"]), str(data["title"])
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(source, "file", f"not a secret dice scenario: {exc}") from None


SYSTEM = SystemKind(
    id="secret-dice",
    title="Secret dice",
    name="Secret dice",
    sides=SIDES,
    data="tests.systems/secret_dice.toml",
    read=read,
    rules=SecretDice,
)
