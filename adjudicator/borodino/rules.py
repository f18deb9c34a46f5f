"""The Borodino referee's engine: an order applied to a copy of the state, with the recording
dice; the flow of a turn as the bot keeps it.

A turn: between activations ("activations") either player reports his own units and opens an
Activation Phase (`activate <AG>`); `end` closes it and its Rally phase begins (2.1), which
ends by itself when no unit may still attempt, or with `end`; `morale` holds the Morale Phase
(6.2) and `recovery` the Recovery Phase (it holds the Morale Phase first if the turn has had
none); the placements follow; then the Withdrawn Boxes move (5.1) and the next turn begins.
Invariants: the given state is never changed; a Rejection changes nothing. Pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.borodino import collapse, legal, rally, recovery, reports
from adjudicator.borodino import orders as O
from adjudicator.borodino.board import (
    Ctx,
    group_label,
    members,
    other,
    owner,
    side_name,
    tell_boxes,
)
from adjudicator.borodino.data import SIDE_IDS, Scenario
from adjudicator.borodino.state import Spot, State
from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import DEFAULT_APPLIED, GAME_ENDED, PHASE_BEGAN
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR, Outcome


def initial_state(scen: Scenario, sandbox: bool) -> State:
    units = {
        u.id: Spot(u.start, u.hex, u.disordered and u.start == "map") for u in scen.units.values()
    }
    entered = [u.id for u in scen.units.values() if u.start != "later"]
    return State(units, entered=entered, sandbox=sandbox)


def apply(
    scen: Scenario, state: State, actor: str, order: object, dice: DiceSource | None
) -> Outcome:
    ctx = Ctx(scen, state.clone(), RecordingDice(dice, state.fixed_dice))
    applied = dispatch(ctx, actor, order)
    ctx.state.fixed_dice = list(ctx.dice.fixed)
    return Outcome(ctx.state, ctx.events, ctx.dice.rolls, None, applied)


def dispatch(ctx: Ctx, actor: str, order: object) -> object:
    if ctx.state.result is not None:
        raise Rejection(
            "game-over", f"the referee's part is over: {ctx.state.result['text']}", None
        )
    if isinstance(order, O.Default):
        if actor not in (SYSTEM_ACTOR, MODERATOR_ACTOR) or (
            actor == MODERATOR_ACTOR and not ctx.state.sandbox
        ):
            _sandbox_only(ctx, "default")
        apply_default(ctx)
        return order
    if isinstance(order, O.Dice):
        if actor != MODERATOR_ACTOR or not ctx.state.sandbox:
            _sandbox_only(ctx, "dice")
        _fix_dice(ctx, order)
        return order
    if actor not in SIDE_IDS:
        raise Rejection("not-a-player", "only the Russian and French players give orders", None)
    HANDLERS[type(order)](ctx, actor, order)
    return order


def apply_default(ctx: Ctx) -> None:
    """What a passed deadline does: the defaults of legal.default_order for the side on the
    clock, until that side has nothing more to decide now (every placement of his, or one
    phase)."""
    side, order = legal.default_order(ctx.scen, ctx.state)
    while True:
        ctx.emit(
            DEFAULT_APPLIED, f"Deadline default for {side_name(side)}: {_text(order)}.", side=side
        )
        HANDLERS[type(order)](ctx, side, order)
        state = ctx.state
        if (
            not isinstance(order, O.Return)
            or state.phase != "placement"
            or state.placing[0] != side
        ):
            return
        side, order = legal.default_order(ctx.scen, state)


def _text(order: object) -> str:
    if isinstance(order, O.Return):
        return f"return {order.unit} {order.hex} (the legal hex nearest its group, 4.2-4.4)"
    if isinstance(order, O.End):
        return "end (no optional rally is made)"
    return "recovery (the Recovery Phase is run)"


def _sandbox_only(ctx: Ctx, what: str) -> None:
    raise Rejection(
        "sandbox-only",
        f"`{what}` is a moderator command of sandbox games (no rule of the game covers it)",
        None,
    )


def _fix_dice(ctx: Ctx, order: O.Dice) -> None:
    sides = ctx.scen.die_sides
    if not all(1 <= v <= sides for v in order.values):
        raise Rejection("bad-dice", f"die results are 1 to {sides} (the die of this game)", "1.10")
    ctx.dice.fixed.extend(order.values)  # kept in the state after the order (apply)
    ctx.emit(
        "DiceFixed", f"Moderator fixes the next die results: {' '.join(map(str, order.values))}."
    )


# -- the activation and its Rally phase
def activate(ctx: Ctx, actor: str, order: O.Activate) -> None:
    scen, state, gid = ctx.scen, ctx.state, order.group
    if state.phase != "activations":
        raise Rejection("not-now", f"{_busy(ctx)}: one activation at a time", "2.1")
    if owner(scen, gid) != actor:
        raise Rejection(
            "not-your-group", f"{gid} is {side_name(owner(scen, gid))}: activate your own", "1.1"
        )
    if gid in scen.units and scen.units[gid].group is not None:
        group = scen.units[gid].group
        raise Rejection("not-independent", f"{gid} is of {group}: `activate {group}`", "2.8")
    if gid in state.activated:
        raise Rejection("activated-already", f"{gid} has been activated this turn already", "2.1")
    if not any(state.units[u.id].on_map for u in members(scen, gid)):
        raise Rejection("nothing-on-map", f"{gid} has no unit on the map to activate", "2.1")
    state.phase, state.active, state.acted = "activation", gid, {}
    state.activated.append(gid)
    state.initiative = other(actor)
    ctx.emit(PHASE_BEGAN, f"Activation Phase of {group_label(scen, gid)}.",
             turn=state.turn, phase="activation", group=gid)  # fmt: skip


def _busy(ctx: Ctx) -> str:
    return (
        f"the {ctx.state.phase} phase of {ctx.state.active} is open"
        if ctx.state.active
        else (f"the {ctx.state.phase} phase is under way")
    )


def end(ctx: Ctx, actor: str, order: O.End) -> None:
    state = ctx.state
    if state.phase not in ("activation", "rally") or state.active is None:
        raise Rejection(
            "nothing-to-end", f"no Activation or Rally phase is open; {_open_hint()}", "2.1"
        )
    if owner(ctx.scen, state.active) != actor:
        raise Rejection(
            "not-yours", f"the phase is {side_name(owner(ctx.scen, state.active))}'s to end", "2.1"
        )
    if state.phase == "activation":
        begin_rally(ctx)
    else:
        end_rally(ctx)


def _open_hint() -> str:
    return "`activate <AG>` opens an Activation Phase, `morale` and `recovery` end the turn"


def begin_rally(ctx: Ctx) -> None:
    """2.1: the Rally phase at the end of the AG's Activation Phase."""
    state, scen = ctx.state, ctx.scen
    state.phase, state.attempted = "rally", []
    can = rally.eligible(scen, state)
    if not can:
        ctx.emit("RallyPhase", f"Rally phase of {state.active}: no unit may attempt to rally.")
        end_rally(ctx)
        return
    ctx.emit(PHASE_BEGAN, f"Rally phase of {state.active}: may attempt: {', '.join(can)} "
             "(`rally <UNIT>`, optional; `end` when done).", turn=state.turn, phase="rally",
             group=state.active, eligible=can)  # fmt: skip


