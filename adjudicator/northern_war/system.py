"""The block game of the Great Northern War as a GameSystem (adjudicator/core/system.py), on the
kit (adjudicator/core/kit.py): rules/northern-war-blocks.md, sections 1-9, with the part-B
sample rules of section 10 (the scenario must say `sample_rules = true`).

Hidden information: every block's strength and identity is its owner's; `view` removes what a
viewer may not see; what only one side may learn (its reconnaissance, its siege dice, its own
moves and replacements by name) is a private event (Audience.of_side), and a siege's dice are
hidden draws. Pure: no I/O, no clock, no global random."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource
from adjudicator.core.events import GAME_ENDED, Viewer
from adjudicator.core.i18n import name as named
from adjudicator.core.i18n import t
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.options import Options
from adjudicator.core.system import MODERATOR_ACTOR, Answer, Outcome, Situation, Waiting
from adjudicator.grammar import GrammarKit
from adjudicator.northern_war import board, data, edit, heuristic, hidden, legal, rules, views
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.areas import Areas, areas_text
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.grammar import SIDES, grammar
from adjudicator.northern_war.rules import setup
from adjudicator.northern_war.state import NWState
from adjudicator.northern_war.texts import phase

ACTION_ROLLS = ("ActionRolled", "FirstPlayer", "EventResolved")  # 5.1-5.15
ACTIONS = (  # the public side of every action
    "Reconnoitred",
    "BlocksMoved",
    "SiegeDeclared",
    "PolicyRolled",
    "StepReplaced",
    "WinterSteps",
)
BATTLES = (  # the whole battle report, to the group (N24)
    "BattleBegan",
    "BlockFired",
    "BlockHit",
    "BlockEliminated",
    "AttackersRetreat",
    "BlockRetreated",
    "NoRetreat",
    "BattleEnded",
)
HEADLINES = frozenset(
    {
        *ACTION_ROLLS,
        *ACTIONS,
        *BATTLES,
        "SiegeResolved",
        "SiegeLapsed",
        "Armistice",
        "ReturnRolled",
        "CharlesReturned",
        GAME_ENDED,
    }
)


class NorthernWar(RulesSystem):
    id = "northern-war"
    sides = SIDES
    drawer = "adjudicator.northern_war.drawer"
    headlines = HEADLINES
    hidden_information = True
    side_maps = True  # each player gets his own map by DM (own blocks face up)
    state_type = NWState
    rules_version = 2  # 2: N3 f (a battle ends at once with a side wiped out), 6.8 with 7.2
    die_rule = "1.9"  # every roll is one six-sided die: a moderator's `dice` fixes d6 results
    opponent_plays = True  # evaluate (heuristic.py), determinise (hidden.sample)

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.title = scenario.named  # a Msg: its English is the title
        self.grammar: GrammarKit = grammar(scenario)

    def initial(self, sandbox: bool, dice: DiceSource, rules: int | None = None) -> Outcome:
        """The setup under rules version `rules` (None: the newest; docs, "Rules versions")."""
        return setup(self.scenario, sandbox, self.rules_version if rules is None else rules)

    def check(self, state: NWState, side: str, order: object) -> None:
        """The gate of legal.check: moves and winter campaigns along any path (templates), each
        refusal citing its rule."""
        legal.check(self.scenario, state, side, order)

    def resolve(self, state: NWState, side: str, order: object, dice: DiceSource) -> Outcome:
        return rules.apply(self.scenario, state, side, order, dice)

    def apply(self, state: NWState, actor: str, order: object, dice: DiceSource) -> Outcome:
        """The kit's, but a moderator's `default` is kept as the order applied: the log then
        records `default` by the moderator, which replays as it went (the side's own order,
        `end` say, by the moderator would be refused as not his move, 5.7)."""
        out = super().apply(state, actor, order, dice)
        if isinstance(order, C.Default) and actor == MODERATOR_ACTOR:
            out.order = order
        return out

    def edit(self, state: NWState, order: object) -> Outcome:
        """A moderator's `place` or `set` (edit.py; the kit lets only a moderator give it)."""
        return edit.edit(self.scenario, state, order)

    def legal_orders(self, state: NWState, side: str) -> Sequence[object]:
        """On the full state, or on `side`'s view: its anonymous enemy blocks stand for any
        blocks they may be (hidden.stand_in), since what a side may order never depends on
        who they are nor on their strength (the same list as on the full state)."""
        if hidden.has_anonymous(state):
            state = hidden.stand_in(self.scenario, state, side)
        return legal.legal(self.scenario, state, side)

    def order_templates(self, state: NWState, side: str) -> Sequence[str]:
        return legal.templates(self.scenario, state, side)

    def default_order(self, state: NWState) -> object:
        return legal.default(state)

    def situation(self, state: NWState) -> Situation:
        who = legal.whose(state)
        over = state.result is not None
        to_move = () if who is None or over else (who,)
        pending: tuple[Waiting, ...] = ()
        p = state.pending
        if p is not None:
            pending = (Waiting(p["side"], legal.prompt(self.scenario, state)),)
        when = board.label(self.scenario, state)
        label = t("{when}, {phase}", when=when, phase=phase(state.phase))
        what = "" if p is None else f"{p['kind']}|{','.join(p['choices'])}|{p.get('block')}"
        key = "" if over else f"{state.count}|{state.phase}|{who}|{what}"
        return Situation(state.count, state.phase, label, to_move, pending, state.result, key)

    def view(self, state: NWState, viewer: Viewer) -> NWState:
        return views.view(self.scenario, state, viewer)

    # -- the built-in opponent (core.system.OpponentSupport)
    def evaluate(self, view: NWState, side: str) -> float:
        return heuristic.evaluate(self.scenario, view, side)

    def determinise(self, view: NWState, side: str, dice: DiceSource) -> NWState:
        """A full state behind `side`'s view, the hidden blocks drawn (hidden.sample)."""
        return hidden.sample(self.scenario, view, side, dice)

    def answer(self, state: NWState, actor: str, query: object) -> Answer:
        if isinstance(query, Options):  # the kit's lists legal orders, which a view with the
            # enemy's blocks hidden cannot give: the side's commands instead (its own help)
            return super().answer(state, actor, C.Help())
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        sides = [actor] if actor in {s.id for s in SIDES} else []
        if isinstance(query, O.Blocks):
            return Answer(views.blocks_text(self.scenario, state, sides))
        if isinstance(query, Areas):
            return Answer(areas_text(self.scenario, state))
        return Answer(views.status_text(self.scenario, state))


SYSTEM = SystemKind(
    id="northern-war",
    title="Great Northern War (block game)",
    name=named("Northern War", ru="Северная война"),
    sides=SIDES,
    data="adjudicator.northern_war/sample.toml",
    read=data.load,
    rules=NorthernWar,  # the class bound to the data (a test's leaky one)
)

__all__ = ["HEADLINES", "SIDES", "SYSTEM", "NorthernWar"]
