"""The turn around the action rounds: setup and the deal (3.8 to 3.10), drawing and the reshuffle
(3.13), the draw phase (section 4), the end-of-turn phase (section 12), the hooks of section 13,
and what a player may do at any time: the rolls he asks for and his Total War (3.4). Each hand
change sends the hand to its owner only (a private event); everyone else learns counts (16.1 to
16.5). Shuffles come from the hidden seed (`hidden=True`, 16.7). Pure.
"""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Audience, Event
from adjudicator.core.i18n import Msg, name, t, tn
from adjudicator.stalins_war import texts
from adjudicator.stalins_war.data import AXIS, BLITZKRIEG, SET_ASIDE, SOVIET, TOTAL_WAR, Deck
from adjudicator.stalins_war.orders import Discard, Roll
from adjudicator.stalins_war.spent import game_end
from adjudicator.stalins_war.state import ACTION, DRAW, SETUP, SIDE_IDS, Player, SwState


def phase_id(state: SwState) -> str:
    """The phase as posts, deadlines and the log name it: "axis-round-2", "soviet-draw"."""
    if state.phase == ACTION:
        return f"{state.to_move}-round-{state.round}"
    return f"{state.to_move}-{state.phase}"


def hand_event(deck: Deck, side: str, p: Player, why: Msg | str, rules: int = 1) -> Event:
    """The hand, as text, for its owner only (sent by private message after every change);
    `rules`: the game's rules version (its wording)."""
    return Event(
        "HandShown",
        texts.hand_text(deck, side, p, why, rules),
        {"side": side},
        Audience.of_side(side),
    )


def setup(deck: Deck, sandbox: bool) -> tuple[SwState, list[Event]]:
    """Rules 3.8, 3.9, 3.11: the Soviet #1 to #6 set aside; each player's Blitzkrieg cards are
    his deck, shuffled and dealt when he says `draw` (3.10: the setup rolls no dice)."""
    players = {}
    for side in SIDE_IDS:
        cards = [n for n in deck.group(side, BLITZKRIEG) if side == AXIS or n not in SET_ASIDE]
        players[side] = Player(
            deck=cards,
            set_aside=[n for n in SET_ASIDE if side == SOVIET],
            hand_size=deck.hand_size,
            rp={n: 0 for n in deck.nationalities[side]},
        )
    state = SwState(players=players, sandbox=sandbox, phase=SETUP)
    return state, [Event("GameStarted", texts.started(deck))]


def deal(deck: Deck, state: SwState, side: str, dice: DiceSource) -> list[Event]:
    """Rule 3.10: the player's Blitzkrieg cards are shuffled (hidden seed) and he draws his
    hand; the Axis player first, then the Soviet player; then turn 1 begins."""
    p = state.players[side]
    p.deck = list(dice.shuffle(p.deck, f"{side} deck", hidden=True))
    events = draw_cards(deck, state, side, p.hand_size, dice)
    events.append(hand_event(deck, side, p, t("the deal (3.10)"), state.rules))
    if side == AXIS:
        state.to_move = SOVIET
        return events
    state.phase, state.to_move = ACTION, AXIS
    text = t(  # an argument, so that the stored event keeps its Msg (core.events.to_dict)
        "Turn {turn}, action round 1: the Axis player acts first (5.3).", turn=1
    )
    return [*events, Event(PHASE_BEGAN, text, {"turn": 1, "phase": phase_id(state)})]


def draw_cards(deck: Deck, state: SwState, side: str, n: int, dice: DiceSource) -> list[Event]:
    """Draw n cards, reshuffling the discard pile into a new deck when the deck runs out (3.13).
    The cards drawn are the owner's to see (his hand event follows); everyone learns the count."""
    p, events, drawn = state.players[side], [], 0
    for _ in range(n):
        if not p.deck:
            if not p.discard:
                break  # rule 3.13: nothing to shuffle, he stops drawing
            pile = [c for c, _up in p.discard]
            p.deck, p.discard = list(dice.shuffle(pile, f"{side} reshuffle", hidden=True)), []
            events.append(
                Event(
                    "DeckReshuffled",
                    tn(
                        "{side} shuffles the discard pile ({n} cards) into a new draw deck (3.13).",
                        "{side} shuffles the discard pile ({n} cards) into a new draw deck (3.13).",
                        len(pile),
                        side=texts.NAMES[side],
                    ),
                    {"side": side, "cards": len(pile)},
                )
            )
        p.hand.append(p.deck.pop(0))
        drawn += 1
    if drawn:
        events.append(
            Event(
                "CardsDrawn",
                tn(
                    "{side} draws {n} card: {hand} in hand, {deck} in the deck.",
                    "{side} draws {n} cards: {hand} in hand, {deck} in the deck.",
                    drawn,
                    side=texts.NAMES[side],
                    hand=len(p.hand),
                    deck=len(p.deck),
                )
                if state.rules >= 2
                else tn(  # rules 1: the wording its stored games logged (they replay to the letter)
                    "{side} draws {n} card(s): {hand} in hand, {deck} in the deck.",
                    "{side} draws {n} card(s): {hand} in hand, {deck} in the deck.",
                    drawn,
                    side=texts.NAMES[side],
                    hand=len(p.hand),
                    deck=len(p.deck),
                ),
                {"side": side, "drawn": drawn},
            )
        )
    return events


