"""Hidden duel: a game system with hidden information, defined in a test, registered only by tests.

Two sides, north and south, and a deck of cards (the scenario's values, 1..9). Each of the
scenario's turns north and then south each take three steps: `draw` (the first draw of the game
shuffles the deck with a hidden shuffle; the side takes the top card, which only its player
learns), `roll` (a public d10) and `play` (the card is revealed; the card and the die are added to
the side's score). After the last turn the higher score wins. The deadline default is the step
the side to move owes.

Hidden information: the order of the deck (its length is public) and the card in a side's hand
until it is played. `view(state, viewer)` hides both from a viewer who may not see them; once the
game is over everything is shown. Everything goes through the GameSystem protocol: its grammar is
the shared kit with three verbs, its data a small TOML text, its drawer the render toolkit.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Audience, Event, Viewer
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.scenario import ScenarioError
from adjudicator.core.system import Answer, Outcome, Side, Situation
from adjudicator.grammar import Cursor, GrammarKit, Lexicon, Verb

SIDES = (Side("north", "North", ("n",)), Side("south", "South", ("s",)))
FIRST, SECOND = "north", "south"
PHASE = "duel"
DIE_FACES = 10


@dataclass(frozen=True)
class Draw:
    pass


@dataclass(frozen=True)
class RollDie:
    pass


@dataclass(frozen=True)
class Play:
    pass


STEP_ORDERS = {"draw": Draw, "roll": RollDie, "play": Play}


def _per_side(value=None) -> dict:
    return {side.id: value for side in SIDES}


@dataclass
class DuelState:
    deck: list  # top card first; in a view: None for every card (its length only)
    turn: int = 1
    to_move: str = FIRST
    step: str = "draw"
    shuffled: bool = False
    hands: dict = field(default_factory=_per_side)  # side -> its card, or None
    rolled: int | None = None  # the die of the side to move, between `roll` and `play`
    plays: dict = field(default_factory=lambda: {s.id: [] for s in SIDES})  # [card, die, sum]
    score: dict = field(default_factory=lambda: _per_side(0))
    result: dict | None = None
    sandbox: bool = False


def copy_state(state: DuelState) -> DuelState:
    return replace(
        state, deck=list(state.deck), hands=dict(state.hands),
        plays={s: [list(p) for p in ps] for s, ps in state.plays.items()},
        score=dict(state.score),
    )  # fmt: skip


def _done(c: Cursor, order):
    c.done()
    return order


def _verb(word: str, order: type, text: str) -> Verb:
    entry = {word: (word, f"{text} Example: {word}")}
    return Verb(word, lambda c: _done(c, order()), entry, {order: lambda o: word})


VERBS = (
    _verb("draw", Draw, "Draw the top card of the deck (only you see it)."),
    _verb("roll", RollDie, "Roll the d10 of your turn."),
    _verb("play", Play, "Play your card: it and your die are added to your score."),
)


class Duel(RulesSystem):
    id = "hidden-duel"
    sides = SIDES
    drawer = "tests.systems.duel_drawer"
    headlines = frozenset({"CardPlayed", GAME_ENDED})
    hidden_information = True
    side_maps = True  # its map shows the card in the side's own hand

    def __init__(self, scenario: tuple[list[int], int, str]):
        deck, self.turns, self.title = scenario
        self.deck = list(deck)
        self.grammar = GrammarKit(Lexicon([]), SIDES, VERBS)

    # -- playing
    def initial(self, sandbox, dice):
        state = DuelState(list(self.deck), sandbox=sandbox)
        return Outcome(state, [Event("GameStarted", f"{self.title}: north to draw.")])

    def resolve(self, state: DuelState, actor, order, dice):
        """The kit has resolved the acting side (a deadline's default: the step owed by the
        side to move) and let the order through `check`; every draw comes back in the Outcome."""
        new = copy_state(state)
        events = getattr(self, f"_{state.step}")(new, actor, dice)
        return Outcome(new, events)

    def check(self, state: DuelState, actor: str, order) -> None:
        if state.result is not None:
            raise Rejection("game-over", "the duel is over", "D3")
        if actor != state.to_move:
            raise Rejection("not-your-turn", f"it is {state.to_move}'s turn", "D1")
        if type(order) is not STEP_ORDERS[state.step]:
            raise Rejection("wrong-step", f"{actor} must {state.step} now", "D2")

    def _draw(self, new: DuelState, actor: str, dice) -> list[Event]:
        if not new.shuffled:
            new.deck, new.shuffled = list(dice.shuffle(new.deck, "deck", hidden=True)), True
        card = new.deck.pop(0)
        new.hands[actor], new.step = card, "roll"
        return [self.drawn_privately(actor, card), self.drawn_publicly(actor, card, new)]

    def drawn_privately(self, side: str, card: int) -> Event:
        return Event("CardDrawn", f"You draw the {card}.", {"card": card}, Audience.of_side(side))

    def drawn_publicly(self, side: str, card: int, new: DuelState) -> Event:
        """What everyone learns of a draw (the canary of the contract tests overrides it)."""
        return Event("CardTaken", f"{side} draws a card.", {"side": side, "left": len(new.deck)})

    def _roll(self, new: DuelState, actor: str, dice) -> list[Event]:
        new.rolled = dice.die(DIE_FACES, f"duel {actor}")
        new.step = "play"
        text = f"{actor} rolls {new.rolled}."
        return [Event("DieRolled", text, {"side": actor, "die": new.rolled})]

    def _play(self, new: DuelState, actor: str, dice) -> list[Event]:
        card, die = new.hands[actor], new.rolled
        new.hands[actor], new.rolled = None, None
        new.score[actor] += card + die
        new.plays[actor].append([card, die, card + die])
        text = f"{actor} plays the {card}: {card} + {die} = {card + die}"
        data = {"side": actor, "card": card, "die": die, "score": new.score[actor]}
        return [Event("CardPlayed", text, data), *self._next(new)]

    def _next(self, new: DuelState) -> list[Event]:
        new.step = "draw"
        if new.to_move == FIRST:
            new.to_move = SECOND
            return []
        if new.turn < self.turns:
            new.turn, new.to_move = new.turn + 1, FIRST
            return [Event(PHASE_BEGAN, f"Turn {new.turn}.", {"turn": new.turn, "phase": PHASE})]
        new.result = _result(new.score)
        return [Event(GAME_ENDED, f"Game over: {new.result['text']}.", new.result)]

    # -- the one gate and the deadline
    def legal_orders(self, state, side):
        if state.result is not None or side != state.to_move:
            return []
        return [STEP_ORDERS[state.step]()]

    def default_order(self, state):
        return STEP_ORDERS[state.step]()

    def situation(self, state):
        over = state.result is not None
        key = "" if over else f"{state.turn}|{state.to_move}|{state.step}"
        to_move = () if over else (state.to_move,)
        label = f"turn {state.turn}, {state.to_move} to {state.step}"
        return Situation(state.turn, PHASE, label, to_move, (), state.result, key)

    # -- what a viewer sees
    def view(self, state: DuelState, viewer: Viewer) -> DuelState:
        if viewer.over:
            return state
        seen = copy_state(state)
        seen.deck = [None] * len(state.deck)
        seen.hands = {s: (h if s in viewer.sides else None) for s, h in state.hands.items()}
        return seen

    # -- questions
    def answer(self, state, actor, query):
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        return Answer(self.status_text(state, actor))

    def status_text(self, state: DuelState, actor: str) -> str:
        scores = ", ".join(f"{s} {v}" for s, v in state.score.items())
        if state.result is not None:
            return f"Game over: {state.result['text']} ({scores})."
        text = (f"Turn {state.turn} of {self.turns}: {scores}; {len(state.deck)} cards in the "
                f"deck; {state.to_move} to {state.step}.")  # fmt: skip
        card = state.hands.get(actor)
        return text + (f" Your card: the {card}." if card is not None else "")

    # -- the state as JSON
    def show(self, state):
        return self.state_to_json(state)

    def state_to_json(self, state):
        return {
            "turn": state.turn, "to_move": state.to_move, "step": state.step,
            "deck": list(state.deck), "shuffled": state.shuffled, "hands": dict(state.hands),
            "rolled": state.rolled, "plays": {s: [list(p) for p in ps]
                                              for s, ps in state.plays.items()},
            "score": dict(state.score), "result": state.result, "sandbox": state.sandbox,
        }  # fmt: skip

    def state_from_json(self, data):
        return copy_state(DuelState(**data))


def _result(score: dict) -> dict:
    (a, va), (b, vb) = score.items()
    if va == vb:
        return {"winner": "draw", "text": f"the duel is drawn {va} to {vb}", **score}
    winner, best, other = (a, va, vb) if va > vb else (b, vb, va)
    return {"winner": winner, "text": f"{winner} wins the duel {best} to {other}", **score}


def read(text: str, source: str) -> tuple[list[int], int, str]:
    try:
        data = tomllib.loads(text)
        deck, turns, title = [int(c) for c in data["deck"]], int(data["turns"]), data["title"]
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(source, "file", f"not a duel scenario: {exc}") from None
    if len(deck) < 2 * turns or len(set(deck)) != len(deck):
        raise ScenarioError(source, "deck", "needs distinct cards, two for every turn")
    return deck, turns, str(title)


@dataclass(frozen=True)
class DuelKind(SystemKind):
    """The kit's SystemKind; the bound duel takes the kind's id (the canary's own)."""

    def load(self, text: str, source: str) -> Duel:
        rules = super().load(text, source)
        rules.id = self.id
        return rules


SYSTEM = DuelKind(
    id="hidden-duel",
    title="Hidden duel",
    name="Hidden duel",
    sides=SIDES,
    data="tests.systems/duel.toml",
    read=read,
    rules=Duel,  # the class bound to the data (the canary passes a leaky one)
)
