"""What a viewer sees (16.1 to 16.6) and the answers to the questions: `view` (the hidden hand
view), `hand`, `options`, `deck`, `track` and the status. Everything but a player's own hand is
built from what everyone may know: counts, and the cards played face up. Pure.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.core.events import Viewer
from adjudicator.core.i18n import Msg, cat, lines, t
from adjudicator.stalins_war import legal, texts
from adjudicator.stalins_war.data import Deck
from adjudicator.stalins_war.orders import DeckQ, HandQ, OptionsQ, TrackQ
from adjudicator.stalins_war.state import SwState, hand_count

TEMPLATES_SAID = {  # the order templates as options says them (the same words in every language)
    legal.ROLL_TEMPLATE: t("roll <N>d<F> <PURPOSE>"),
    legal.TOTAL_WAR_TEMPLATE: t("totalwar"),
    legal.DISCARD_TEMPLATE: t("discard <CARD>..."),
    legal.SPEND_TEMPLATES[0]: t("spend leave <HEX> <UNIT>... [stays <UNIT>...]"),
    legal.LEAVE_TEMPLATE_2: t("spend leave <HEX> <UNIT>... stays <UNIT>...|none"),
    legal.SPEND_TEMPLATES[1]: t("spend strategic <UNIT>... [from <HEX>]"),
    legal.SPEND_TEMPLATES[2]: t("spend combat <HEX>..."),
}


def view(state: SwState, viewer: Viewer) -> SwState:
    """The state as `viewer` may see it; everything once the game is over."""
    return state if viewer.over else hidden(state, viewer.sides)


def hidden(state: SwState, sides: frozenset[str]) -> SwState:
    """The state as a viewer of `sides` may see it (16.1 to 16.6): decks as their size, other
    hands as their size, face-down discards as a count."""
    seen = state.clone()
    for side, p in seen.players.items():
        p.deck = [None] * len(p.deck)
        p.discard = [[n if up else None, up] for n, up in p.discard]
        if side not in sides:
            p.hidden, p.hand = len(p.hand), []
    return seen


def answer(
    deck: Deck, state: SwState, actor: str, query: object, said: Callable[[object], str]
) -> Msg:
    """The answer to a question of the grammar (orders.QUERIES) but `help`; `said` writes an
    order's canonical text (for `options`)."""
    if isinstance(query, HandQ):
        p = state.players.get(actor)
        if p is None or p.hidden:
            return t("Only a seated player sees his own hand (16.1).")
        return texts.hand_text(deck, actor, p, t("you asked"), state.rules)
    if isinstance(query, OptionsQ):
        orders = [said(o) for o in legal.legal_orders(deck, state, actor)]
        return options_text(state, orders, legal.templates(state, actor))
    if isinstance(query, DeckQ):
        return deck_text(deck, state)
    if isinstance(query, TrackQ):
        return t("{where}\n{track}", where=texts.where(state), track=texts.track_text(deck, state))
    return status_text(deck, state, actor)


def options_text(state: SwState, orders: list[str], more: list[str]) -> Msg:
    """`options`: the orders listed one by one, then the templates."""
    if not orders and not more:
        return t("You have no order to give now.")
    said = cat(
        *(t("`{order}`", order=TEMPLATES_SAID.get(o, o)) for o in [*orders, *more]), sep=", "
    )
    if orders:
        return t("{where}\nYou may give: {orders}.", where=texts.where(state), orders=said)
    return t("You may give: {orders}.", orders=said)


def deck_text(deck: Deck, state: SwState) -> Msg:
    rows = []
    for side, p in state.players.items():
        face_up = [deck.card(side, n).label for n, up in p.discard if up and n is not None]
        down = sum(1 for _, up in p.discard if not up)
        gone = [deck.card(side, n).label for n in p.removed]
        aside = (
            t("; set aside {cards}", cards=", ".join(f"#{n}" for n in p.set_aside))
            if p.set_aside
            else ""
        )
        rows.append(
            t(
                "{side}: deck {deck}, hand {hand}, discard pile {discard} (face up: {up}; face "
                "down: {down}), removed: {removed}{aside}; Total War {tw}.",
                side=texts.NAMES[side],
                deck=len(p.deck),
                hand=hand_count(p),
                discard=len(p.discard),
                up=cat(*face_up, sep=", ") if face_up else t("none"),
                down=down,
                removed=cat(*gone, sep=", ") if gone else t("none"),
                aside=aside,
                tw=t("begun") if p.total_war else t("not begun"),
            )
        )
    return lines(rows)


def status_text(deck: Deck, state: SwState, actor: str) -> Msg:
    rows: list[Msg] = [texts.where(state), texts.track_text(deck, state)]
    if actor in state.players and state.players[actor].hand:
        rows.append(
            t(
                "Your hand: {cards} (`hand` for the cards).",
                cards=", ".join(f"#{n}" for n in sorted(state.players[actor].hand)),
            )
        )
    return lines(rows)
