"""The one gate: whose turn it is and what he may give now (`check`, every refusal citing its
rule), the orders a side may give listed one by one (`legal_orders`: options, the demo players,
the contract tests), the templates of those it does not list (spending names any hex and unit of
the players' own board), and the deadline default (5.7). Pure.

The gate checks the turn and the kind of order; what an order asks of a hand or of the OPS left
(a card in hand, the RP limits, the cost of a spend) the rules check as they apply it, before
anything is changed.
"""

from __future__ import annotations

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from adjudicator.stalins_war import texts
from adjudicator.stalins_war.data import Deck
from adjudicator.stalins_war.orders import (
    Discard,
    Draw,
    End,
    Play,
    Roll,
    SpendCombat,
    SpendLeave,
    SpendStrategic,
    TotalWar,
    Zero,
)
from adjudicator.stalins_war.rounds import check_play
from adjudicator.stalins_war.spent import result_text
from adjudicator.stalins_war.state import DRAW, MODES, SETUP, SwState

SPEND_TEMPLATES = (
    "spend leave <HEX> <UNIT>... [stays <UNIT>...]",
    "spend strategic <UNIT>... [from <HEX>]",
    "spend combat <HEX>...",
)
ROLL_TEMPLATE, TOTAL_WAR_TEMPLATE, DISCARD_TEMPLATE = (
    "roll <N>d<F> <PURPOSE>",
    "totalwar",
    "discard <CARD>...",
)


def check(state: SwState, side: str, order: object) -> None:
    """Refuse an order `side` may not give now: the game over (12.5), not a player's, or not
    his turn or not an order of this moment; `roll` and `totalwar` work at any time."""
    if state.result is not None:
        raise Rejection(
            "game-over", t("the game is over: {result}", result=result_text(state.result)), "12.5"
        )
    if side not in state.players:
        raise Rejection("not-a-side", t("only the Axis or the Soviet player gives orders"), None)
    if isinstance(order, Roll | TotalWar):
        return
    check_turn(state, side, order)


def check_turn(state: SwState, side: str, order: object) -> None:
    name = texts.NAMES[state.to_move]
    if side != state.to_move:
        if state.phase == SETUP:  # the deal: the Axis player first (3.10)
            text = t(
                "the {side} player draws his hand now (the Axis player first); wait for him "
                "(`roll` and `hand` work at any time)",
                side=name,
            )
            raise Rejection("not-your-turn", text, "3.10")
        if state.phase == DRAW:
            text = t(
                "the {side} player decides in the draw phase now; wait for him (`roll` and "
                "`hand` work at any time)",
                side=name,
            )
            raise Rejection("not-your-turn", text, "4.2")
        text = t(
            "the {side} player has action round {round} now; wait for him (`roll` and "
            "`hand` work at any time)",
            side=name,
            round=state.round,
        )
        raise Rejection("not-your-turn", text, "5.4")
    if state.phase == SETUP:
        if not isinstance(order, Draw):
            raise Rejection(
                "setup", t("the game begins with the deal: say `draw` for your hand"), "3.10"
            )
        return
    if state.phase == DRAW:
        if not isinstance(order, Discard | Draw):
            raise Rejection(
                "draw-phase",
                t("this is the draw phase: `discard <CARD>...` face down, then `draw`"),
                "4.1",
            )
        return
    if state.open is None and not isinstance(order, Play | Zero):
        raise Rejection(
            "no-action-yet",
            t(
                "first choose your action: `play <CARD> ops|rp|event`, or a 0-OPS round "
                "`pass0 move` / `pass0 reset`"
            ),
            "5.5",
        )
    if state.open is not None and not isinstance(
        order, End | SpendLeave | SpendStrategic | SpendCombat
    ):
        raise Rejection(
            "round-open",
            t(
                "your action round is open ({ops} OPS left): `spend ...` them, or `end`",
                ops=state.open.ops,
            ),
            "5.2",
        )


def legal_orders(deck: Deck, state: SwState, side: str) -> list[object]:
    if state.result is not None or side != state.to_move:
        return []
    hand = sorted(state.players[side].hand)
    if state.phase == SETUP:
        return [Draw()]
    if state.phase == DRAW:
        return [Draw(), *(Discard((n,)) for n in hand)]
    if state.open is not None:
        return [End()]
    legal: list[object] = []
    for n in hand:
        for mode in MODES:
            try:
                check_play(deck, state, side, Play(n, mode))
            except Rejection:
                continue
            legal.append(Play(n, mode))
    return [*legal, Zero("move"), Zero("reset"), *(Zero("reset", n) for n in hand)]


def templates(state: SwState, side: str) -> list[str]:
    if state.result is not None or side not in state.players:
        return []
    found = [ROLL_TEMPLATE]
    if not state.players[side].total_war:
        found.append(TOTAL_WAR_TEMPLATE)
    if side == state.to_move and state.phase == DRAW:
        found.append(DISCARD_TEMPLATE)
    if side == state.to_move and state.open is not None and state.open.ops > 0:
        found += SPEND_TEMPLATES
    return found


def default_order(state: SwState) -> object:
    """A passed deadline: `draw` (no discard), `end`, or a variant-1 0-OPS round (5.7)."""
    if state.phase in (DRAW, SETUP):
        return Draw()
    return End() if state.open is not None else Zero("move")
