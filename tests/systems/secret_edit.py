"""Secret edit: the secret dice game (tests/systems/secret_dice.py) with a moderator's editor,
defined in a test, registered only by tests (the app's edits: app/edits.py).

- `set secret <SIDE> <N>` sets a side's hidden die (a secret edit: the verb's `secret` flag
  names it): its events tell the value to that side alone; the public reads only that it
  changed;
- `set score <SIDE> <N>` sets a side's public score (an edit that hides nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from adjudicator.core.events import Audience, Event
from adjudicator.core.kit import SystemKind
from adjudicator.core.system import Outcome
from adjudicator.grammar import MODERATOR, Cursor, GrammarKit, Lexicon, Verb
from tests.systems import secret_dice
from tests.systems.secret_dice import SIDES, VERBS, SecretDice, SecretState


@dataclass(frozen=True)
class SetSecret:
    side: str
    value: int


@dataclass(frozen=True)
class SetScore:
    side: str
    value: int


_SIDES = {"red": "red", "blue": "blue"}


def _set(c: Cursor) -> object:
    what = c.choice("set what", {"secret": SetSecret, "score": SetScore}, "secret or score")
    side = c.choice("the side", _SIDES, "red or blue")
    value = c.number("the value", 1 if what is SetSecret else 0, 6 if what is SetSecret else None)
    c.done()
    return what(side, value)


EDIT = Verb(
    "set",
    _set,
    {
        "set secret": (
            "set secret <SIDE> <N>",
            "Moderator: set a side's secret die (a hidden value). Example: set secret red 4",
        ),
        "set score": (
            "set score <SIDE> <N>",
            "Moderator: set a side's score. Example: set score blue 7",
        ),
    },
    {
        SetSecret: lambda o: f"set secret {o.side} {o.value}",
        SetScore: lambda o: f"set score {o.side} {o.value}",
    },
    group=MODERATOR,
    kind="edit",
    secret=(SetSecret,),
)


class SecretEdit(SecretDice):
    id = "secret-edit"

    def __init__(self, scenario: tuple[int, str]):
        super().__init__(scenario)
        self.grammar = GrammarKit(Lexicon([]), SIDES, (*VERBS, EDIT))

    def edit(self, state: SecretState, order: object) -> Outcome:
        if isinstance(order, SetSecret):
            secret = {**state.secret, order.side: order.value}
            told = Event(
                "SecretSet",
                f"A moderator sets your secret die to {order.value}.",
                {"die": order.value},
                Audience.of_side(order.side),
            )
            public = Event("SecretChanged", f"A moderator changed {order.side}'s secret die.", {})
            return Outcome(replace(state, secret=secret), [told, public])
        assert isinstance(order, SetScore)
        score = {**state.score, order.side: order.value}
        said = Event("ScoreSet", f"A moderator sets {order.side}'s score to {order.value}.", {})
        return Outcome(replace(state, score=score), [said])


SYSTEM = SystemKind(
    id="secret-edit",
    title="Secret edit",
    name="Secret edit",
    sides=SIDES,
    data="tests.systems/secret_dice.toml",
    read=secret_dice.read,
    rules=SecretEdit,
)
