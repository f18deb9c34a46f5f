"""The candidates of a decision and how the best is picked, shared by the levels.

A candidate is one legal order, named by its canonical text (the list is sorted by it, so the
choice never depends on the order in which the rules list the orders), with the values its
samples gave. `end` is the order whose canonical text is `end` in every system with phases.
Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.opponent.dice import OwnDice

END = "end"
TIE = 1e-9  # values closer than this are equal
REFUSED = float("-inf")  # a candidate the rules refused is never taken


@dataclass
class Candidate:
    order: object
    text: str
    values: list[float] = field(default_factory=list)

    @property
    def is_end(self) -> bool:
        return self.text == END

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else REFUSED

    def add(self, value: float | None) -> None:
        self.values.append(REFUSED if value is None else value)


def candidates(plays: Any, view: Any, side: str) -> list[Candidate]:
    """Every legal order of `side` seen in `view`, sorted by canonical text."""
    legal = list(plays.legal_orders(view, side))
    if not legal:
        raise ValueError(f"{side} has no order to give now")
    found = [Candidate(o, plays.grammar.format(o)) for o in legal]
    return sorted(found, key=lambda c: c.text)


def pick_best(cands: list[Candidate], base: float, dice: OwnDice) -> Candidate:
    """The best candidate by mean value, ties broken by `dice`; `end` only when nothing else
    beats both the present position (`base`) and ending."""
    ends = [c for c in cands if c.is_end]
    others = [c for c in cands if not c.is_end and c.mean > REFUSED]
    if not others:
        return ends[0] if ends else dice.choice(cands)
    top = max(c.mean for c in others)
    if ends and top <= max(base, ends[0].mean) + TIE:
        return ends[0]
    return dice.choice([c for c in others if c.mean >= top - TIE])


__all__ = ["END", "REFUSED", "TIE", "Candidate", "candidates", "pick_best"]
