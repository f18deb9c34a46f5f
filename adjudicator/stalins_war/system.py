"""Stalin's War as a trusted card dealer: the GameSystem of the card and action-round engine
(rules spec stalins-war-cards.md) and its SystemType. The map, movement and combat are on the
players' own board; the service deals, keeps the hands secret, keeps the books (consecutive OPS,
RP and their limits, starred cards) and rolls the dice players ask for, in public. Pure.

The gate is legal.py, what a viewer sees views.py; the rules: turns.py (setup, the draw phase,
the end of the turn), rounds.py (playing a card, the 0-OPS rounds, the end of a round),
spending.py (the OPS spent); a moderator's edits of the position: edit.py (grammar_edit.py).

Rules versions (core.system): 1, stored games; 2, new games: the first `spend leave` of a hex
names the units that stay (8.4, 8.6), and a sandbox moderator's fixed dice wait for the next
`roll` (8.22) instead of feeding a shuffle (16.7). The state's `rules` field says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core import fixed_dice
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, Event, Viewer
from adjudicator.core.i18n import Msg, t
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import (
    MODERATOR_ACTOR,
    SYSTEM_ACTOR,
    Answer,
    Outcome,
    Side,
    Situation,
)
from adjudicator.stalins_war import edit, legal, rounds, spending, texts, turns, views
from adjudicator.stalins_war import orders as O
from adjudicator.stalins_war.data import AXIS, SOVIET, Deck, load_deck
from adjudicator.stalins_war.grammar import grammar
from adjudicator.stalins_war.grammar_edit import MAX_FACES
from adjudicator.stalins_war.state import ACTION, DRAW, SETUP, SwState

SIDES = (
    Side(AXIS, texts.NAMES[AXIS], ("ax", "ось")),
    Side(SOVIET, texts.NAMES[SOVIET], ("sov", "ussr", "ссср", "советы")),
)
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
    state_type = SwState
    # `dice` (sandbox): the rules roll no die of their own; the only dice are the rolls players
    # ask for their board (`roll <N>d<F>`, the hook of 8.22), of up to 100 faces. Shuffles and
    # draws come from the hidden seed (16.7) and never take a fixed result (rules version 2).
    die_faces = MAX_FACES
    die_rule = "8.22"
    rules_version = 2  # 2: `spend leave` names the units that stay (8.4, 8.6); fixed dice roll only

    def __init__(self, deck: Deck):
        self.deck = deck
        self.title = deck.title
        self.grammar = grammar(SIDES)

    # -- playing
    def initial(self, sandbox: bool, dice: DiceSource, rules: int | None = None) -> Outcome:
        state, events = turns.setup(self.deck, sandbox)
        state.rules = self.rules_version if rules is None else rules
        return Outcome(state, events)

    def apply(self, state: SwState, actor: str, order: object, dice: DiceSource) -> Outcome:
        """The kit's apply; under rules version 2 a moderator's fixed dice wait for the next
        `roll` (8.22): an order that shuffles or draws (16.7) gets the hidden seed's dice only."""
        waiting = fixed_dice.fixed_of(state)
        if state.rules < 2 or not waiting or isinstance(order, O.Roll | C.Dice):
            return super().apply(state, actor, order, dice)
        out = super().apply(fixed_dice.with_fixed(state, []), actor, order, dice)
        out.state = fixed_dice.with_fixed(out.state, waiting)
        return out

    def fix_dice(
        self, state: SwState, actor: str, order: C.Dice, dice: fixed_dice.FixedFirst
    ) -> Outcome:
        """`dice 3 5` (sandbox games): the next `roll` results; a value above 100 faces is
        refused naming what the fixed dice are for."""
        try:
            return super().fix_dice(state, actor, order, dice)
        except Rejection as refused:
            if refused.code == "moderator-only":
                raise Rejection(
                    refused.code,
                    t("only a moderator may fix dice (`dice`): no rule of the game covers it"),
                    None,
                ) from None
            if refused.code != "bad-dice":
                raise
        raise Rejection(
            "bad-dice",
            t(
                "die results are 1 to {faces}: the fixed dice are the results of the next "
                "`roll <N>d<F>` (at most {faces} faces, 8.22); shuffles and draws come from "
                "the hidden seed and never take them (16.7)",
                faces=MAX_FACES,
            ),
            "8.22",
        )

    def editor_may(self, actor: str) -> None:
        """Only a moderator (or the system) edits the position: no rule of the game does."""
        if actor not in (MODERATOR_ACTOR, SYSTEM_ACTOR):
            raise Rejection(
                "moderator-only",
                t(
                    "only a moderator may edit the position (`place`, `set`): no rule of the "
                    "game covers the editor"
                ),
                None,
            )

    def edit(self, state: SwState, order: object) -> Outcome:
        """A moderator's edit of the position (edit.py)."""
        new = state.clone()
        events = edit.edit(self.deck, new, order)
        return Outcome(new, events, order=order)

    def check(self, state: SwState, side: str, order: object) -> None:
        """The gate of legal.check (spending names any hex and unit: templates)."""
        legal.check(self.deck, state, side, order)

    def resolve(self, state: SwState, side: str, order: object, dice: DiceSource) -> Outcome:
        new, recording = state.clone(), RecordingDice(dice)
        events = self._do(new, side, order, recording)
        return Outcome(new, events, recording.rolls)

    def _do(self, new: SwState, side: str, order: object, dice: DiceSource) -> list[Event]:
        deck = self.deck
        if isinstance(order, O.Roll):
            return [turns.roll(side, order, dice)]
        if isinstance(order, O.TotalWar):
            return turns.total_war_begins(deck, new, side, dice)
        if new.phase == SETUP:
            return turns.deal(deck, new, side, dice)
        if new.phase == DRAW:
            if isinstance(order, O.Discard):
                return turns.discard(deck, new, side, order)
            return turns.decide(deck, new, side, dice)
        if isinstance(order, O.Play):
            return rounds.play(deck, new, side, order)
        if isinstance(order, O.Zero):
            return rounds.zero(deck, new, side, order, dice)
        opened = new.open
        assert opened is not None
        if isinstance(order, O.End):
            return rounds.close_round(deck, new)
        if isinstance(order, O.SpendLeave):
            events = spending.spend_leave(new, opened, order)
        elif isinstance(order, O.SpendStrategic):
            events = spending.spend_strategic(new, opened, order)
        else:
            assert isinstance(order, O.SpendCombat)
            events = spending.spend_combat(new, opened, order)
        if opened.ops == 0:  # nothing left to spend: the round ends (8.21)
            events += rounds.close_round(deck, new)
        return events

    # -- the one gate and the deadline
    def legal_orders(self, state: SwState, side: str) -> Sequence[object]:
        return legal.legal_orders(self.deck, state, side)

    def order_templates(self, state: SwState, side: str) -> Sequence[str]:
        return legal.templates(state, side)

    def default_order(self, state: SwState) -> object:
        return legal.default_order(state)

    def post_image(self, before: Situation | None, after: Situation) -> bool:
        """The board once a turn: the first post, a new turn's and the end's carry it; an action
        round's post is text only (its board differs by a marker or two); `map` on request."""
        return before is None or after.over or before.turn != after.turn

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
        return Situation(state.turn, turns.phase_id(state), label, (state.to_move,), (), None, key)

    # -- what a viewer sees, and questions
    def view(self, state: SwState, viewer: Viewer) -> SwState:
        return views.view(state, viewer)

    def answer(self, state: SwState, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        return Answer(views.answer(self.deck, state, actor, query, self.grammar.format))

    def show(self, state: SwState) -> dict[str, Any]:
        return {**state.to_json(), "vp": None}


SYSTEM = SystemKind(
    id="stalins-war",
    title=t("Stalin's War: strategic cards, action rounds, OPS and RP"),
    name="Stalin's War",
    sides=SIDES,
    data="adjudicator.stalins_war/sample_deck.toml",
    read=load_deck,
    rules=StalinsWar,
)
