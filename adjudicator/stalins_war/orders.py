"""The orders, the draw-phase decisions and the questions of Stalin's War (rule-numbered); the
grammar reads them from text and writes their canonical text. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Play:  # 5.5: one card as OPS, RP or event (rp+ops, rp+event: rule 10.2)
    card: int
    mode: str


@dataclass(frozen=True)
class Zero:  # section 9: variant 1 ("move") or 2 ("reset", optional swap of one card, 9.9)
    variant: str
    swap: int | None = None


@dataclass(frozen=True)
class SpendLeave:  # 8.3 to 8.7: the units that started the round in an enemy-ZOC hex leave
    hex: str
    units: tuple[str, ...]
    stays: tuple[str, ...] = ()
    none_stay: bool = False  # `stays none`: no other unit started the round there (8.4)


@dataclass(frozen=True)
class SpendStrategic:  # 8.9, 8.13: 1 OPS a unit; the Move marker where it left
    units: tuple[str, ...]
    origin: str | None = None


@dataclass(frozen=True)
class SpendCombat:  # 8.14 to 8.16: 1 OPS a Combat marker, one a hex
    hexes: tuple[str, ...]


@dataclass(frozen=True)
class End:  # close the action round (8.21: OPS left are lost)
    pass


@dataclass(frozen=True)
class Discard:  # 4.1: draw phase, any cards of the hand
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Draw:  # 4.2 to 4.4: done discarding; the draw follows when both have decided
    pass


@dataclass(frozen=True)
class Roll:  # companion play: a die roll with a stated purpose, posted to the group
    count: int
    faces: int
    purpose: str


@dataclass(frozen=True)
class TotalWar:  # 3.3, 3.4: the player declares that his Total War begins
    pass


@dataclass(frozen=True)
class HandQ:
    pass


@dataclass(frozen=True)
class DeckQ:
    pass


@dataclass(frozen=True)
class TrackQ:
    pass


@dataclass(frozen=True)
class OptionsQ:
    pass


QUERIES = (HandQ, DeckQ, TrackQ, OptionsQ)


# -- a moderator's edits of the position (edit.py; kind "edit": the kit routes them to `edit`)
HIDDEN_PLACES = ("hand", "top", "bottom")  # where a card is hidden from the other side (16.1)
OPEN_PLACES = ("discard", "removed", "aside")  # face up, out of the game, set aside (3.6, 3.8)


@dataclass(frozen=True)
class PlaceHidden:  # a card into a hand or onto the deck (top or bottom): a secret edit
    side: str
    card: int
    where: str  # HIDDEN_PLACES


@dataclass(frozen=True)
class PlaceOpen:  # a card onto the discard pile (face up), out of the game, or set aside
    side: str
    card: int
    where: str  # OPEN_PLACES


@dataclass(frozen=True)
class SetDeck:  # the whole draw deck, top first: a secret edit
    side: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class SetNumber:  # count (7.2), banked (1.8), handsize (1.11), rpplays (10.3) of a side
    what: str
    side: str
    value: int


@dataclass(frozen=True)
class SetRp:  # the RP recorded for one nationality (10.1)
    side: str
    nation: str
    value: int


@dataclass(frozen=True)
class SetTurn:  # 1.2: 1 to 18
    turn: int


@dataclass(frozen=True)
class SetRound:  # 1.3, 5.4: the action round and who acts in it
    round: int
    side: str


@dataclass(frozen=True)
class SetMud:  # Q5, 7.12: the current action round is a mud round, or not
    on: bool


EDITS = (PlaceHidden, PlaceOpen, SetDeck, SetNumber, SetRp, SetTurn, SetRound, SetMud)
SECRET_EDITS = (PlaceHidden, SetDeck)
