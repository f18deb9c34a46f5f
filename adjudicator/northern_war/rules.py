"""One order of the block game carried out (rules/northern-war-blocks.md, sections 5-8 and the
part-B sample rules): the setup, the order handed to the rules module that carries it out
(actions, movement, battle, turns), then every automatic step that follows until a side must
speak (turns.advance), and the decision put to a side, if one is. The order has passed the gate
(legal.check). Pure; dice come from the injected source."""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import DECISION_PENDING, Event
from adjudicator.core.i18n import cat, t, tn
from adjudicator.core.system import Outcome
from adjudicator.northern_war import actions, battle, legal, movement, turns
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.texts import Side, listed


def setup(sc: Scenario, sandbox: bool, rules: int = 1) -> Outcome:
    """The setup (N17) and the first year's entry phase, where Sweden's `end` begins turn 1 (8.4),
    under rules version `rules` (kept in the state; docs/northern-war.md, "Rules versions")."""
    state = NWState(
        year=1,
        turn=1,
        count=1,
        phase="entry",
        to_move="sweden",
        at={b: blk.at for b, blk in sc.blocks.items()},
        strength={b: blk.strength for b, blk in sc.blocks.items()},
        status={b: ON_MAP for b in sc.blocks},
        control={t: terr.control for t, terr in sc.territories.items()},
        sandbox=sandbox,
        rules=rules,
    )
    text = t(
        "{title}: the entry phase of {year}. Sweden: send 'end' to begin turn 1 with the "
        "action rolls (the setup rolls no dice).",
        title=sc.named,
        year=sc.first_year,
    )
    return Outcome(state, [Event("GameStarted", text)])


def apply(sc: Scenario, state: NWState, side: str, order: object, dice: DiceSource) -> Outcome:
    """The order carried out on a copy of `state`, with what follows it."""
    new = state.clone()
    notes = unused(sc, state, side) if isinstance(order, O.End) else []
    events = carry_out(sc, new, side, order, dice)
    if new.pending is not None:
        said = cat(legal.prompt(sc, new), ".")
        events.append(Event(DECISION_PENDING, said, {"side": new.pending["side"]}))
    return Outcome(new, events, order=order, notes=notes)


def unused(sc: Scenario, state: NWState, side: str) -> list[str]:
    """What an `end` leaves unused (5.19: a player may; 5.3: not saved for later turns): the
    actions left and the free siege declarations still open (7.10), as a line of the reply
    (Outcome.notes: the events of stored games stay as they were). Both are public."""
    if state.phase not in ("action", "winter"):
        return []
    left: list[object] = []
    n = state.actions.get(side, 0) if state.phase == "action" else 0
    if n:
        left.append(tn("{n} action", "{n} actions", n))
    for area, _ in state.free_sieges:
        if _ok(sc, state, side, O.Siege(area)):
            left.append(
                t("the free siege declaration in {area} (7.10)", area=sc.territories[area].named)
            )
    if not left:
        return []
    if state.phase == "winter":
        return [
            t(
                "{side} ends the winter campaign: {left} left unused.",
                side=Side(side),
                left=listed(left),
            )
        ]
    return [
        t("{side} ends its actions: {left} left unused (5.19).", side=Side(side), left=listed(left))
    ]


def carry_out(
    sc: Scenario, new: NWState, side: str, order: object, dice: DiceSource
) -> list[Event]:
    events: list[Event] = []
    if isinstance(order, O.Move):
        events = movement.move(sc, new, side, order)
    elif isinstance(order, O.Recon):
        events = actions.recon(sc, new, side, order)
    elif isinstance(order, O.Siege):
        events = actions.siege(sc, new, side, order)
    elif isinstance(order, O.Policy):
        events = actions.policy(sc, new, side, order, dice)
    elif isinstance(order, O.Replace):
        events = actions.replace(sc, new, side, order)
    elif isinstance(order, O.Winter):
        events = movement.winter(sc, new, order)
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
        if isinstance(order, O.WinterNone | O.End) or not _winter_open(sc, new):
            return events + turns.end_winter(sc, new, dice)
        return events
    if new.phase == "action" and (isinstance(order, O.End) or _spent(sc, new, side)):
        turns.end_actions(new, side)
    return events + turns.advance(sc, new, dice)


def _winter_open(sc: Scenario, state: NWState) -> bool:
    """The campaign waits for Sweden while a free siege may be declared (7.10) or, under rules
    2, blocks left in its origin may still split from the march (6.8, 7.2)."""
    if movement.split_left(sc, state):
        return True
    return any(_ok(sc, state, "sweden", O.Siege(a)) for a, _ in state.free_sieges)


def _spent(sc: Scenario, state: NWState, side: str) -> bool:
    """A side with no action left is done, unless a free siege or a split move waits."""
    if state.actions.get(side, 0) > 0:
        return False
    if any(_ok(sc, state, side, O.Siege(a)) for a, _ in state.free_sieges):
        return False
    origin = state.move_open  # a move from there, right after, is the same action (7.2)
    return not any(
        state.at[b] == origin and b not in state.moved and state.status[b] == ON_MAP
        for b in sc.blocks
        if sc.side_of(b) == side
    )


def _ok(sc: Scenario, state: NWState, side: str, order: object) -> bool:
    try:
        legal.check(sc, state, side, order)
    except Rejection:
        return False
    return True
