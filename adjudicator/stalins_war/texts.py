"""The texts players read: the hand (for its owner only), the public record of a play, the round
summary, the track, the deck counts and the status. Everything but `hand_text` is built from
what everyone may know (16.1, 16.2): counts, and the cards played face up. Each text is a
core.i18n Msg (its English value is the text stored games replay). Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.core.i18n import Msg, cat, lines, name, t, tn
from adjudicator.stalins_war.data import AXIS, SOVIET, Card, Deck
from adjudicator.stalins_war.spent import result_text, spent_msg
from adjudicator.stalins_war.state import (
    DRAW,
    EVENT,
    OPS,
    RP,
    RP_EVENT,
    RP_OPS,
    SETUP,
    ZERO_MOVE,
    Open,
    Player,
    SwState,
    hand_count,
)

if TYPE_CHECKING:
    from adjudicator.stalins_war.orders import SpendLeave

NAMES = {AXIS: name("Axis", ru="Ось"), SOVIET: name("Soviet", ru="СССР")}
KIND_WORDS = {
    OPS: t("OPS round (green)"),
    RP: t("RP round (grey)"),
    EVENT: t("event round (grey)"),
    RP_OPS: t("RP and OPS round (grey)"),
    RP_EVENT: t("RP and event round (grey)"),
    ZERO_MOVE: t("0-OPS round, variant 1 (yellow)"),
    "zero-reset": t("0-OPS round, variant 2 (grey)"),
}  # rule 5.9
MODE_WORDS = {
    OPS: t("for OPS"),
    RP: t("for RP"),
    EVENT: t("as an event"),
    RP_OPS: t("for RP and OPS (10.2)"),
    RP_EVENT: t("for RP and as an event (10.2)"),
}


def box_label(count: int) -> Msg:
    """The box of the Consecutive OPS track the count is in (7.6, Q12); the printed track's
    English box names, as the Russian source quotes them too ("1st, Full OPS")."""
    if count == 0:
        return t("0, N/A")
    nth = name({1: "1st", 2: "2nd", 3: "3rd"}.get(count, f"{count}th"), ru=f"{count}-я")
    if count == 1:
        return t("{nth}, Full OPS", nth=nth)
    return t("{nth}, -{reduction} OPS", nth=nth, reduction=count - 1)


def started(deck: Deck) -> Msg:
    sample = (
        t(" This is the SAMPLE deck: invented cards, not the published ones.")
        if deck.sample
        else ""
    )
    return t(
        "{title}: each player draws {n} cards (3.10); the Soviet cards #1 to #6 are set aside "
        "(3.8). Each player says `draw` to shuffle his Blitzkrieg cards and draw his hand "
        "(3.10), the Axis player first.{sample}",
        title=deck.title,
        n=deck.hand_size,
        sample=sample,
    )


def hand_text(deck: Deck, side: str, p: Player, why: Msg | str, rules: int = 1) -> Msg:
    """`rules`: the game's rules version (1: the wording its stored games logged)."""
    head = (
        tn(
            "Your hand ({side}, {n} card, hand size {size}; after {why}):",
            "Your hand ({side}, {n} cards, hand size {size}; after {why}):",
            len(p.hand),
            side=NAMES[side],
            size=p.hand_size,
            why=why,
        )
        if rules >= 2
        else tn(
            "Your hand ({side}, {n} card(s), hand size {size}; after {why}):",
            "Your hand ({side}, {n} card(s), hand size {size}; after {why}):",
            len(p.hand),
            side=NAMES[side],
            size=p.hand_size,
            why=why,
        )
    )
    cards = [t("- {line}", line=deck.card(side, n).line()) for n in sorted(p.hand)]
    tail = t(
        "Deck {deck}, discard pile {discard}, removed {removed}.",
        deck=len(p.deck),
        discard=len(p.discard),
        removed=len(p.removed),
    )
    return lines([head, *(cards or [t("- (no card)")]), tail])


def played(deck: Deck, state: SwState, side: str, card: Card, mode: str) -> Msg:
    p = state.players[side]
    parts: list[Msg] = []
    ops = state.open.ops if state.open is not None else 0
    box = box_label(p.count)
    if mode == OPS:  # rules 7.4, 7.5
        parts.append(
            t(
                "printed OPS {printed}, count {count} ({box}): {ops} OPS",
                printed=card.ops,
                count=p.count,
                box=box,
                ops=ops,
            )
        )
    elif ops:
        parts.append(t("count {count} ({box}): {ops} OPS", count=p.count, box=box, ops=ops))
    else:
        parts.append(t("count {count} ({box})", count=p.count, box=box))
    if mode in (RP, RP_OPS, RP_EVENT):
        parts.append(t("RP {rp}", rp=card.rp_said(card.rp, "+")))
    event = mode in (EVENT, RP_EVENT)
    if event and state.rules < 2:  # the wording games under the first rules logged
        parts.append(t("event: {event}", event=card.event_text))
    if event and card.gives_rp:
        parts.append(t("event RP {rp}", rp=card.rp_said(card.event_rp, "+")))
    if event and state.rules >= 2:  # the card's event text, a sentence of its own after them
        return t(
            "{side} plays {card} {mode} ({parts}). {event}",
            side=NAMES[side],
            card=card.label,
            mode=MODE_WORDS[mode],
            parts=cat(*parts, sep="; "),
            event=card.event_text,
        )
    return t(
        "{side} plays {card} {mode} ({parts}).",
        side=NAMES[side],
        card=card.label,
        mode=MODE_WORDS[mode],
        parts=cat(*parts, sep="; "),
    )


