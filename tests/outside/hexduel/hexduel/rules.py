"""The rules of Hex duel, pure: no I/O, no clock, no global random.

H1 Each turn red, then blue, gives one order: `move HEX` (to a neighbouring hex the enemy
   patrol is not on; the patrol claims it) or `hold` (a d6: 5 or 6 scores a point).
H2 A side's first order draws its secret objective, a hex, from the hidden dice: only its
   player is told; claiming it at the end is worth the bonus.
H3 After the last turn the higher score wins (the objectives are revealed then).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Audience, Event

SIDES = ("red", "blue")


@dataclass(frozen=True)
class Move:
    to: str


@dataclass(frozen=True)
class Hold:
    pass


@dataclass(frozen=True)
class Board:
    """The scenario: the map and the scoring, from the data file."""

    title: str
    turns: int
    columns: str
    rows: int
    homes: dict[str, str]
    points: dict[str, int]
    bonus: int

    @property
    def hexes(self) -> list[str]:
        return [f"{c}{r}" for c in self.columns for r in range(1, self.rows + 1)]

    def neighbours(self, hex_: str) -> list[str]:
        """Flat-topped columns, the odd ones (A, C, ...) half a hex lower."""
        col, row = self.columns.index(hex_[0]), int(hex_[1:])
        up = 0 if col % 2 == 0 else -1  # the row of the upper diagonal neighbours
        near = [(col, row - 1), (col, row + 1)]
        near += [(c, row + d) for c in (col - 1, col + 1) for d in (up, up + 1)]
        return [f"{self.columns[c]}{r}" for c, r in near if self.on_map(c, r)]

    def on_map(self, col: int, row: int) -> bool:
        return 0 <= col < len(self.columns) and 1 <= row <= self.rows


@dataclass(frozen=True)
class State:
    at: dict[str, str]  # side -> the hex of its patrol
    owner: dict[str, str]  # hex -> the side that claimed it
    objective: dict[str, str | None]  # side -> its secret hex (None: not drawn, or hidden)
    score: dict[str, int]  # the points scored by holding (the hexes count at the end)
    turn: int = 1
    to_move: str = "red"
    result: dict[str, Any] | None = None


def start(board: Board) -> State:
    homes = board.homes
    return State(
        dict(homes), {h: s for s, h in homes.items()}, dict.fromkeys(SIDES), {s: 0 for s in SIDES}
    )


def legal(board: Board, state: State, side: str) -> list[object]:
    if state.result is not None or side != state.to_move:
        return []
    enemy = state.at[other(side)]
    return [Hold(), *(Move(h) for h in board.neighbours(state.at[side]) if h != enemy)]


def apply(
    board: Board, state: State, side: str, order: object, dice: DiceSource
) -> tuple[State, list[Event]]:
    if order not in legal(board, state, side):
        raise Rejection("illegal", f"{side} may not do that now", "H1")
    events, objective = [], dict(state.objective)
    if objective[side] is None:  # H2: a hidden draw; its value reaches its side only
        objective[side] = dice.pick(board.hexes, f"objective {side}", hidden=True)
        text = f"Your objective is {objective[side]}."
        events.append(
            Event("ObjectiveDrawn", text, {"hex": objective[side]}, Audience.of_side(side))
        )
    at, owner, score = dict(state.at), dict(state.owner), dict(state.score)
    if isinstance(order, Move):
        at[side], owner[order.to] = order.to, side
        events.append(
            Event("Moved", f"{side} moves to {order.to} and claims it.", {"to": order.to})
        )
    else:
        die = dice.die(6, f"hold {side}")
        score[side] += 1 if die >= 5 else 0
        events.append(
            Event("Held", f"{side} holds and rolls {die}: {score[side]} held.", {"die": die})
        )
    new = replace(state, at=at, owner=owner, objective=objective, score=score)
    return next_turn(board, new, events)


def next_turn(board: Board, new: State, events: list[Event]) -> tuple[State, list[Event]]:
    if new.to_move == "red":
        return replace(new, to_move="blue"), events
    if new.turn < board.turns:
        events.append(
            Event(PHASE_BEGAN, f"Turn {new.turn + 1}.", {"turn": new.turn + 1, "phase": "duel"})
        )
        return replace(new, turn=new.turn + 1, to_move="red"), events
    totals = {s: total(board, new, s) for s in SIDES}
    red, blue = totals["red"], totals["blue"]
    winner = "draw" if red == blue else ("red" if red > blue else "blue")
    result = {"winner": winner, "text": f"{winner} ({red} to {blue})", **totals}
    events.append(Event(GAME_ENDED, f"Game over: {result['text']}.", result))
    return replace(new, result=result), events


def total(board: Board, state: State, side: str, secret: bool = True) -> int:
    """H3: the claimed hexes' points, the held points, the bonus of a claimed objective (with
    `secret` only: while the game runs, a score anyone reads leaves the bonus out)."""
    hexes = sum(board.points.get(h, 1) for h, s in state.owner.items() if s == side)
    claimed = state.owner.get(state.objective[side] or "") == side
    bonus = board.bonus if secret and claimed else 0
    return hexes + state.score[side] + bonus


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]
