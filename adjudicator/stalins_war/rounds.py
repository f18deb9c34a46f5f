"""The action rounds (sections 5 to 11): playing a card, the 0-OPS rounds, the end of an action
round (the OPS spent in it: spending.py). Each function changes the state copy it is given and
returns the events; a refusal (Rejection, with the rule) is raised before anything is changed.
Pure.
"""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import PHASE_BEGAN, Event
from adjudicator.core.i18n import t, tn
from adjudicator.stalins_war import texts
from adjudicator.stalins_war.data import AXIS, SOVIET, Deck
from adjudicator.stalins_war.orders import Play, Zero
from adjudicator.stalins_war.state import (
    BOX,
    EVENT,
    OPS,
    RP,
    RP_EVENT,
    RP_OPS,
    ZERO_MOVE,
    ZERO_RESET,
    Open,
    Player,
    SwState,
    is_mud,
)
from adjudicator.stalins_war.turns import draw_cards, hand_event, phase_id, start_draw_phase

RP_PLAYS = (RP, RP_OPS, RP_EVENT)  # rule 10.11: a card played for RP, with or without more
EVENT_PLAYS = (EVENT, RP_EVENT)


def reduction(count: int) -> int:
    """Rules 7.5, 7.6, 7.8 (Q12): the box's reduction is count - 1, never below 0."""
    return max(0, count - 1)


def modified_ops(printed: int, count: int) -> int:
    """Rule 7.8: the modified OPS value, never below 0."""
    return max(0, printed - reduction(count))


def check_play(deck: Deck, state: SwState, side: str, order: Play) -> None:
    p = state.players[side]
    if order.card not in p.hand:
        held = (
            t("you hold no card: take a 0-OPS round (`pass0 move` or `pass0 reset`)")
            if not p.hand
            else t("`hand` shows your cards (privately)")
        )
        raise Rejection(
            "not-in-hand",
            t("card #{card} is not in your hand; {held}", card=order.card, held=held),
            "5.5",
        )
    card = deck.card(side, order.card)
    if order.mode in (RP_OPS, RP_EVENT) and card.rp_with != order.mode.split("+")[1]:
        also = (
            t("`play {card} rp+{use}`", card=card.number, use=card.rp_with)
            if card.rp_with
            else t("no combined play")
        )
        text = (
            t(
                "{card} does not allow RP together with event (its text allows {also}); play "
                "it as ops, rp or event",
                card=card.label,
                also=also,
            )
            if order.mode == RP_EVENT
            else t(
                "{card} does not allow RP together with ops (its text allows {also}); play "
                "it as ops, rp or event",
                card=card.label,
                also=also,
            )
        )
        raise Rejection("not-combined", text, "10.2")
    if order.mode in RP_PLAYS:
        check_rp_play(deck, state, side, p)
    if order.mode in EVENT_PLAYS and side == AXIS and card.gives_rp and p.rp_event:
        raise Rejection(
            "rp-event-limit",
            t(
                "the Axis player has played an event that gives RP this turn already; play "
                "{card} for OPS or RP instead",
                card=card.label,
            ),
            "10.8",
        )


def rp_limit(deck: Deck, state: SwState, side: str) -> tuple[int, str]:
    if side == SOVIET:
        return 2, "10.3"
    limit = deck.axis_rp_limit(state.turn)
    return limit, "10.5" if limit > 1 else "10.4"


def check_rp_play(deck: Deck, state: SwState, side: str, p: Player) -> None:
    if p.last in RP_PLAYS:
        raise Rejection(
            "rp-twice-running",
            t(
                "you played a card for RP in your previous action round of this turn; play a "
                "card for OPS or as an event, or take a 0-OPS round"
            ),
            "10.9",
        )
    limit, rule = rp_limit(deck, state, side)
    if p.rp_plays >= limit:
        raise Rejection(
            "rp-limit",
            tn(
                "the {side} player may play cards for RP at most {n} time in turn {turn} and "
                "has done so; play for OPS or as an event",
                "the {side} player may play cards for RP at most {n} times in turn {turn} and "
                "has done so; play for OPS or as an event",
                limit,
                side=texts.NAMES[side],
                turn=state.turn,
            ),
            rule,
        )


