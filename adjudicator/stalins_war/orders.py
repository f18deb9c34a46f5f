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
