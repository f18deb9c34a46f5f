"""The Borodino rally/recovery/collapse referee as a GameSystem (adjudicator.core.system).

The registered `SYSTEM` (entry point `borodino` in the group `pbem.games`) binds the rules to an
order of battle (sample.toml by default, `--scenario FILE` for a real one); `drawer` names the
module that draws the boxes image. The rules are Borodino's (borodino-recovery.md); other games
of the series can reuse them with their own data. Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.borodino import legal, rules, views
from adjudicator.borodino.data import Scenario, parse_scenario
from adjudicator.borodino.grammar import SIDES, BorodinoGrammar
from adjudicator.borodino.state import State
from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource
from adjudicator.core.events import DEFAULT_APPLIED, GAME_ENDED, PHASE_BEGAN, Event
from adjudicator.core.fixed_dice import FixedFirst
from adjudicator.core.i18n import Msg, name, t
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import Answer, Outcome, Situation, SystemType, Waiting

SYSTEM_ID = "borodino"
HEADLINES = frozenset(  # what an after-phase post tells: every roll, its outcome, the boxes
    {
        "UnitRouted", "UnitEliminated", "UnitRallied", "RallyFailed", "RallyPhase",
        "MoraleHeld", "MoraleChecked", "GroupCollapsed", "GroupOutOfGame", "FirstPlayerRolled",
        "UnitRecovered", "RecoveryFailed", "UnitReturned", "PlacementWaits", "WithdrawnMoved",
        "BoxesNow", "LossesNow", "ReportDisputed", PHASE_BEGAN, DEFAULT_APPLIED, GAME_ENDED,
    }
)  # fmt: skip


class BorodinoSystem(RulesSystem):
    id = SYSTEM_ID
    sides = SIDES
    drawer = "adjudicator.borodino.drawer"
    headlines = HEADLINES
    hidden_information = False  # every counter and box is public
    side_maps = False  # one image for everyone: nothing on it is hidden

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.title = name(scenario.title, ru=scenario.title_ru)
        footer = views.help_footer(scenario)
        self.grammar = _Grammar(scenario, footer)

    def initial(self, sandbox: bool, dice: DiceSource) -> Outcome:
        state = rules.initial_state(self.scenario, sandbox)
        scen = self.scenario
        text = (
            t("{title}: turn 1, Russian first. Die d{sides}; jager rules on (applied by the "
              "players on their board).", title=self.title, sides=scen.die_sides)
            if scen.use_jager_rules
            else t("{title}: turn 1, Russian first. Die d{sides}; jager rules off (applied by the "
                   "players on their board).", title=self.title, sides=scen.die_sides)
        )  # fmt: skip
        return Outcome(state, [Event("GameStarted", text)])

    def check(self, state: State, side: str, order: object) -> None:
        """No gate before the rules: reports name any hex (templates), and the rules refuse as
        they go, citing the rule."""

    def resolve(self, state: State, side: str, order: object, dice: DiceSource) -> Outcome:
        return rules.apply(self.scenario, state, side, order, dice)

    def fix_dice(self, state: State, actor: str, order: C.Dice, dice: FixedFirst) -> Outcome:
        return rules.apply(self.scenario, state, actor, order, dice)  # the die of the scenario

    def legal_orders(self, state: State, side: str) -> list[object]:
        return legal.legal_orders(self.scenario, state, side)

    def order_templates(self, state: State, side: str) -> tuple[str, ...]:
        return legal.templates(self.scenario, state, side)

    def situation(self, state: State) -> Situation:
        moving = views.to_move(self.scenario, state)
        pending: tuple[Waiting, ...] = ()
        if state.phase == "placement" and state.placing and state.result is None:
            pending = (Waiting(state.placing[0], views.placement_prompt(self.scenario, state)),)
        key = (
            "" if state.result is not None else f"{state.turn}|{views.phase_id(state)}|{moving[0]}"
        )
        return Situation(state.turn, views.phase_id(state), views.label(state), moving, pending,
                         state.result, key)  # fmt: skip

    def answer(self, state: State, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        return Answer(views.status(self.scenario, state, actor))

    def show(self, state: State) -> dict[str, Any]:
        doc = state.to_dict()
        doc["use_jager_rules"] = self.scenario.use_jager_rules
        doc["die_sides"] = self.scenario.die_sides
        return doc

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def state_from_json(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)


class _Grammar(BorodinoGrammar):
    """The grammar, with the deadline defaults and the jager note under `help`."""

    def __init__(self, scenario: Scenario, footer: Msg):
        default = t("Moderator: do what a passed deadline does. {footer} Example: default",
                    footer=footer)  # fmt: skip
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
