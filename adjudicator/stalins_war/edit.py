"""A moderator's edits of the position (grammar_edit.py): where a card is (3.6), the deck order,
the counts of section 13 (consecutive OPS count, banked OPS, hand size, RP and RP plays), the
turn, the action round and a mud round. The kit lets only a moderator (or the system) give them,
in any game; the app makes one a proposal outside a sandbox game.

Hidden information (16.1): an edit that puts a card into a hand or onto the deck, or orders the
deck, is secret. Its public event says only what everyone may know (the counts); the card and the
order go to that side (his hand, as after every change of it) and to the moderators, in events
addressed to them alone. An edit changes the position between actions: the turn, the round, the
counts and mud are refused while an action round is open. Each function checks everything
before it changes anything. Pure.
"""

from __future__ import annotations

from adjudicator.core.errors import Rejection
from adjudicator.core.events import MODERATORS_ONLY, Audience, Event
from adjudicator.core.i18n import Msg, cat, t
from adjudicator.stalins_war import texts
from adjudicator.stalins_war.data import SET_ASIDE, SOVIET, TOTAL_WAR, Deck
from adjudicator.stalins_war.grammar_edit import PLACES_SAID
from adjudicator.stalins_war.orders import (
    PlaceHidden,
    PlaceOpen,
    SetDeck,
    SetMud,
    SetNumber,
    SetRound,
    SetRp,
    SetTurn,
)
from adjudicator.stalins_war.spent import result_text
from adjudicator.stalins_war.state import ACTION, SETUP, Player, SwState
from adjudicator.stalins_war.turns import hand_event, phase_id

EDITED = "PositionEdited"  # the public event of every edit (counts only for a secret one)
WHERE_SAID = {
    "hand": t("in the hand"),
    "deck": t("in the draw deck"),
    "discard": t("on the discard pile"),
    "removed": t("out of the game"),
    "aside": t("set aside"),
    "open": t("in play in the open action round"),
}


def edit(deck: Deck, state: SwState, order: object) -> list[Event]:
    """Apply one edit to `state` (a clone) and say what changed."""
    if state.result is not None:
        raise Rejection(
            "game-over", t("the game is over: {result}", result=result_text(state.result)), "12.5"
        )
    if isinstance(order, PlaceHidden | PlaceOpen):
        return place(deck, state, order)
    if isinstance(order, SetDeck):
        return set_deck(deck, state, order)
    between_actions(state)
    if isinstance(order, SetTurn | SetRound) and state.phase == SETUP:
        raise Rejection(
            "deal-first",
            t(
                "the deal comes first: each player says `draw` for his shuffled hand (3.10), "
                "then the turn and the round may be set"
            ),
            "3.10",
        )
    if isinstance(order, SetNumber):
        return set_number(state, order)
    if isinstance(order, SetRp):
        return set_rp(deck, state, order)
    if isinstance(order, SetTurn):
        return set_turn(deck, state, order)
    if isinstance(order, SetRound):
        return set_round(state, order)
    assert isinstance(order, SetMud)
    return set_mud(state, order)


def between_actions(state: SwState) -> None:
    """The turn, the round and the counts change between actions, not in an open round."""
    opened = state.open
    if opened is None:
        return
    raise Rejection(
        "round-open",
        t(
            "the {side} player's action round is open ({ops} OPS left): the editor changes "
            "the turn, the round and the counts between actions; he ends it with `end` (or a "
            "moderator's `default` in a sandbox game)",
            side=texts.NAMES[opened.side],
            ops=opened.ops,
        ),
        "5.2",
    )


# -- cards
def _card_of(deck: Deck, state: SwState, side: str, number: int) -> str:
    """Where the side's card `number` is now; refused if it is no card of his in the game."""
    cards = deck.cards[side]
    if number not in cards:
        raise Rejection(
            "no-such-card",
            t(
                "the {side} deck has no card #{card}; its cards are #{low} to #{high}",
                side=texts.NAMES[side],
                card=number,
                low=min(cards),
                high=max(cards),
            ),
            "3.5",
        )
    p = state.players[side]
    if state.open is not None and state.open.side == side and state.open.card == number:
        raise Rejection(
            "card-in-play",
            t(
                "{card} is being played in the open action round; it goes to the discard pile "
                "when the round ends (6.4): place it after that",
                card=deck.card(side, number).label,
            ),
            "6.4",
        )
    for where, pile in (("hand", p.hand), ("deck", p.deck), ("aside", p.set_aside)):
        if number in pile:
            return where
    if any(n == number for n, _up in p.discard):
        return "discard"
    if number in p.removed:
        return "removed"
    if deck.card(side, number).group == TOTAL_WAR and not p.total_war:
        raise Rejection(
            "total-war-not-begun",
            t(
                "{card} is a Total War card and the {side} player's Total War has not begun "
                "(3.3): it is in no pile yet; `totalwar` first",
                card=deck.card(side, number).label,
                side=texts.NAMES[side],
            ),
            "3.3",
        )
    return "open"  # (never: a card of a begun game is in one of the piles)