def zero_text(deck: Deck, state: SwState, side: str, kind: str, swap: int | None) -> Msg:
    p = state.players[side]
    if kind == ZERO_MOVE:
        return t(
            "{side} takes a 0-OPS round, variant 1: units may move or fight, the count stays "
            "{count} (9.3).",
            side=NAMES[side],
            count=p.count,
        )
    if swap is not None:
        return t(
            "{side} takes a 0-OPS round, variant 2: no movement, no combat, the count is "
            "{count} (9.7) and replaces one card from the deck (9.9).",
            side=NAMES[side],
            count=p.count,
        )
    return t(
        "{side} takes a 0-OPS round, variant 2: no movement, no combat, the count is "
        "{count} (9.7).",
        side=NAMES[side],
        count=p.count,
    )


def leave_text(order: SpendLeave, started: list[str], left: list[str], cost: int) -> Msg:
    stay = [u for u in started if u not in left]
    return spent_msg(
        "leave-paid" if cost else "leave-free",
        who=", ".join(order.units),
        hex=order.hex,
        stay=", ".join(stay),
    )


def ops_line(opened: Open, banked: int | None = None) -> Msg | str:
    """The OPS of a round, what they paid and what is left; `banked`: a 0-OPS round's banked
    OPS when it began (9.6), None for a round with OPS of its own."""
    if banked is not None:
        return banked_line(opened, banked)
    if opened.gained == 0 and not opened.spent:
        return ""
    spent = opened.gained - opened.ops
    detail = _detail(opened)
    lost = t("; {ops} OPS unspent are lost (8.21)", ops=opened.ops) if opened.ops else ""
    return t(
        " OPS {gained}, spent {spent}{detail}{lost}.",
        gained=opened.gained,
        spent=spent,
        detail=detail,
        lost=lost,
    )


def banked_line(opened: Open, banked: int) -> Msg | str:
    """A 0-OPS round pays from banked OPS (9.6): those it spent are gone, the rest stay banked
    (until the end of the turn, 12.3)."""
    if banked == 0 and not opened.spent:
        return ""
    kept = t("; {ops} banked OPS stay banked", ops=opened.ops) if opened.ops else ""
    return t(
        " Banked OPS {banked}, spent {spent}{detail}{kept}.",
        banked=banked,
        spent=banked - opened.ops,
        detail=_detail(opened),
        kept=kept,
    )


def _detail(opened: Open) -> Msg | str:
    if not opened.spent:
        return ""
    return t(": {lines}", lines=cat(*(spent_msg(s) for s in opened.spent), sep="; "))


def round_summary(
    deck: Deck, state: SwState, opened: Open, removed: bool, banked: int | None = None
) -> Msg:
    side = opened.side
    what: Msg = KIND_WORDS[opened.kind]
    gone: Msg | str = ""
    if opened.card is not None:
        label = deck.card(side, opened.card).label
        what = t("{label}, {what}", label=label, what=what)
        gone = (
            t(" {label} is removed from the game (11.4).", label=label)
            if removed
            else t(" {label} goes to the discard pile.", label=label)
        )
    return t(
        "Action round {round} of turn {turn}, {side}: {what}.{ops}{gone}\n{track}",
        round=state.round,
        turn=state.turn,
        side=NAMES[side],
        what=what,
        ops=ops_line(opened, banked),
        gone=gone,
        track=track_text(deck, state),
    )


BOX_RU = {
    OPS: "ОПР",
    RP: "ОП",
    EVENT: "событие",
    RP_OPS: "ОП+ОПР",
    RP_EVENT: "ОП+событие",
    ZERO_MOVE: "0-ОПР(1)",
    "zero-reset": "0-ОПР(2)",
}


def _rp_books(p: Player, deck: Deck) -> Msg:
    parts = [t("{nation} {value}", nation=deck.nation(n), value=v) for n, v in p.rp.items() if v]
    return cat(*parts, sep=", ") if parts else t("none")


def _boxes(p: Player) -> Msg | str:
    """His actions of this turn as the log names them ("ops zero-move")."""
    return cat(*(name(b, ru=BOX_RU.get(b)) for b in p.boxes), sep=" ") if p.boxes else "-"


def track_text(deck: Deck, state: SwState) -> Msg:
    rows = []
    for side, p in state.players.items():
        rows.append(
            t(
                "{side}: count {count} ({box}); RP recorded {rp}; RP plays this turn {plays}; "
                "actions {boxes}; hand {hand}, deck {deck}, discard {discard}, removed "
                "{removed}.",
                side=NAMES[side],
                count=p.count,
                box=box_label(p.count),
                rp=_rp_books(p, deck),
                plays=p.rp_plays,
                boxes=_boxes(p),
                hand=hand_count(p),
                deck=len(p.deck),
                discard=len(p.discard),
                removed=len(p.removed),
            )
        )
    return lines(rows)


def where(state: SwState) -> Msg:
    if state.result is not None:
        return t("Game over: {result}.", result=result_text(state.result))
    side = NAMES[state.to_move]
    if state.phase == SETUP:
        return t("Setup (3.10): the {side} player says `draw` for his hand.", side=side)
    if state.phase == DRAW:
        return t("Turn {turn}, draw phase: the {side} player decides.", turn=state.turn, side=side)
    opened = state.open
    more = t(" (round open: {ops} OPS left)", ops=opened.ops) if opened is not None else ""
    return t(
        "Turn {turn} of the game, action round {round}: {side} to act{more}.",
        turn=state.turn,
        round=state.round,
        side=side,
        more=more,
    )
