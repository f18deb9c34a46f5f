"""The block game of the Great Northern War as a GameSystem (adjudicator/core/system.py):
rules/northern-war-blocks.md, sections 1-9, with the part-B sample rules of section 10 (the
scenario must say `sample_rules = true`).

Hidden information: every block's strength and identity is its owner's; `view` removes what a
viewer may not see; what only one side may learn (its reconnaissance, its siege dice, its own
moves and replacements by name) is a private event (Audience.of_side), and a siege's dice are
hidden draws. Pure: no I/O, no clock, no global random."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import DECISION_PENDING, GAME_ENDED, Event, Viewer
from adjudicator.core.i18n import cat, name, t
from adjudicator.core.i18n import name as named
from adjudicator.core.kit import RulesSystem, SystemKind
from adjudicator.core.system import Answer, Outcome, Side, Situation, Waiting
from adjudicator.grammar import GrammarKit
from adjudicator.northern_war import actions as A
from adjudicator.northern_war import battle, board, data, legal, turns, views
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, NWState, copy_state, from_json, to_json
from adjudicator.northern_war.texts import phase

SIDES = (Side("sweden", name("Sweden", ru="Швеция"), ("swedes", "swe", "швеция", "шведы")),
         Side("coalition", name("Coalition", ru="Коалиция"), ("coal", "allies", "коалиция", "союзники")))  # fmt: skip
HEADLINES = frozenset({
    "ActionRolled", "FirstPlayer", "EventResolved",  # the action rolls (5.1-5.15)
    "Reconnoitred", "BlocksMoved", "SiegeDeclared", "PolicyRolled", "StepReplaced",
    "WinterSteps",  # the public side of every action
    "BattleBegan", "BlockFired", "BlockHit", "BlockEliminated", "AttackersRetreat",
    "BlockRetreated", "NoRetreat", "BattleEnded",  # the whole battle report, to the group (N24)
    "SiegeResolved", "SiegeLapsed", "Armistice", "ReturnRolled", "CharlesReturned", GAME_ENDED,
})  # fmt: skip
MOVE_TEMPLATE = "move <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...]"
WINTER_TEMPLATE = "winter <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...]"


class NorthernWar(RulesSystem):
    id = "northern-war"
    sides = SIDES
    drawer = "adjudicator.northern_war.drawer"
    headlines = HEADLINES
    hidden_information = True
    side_maps = True  # each player gets his own map by DM (own blocks face up)

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.title = scenario.named  # a Msg: its English is the title
        self.grammar: GrammarKit = data_grammar(scenario)

    # -- playing
    def initial(self, sandbox: bool, dice: DiceSource) -> Outcome:
        sc = self.scenario
        state = NWState(
            year=1, turn=1, count=1, phase="entry", to_move="sweden",
            at={b: blk.at for b, blk in sc.blocks.items()},
            strength={b: blk.strength for b, blk in sc.blocks.items()},
            status={b: ON_MAP for b in sc.blocks},
            control={t: terr.control for t, terr in sc.territories.items()}, sandbox=sandbox,
        )  # fmt: skip
        text = t("{title}: the entry phase of {year}. Sweden: send 'end' to begin turn 1 with the "
                 "action rolls (the setup rolls no dice).",
                 title=sc.named, year=sc.first_year)  # fmt: skip
        return Outcome(state, [Event("GameStarted", text)])

    def check(self, state: NWState, side: str, order: object) -> None:
        """The gate of legal.check: moves and winter campaigns along any path (templates), each
        refusal citing its rule."""
        legal.check(self.scenario, state, side, order)

    def resolve(self, state: NWState, actor: str, order: object, dice: DiceSource) -> Outcome:
        new = copy_state(state)
        rec = RecordingDice(dice)
        events = self._do(new, actor, order, rec)
        if new.pending is not None:
            events.append(Event(DECISION_PENDING, cat(legal.prompt(self.scenario, new), "."),
                                {"side": new.pending["side"]}))  # fmt: skip
        return Outcome(new, events, rec.rolls, order=order)

    def _do(self, new: NWState, side: str, order: object, dice: RecordingDice) -> list[Event]:
        sc = self.scenario
        events: list[Event] = []
        if isinstance(order, O.Move):
            events = A.move(sc, new, side, order)
        elif isinstance(order, O.Recon):
            events = A.recon(sc, new, side, order)
        elif isinstance(order, O.Siege):
            events = A.siege(sc, new, side, order)
        elif isinstance(order, O.Policy):
            events = A.policy(sc, new, side, order, dice)
        elif isinstance(order, O.Replace):
            events = A.replace(sc, new, side, order)
        elif isinstance(order, O.Winter):
            events = A.winter(sc, new, order)
        elif isinstance(order, O.BattleAt):
            new.pending = None
            events = battle.begin(sc, new, order.area)
        elif isinstance(order, O.Hit):
            new.pending = None
            bt = new.battle
            assert bt is not None
            bt["hits"] -= 1
            events = battle.hit(sc, new, order.block)
        elif isinstance(order, O.Retreat):
            new.pending = None
            events = battle.retreat(sc, new, order.block, order.area)
        elif isinstance(order, O.ReturnCharles):
            return turns.return_charles(sc, new, order.area, dice) + turns.advance(sc, new, dice)
        if new.phase == "entry":  # the first year's entry phase: the setup rolls no dice
            return turns.start_turn(sc, new, dice) + turns.advance(sc, new, dice)
        if new.phase == "winter":
            if isinstance(order, O.WinterNone | O.End) or not self._free_left(new):
                return events + turns.end_winter(sc, new, dice)
            return events
        if new.phase == "action" and (isinstance(order, O.End) or self._spent(new, side)):
            turns.end_actions(new, side)
        return events + turns.advance(sc, new, dice)

    def _free_left(self, state: NWState) -> bool:
        return any(self._ok(state, "sweden", O.Siege(a)) for a, _ in state.free_sieges)

    def _spent(self, state: NWState, side: str) -> bool:
        """A side with no action left is done, unless a free siege or a split move waits."""
        if state.actions.get(side, 0) > 0:
            return False
        if any(self._ok(state, side, O.Siege(a)) for a, _ in state.free_sieges):
            return False
        origin = state.move_open  # a move from there, right after, is the same action (7.2)
        return not any(
            state.at[b] == origin and b not in state.moved and state.status[b] == ON_MAP
            for b in self.scenario.blocks
            if self.scenario.side_of(b) == side
        )

    def _ok(self, state: NWState, side: str, order: object) -> bool:
        try:
            legal.check(self.scenario, state, side, order)
        except Rejection:
            return False
        return True

    # -- the one gate and the deadline
    def legal_orders(self, state: NWState, side: str) -> Sequence[object]:
        return legal.legal(self.scenario, state, side)

    def order_templates(self, state: NWState, side: str) -> Sequence[str]:
        if legal.whose(state) != side or state.pending is not None:
            return ()
        if state.phase == "action":
            return (MOVE_TEMPLATE,)
        if state.phase == "winter" and not state.winter_moved:
            return (WINTER_TEMPLATE,)
        return ()

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
        label = t("{when}, {phase}", when=board.label(self.scenario, state),
                  phase=phase(state.phase))  # fmt: skip
        what = "" if p is None else f"{p['kind']}|{','.join(p['choices'])}|{p.get('block')}"
        key = "" if over else f"{state.count}|{state.phase}|{who}|{what}"
        return Situation(state.count, state.phase, label, to_move, pending, state.result, key)

    # -- what a viewer sees, and questions
    def view(self, state: NWState, viewer: Viewer) -> NWState:
        return views.view(self.scenario, state, viewer)

    def answer(self, state: NWState, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return super().answer(state, actor, query)
        sides = [actor] if actor in {s.id for s in SIDES} else []
        if isinstance(query, O.Blocks):
            return Answer(views.blocks_text(self.scenario, state, sides))
        return Answer(views.status_text(self.scenario, state))

    def show(self, state: NWState) -> dict[str, Any]:
        return to_json(state)

    def state_to_json(self, state: NWState) -> dict[str, Any]:
        return to_json(state)

    def state_from_json(self, payload: dict[str, Any]) -> NWState:
        return from_json(payload)


def data_grammar(sc: Scenario) -> GrammarKit:
    from adjudicator.northern_war.grammar import grammar

    return grammar(sc, SIDES)


SYSTEM = SystemKind(
    id="northern-war",
    title="Great Northern War (block game)",
    name=named("Northern War", ru="Северная война"),
    sides=SIDES,
    data="adjudicator.northern_war/sample.toml",
    read=data.load,
    rules=NorthernWar,  # the class bound to the data (a test's leaky one)
)
