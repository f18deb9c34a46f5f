"""Stalin's War as a trusted card dealer: the GameSystem of the card and action-round engine
(rules spec stalins-war-cards.md) and its SystemType. The map, movement and combat are on the
players' own board; the service deals, keeps the hands secret, keeps the books (consecutive OPS,
RP and their limits, starred cards) and rolls the dice players ask for, in public. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, Event, Viewer
from adjudicator.core.i18n import Msg, cat, name, t
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import Answer, Outcome, Side, Situation
from adjudicator.stalins_war import cycle, rules, spending, texts
from adjudicator.stalins_war.cards import AXIS, SOVIET, Deck, load_deck
from adjudicator.stalins_war.grammar import grammar
from adjudicator.stalins_war.spent import result_text
from adjudicator.stalins_war.state import (
    ACTION,
    DRAW,
    MODES,
    SETUP,
    DeckQ,
    Discard,
    Draw,
    End,
    HandQ,
    OptionsQ,
    Play,
    Roll,
    SpendCombat,
    SpendLeave,
    SpendStrategic,
    SwState,
    TotalWar,
    TrackQ,
    Zero,
    copy,
    from_json,
    hidden_view,
    to_json,
)

SIDES = (
    Side(AXIS, texts.NAMES[AXIS], ("ax", "ось")),
    Side(SOVIET, texts.NAMES[SOVIET], ("sov", "ussr", "ссср", "советы")),
)
SPEND_TEMPLATES = (
    "spend leave <HEX> <UNIT>... [stays <UNIT>...]",
    "spend strategic <UNIT>... [from <HEX>]",
    "spend combat <HEX>...",
)
TEMPLATES_SAID = {  # the order templates as options says them (the same words in every language)
    "roll <N>d<F> <PURPOSE>": t("roll <N>d<F> <PURPOSE>"),
    "totalwar": t("totalwar"),
    "discard <CARD>...": t("discard <CARD>..."),
    SPEND_TEMPLATES[0]: t("spend leave <HEX> <UNIT>... [stays <UNIT>...]"),
    SPEND_TEMPLATES[1]: t("spend strategic <UNIT>... [from <HEX>]"),
    SPEND_TEMPLATES[2]: t("spend combat <HEX>..."),
}
HEADLINES = frozenset(
    {
        "GameStarted",
        "CardPlayed",
        "ZeroRound",
        "OpsSpent",
        "RoundEnded",
        "DiceRolled",
        "CardsDiscarded",
        "DrawDecided",
        "ReinforcementCards",
        "DeckReshuffled",
        "CardsDrawn",
        "TotalWarBegan",
        GAME_ENDED,
    }
)


class StalinsWar(RulesSystem):
    id = "stalins-war"
    sides = SIDES
    drawer = "adjudicator.stalins_war.drawer"
    headlines = HEADLINES
    hidden_information = True
    side_maps = False  # the secret is a hand of cards, sent as text: one public image

    def __init__(self, deck: Deck):
        self.deck = deck
        self.title = deck.title
        self.grammar = grammar(SIDES)

    # -- playing
    def initial(self, sandbox: bool, dice: DiceSource) -> Outcome:
        state, events = cycle.setup(self.deck, sandbox)
        return Outcome(state, events)

    def check(self, state: SwState, side: str, order: object) -> None:
        """The rules' own gate (`_check_turn` and the books): spending names any hex and unit
        (templates), and `roll` and `totalwar` work at any time; every refusal cites its rule."""

    def resolve(self, state: SwState, actor: str, order: object, dice: DiceSource) -> Outcome:
        if state.result is not None:
            raise Rejection(
                "game-over",
                t("the game is over: {result}", result=result_text(state.result)),
                "12.5",
            )
        if actor not in state.players:
            raise Rejection(
                "not-a-side", t("only the Axis or the Soviet player gives orders"), None
            )
        new, recording = copy(state), RecordingDice(dice)
        events = self._apply(new, actor, order, recording)
        return Outcome(new, events, recording.rolls)

    def _apply(self, new: SwState, actor: str, order: object, dice: DiceSource) -> list[Event]:
        if isinstance(order, Roll):
            return [roll(actor, order, dice)]
        if isinstance(order, TotalWar):
            return cycle.total_war_begins(self.deck, new, actor, dice)
        self._check_turn(new, actor, order)
        if new.phase == SETUP:
            return cycle.deal(self.deck, new, actor, dice)
        if new.phase == DRAW:
            if isinstance(order, Discard):
                return cycle.discard(self.deck, new, actor, order)
            return cycle.decide(self.deck, new, actor, dice)
        if isinstance(order, Play):
            return rules.play(self.deck, new, actor, order)
        if isinstance(order, Zero):
            return rules.zero(self.deck, new, actor, order, dice)
        opened = new.open
        assert opened is not None
        if isinstance(order, End):
            return rules.close_round(self.deck, new)
        if isinstance(order, SpendLeave):
            events = spending.spend_leave(new, opened, order)
        elif isinstance(order, SpendStrategic):
            events = spending.spend_strategic(new, opened, order)
        else:
            assert isinstance(order, SpendCombat)
            events = spending.spend_combat(new, opened, order)
        if opened.ops == 0:  # nothing left to spend: the round ends (8.21)
            events += rules.close_round(self.deck, new)
        return events

    def _check_turn(self, state: SwState, actor: str, order: object) -> None:
        name = texts.NAMES[state.to_move]
        if actor != state.to_move:
            rule = "4.2" if state.phase == DRAW else "5.4"
            text = (
                t(
                    "the {side} player decides in the draw phase now; wait for him (`roll` and "
                    "`hand` work at any time)",
                    side=name,
                )
                if state.phase == DRAW
                else t(
                    "the {side} player has action round {round} now; wait for him (`roll` and "
                    "`hand` work at any time)",
                    side=name,
                    round=state.round,
                )
            )
            raise Rejection("not-your-turn", text, rule)
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

    # -- the one gate and the deadline
    def legal_orders(self, state: SwState, side: str) -> Sequence[object]:
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
                    rules.check_play(self.deck, state, side, Play(n, mode))
                except Rejection:
                    continue
                legal.append(Play(n, mode))
        return [*legal, Zero("move"), Zero("reset"), *(Zero("reset", n) for n in hand)]

    def order_templates(self, state: SwState, side: str) -> Sequence[str]:
        if state.result is not None or side not in state.players:
            return ()
        found = ["roll <N>d<F> <PURPOSE>"]
        if not state.players[side].total_war:
            found.append("totalwar")
        if side == state.to_move and state.phase == DRAW:
            found.append("discard <CARD>...")
        if side == state.to_move and state.open is not None and state.open.ops > 0:
            found += SPEND_TEMPLATES
        return found

    def default_order(self, state: SwState) -> object:
        """A passed deadline: `draw` (no discard), `end`, or a variant-1 0-OPS round (5.7)."""
        if state.phase in (DRAW, SETUP):
            return Draw()
        return End() if state.open is not None else Zero("move")

    def situation(self, state: SwState) -> Situation:
        if state.result is not None:
            over = t("turn {turn}, game over", turn=state.turn)
            return Situation(state.turn, "over", over, (), (), state.result, "")
        name = texts.NAMES[state.to_move]
        label: Msg
        if state.phase == SETUP:
            label = t("setup, {side} draws his hand", side=name)
        elif state.phase == ACTION:
            label = t(
                "turn {turn}, action round {round}, {side}",
                turn=state.turn,
                round=state.round,
                side=name,
            )
        else:
            label = t("turn {turn}, draw phase, {side} decides", turn=state.turn, side=name)
        key = f"{state.turn}|{state.phase}|{state.round}|{state.to_move}|{state.open is not None}"
        return Situation(state.turn, cycle.phase_id(state), label, (state.to_move,), (), None, key)

    # -- what a viewer sees
    def view(self, state: SwState, viewer: Viewer) -> SwState:
        return state if viewer.over else hidden_view(state, viewer.sides)

    # -- questions
    def answer(self, state: SwState, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        if isinstance(query, HandQ):
            p = state.players.get(actor)
            if p is None or p.hidden:
                return Answer(t("Only a seated player sees his own hand (16.1)."))
            return Answer(texts.hand_text(self.deck, actor, p, t("you asked")))
        if isinstance(query, OptionsQ):
            return Answer(self.options_text(state, actor))
        if isinstance(query, DeckQ):
            return Answer(texts.deck_text(self.deck, state))
        if isinstance(query, TrackQ):
            return Answer(
                t(
                    "{where}\n{track}",
                    where=texts.where(state),
                    track=texts.track_text(self.deck, state),
                )
            )
        return Answer(texts.status_text(self.deck, state, actor))

    def options_text(self, state: SwState, actor: str) -> Msg:
        legal = [self.grammar.format(o) for o in self.legal_orders(state, actor)]
        more = list(self.order_templates(state, actor))
        if not legal and not more:
            return t("You have no order to give now.")
        orders = cat(
            *(t("`{order}`", order=TEMPLATES_SAID.get(o, o)) for o in [*legal, *more]), sep=", "
        )
        if legal:
            return t("{where}\nYou may give: {orders}.", where=texts.where(state), orders=orders)
        return t("You may give: {orders}.", orders=orders)

    # -- the state as JSON
    def show(self, state: SwState) -> dict[str, Any]:
        return {**to_json(state), "vp": None}

    def state_to_json(self, state: SwState) -> dict[str, Any]:
        return to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> SwState:
        return from_json(data)


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


SYSTEM = SystemKind(
    id="stalins-war",
    title=t("Stalin's War: strategic cards, action rounds, OPS and RP"),
    name="Stalin's War",
    sides=SIDES,
    data="adjudicator.stalins_war/sample_deck.toml",
    read=load_deck,
    rules=StalinsWar,
)
