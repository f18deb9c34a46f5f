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
from adjudicator.stalins_war.rounds import check_play, modified_ops
from adjudicator.stalins_war.spent import result_text
from adjudicator.stalins_war.state import (
    ACTION,
    DRAW,
    EVENT,
    MODES,
    OPS,
    RP,
    RP_EVENT,
    RP_OPS,
    SETUP,
    ZERO_MOVE,
    ZERO_RESET,
    SwState,
)

SPEND_TEMPLATES = (
    "spend leave <HEX> <UNIT>... [stays <UNIT>...]",
    "spend strategic <UNIT>... [from <HEX>]",
    "spend combat <HEX>...",
)
LEAVE_TEMPLATE_2 = "spend leave <HEX> <UNIT>... stays <UNIT>..."  # rules 2 (8.4): or `stays none`
ROLL_TEMPLATE, TOTAL_WAR_TEMPLATE, DISCARD_TEMPLATE = (
    "roll <N>d<F> <PURPOSE>",
    "totalwar",
    "discard <CARD>...",
)


SPEND_RULES = {SpendLeave: "8.6", SpendStrategic: "8.9", SpendCombat: "8.15"}  # what each costs


def check(deck: Deck, state: SwState, side: str, order: object) -> None:
    """Refuse an order `side` may not give now: the game over (12.5), not a player's, a spend
    after his round has ended (why it ended), or not his turn or not an order of this moment;
    `roll` and `totalwar` work at any time."""
    if state.result is not None:
        raise Rejection(
            "game-over", t("the game is over: {result}", result=result_text(state.result)), "12.5"
        )
    if side not in state.players:
        raise Rejection("not-a-side", t("only the Axis or the Soviet player gives orders"), "1.1")
    if isinstance(order, Roll | TotalWar):
        return
    check_round_over(deck, state, side, order)
    check_turn(state, side, order)


def check_round_over(deck: Deck, state: SwState, side: str, order: object) -> None:
    """A `spend` or `end` right after the player's own action round has ended: refused by the
    rule that ended it (an RP round 10.2, an event without OPS 11.2, a 0-OPS round without
    banked OPS 9.6, an OPS play reduced to 0 7.8, its last OPS spent: the cost rule of the spend,
    8.6, 8.9 or 8.15, or `end` 8.21), not as the other player's turn."""
    if not isinstance(order, End | SpendLeave | SpendStrategic | SpendCombat):
        return
    if state.open is not None or state.phase not in (ACTION, DRAW) or not state.played:
        return
    last = state.played[-1]
    if last.get("side") != side:
        return
    kind, number = last.get("kind"), last.get("card")
    card = deck.cards[side].get(number) if isinstance(number, int) else None
    rule, why = (
        SPEND_RULES.get(type(order), "8.21"),
        t("it ended when its last OPS was spent, or at `end` (OPS left are lost, 8.21)"),
    )
    if kind == RP or (kind == RP_OPS and card is not None and card.ops == 0):
        rule, why = "10.2", t("it was an RP round, which ended when the RP were recorded")
    elif kind in (EVENT, RP_EVENT) and card is not None and card.event_ops == 0:
        rule = "11.2" if kind == EVENT else "10.2"
        why = t("it was an event round and the event gives no OPS, so it ended at once")
    elif kind in (ZERO_MOVE, ZERO_RESET) and state.players[side].banked > 0:
        rule, why = "8.21", t("it was ended by `end` with banked OPS left")
    elif kind in (ZERO_MOVE, ZERO_RESET):
        rule = "9.6"
        why = t(
            "it was a 0-OPS round, which pays only from banked OPS; none were left, so it ended"
        )
    elif (
        kind == OPS and card is not None and modified_ops(card.ops, state.players[side].count) == 0
    ):
        rule = "7.8"
        why = t(
            "{card} gave 0 OPS at your consecutive OPS count of {count}, so it ended at once",
            card=card.label,
            count=state.players[side].count,
        )
    now = (
        t(
            "the {side} player has action round {round} now; wait for him (`roll` and "
            "`hand` work at any time)",
            side=texts.NAMES[state.to_move],
            round=state.round,
        )
        if state.phase == ACTION
        else t("the draw phase has begun (`discard <CARD>...`, then `draw`)")
    )
    raise Rejection(
        "round-over",
        t(
            "your action round {round} is over: {why}; {now}",
            round=last.get("round"),
            why=why,
            now=now,
        ),
        rule,
    )


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
        if state.rules >= 2:
            found[-3] = LEAVE_TEMPLATE_2
    return found


def default_order(state: SwState) -> object:
    """A passed deadline: `draw` (no discard), `end`, or a variant-1 0-OPS round (5.7)."""
    if state.phase in (DRAW, SETUP):
        return Draw()
    return End() if state.open is not None else Zero("move")