def start_draw_phase(state: SwState) -> list[Event]:
    """After the 5th Soviet action (2.4): the hook other_phases, then phase Г, Soviet first."""
    state.phase, state.to_move, state.decided, state.discarded = DRAW, SOVIET, [], {}
    text = t(
        "Turn {turn}, strategic card draw phase: the Soviet player discards any cards "
        "(`discard <CARD>...`) and then says `draw` (4.1, 4.2).",
        turn=state.turn,
    )
    return [Event(PHASE_BEGAN, text, {"turn": state.turn, "phase": phase_id(state)})]


def discard(deck: Deck, state: SwState, side: str, order: Discard) -> list[Event]:
    p = state.players[side]
    missing = [n for n in order.cards if n not in p.hand]
    if missing or len(set(order.cards)) != len(order.cards):
        what = (
            t("#{card} is not in your hand", card=missing[0])
            if missing
            else t("a card is named twice")
        )
        raise Rejection(
            "not-in-hand",
            t("{what}; `hand` shows your cards, `draw` ends your discards", what=what),
            "4.1",
        )
    for n in order.cards:
        p.hand.remove(n)
        p.discard.append([n, False])  # rules 4.3, 16.3: face down
    state.discarded[side] = state.discarded.get(side, 0) + len(order.cards)
    public = Event(
        "CardsDiscarded",
        tn(
            "{side} discards {n} card face down (4.1, 16.3); {hand} in hand.",
            "{side} discards {n} cards face down (4.1, 16.3); {hand} in hand.",
            len(order.cards),
            side=texts.NAMES[side],
            hand=len(p.hand),
        )
        if state.rules >= 2
        else tn(  # rules 1: the wording its stored games logged
            "{side} discards {n} card(s) face down (4.1, 16.3); {hand} in hand.",
            "{side} discards {n} card(s) face down (4.1, 16.3); {hand} in hand.",
            len(order.cards),
            side=texts.NAMES[side],
            hand=len(p.hand),
        ),
        {"side": side, "cards": len(order.cards)},
    )
    return [public, hand_event(deck, side, p, t("you discarded"), state.rules)]


def decide(deck: Deck, state: SwState, side: str, dice: DiceSource) -> list[Event]:
    """`draw`: the side has decided (4.2); after both, the draws (4.4, 4.5) and phase Д."""
    state.decided.append(side)
    said = state.discarded.get(side, 0)
    if side == SOVIET:
        state.to_move = AXIS
        text = (
            tn(
                "The Soviet player discarded {n} card (4.3). The Axis player discards any cards "
                "and then says `draw`.",
                "The Soviet player discarded {n} cards (4.3). The Axis player discards any cards "
                "and then says `draw`.",
                said,
            )
            if state.rules >= 2
            else tn(  # rules 1: the wording its stored games logged
                "The Soviet player discarded {n} card(s) (4.3). The Axis player discards any "
                "cards and then says `draw`.",
                "The Soviet player discarded {n} card(s) (4.3). The Axis player discards any "
                "cards and then says `draw`.",
                said,
            )
        )
        return [Event("DrawDecided", text, {"side": side, "discarded": said})]
    events = [
        Event(
            "DrawDecided",
            tn("The Axis player discarded {n} card.", "The Axis player discarded {n} cards.", said)
            if state.rules >= 2
            else tn(  # rules 1: the wording its stored games logged
                "The Axis player discarded {n} card(s).",
                "The Axis player discarded {n} card(s).",
                said,
            ),
            {"side": side, "discarded": said},
        )
    ]
    for who in SIDE_IDS[::-1]:  # the Soviet player first receives his automatic cards (4.5)
        events += draw_up(deck, state, who, dice)
    return events + end_of_turn(deck, state)


