"""What a viewer sees of Hex duel, and the answers to its questions. Pure.

The view hides the other side's objective while the game runs (the drawer, `status` and `show`
are given the view, so none can tell it); the scores anyone reads leave H3's bonus out, which
would tell whether a side stands on its secret hex.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.events import Viewer
from hexduel.data import SIDE_IDS, Board
from hexduel.rules import total
from hexduel.state import State


def view(state: State, viewer: Viewer) -> State:
    if viewer.over:
        return state
    seen = {s: (h if s in viewer.sides else None) for s, h in state.objective.items()}
    return replace(state, objective=seen)


def status(board: Board, state: State, actor: str) -> str:
    if state.result is not None:
        return f"Game over: {state.result['text']}."
    scores = ", ".join(f"{s} {total(board, state, s, secret=False)}" for s in SIDE_IDS)
    said = f"Turn {state.turn} of {board.turns}, {state.to_move} to move: {scores}."
    return f"{said} {objective(state, actor)}" if state.objective.get(actor) else said


def objective(state: State, actor: str) -> str:
    mine = state.objective.get(actor)
    return f"Your objective: {mine}." if mine else "A side's objective is told to its player."