def play(deck: Deck, state: SwState, side: str, order: Play) -> list[Event]:
    check_play(deck, state, side, order)
    p, card, mode = state.players[side], deck.card(side, order.card), order.mode
    mud = is_mud(deck.mud(state.turn, state.round), state)
    p.hand.remove(card.number)  # rule 6.4: the card leaves the hand at once
    ops, gained = 0, 0
    if mode == OPS:
        p.count += 1  # rule 7.4
        ops = modified_ops(card.ops, p.count)  # rules 7.5 to 7.8
        gained = ops
    else:
        if not mud:  # rules 7.10(a), 7.10(b), 7.14; a mud round keeps the count (7.12)
            p.count = 0
        if mode in RP_PLAYS:
            record_rp(p, card.rp)  # rule 10.1
            p.rp_plays += 1
        if mode == RP_OPS:
            ops = card.ops  # Q17: the OPS of a combined play are not reduced
        if mode in EVENT_PLAYS:
            ops = card.event_ops  # rule 7.14: not reduced
            if card.gives_rp:
                record_rp(p, card.event_rp)  # rule 10.7
                if side == AXIS:
                    p.rp_event = True  # rule 10.8
        gained = ops
    p.last = mode
    state.open = Open(side, mode, card.number, ops, gained)
    events = [
        Event(
            "CardPlayed",
            texts.played(deck, state, side, card, mode),
            {"side": side, "card": card.number, "mode": mode, "ops": ops},
        ),
    ]
    if ops == 0:
        events += close_round(deck, state)
    return [
        *events,
        hand_event(deck, side, p, t("you played {card}", card=card.label), state.rules),
    ]


def record_rp(p: Player, rp: tuple[tuple[str, int], ...]) -> None:
    for nation, value in rp:
        p.rp[nation] = p.rp.get(nation, 0) + value


def zero(deck: Deck, state: SwState, side: str, order: Zero, dice: DiceSource) -> list[Event]:
    p = state.players[side]
    if order.variant == "move" and order.swap is not None:
        raise Rejection(
            "no-swap", t("only variant 2 (`pass0 reset swap <CARD>`) swaps a card"), "9.7"
        )
    if order.swap is not None and order.swap not in p.hand:
        raise Rejection(
            "not-in-hand",
            t(
                "card #{card} is not in your hand; `pass0 reset` without a swap, or `hand` to "
                "see your cards",
                card=order.swap,
            ),
            "9.9",
        )
    events: list[Event] = []
    if order.variant == "move":
        kind = ZERO_MOVE  # rule 9.3: the count stays
    else:
        kind = ZERO_RESET
        if not is_mud(deck.mud(state.turn, state.round), state):
            p.count = 0  # rules 9.7, 9.8
        if order.swap is not None:  # rule 9.9: one card, face down; the top card replaces it
            p.hand.remove(order.swap)
            p.discard.append([order.swap, False])
            events += draw_cards(deck, state, side, 1, dice)
    p.last = kind
    state.open = Open(side, kind, None, p.banked, 0)  # rule 9.6: only banked OPS may be spent
    events.insert(
        0,
        Event(
            "ZeroRound",
            texts.zero_text(deck, state, side, kind, order.swap),
            {"side": side, "variant": order.variant},
        ),
    )
    if p.banked == 0:
        events += close_round(deck, state)
    if order.swap is not None:
        events.append(hand_event(deck, side, p, t("you replaced one card (9.9)"), state.rules))
    return events


def close_round(deck: Deck, state: SwState) -> list[Event]:
    """The end of an action round (6.4, 8.21, 11.4), and the next action or the draw phase."""
    opened = state.open
    assert opened is not None
    p = state.players[opened.side]
    removed = False
    if opened.card is not None:
        card = deck.card(opened.side, opened.card)
        removed = card.starred and opened.kind in EVENT_PLAYS  # rules 11.4, 11.5
        if removed:
            p.removed.append(card.number)
        else:
            p.discard.append([card.number, True])  # rules 3.7, 6.4
    p.boxes.append(opened.kind)
    state.played.append(
        {
            "side": opened.side,
            "round": state.round,
            "kind": opened.kind,
            "card": opened.card,
            "box": BOX[opened.kind],
        }
    )
    banked = None
    if opened.kind in (ZERO_MOVE, ZERO_RESET):  # rule 9.6: it spent banked OPS, now gone
        banked, p.banked = p.banked, opened.ops
    summary = texts.round_summary(deck, state, opened, removed, banked)
    state.open = None
    events = [Event("RoundEnded", summary, {"side": opened.side, "round": state.round})]
    if opened.side == AXIS:
        state.to_move = SOVIET
    elif state.round < 5:
        state.round, state.to_move = state.round + 1, AXIS
    else:  # after the 5th Soviet action: other phases (hook, rule 2.4), then the draw phase
        return events + start_draw_phase(state)
    label = t(
        "Turn {turn}, action round {round}: {side} to act.",
        turn=state.turn,
        round=state.round,
        side=texts.NAMES[state.to_move],
    )
    return [*events, Event(PHASE_BEGAN, label, {"turn": state.turn, "phase": phase_id(state)})]
