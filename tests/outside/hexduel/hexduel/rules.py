"""The rules of Hex duel, pure: no I/O, no clock, no global random.

H1 At the setup a die decides who moves first (odd: red), and each side draws its secret
   objective, a hex other than the homes, from the hidden dice: only its player is told.
H2 Each turn the first player, then the other, gives one order: `move HEX` (to a neighbouring
   hex the enemy patrol is not on; the patrol claims it) or `hold` (a d6: 5 or 6 scores a point).
H3 After the last turn the higher score wins: the points of the hexes a side claimed, its held
   points, and the bonus if it claimed its objective (the objectives are revealed then).
"""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Audience, Event
from hexduel.data import SIDE_IDS, Board, other
from hexduel.orders import Move
from hexduel.state import State

PHASE = "duel"


def setup(board: Board, sandbox: bool, dice: DiceSource) -> tuple[State, list[Event]]:
    """H1: the setup's dice are the game's committed dice, the objectives its hidden ones."""
    first = "red" if dice.roll("first player") % 2 else "blue"
    free = [h for h in board.grid.hexes if h not in board.homes.values()]
    objective: dict[str, str | None] = {
        s: dice.pick(free, f"objective {s}", hidden=True) for s in SIDE_IDS
    }
    at, owner = dict(board.homes), {h: s for s, h in board.homes.items()}
    state = State(first, first, at, owner, objective, dict.fromkeys(SIDE_IDS, 0), sandbox=sandbox)
    events = [Event("FirstPlayer", f"{board.title}: {first} moves first.", {"first": first})]
    for side, hex_ in objective.items():  # private: sealed in the log until the game ends
        text = f"Your objective is {hex_}."
        events.append(Event("ObjectiveDrawn", text, {"hex": hex_}, Audience.of_side(side)))
    return state, events


def resolve(
    board: Board, state: State, side: str, order: object, dice: DiceSource
) -> tuple[State, list[Event]]:
    """H2: an order the gate let through, on a copy of the state."""
    new, events = state.clone(), []
    if isinstance(order, Move):
        new.at[side], new.owner[order.to] = order.to, side
        events.append(
            Event("Moved", f"{side} moves to {order.to} and claims it.", {"to": order.to})
        )
    else:
        die = dice.roll(f"hold {side}")
        new.score[side] += 1 if die >= 5 else 0
        said = f"{side} holds and rolls {die}: {new.score[side]} held."
        events.append(Event("Held", said, {"die": die}))
    return new, events + next_turn(board, new)


def next_turn(board: Board, new: State) -> list[Event]:
    if new.to_move == new.first:
        new.to_move = other(new.first)
        return []
    if new.turn < board.turns:
        new.turn, new.to_move = new.turn + 1, new.first
        return [Event(PHASE_BEGAN, f"Turn {new.turn}.", {"turn": new.turn, "phase": PHASE})]
    totals = {s: total(board, new, s) for s in SIDE_IDS}  # H3
    red, blue = totals["red"], totals["blue"]
    winner = "draw" if red == blue else ("red" if red > blue else "blue")
    aims = ", ".join(f"{s} {h}" for s, h in new.objective.items())
    text = f"{winner} ({red} to {blue}; objectives {aims})"
    new.result = {"winner": winner, "text": text, **totals}
    return [Event(GAME_ENDED, f"Game over: {text}.", new.result)]


def total(board: Board, state: State, side: str, secret: bool = True) -> int:
    """H3: the claimed hexes' points, the held points, the bonus of a claimed objective (with
    `secret` only: while the game runs, a score anyone reads leaves the bonus out)."""
    hexes = sum(board.points.get(h, 1) for h, s in state.owner.items() if s == side)
    claimed = state.owner.get(state.objective[side] or "") == side
    return hexes + state.score[side] + (board.bonus if secret and claimed else 0)
