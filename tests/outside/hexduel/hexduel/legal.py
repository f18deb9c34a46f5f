"""The gate of Hex duel: every order a side may give now (H2). The kit's default `check` accepts
exactly these and refuses anything else, naming them; the rules never see another order. Pure.
"""

from __future__ import annotations

from hexduel.data import Board, other
from hexduel.orders import Hold, Move
from hexduel.state import State


def legal_orders(board: Board, state: State, side: str) -> list[object]:
    if state.result is not None or side != state.to_move:
        return []
    enemy = state.at[other(side)]
    return [Hold(), *(Move(h) for h in board.grid.neighbours(state.at[side]) if h != enemy)]