def draw_up(deck: Deck, state: SwState, side: str, dice: DiceSource) -> list[Event]:
    p, events = state.players[side], []
    arriving = [n for n in deck.reinforcements.get(state.turn, ()) if n in p.set_aside]
    if side == SOVIET and arriving:  # rules 4.5, 4.6, 4.7; public (16.5)
        for n in arriving:
            p.set_aside.remove(n)
            p.hand.append(n)
        names: Msg = deck.card(SOVIET, arriving[0]).label
        for n in arriving[1:]:
            names = t("{cards} and {card}", cards=names, card=deck.card(SOVIET, n).label)
        events.append(
            Event(
                "ReinforcementCards",
                t("The Soviet player receives {cards} (4.5).", cards=names),
                {"side": side, "cards": arriving},
            )
        )
    missing = max(0, p.hand_size - len(p.hand))  # rule 4.8: above the hand size, none drawn
    events += draw_cards(deck, state, side, missing, dice)
    return [
        *events,
        hand_event(deck, side, p, t("the draw phase of turn {turn}", turn=state.turn), state.rules),
    ]


def end_of_turn(deck: Deck, state: SwState) -> list[Event]:
    """Phase Д (12.1 to 12.6): trenches are the board's; banked OPS to 0; the game ends after
    the end-of-turn phase of the last turn, or by automatic victory (a hook)."""
    for p in state.players.values():
        p.banked = 0  # rule 12.3
    victory = automatic_victory(state)
    if victory is not None or state.turn >= deck.turns:
        state.result = victory or {
            "winner": "none",
            "turn": state.turn,
            "text": str(game_end(state.turn)),
        }
        state.to_move = ""
        return [Event(GAME_ENDED, texts.where(state), dict(state.result))]
    state.turn, state.round, state.phase, state.to_move = state.turn + 1, 1, ACTION, AXIS
    state.played, state.decided, state.discarded = [], [], {}
    for p in state.players.values():  # per-turn records (10.3 to 10.9); counts carry over (7.9)
        p.rp_plays, p.last, p.rp_event, p.boxes = 0, None, False, []
    text = t(
        "Turn {turn} begins: action round 1, the Axis player acts first (12.4, 5.3).",
        turn=state.turn,
    )
    return [Event(PHASE_BEGAN, text, {"turn": state.turn, "phase": phase_id(state)})]


def automatic_victory(state: SwState) -> dict[str, object] | None:
    """Hook (12.5, Q26): automatic victory is not in the source."""
    return None


def total_war_begins(deck: Deck, state: SwState, side: str, dice: DiceSource) -> list[Event]:
    """Hook (3.4, Q4): the player's Total War cards are shuffled into his draw deck."""
    p = state.players[side]
    if p.total_war:
        raise Rejection("total-war-begun", t("your Total War has begun already"), "3.4")
    p.total_war = True
    cards = deck.group(side, TOTAL_WAR)
    p.deck = list(dice.shuffle([*p.deck, *cards], f"{side} total war", hidden=True))
    text = tn(
        "Total War begins for the {side} player: {n} Total War cards are shuffled into the "
        "draw deck, now {deck} cards (3.4).",
        "Total War begins for the {side} player: {n} Total War cards are shuffled into the "
        "draw deck, now {deck} cards (3.4).",
        len(cards),
        side=texts.NAMES[side],
        deck=len(p.deck),
    )
    return [Event("TotalWarBegan", text, {"side": side, "cards": len(cards)})]


def set_hand_size(state: SwState, side: str, value: int) -> None:
    """Hook (3.12, Q2): rule 7.6 (oil, events) is not in the source."""
    state.players[side].hand_size = value


def roll(side: str, order: Roll, dice: DiceSource) -> Event:
    """A roll a player asks for, with its purpose: public, so nobody fishes for dice in private."""
    values = dice.dice(order.count, order.faces, f"{side}: {order.purpose}")
    total = sum(values)
    shown = " + ".join(map(str, values)) + (f" = {total}" if len(values) > 1 else "")
    text = t(
        "{side} rolls {dice} for {purpose}: {shown}.",
        side=texts.NAMES[side],
        dice=name(f"{order.count}d{order.faces}", ru=f"{order.count}к{order.faces}"),
        purpose=order.purpose,
        shown=shown,
    )
    return Event("DiceRolled", text, {"side": side, "dice": list(values), "total": total})