def _take(p: Player, number: int) -> None:
    for pile in (p.hand, p.deck, p.set_aside, p.removed):
        if number in pile:
            pile.remove(number)
    p.discard = [d for d in p.discard if d[0] != number]


def place(deck: Deck, state: SwState, order: PlaceHidden | PlaceOpen) -> list[Event]:
    side, number, where = order.side, order.card, order.where
    came = _card_of(deck, state, side, number)
    card = deck.card(side, number)
    target = "deck" if where in ("top", "bottom") else where
    if where == "aside" and (side != SOVIET or number not in SET_ASIDE):
        raise Rejection(
            "not-set-aside",
            t(
                "only the Soviet cards #1 to #6 are set aside (3.8), not {card}; "
                "legal places: hand, deck top, deck bottom, discard, removed",
                card=card.label,
            ),
            "3.8",
        )
    if came == target and target != "deck":
        raise Rejection(
            "already-there",
            t(
                "{card} is {where} already; legal places: {places}",
                card=card.label,
                where=WHERE_SAID[came],
                places=PLACES_SAID,
            ),
            "3.6",
        )
    p = state.players[side]
    _take(p, number)
    if where == "hand":
        p.hand.append(number)
    elif where == "top":
        p.deck.insert(0, number)
    elif where == "bottom":
        p.deck.append(number)
    elif where == "discard":
        p.discard.append([number, True])
    elif where == "removed":
        p.removed.append(number)
    else:
        p.set_aside = sorted([*p.set_aside, number])
    events = [_public(deck, state, side, card.label if isinstance(order, PlaceOpen) else None)]
    if came == "hand" or where == "hand":
        events.append(hand_event(deck, side, p, t("a moderator's edit"), state.rules))
    if isinstance(order, PlaceHidden):
        said = (
            t("Moderator puts {card} into the {side} hand.", card=card.label, side=_of(side))
            if where == "hand"
            else t(
                "Moderator puts {card} on top of the {side} draw deck.",
                card=card.label,
                side=_of(side),
            )
            if where == "top"
            else t(
                "Moderator puts {card} at the bottom of the {side} draw deck.",
                card=card.label,
                side=_of(side),
            )
        )
        events += _secret(side, said, {"card": number, "where": where})
    return events


def set_deck(deck: Deck, state: SwState, order: SetDeck) -> list[Event]:
    side, cards = order.side, order.cards
    twice = sorted({n for n in cards if cards.count(n) > 1})
    if twice:
        raise Rejection(
            "card-twice",
            t(
                "#{cards} named twice; name each card once, top first",
                cards=", #".join(map(str, twice)),
            ),
            "3.6",
        )
    came = [_card_of(deck, state, side, n) for n in cards]
    p = state.players[side]
    for n in cards:
        _take(p, n)
    p.deck = [*cards, *p.deck]
    events = [_public(deck, state, side, None)]
    if "hand" in came:
        events.append(hand_event(deck, side, p, t("a moderator's edit"), state.rules))
    said = t(
        "Moderator sets the top of the {side} draw deck, top first: {cards} (the rest below "
        "in its order, {n} cards in all).",
        side=_of(side),
        cards=cat(*(deck.card(side, n).label for n in cards), sep=", "),
        n=len(p.deck),
    )
    events += _secret(side, said, {"top": list(cards)})
    return events


def _of(side: str) -> Msg:
    return texts.NAMES[side]


