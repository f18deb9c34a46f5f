"""The texts players read: the hand (for its owner only), the public record of a play, the round
summary, the track, the deck counts and the status. Everything but `hand_text` is built from
what everyone may know (16.1, 16.2): counts, and the cards played face up. Pure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.stalins_war.cards import AXIS, SOVIET, Card, Deck
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
    from adjudicator.stalins_war.state import SpendLeave

NAMES = {AXIS: "Axis", SOVIET: "Soviet"}
KIND_WORDS = {
    OPS: "OPS round (green)",
    RP: "RP round (grey)",
    EVENT: "event round (grey)",
    RP_OPS: "RP and OPS round (grey)",
    RP_EVENT: "RP and event round (grey)",
    ZERO_MOVE: "0-OPS round, variant 1 (yellow)",
    "zero-reset": "0-OPS round, variant 2 (grey)",
}  # rule 5.9
MODE_WORDS = {
    OPS: "for OPS",
    RP: "for RP",
    EVENT: "as an event",
    RP_OPS: "for RP and OPS (10.2)",
    RP_EVENT: "for RP and as an event (10.2)",
}


def box_label(count: int) -> str:
    """The box of the Consecutive OPS track the count is in (7.6, Q12)."""
    if count == 0:
        return "0, N/A"
    nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(count, f"{count}th")
    return f"{nth}, Full OPS" if count == 1 else f"{nth}, -{count - 1} OPS"


def started(deck: Deck) -> str:
    sample = (
        " This is the SAMPLE deck: invented cards, not the published ones." if deck.sample else ""
    )
    return (
        f"{deck.title}: each player draws {deck.hand_size} cards (3.10); the Soviet cards "
        f"#1 to #6 are set aside (3.8). Each player says `draw` to shuffle his Blitzkrieg "
        "cards and draw his hand (3.10), the Axis player first."
        f"{sample}"
    )


def hand_text(deck: Deck, side: str, p: Player, why: str) -> str:
    lines = [
        f"Your hand ({NAMES[side]}, {len(p.hand)} card(s), hand size {p.hand_size}; after {why}):"
    ]
    lines += [f"- {deck.card(side, n).line()}" for n in sorted(p.hand)] or ["- (no card)"]
    lines.append(f"Deck {len(p.deck)}, discard pile {len(p.discard)}, removed {len(p.removed)}.")
    return "\n".join(lines)


def played(deck: Deck, state: SwState, side: str, card: Card, mode: str) -> str:
    p = state.players[side]
    head = f"{NAMES[side]} plays {card.label} {MODE_WORDS[mode]}"
    parts = []
    ops = state.open.ops if state.open is not None else 0
    if mode == OPS:  # rules 7.4, 7.5
        parts.append(f"printed OPS {card.ops}, count {p.count} ({box_label(p.count)}): {ops} OPS")
    else:
        parts.append(f"count {p.count} ({box_label(p.count)})" + (f": {ops} OPS" if ops else ""))
    if mode in (RP, RP_OPS, RP_EVENT):
        parts.append("RP " + (", ".join(f"{n} +{v}" for n, v in card.rp if v) or "none"))
    if mode in (EVENT, RP_EVENT):
        parts.append(f"event: {card.event}")
        if card.gives_rp:
            parts.append("event RP " + ", ".join(f"{n} +{v}" for n, v in card.event_rp if v))
    return f"{head} ({'; '.join(parts)})."


def zero_text(deck: Deck, state: SwState, side: str, kind: str, swap: int | None) -> str:
    p = state.players[side]
    if kind == ZERO_MOVE:
        return (
            f"{NAMES[side]} takes a 0-OPS round, variant 1: units may move or fight, the "
            f"count stays {p.count} (9.3)."
        )
    swapped = " and replaces one card from the deck (9.9)" if swap is not None else ""
    return (
        f"{NAMES[side]} takes a 0-OPS round, variant 2: no movement, no combat, the count "
        f"is {p.count} (9.7){swapped}."
    )


def leave_text(order: SpendLeave, started: list[str], left: list[str], cost: int) -> str:
    stay = [u for u in started if u not in left]
    who = ", ".join(order.units)
    if cost:
        return f"{who} leave {order.hex} (enemy ZOC): all that started there have left, 1 OPS (8.3, 8.6)"
    return f"{who} leave {order.hex} (enemy ZOC); {', '.join(stay)} stay, 0 OPS (8.4)"


def ops_line(opened: Open) -> str:
    if opened.gained == 0 and not opened.spent:
        return ""
    spent = opened.gained - opened.ops
    detail = f": {'; '.join(opened.spent)}" if opened.spent else ""
    lost = f"; {opened.ops} OPS unspent are lost (8.21)" if opened.ops else ""
    return f" OPS {opened.gained}, spent {spent}{detail}{lost}."


def round_summary(deck: Deck, state: SwState, opened: Open, removed: bool) -> str:
    side = opened.side
    what = KIND_WORDS[opened.kind]
    gone = ""
    if opened.card is not None:
        label = deck.card(side, opened.card).label
        what = f"{label}, {what}"
        gone = (
            f" {label} is removed from the game (11.4)."
            if removed
            else f" {label} goes to the discard pile."
        )
    head = f"Action round {state.round} of turn {state.turn}, {NAMES[side]}: {what}."
    return f"{head}{ops_line(opened)}{gone}\n{track_text(deck, state)}"


def track_text(deck: Deck, state: SwState) -> str:
    lines = []
    for side, p in state.players.items():
        rp = ", ".join(f"{n} {v}" for n, v in p.rp.items() if v) or "none"
        boxes = " ".join(p.boxes) or "-"
        lines.append(
            f"{NAMES[side]}: count {p.count} ({box_label(p.count)}); RP recorded {rp}; RP plays "
            f"this turn {p.rp_plays}; actions {boxes}; hand {hand_count(p)}, deck {len(p.deck)}, "
            f"discard {len(p.discard)}, removed {len(p.removed)}."
        )
    return "\n".join(lines)


def deck_text(deck: Deck, state: SwState) -> str:
    lines = []
    for side, p in state.players.items():
        face_up = [deck.card(side, n).label for n, up in p.discard if up and n is not None]
        down = sum(1 for _, up in p.discard if not up)
        removed = ", ".join(deck.card(side, n).label for n in p.removed) or "none"
        aside = f"; set aside {', '.join(f'#{n}' for n in p.set_aside)}" if p.set_aside else ""
        tw = "begun" if p.total_war else "not begun"
        lines.append(
            f"{NAMES[side]}: deck {len(p.deck)}, hand {hand_count(p)}, discard pile "
            f"{len(p.discard)} (face up: {', '.join(face_up) or 'none'}; face down: {down}), "
            f"removed: {removed}{aside}; Total War {tw}."
        )
    return "\n".join(lines)


def where(state: SwState) -> str:
    if state.result is not None:
        return f"Game over: {state.result['text']}."
    if state.phase == SETUP:
        return f"Setup (3.10): the {NAMES[state.to_move]} player says `draw` for his hand."
    if state.phase == DRAW:
        return f"Turn {state.turn}, draw phase: the {NAMES[state.to_move]} player decides."
    opened = state.open
    more = f" (round open: {opened.ops} OPS left)" if opened is not None else ""
    return (
        f"Turn {state.turn} of the game, action round {state.round}: "
        f"{NAMES[state.to_move]} to act{more}."
    )


def status_text(deck: Deck, state: SwState, actor: str) -> str:
    lines = [where(state), track_text(deck, state)]
    if actor in state.players and state.players[actor].hand:
        lines.append(
            f"Your hand: {', '.join(f'#{n}' for n in sorted(state.players[actor].hand))} "
            "(`hand` for the cards)."
        )
    return "\n".join(lines)
