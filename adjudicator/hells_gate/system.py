"""Hell's Gate as a GameSystem (adjudicator.core.system): what the application core talks to.

The registered `SYSTEM` (entry point `hells-gate` in the group `pbem.games`, a core.kit
SystemKind) binds the rules to a scenario text; the bound `HellsGateSystem` is a core.kit
RulesSystem: the kit applies an order (the acting side, sandbox fixed dice `dice`, the state's
JSON), and this class names where each rule lives: setup (section 3), sequence (an order in the
sequence of play: the rules refuse as they go, citing the rule, so no gate runs before them;
the deadline default), legal (legal_orders), views (what a viewer reads), grammar (the order
language). `drawer` names the package that draws its map (`drawer/`, the one part of the system
that imports Pillow and render/): the application core imports it only when a map is drawn, so
the rules and a headless replay never load it. Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource
from adjudicator.core.i18n import name as named
from adjudicator.core.i18n import t
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import Answer, Outcome, Situation, SystemType, Waiting
from adjudicator.hells_gate import heuristic, legal, moderator, sequence, setup, views
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.grammar import SIDES, HellsGateGrammar
from adjudicator.hells_gate.scenario import Scenario, parse_scenario
from adjudicator.hells_gate.state import RULES_VERSION, GameState, phase_kind, phase_side
from adjudicator.hells_gate.texts import phase_name

SYSTEM_ID = "hells-gate"
HEADLINES = frozenset(  # the events an after-phase post tells (the others: moves, markers, dice)
    {
        "AttackResolved",
        "UnitEliminated",
        "UnitRetreated",
        "UnitFlipped",
        "ReinforcementEntered",
        "ReinforcementLost",
        "OutOfSupply",
        "SupplyRestored",
        "UnitBrokeOut",
        "UnitRebuilt",
        "WeatherChanged",
        "WeatherStays",
        "DefaultApplied",
        "LossesForced",
        "GameEnded",
    }
)
ATTACK_TEMPLATE = t("attack <HEX> with <UNIT> <UNIT> <UNIT>... [decisive] [flip <UNIT>]")
LOSSES_TEMPLATE = t("losses [<UNIT>...] retreat <UNIT>=<HEX>...")


class HellsGateSystem(RulesSystem):
    """The Hell's Gate rules bound to one scenario."""

    id = SYSTEM_ID
    sides = SIDES
    drawer = "adjudicator.hells_gate.drawer"  # draw(system, state, events, view, title) -> PNG
    headlines = HEADLINES
    state_type = GameState
    die_rule = "1.3"  # `dice`: results of the d6
    rules_version = RULES_VERSION  # 2: a bare `losses` only where one answer is legal (8.29)
    opponent_plays = True  # evaluate (heuristic.py); determinise: the view (nothing hidden)

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.title = scenario.title
        self.grammar = HellsGateGrammar(scenario, SIDES)

    # -- playing
    def initial(self, sandbox: bool, dice: DiceSource, rules: int | None = None) -> Outcome:
        """The setup under rules version `rules` (None: the newest; a stored game names its
        own, 1 when its setup row names none: core.system.start)."""
        newest = self.rules_version
        return setup.new_game(self.scenario, sandbox, dice, newest if rules is None else rules)

    def check(self, state: GameState, side: str, order: object) -> None:
        """No gate before the rules: `legal_orders` lists no attack of three or more units (a
        template does), and the rules refuse as they go, citing the rule (sequence.check
        refuses the same without rolling, for a preview)."""

    def resolve(self, state: GameState, side: str, order: object, dice: DiceSource) -> Outcome:
        """An order, a moderator's edit, or `default` (its own: a decision answered or the
        phase ended, one DefaultApplied event a step; the kit hands it over as given)."""
        return sequence.apply(self.scenario, state, side, order, dice)

    def apply(self, state: GameState, actor: str, order: object, dice: DiceSource) -> Outcome:
        """The kit's, but an edit (place, flip, set ...; app/edits.py gates it) is given the
        game's dice: `set phase` runs the automatic phases it enters, which may roll (11.1)."""
        if self.kind_of(order) == "edit":
            self.editor_may(actor)
            return moderator.edit(self.scenario, state, order, dice)  # type: ignore[arg-type]
        return super().apply(state, actor, order, dice)

    def edit(self, state: GameState, order: object) -> Outcome:
        return moderator.edit(self.scenario, state, order, None)  # type: ignore[arg-type]

    def legal_orders(self, state: GameState, side: str) -> list[O.PlayerOrder]:
        return legal.legal_orders(self.scenario, state, side)

    def order_templates(self, state: GameState, side: str) -> tuple[str, ...]:
        """What `legal_orders` does not list one by one (options would explode): attacks by
        three or more units (it lists singles, pairs and the strongest group, 8.4), and split
        retreats in answer to hits (8.30)."""
        if state.result is not None:
            return ()
        mine = [d for d in state.pending if d.side == side]
        if mine:
            return (LOSSES_TEMPLATE,) if mine[0].kind == "losses" else ()
        attacking = phase_side(state.phase) == side and phase_kind(state.phase) == "combat"
        return (ATTACK_TEMPLATE,) if attacking and not state.pending else ()

    def evaluate(self, view: GameState, side: str) -> float:
        """The built-in opponent's judgement of a position for `side` (heuristic.py)."""
        return heuristic.evaluate(self.scenario, view, side)

    # -- where the game stands
    def situation(self, state: GameState) -> Situation:
        pending = tuple(Waiting(d.side, d.prompt) for d in state.pending)
        if state.result is not None:
            to_move: tuple[str, ...] = ()
        elif pending:
            to_move = (pending[0].side,)
        else:
            side = phase_side(state.phase)
            to_move = (side,) if side else ()
        return Situation(
            turn=state.turn,
            phase=state.phase,
            label=t("turn {turn}, {phase}", turn=state.turn, phase=phase_name(state.phase)),
            phase_name=phase_name(state.phase),
            to_move=to_move,
            pending=pending,
            result=state.result,
            key=_situation_key(state),
        )

    # -- questions
    def answer(self, state: GameState, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        return views.answer(self.scenario, state, actor, query)

    def show(self, state: GameState) -> dict[str, Any]:
        return views.show(self.scenario, state)

    def state_from_json(self, data: dict[str, Any]) -> GameState:
        """The state read back; its pending decisions' prompts said in every language again
        (stored as their English text: legal.restore_prompts)."""
        state = GameState.from_json(data)
        legal.restore_prompts(self.scenario, state)
        return state


def _situation_key(state: GameState) -> str:
    """turn | phase | whose move | pending decision ("" once the game is over). The format of
    the keys stored with armed deadlines by earlier releases: keep it."""
    if state.result is not None:
        return ""
    pending = state.pending[0].kind if state.pending else ""
    return f"{state.turn}|{state.phase}|{state.active_side}|{pending}"


# typed as the registry sees it: mypy checks it, and the system it binds, against the protocols
SYSTEM: SystemType = SystemKind(
    id=SYSTEM_ID,
    title="Hell's Gate: The Korsun Pocket 1944",
    name=named("Hell's Gate", ru="Врата Ада"),
    sides=SIDES,
    data="adjudicator.hells_gate/scenario.toml",
    read=parse_scenario,
    rules=HellsGateSystem,
)

__all__ = ["SIDES", "SYSTEM", "HellsGateSystem"]