def _public(deck: Deck, state: SwState, side: str, shown: Msg | None) -> Event:
    """What everyone may know of an edit of the side's cards: the counts (16.1), and a card
    only where it lies face up (the discard pile, out of the game, set aside)."""
    p = state.players[side]
    counts = t(
        "hand {hand}, deck {deck}, discard pile {discard}, removed {removed}",
        hand=len(p.hand),
        deck=len(p.deck),
        discard=len(p.discard),
        removed=len(p.removed),
    )
    text = (
        t(
            "Moderator moves {card}; the {side} cards: {counts}.",
            card=shown,
            side=_of(side),
            counts=counts,
        )
        if shown is not None
        else t("Moderator edits the {side} cards: {counts}.", side=_of(side), counts=counts)
    )
    data = {
        "side": side,
        "hand": len(p.hand),
        "deck": len(p.deck),
        "discard": len(p.discard),
        "removed": len(p.removed),
    }
    return Event(EDITED, text, data)


def _secret(side: str, text: Msg, data: dict[str, object]) -> list[Event]:
    """The hidden value of a secret edit: for that side, and for the moderators (16.1)."""
    return [
        Event("CardsEdited", text, {"side": side, **data}, Audience.of_side(side)),
        Event("CardsEdited", text, {"side": side, **data}, MODERATORS_ONLY),
    ]


# -- the counts, the turn, the round, mud
NUMBER_SAID = {
    "count": t("consecutive OPS count"),
    "banked": t("banked OPS"),
    "handsize": t("hand size"),
    "rpplays": t("RP plays this turn"),
}


def set_number(state: SwState, order: SetNumber) -> list[Event]:
    p = state.players[order.side]
    attr = {"count": "count", "banked": "banked", "handsize": "hand_size", "rpplays": "rp_plays"}
    setattr(p, attr[order.what], order.value)
    text = t(
        "Moderator sets the {side} {what} to {value}.",
        side=_of(order.side),
        what=NUMBER_SAID[order.what],
        value=order.value,
    )
    return [Event(EDITED, text, {"side": order.side, order.what: order.value})]


def set_rp(deck: Deck, state: SwState, order: SetRp) -> list[Event]:
    nations = deck.nationalities[order.side]
    ru = dict(deck.nations_ru)
    said = order.nation.lower()
    found = [n for n in nations if said in (n.lower(), ru.get(n, n).lower())]
    if not found:
        raise Rejection(
            "no-such-nationality",
            t(
                "the {side} player records RP for {nations}, not {nation}",
                side=_of(order.side),
                nations=cat(*(deck.nation(n) for n in nations), sep=", "),
                nation=repr(order.nation),
            ),
            "10.1",
        )
    nation = found[0]
    state.players[order.side].rp[nation] = order.value
    text = t(
        "Moderator sets the {side} RP of {nation} to {value}.",
        side=_of(order.side),
        nation=deck.nation(nation),
        value=order.value,
    )
    return [Event(EDITED, text, {"side": order.side, "rp": {nation: order.value}})]


def set_turn(deck: Deck, state: SwState, order: SetTurn) -> list[Event]:
    if not 1 <= order.turn <= deck.turns:
        raise Rejection("bad-turn", t("the turns run 1 to {turns}", turns=deck.turns), "1.2")
    state.turn = order.turn
    for p in state.players.values():  # the books of a turn (10.3 to 10.9, 5.8) start empty
        p.rp_plays, p.last, p.rp_event, p.boxes = 0, None, False, []
    state.played = []
    text = t(
        "Moderator sets the turn to {turn}; the books of the turn (RP plays, actions) start empty.",
        turn=order.turn,
    )
    return [Event(EDITED, text, {"turn": order.turn, "phase": phase_id(state)})]


def set_round(state: SwState, order: SetRound) -> list[Event]:
    state.phase, state.round, state.to_move = ACTION, order.round, order.side
    state.decided, state.discarded = [], {}
    text = t(
        "Moderator sets turn {turn}, action round {round}: the {side} player acts.",
        turn=state.turn,
        round=order.round,
        side=_of(order.side),
    )
    return [Event(EDITED, text, {"round": order.round, "phase": phase_id(state)})]


def set_mud(state: SwState, order: SetMud) -> list[Event]:
    state.mud = [m for m in state.mud if (m[0], m[1]) != (state.turn, state.round)]
    state.mud.append([state.turn, state.round, order.on])
    text = (
        t(
            "Moderator makes action round {round} of turn {turn} a mud round (7.12).",
            round=state.round,
            turn=state.turn,
        )
        if order.on
        else t(
            "Moderator makes action round {round} of turn {turn} no mud round.",
            round=state.round,
            turn=state.turn,
        )
    )
    return [Event(EDITED, text, {"mud": order.on, "turn": state.turn, "round": state.round})]
