"""The state of a Stalin's War card game (rules 13.1, 13.2) and the orders (rule-numbered).

Each player's cards: draw deck (top first), hand, discard pile (each entry [number, face up]:
a card discarded in secret, rules 16.3 and 16.4, is face down), removed cards, the Soviet
set-aside cards. A viewer's view (`hidden_view`) replaces every number he may not see by None.
Plain JSON both ways. Pure.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from adjudicator.stalins_war.cards import AXIS, SOVIET

SIDE_IDS = (AXIS, SOVIET)
ACTION, DRAW, SETUP = "action", "draw", "setup"
OPS, RP, EVENT, RP_OPS, RP_EVENT = "ops", "rp", "event", "rp+ops", "rp+event"
MODES = (OPS, RP, EVENT, RP_OPS, RP_EVENT)
ZERO_MOVE, ZERO_RESET = "zero-move", "zero-reset"
BOX = {OPS: "green", RP: "grey", EVENT: "grey", RP_OPS: "grey", RP_EVENT: "grey",
       ZERO_MOVE: "yellow", ZERO_RESET: "grey"}  # fmt: skip  # rule 5.9


def other(side: str) -> str:
    return SOVIET if side == AXIS else AXIS


@dataclass
class Player:
    hand: list[Any] = field(default_factory=list)
    deck: list[Any] = field(default_factory=list)
    discard: list[list[Any]] = field(default_factory=list)  # [number | None, face_up]
    removed: list[int] = field(default_factory=list)
    set_aside: list[int] = field(default_factory=list)  # Soviet #1 to #6 not yet received
    hand_size: int = 6
    count: int = 0  # the consecutive OPS count (7.2)
    banked: int = 0  # banked OPS (1.8, Q6: always 0 until 18.0 is supplied)
    rp: dict[str, int] = field(default_factory=dict)  # RP recorded per nationality (10.1)
    rp_plays: int = 0  # RP plays this turn (10.3 to 10.5)
    last: str | None = None  # his previous action of this turn (10.9)
    rp_event: bool = False  # Axis: an RP-giving event played this turn (10.8)
    total_war: bool = False  # 3.3, 3.4
    boxes: list[str] = field(default_factory=list)  # his actions of this turn (5.8)
    hidden: int = 0  # cards hidden in his hand (a view: the count of None)


@dataclass
class Open:
    """The action round being played: what the player took, the OPS left, what he spent."""

    side: str
    kind: str
    card: int | None
    ops: int
    gained: int
    spent: list[str] = field(default_factory=list)  # one line per spend
    zoc: dict[str, dict[str, Any]] = field(default_factory=dict)  # hex -> started, left, paid
    moves: list[str] = field(default_factory=list)  # Move markers (8.12)
    combat: list[str] = field(default_factory=list)  # Combat markers (8.14 to 8.16)


@dataclass
class SwState:
    players: dict[str, Player]
    turn: int = 1
    round: int = 1
    phase: str = ACTION
    to_move: str = AXIS
    open: Open | None = None
    decided: list[str] = field(default_factory=list)  # the draw phase: who has decided (4.2)
    discarded: dict[str, int] = field(default_factory=dict)  # draw-phase discards, counts (4.3)
    played: list[dict[str, Any]] = field(default_factory=list)  # this turn's public record
    result: dict[str, Any] | None = None
    sandbox: bool = False
    fixed_dice: list[int] = field(default_factory=list)  # a sandbox moderator's `dice`

    @property
    def over(self) -> bool:
        return self.result is not None

    def clone(self) -> SwState:
        return copy(self)


def to_json(state: SwState) -> dict[str, Any]:
    data = asdict(state)
    if not state.fixed_dice:  # (the JSON of a state without fixed dice is as it always was)
        del data["fixed_dice"]
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


def from_json(data: dict[str, Any]) -> SwState:
    data = json.loads(json.dumps(data))
    players = {s: Player(**p) for s, p in data.pop("players").items()}
    raw_open = data.pop("open")
    return SwState(players=players, open=Open(**raw_open) if raw_open else None, **data)


def _copy_player(p: Player) -> Player:
    return replace(
        p,
        hand=list(p.hand),
        deck=list(p.deck),
        discard=[list(d) for d in p.discard],
        removed=list(p.removed),
        set_aside=list(p.set_aside),
        rp=dict(p.rp),
        boxes=list(p.boxes),
    )


def _copy_open(o: Open | None) -> Open | None:
    if o is None:
        return None
    zoc = {
        h: {k: (list(v) if isinstance(v, list) else v) for k, v in z.items()}
        for h, z in o.zoc.items()
    }
    return replace(o, spent=list(o.spent), zoc=zoc, moves=list(o.moves), combat=list(o.combat))


def copy(state: SwState) -> SwState:
    """A deep copy (apply never changes the state it is given)."""
    return replace(
        state,
        players={s: _copy_player(p) for s, p in state.players.items()},
        open=_copy_open(state.open),
        decided=list(state.decided),
        discarded=dict(state.discarded),
        played=[dict(r) for r in state.played],
        result=dict(state.result) if state.result is not None else None,
        fixed_dice=list(state.fixed_dice),
    )


def hidden_view(state: SwState, sides: frozenset[str]) -> SwState:
    """The state as a viewer of `sides` may see it (16.1 to 16.6): decks as their size, other
    hands as their size, face-down discards as a count."""
    seen = copy(state)
    for side, p in seen.players.items():
        p.deck = [None] * len(p.deck)
        p.discard = [[n if up else None, up] for n, up in p.discard]
        if side not in sides:
            p.hidden, p.hand = len(p.hand), []
    return seen


def hand_count(p: Player) -> int:
    return len(p.hand) + p.hidden


# -- the orders
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