def do_rally(ctx: Ctx, actor: str, order: O.Rally) -> None:
    state, scen = ctx.state, ctx.scen
    if state.phase != "rally":
        raise Rejection(
            "not-rally-phase",
            f"no Rally phase is open ({_busy(ctx)}); it follows `end` of an activation",
            "2.1",
        )
    if scen.units[order.unit].side != actor:
        can = ", ".join(rally.eligible(scen, state)) or "none"
        raise Rejection(
            "not-your-unit",
            f"{order.unit} is not yours: the {side_name(scen.units[order.unit].side)} player "
            f"rallies it (may attempt: {can})",
            "2.1",
        )
    reason = rally.why_not(scen, state, order.unit)
    if reason is not None:
        can = ", ".join(rally.eligible(scen, state)) or "none"
        raise Rejection("may-not-rally", f"{reason[1]}; may attempt: {can}", reason[0])
    rally.attempt(ctx, order.unit)
    if not rally.eligible(scen, state):
        end_rally(ctx)


def end_rally(ctx: Ctx) -> None:
    state = ctx.state
    ctx.emit("RallyEnded", f"The Rally phase of {state.active} ends.")
    tell_boxes(ctx)
    state.phase, state.active, state.acted, state.attempted = "activations", None, {}, []
    ctx.emit(PHASE_BEGAN, f"Turn {state.turn}: between activations; {side_name(state.initiative)} next.",
             turn=state.turn, phase="activations")  # fmt: skip


# -- the end of the turn
def morale(ctx: Ctx, actor: str, order: O.Morale) -> None:
    state = ctx.state
    if state.phase != "activations" or state.morale_done:
        rule = "6.2"
        why = "the Morale Phase of this turn has been held" if state.morale_done else _busy(ctx)
        raise Rejection(
            "not-now", f"{why}; now: {'`recovery`' if state.morale_done else 'finish it'}", rule
        )
    morale_phase(ctx)


