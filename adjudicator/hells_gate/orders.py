"""Orders (imperative nouns) and queries of the Hell's Gate order language.

The grammar (adjudicator.hells_gate.grammar) turns text into these and back; the engine applies
the orders. Queries change nothing and are answered by the front end from the state (and the log).
`Status`, `Log`, `Help`, `Dice` and `Default` are shared by every game system: they live in
adjudicator.core.commands and are re-exported here, so `orders.Status` is `commands.Status`.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.commands import Default, Dice, Help, Log, Status


@dataclass(frozen=True, eq=False)
class Attack:
    """An attack on a hex by units (8.4). The same attack whatever order its units are named
    in: two Attacks are equal when their units are the same set, so that an attack the gate
    lists as "72id wiking" is the one a player types as "wiking 72id". The order typed is kept
    (the log and the reports name the units as the player did)."""

    hex: str
    units: tuple[str, ...]
    decisive: bool = False
    flip: str | None = None

    def _key(self) -> tuple[object, ...]:
        return (self.hex, frozenset(self.units), len(self.units), self.decisive, self.flip)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Attack) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(frozen=True)
class Losses:
    """The defender's answer to a pending hit decision (8.23-8.34).

    units: each takes one hit, in order. retreat: None; a hex (all remaining units retreat there);
    or a tuple of (unit, hex) pairs (a split retreat, 8.31).
    """

    units: tuple[str, ...] = ()
    retreat: str | tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class Move:
    unit: str
    path: tuple[str, ...]  # the hexes entered, in order (9.2)


@dataclass(frozen=True)
class Enter:
    unit: str
    hex: str


@dataclass(frozen=True)
class Rebuild:
    unit: str


@dataclass(frozen=True)
class Breakout:
    unit: str


@dataclass(frozen=True)
class End:
    pass


# -- moderator orders (sandbox games only)
@dataclass(frozen=True)
class Place:
    unit: str
    where: str  # a hex id, "eliminated", "off", or "turn N"


@dataclass(frozen=True)
class Flip:
    unit: str


@dataclass(frozen=True)
class SetTurn:
    turn: int


@dataclass(frozen=True)
class SetPhase:
    phase: str


@dataclass(frozen=True)
class SetWeather:
    weather: str


@dataclass(frozen=True)
class SetOOS:
    unit: str
    on: bool


@dataclass(frozen=True)
class SetRetreat:
    unit: str
    on: bool


# -- queries
@dataclass(frozen=True)
class Preview:
    attack: Attack


@dataclass(frozen=True)
class Options:
    unit: str | None = None  # one unit's orders (all of them), or every unit's, grouped


@dataclass(frozen=True)
class Units:
    where: str | None = None  # a hex id, a side, or None for all


@dataclass(frozen=True)
class Supply:
    pass


PLAYER_ORDERS = (Attack, Losses, Move, Enter, Rebuild, Breakout, End)
MODERATOR_ORDERS = (Place, Flip, SetTurn, SetPhase, SetWeather, SetOOS, SetRetreat, Dice, Default)
QUERIES = (Preview, Options, Status, Units, Supply, Log, Help)
Order = (
    Attack
    | Losses
    | Move
    | Enter
    | Rebuild
    | Breakout
    | End
    | Default
    | Place
    | Flip
    | SetTurn
    | SetPhase
    | SetWeather
    | SetOOS
    | SetRetreat
    | Dice
)
PlayerOrder = Attack | Losses | Move | Enter | Rebuild | Breakout | End  # PLAYER_ORDERS

__all__ = [
    "MODERATOR_ORDERS",
    "PLAYER_ORDERS",
    "QUERIES",
    "Attack",
    "Breakout",
    "Default",
    "Dice",
    "End",
    "Enter",
    "Flip",
    "Help",
    "Log",
    "Losses",
    "Move",
    "Options",
    "Order",
    "Place",
    "PlayerOrder",
    "Preview",
    "Rebuild",
    "SetOOS",
    "SetPhase",
    "SetRetreat",
    "SetTurn",
    "SetWeather",
    "Status",
    "Supply",
    "Units",
]
