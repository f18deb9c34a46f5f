"""The order language of Hex duel: the kit's shared commands (status, log, help, default, dice,
...) and three verbs of its own. A verb's flags say what it is: `kind` ("order", "moderator" or
"query"), `private` (a question answered to the asking side's player only) and `sides` (the
sides that may use it; empty: both). The kit reads kind_of, is_private and each side's `help`
from them. Pure.
"""

from __future__ import annotations

from adjudicator.core.system import Side
from adjudicator.grammar import Cursor, GrammarKit, Kind, Lexicon, Verb
from hexduel.data import Board
from hexduel.orders import Hold, Move, Objective

SIDES = (Side("red", "Red", ("r",)), Side("blue", "Blue", ("b",)))


def parse_move(c: Cursor) -> Move:
    return Move(c.thing("hex"))  # the kit refuses an unknown hex, naming close ones


VERBS = (
    Verb(
        "move",
        parse_move,
        {"move": ("move <HEX>", "Move to a neighbouring hex and claim it. Example: move B2")},
        {Move: lambda o: f"move {o.to}"},
        aliases=("m",),
    ),
    Verb(
        "hold",
        lambda c: Hold(),
        {"hold": ("hold", "Hold your hex: a d6 of 5 or 6 scores a point. Example: hold")},
        {Hold: lambda o: "hold"},
    ),
    Verb(
        "objective",
        lambda c: Objective(),
        {"objective": ("objective", "Your secret objective. Example: objective")},
        {Objective: lambda o: "objective"},
        kind="query",
        private=True,  # it shows a secret: answered to the asking side's player only
    ),
)


def grammar(board: Board) -> GrammarKit:
    return GrammarKit(Lexicon([Kind("hex", dict.fromkeys(board.grid.hexes))]), SIDES, VERBS)