def morale_phase(ctx: Ctx) -> None:
    fallen = collapse.morale_phase(ctx)
    ctx.state.phase = "recovery"
    if fallen and ctx.scen.ending.on_collapse:
        finish(ctx, f"{', '.join(fallen)} collapsed", loser=owner(ctx.scen, fallen[0]))
        return
    ctx.emit(PHASE_BEGAN, f"Turn {ctx.state.turn}: Morale Phase held; the Recovery Phase is next "
             "(`recovery`).", turn=ctx.state.turn, phase="recovery")  # fmt: skip


def do_recovery(ctx: Ctx, actor: str, order: O.Recovery) -> None:
    state = ctx.state
    if state.phase not in ("activations", "recovery"):
        raise Rejection("not-now", f"{_busy(ctx)}; the Recovery Phase ends the turn", "3.1")
    if not state.morale_done:
        morale_phase(ctx)  # 6.2: collapse is checked before the Recovery Phase
        if state.result is not None:
            return
    recovery.run(ctx)
    state.phase = "placement"
    next_placement(ctx)


def do_return(ctx: Ctx, actor: str, order: O.Return) -> None:
    state, scen = ctx.state, ctx.scen
    spot = state.units[order.unit]
    if state.phase != "placement" or spot.where != "recovered":
        where = (
            "recovered and awaiting placement"
            if spot.where == "recovered"
            else f"not recovered ({spot.where})"
        )
        raise Rejection(
            "not-placing", f"{order.unit} is {where}; units return in the Recovery Phase", "3.5"
        )
    if scen.units[order.unit].side != actor or state.placing[0] != actor:
        raise Rejection("not-yours", f"{side_name(state.placing[0])} places now (3.8)", "3.8")
    if order.hex not in scen.map:
        raise Rejection("off-board", f"{order.hex} is not a hex of the map", "1.11")
    reason = recovery.why_not_hex(scen, state, order.unit, order.hex)
    if reason is not None:
        legal = recovery.legal_hexes(scen, state, order.unit)
        raise Rejection(
            "illegal-hex",
            f"{reason[1]}; legal hexes for {order.unit}: {', '.join(legal)}",
            reason[0],
        )
    recovery.place(ctx, order.unit, order.hex)
    next_placement(ctx)


def next_placement(ctx: Ctx) -> None:
    state = ctx.state
    if recovery.next_placer(ctx):
        side = state.placing[0]
        ctx.emit(PHASE_BEGAN, f"{side_name(side)} places: "
                 f"{', '.join(recovery.placeable(ctx.scen, state, side))} (`return <UNIT> <HEX>`, 4.2-4.4).",
                 turn=state.turn, phase="placement", side=side)  # fmt: skip
        return
    recovery.withdrawn_to_recovery(ctx)
    state.recovery_phases += 1
    tell_boxes(ctx)
    if state.recovery_phases >= ctx.scen.ending.recovery_phases:
        finish(ctx, f"{state.recovery_phases} Recovery Phases held")
        return
    new_turn(ctx)


def new_turn(ctx: Ctx) -> None:
    state = ctx.state
    state.turn += 1
    state.phase, state.active, state.activated, state.morale_done = "activations", None, [], False
    state.acted, state.attempted, state.placing = {}, [], []
    state.initiative = SIDE_IDS[(state.turn - 1) % 2]
    ctx.emit(PHASE_BEGAN, f"Turn {state.turn} begins; {side_name(state.initiative)} first.",
             turn=state.turn, phase="activations")  # fmt: skip


def finish(ctx: Ctx, why: str, loser: str | None = None) -> None:
    """The referee's part ends (the result the demo and the contract need). Decision: the
    source has no victory rules; the side with fewer units off the map is named (a collapse:
    the other side), equal: a draw."""
    lost = {
        s: sum(1 for u, p in ctx.state.units.items() if p.off_map and ctx.scen.units[u].side == s)
        for s in SIDE_IDS
    }
    if loser is not None:
        winner = other(loser)
    else:
        a, b = SIDE_IDS
        winner = "draw" if lost[a] == lost[b] else (a if lost[a] < lost[b] else b)
    counts = ", ".join(f"{side_name(s)} {n} units off the map" for s, n in lost.items())
    text = f"the referee's part ends: {why} ({counts}); " + (
        "a draw" if winner == "draw" else f"{side_name(winner)} ahead"
    )
    ctx.state.result = {"winner": winner, "text": text, "lost": lost}
    ctx.emit(GAME_ENDED, f"Game over: {text}.", winner=winner, lost=lost)


HANDLERS: dict[type, Callable[[Ctx, str, Any], None]] = {
    O.At: reports.at,
    O.Disorder: reports.disorder,
    O.Rout: reports.rout,
    O.Eliminate: reports.eliminate,
    O.Activated: reports.activated,
    O.Dispute: reports.dispute,
    O.Activate: activate,
    O.End: end,
    O.Rally: do_rally,
    O.Morale: morale,
    O.Recovery: do_recovery,
    O.Return: do_return,
}
