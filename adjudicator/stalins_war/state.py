"""The state of a Stalin's War card game (rules 13.1, 13.2).

Each player's cards: draw deck (top first), hand, discard pile (each entry [number, face up]:
a card discarded in secret, rules 16.3 and 16.4, is face down), removed cards, the Soviet
set-aside cards. A viewer's view (views.py) replaces every number he may not see by None.
Plain JSON both ways. Pure.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from adjudicator.stalins_war.data import AXIS, SOVIET

SIDE_IDS = (AXIS, SOVIET)
ACTION, DRAW, SETUP = "action", "draw", "setup"
OPS, RP, EVENT, RP_OPS, RP_EVENT = "ops", "rp", "event", "rp+ops", "rp+event"
MODES = (OPS, RP, EVENT, RP_OPS, RP_EVENT)
ZERO_MOVE, ZERO_RESET = "zero-move", "zero-reset"
BOX = {
    OPS: "green",
    RP: "grey",
    EVENT: "grey",
    RP_OPS: "grey",
    RP_EVENT: "grey",
    ZERO_MOVE: "yellow",
    ZERO_RESET: "grey",
}  # rule 5.9


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
    """The state by the kit's convention (adjudicator.core.kit): `clone`, `to_json`, `from_json`."""

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
    # the rules version the game started under (core.system's module doc): 1 for a stored
    # state without the key; 2 requires the units that stay in `spend leave` (8.4, 8.6) and
    # keeps a moderator's fixed dice off the hidden shuffles (16.7)
    rules: int = 1
    mud: list[list[Any]] = field(default_factory=list)  # a moderator's [turn, round, on] (Q5)

    @property
    def over(self) -> bool:
        return self.result is not None

    def clone(self) -> SwState:
        """A deep copy (apply never changes the state it is given)."""
        return replace(
            self,
            players={s: _copy_player(p) for s, p in self.players.items()},
            open=_copy_open(self.open),
            decided=list(self.decided),
            discarded=dict(self.discarded),
            played=[dict(r) for r in self.played],
            result=dict(self.result) if self.result is not None else None,
            fixed_dice=list(self.fixed_dice),
            mud=[list(m) for m in self.mud],
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.fixed_dice:  # (the JSON of a state without fixed dice is as it always was)
            del data["fixed_dice"]
        if self.rules == 1:  # (nor of a game under the first rules, or without a mud edit)
            del data["rules"]
        if not self.mud:
            del data["mud"]
        return json.loads(json.dumps(data))  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SwState:
        data = json.loads(json.dumps(data))
        players = {s: Player(**p) for s, p in data.pop("players").items()}
        raw_open = data.pop("open")
        return cls(players=players, open=Open(**raw_open) if raw_open else None, **data)


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


def is_mud(deck_mud: bool, state: SwState) -> bool:
    """Whether the current action round is a mud round (Q5): the turn track data's answer
    (`deck_mud`) unless a moderator set this round (`set mud`)."""
    for turn, rnd, on in state.mud:
        if (turn, rnd) == (state.turn, state.round):
            return bool(on)
    return deck_mud


def hand_count(p: Player) -> int:
    return len(p.hand) + p.hidden
