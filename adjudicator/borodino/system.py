"""The Borodino rally/recovery/collapse referee as a GameSystem, on the kit (adjudicator.core.kit).

The registered `SYSTEM` (entry point `borodino` in the group `pbem.games`) binds the rules to an
order of battle (sample.toml by default, `--scenario FILE` for a real one); `drawer` names the
module that draws the boxes image. The rules are Borodino's (borodino-recovery.md); other games
of the series can reuse them with their own data. The kit applies an order: the acting side,
sandbox fixed dice (here with the scenario's die, 1.10), the check (legal.py), then `resolve`:
the rule of the order (turns.HANDLERS) on a copy of the state. Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.borodino import edit, legal, texts, turns, views
from adjudicator.borodino.board import Ctx
from adjudicator.borodino.data import Scenario, parse_scenario
from adjudicator.borodino.grammar import SIDES, BorodinoGrammar
from adjudicator.borodino.state import State, initial_state
from adjudicator.core import commands as C
from adjudicator.core import fixed_dice
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import DEFAULT_APPLIED, GAME_ENDED, PHASE_BEGAN, Event, Viewer
from adjudicator.core.i18n import Msg, name, t
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.options import Options
from adjudicator.core.system import MODERATOR_ACTOR, Answer, Outcome, Situation, SystemType, Waiting

SYSTEM_ID = "borodino"
HEADLINES = frozenset(  # what an after-phase post tells: every roll, its outcome, the boxes
    {
        *("UnitRouted", "UnitEliminated", "UnitRallied", "RallyFailed", "RallyPhase"),
        *("MoraleHeld", "MoraleChecked", "GroupCollapsed", "GroupOutOfGame", "FirstPlayerRolled"),
        *("UnitRecovered", "RecoveryFailed", "UnitReturned", "PlacementWaits", "WithdrawnMoved"),
        *("BoxesNow", "LossesNow", "ReportDisputed", PHASE_BEGAN, DEFAULT_APPLIED, GAME_ENDED),
        *("UnitPlaced", "UnitStateSet", "LossesSet", "CollapseSet", "TurnSet", "PhaseSet"),
    }
)


class BorodinoSystem(RulesSystem):
    id = SYSTEM_ID
    sides = SIDES
    drawer = "adjudicator.borodino.drawer"
    headlines = HEADLINES
    state_type = State
    die_rule = "1.10"  # the die's size is the scenario's (fix_dice)
    hidden_information = False  # every counter and box is public (a dispute's text: `view`)
    side_maps = False  # one image for everyone: nothing on it is hidden
    rules_version = 2  # 2: 6.6's decision (state.py's module doc); stored games replay as 1

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.title = name(scenario.title, ru=scenario.title_ru)
        self.grammar = _Grammar(scenario, views.help_footer(scenario))

    def initial(self, sandbox: bool, dice: DiceSource, rules: int | None = None) -> Outcome:
        """The setup under rules version `rules` (None: the newest, 2)."""
        version = self.rules_version if rules is None else rules
        if not 1 <= version <= self.rules_version:
            raise ValueError(
                f"Borodino knows rules versions 1 to {self.rules_version}, not {rules}"
            )
        state = initial_state(self.scenario, sandbox, version)
        return Outcome(state, [views.started(self.scenario)])

    def check(self, state: State, side: str, order: object) -> None:
        """The check of legal.py; reports name any hex (templates) and the rules refuse the
        rest as they go, citing the rule."""
        legal.check(self.scenario, state, side, order)
        if isinstance(order, C.Default) and side == MODERATOR_ACTOR:
            self.moderator_may(state, side)

    def resolve(self, state: State, side: str, order: object, dice: DiceSource) -> Outcome:
        ctx = Ctx(self.scenario, state.clone(), fixed_dice.fixed_source(state, dice))
        if isinstance(order, C.Default):
            turns.apply_default(ctx)  # one side's defaults, several placements in turn
        else:
            turns.HANDLERS[type(order)](ctx, side, order)
        return Outcome(ctx.state, ctx.events, order=order)

    def edit(self, state: State, order: object) -> Outcome:
        """A moderator's edit of the position (edit.py): no die, nothing hidden (every event
        is everyone's)."""
        ctx = Ctx(self.scenario, state.clone(), RecordingDice(None))
        edit.apply(ctx, order)
        return Outcome(ctx.state, ctx.events, order=order)

    def fix_dice(
        self, state: State, actor: str, order: C.Dice, dice: fixed_dice.FixedFirst
    ) -> Outcome:
        """`dice 3 5` (sandbox games) by core.fixed_dice, with the die of the scenario (1.10)
        and the event Borodino's log has always held; none once the referee's part is over."""
        legal.not_over(self.scenario, state)
        sides = self.scenario.die_sides
        try:
            fixed_dice.check_fix(state, actor, order.values, sides, self.die_rule)
        except Rejection as refused:
            if refused.code != "bad-dice":
                raise
            said = t("die results are 1 to {sides} (the die of this game)", sides=sides)
            raise Rejection(refused.code, said, self.die_rule) from None
        new = fixed_dice.with_fixed(state, [*state.fixed_dice, *order.values])
        return Outcome(new, [Event("DiceFixed", texts.dice_fixed(order.values))], order=order)

    def legal_orders(self, state: State, side: str) -> list[object]:
        return legal.legal_orders(self.scenario, state, side)

    def order_templates(self, state: State, side: str) -> tuple[str, ...]:
        return legal.templates(self.scenario, state, side)

    def post_image(self, before: Situation | None, after: Situation) -> bool:
        """The boxes image after a Recovery Phase (with its placements: the turn it ends, 5.1),
        the first post and the end; a report's or a rally's post is text only (the image says
        what the text says); `map` on request."""
        return before is None or after.over or before.turn != after.turn

    def situation(self, state: State) -> Situation:
        moving = views.to_move(self.scenario, state)
        pending: tuple[Waiting, ...] = ()
        if state.phase == "placement" and state.placing and state.result is None:
            pending = (Waiting(state.placing[0], views.placement_prompt(self.scenario, state)),)
        phase = views.phase_id(state)
        key = "" if state.result is not None else f"{state.turn}|{phase}|{moving[0]}"
        label = views.label(state)
        return Situation(state.turn, phase, label, moving, pending, state.result, key)

    def answer(self, state: State, actor: str, query: object) -> Answer:
        if isinstance(query, (C.Help, Options)):  # options: the kit's, from legal_orders
            return super().answer(state, actor, query)
        return Answer(views.status(self.scenario, state, actor))

    def view(self, state: State, viewer: Viewer) -> State:
        return views.view(state, viewer)

    def show(self, state: State) -> dict[str, Any]:
        doc = state.to_json()
        doc["use_jager_rules"] = self.scenario.use_jager_rules
        doc["die_sides"] = self.scenario.die_sides
        return doc


class _Grammar(BorodinoGrammar):
    """The grammar, with the deadline defaults and the jager note under `help`."""

    def __init__(self, scenario: Scenario, footer: Msg):
        default = t(
            "Moderator: do what a passed deadline does. {footer} Example: default", footer=footer
        )
        super().__init__(scenario, {"default": default})
        self.footer = footer

    def help(self, topic: str | None = None, side: str | None = None) -> str:
        text = super().help(topic, side)
        return t("{text}\n{footer}", text=text, footer=self.footer) if not topic else text


SYSTEM: SystemType = SystemKind(
    id=SYSTEM_ID,
    title=t("Borodino: rally, recovery and collapse (a referee for the players' own board)"),
    name=t("Borodino referee"),
    sides=SIDES,
    data="adjudicator.borodino/sample.toml",
    read=parse_scenario,
    rules=BorodinoSystem,
)

__all__ = ["SIDES", "SYSTEM", "BorodinoSystem"]
