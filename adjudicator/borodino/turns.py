"""The turn (Sequence of Play) as the referee keeps it: the Activation Phases and their Rally
phases, the Morale Phase, the Recovery Phase and its placements, the end of the turn and of the
referee's part; the deadline defaults; `HANDLERS`, the rule of each order (system.resolve).

A turn: between activations ("activations") either player reports his own units and opens an
Activation Phase (`activate <AG>`); `end` closes it and its Rally phase begins (2.1), which
ends by itself when no unit may still attempt, or with `end`; `morale` holds the Morale Phase
(6.2) and `recovery` the Recovery Phase (it holds the Morale Phase first if the turn has had
none); the placements follow; then the Withdrawn Boxes move (5.1) and the next turn begins.
Each handler changes `ctx.state`, a copy (system.resolve); a Rejection changes nothing. Pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.borodino import collapse, legal, rally, recovery, reports
from adjudicator.borodino import orders as O
from adjudicator.borodino.board import (
    Ctx,
    group_label,
    ids,
    is_collapsed,
    members,
    none_or,
    other,
    owner,
    phases_held,
    result_msg,
    side_name,
    tell_boxes,
    where_name,
)
from adjudicator.borodino.data import SIDE_IDS
from adjudicator.borodino.texts import busy, default_text, open_hint
from adjudicator.core.errors import Rejection
from adjudicator.core.events import DEFAULT_APPLIED, GAME_ENDED, PHASE_BEGAN
from adjudicator.core.i18n import Msg, t


def apply_default(ctx: Ctx) -> None:
    """What a passed deadline does: the defaults of legal.default_order for the side on the
    clock, until that side has nothing more to decide now (every placement of his, or one
    phase)."""
    side, order = legal.default_order(ctx.scen, ctx.state)
    while True:
        ctx.emit(
            DEFAULT_APPLIED,
            t(
                "Deadline default for {side}: {order}.",
                side=side_name(side),
                order=default_text(order),
            ),
            side=side,
        )
        HANDLERS[type(order)](ctx, side, order)
        state = ctx.state
        if (
            not isinstance(order, O.Return)
            or state.phase != "placement"
            or state.result is not None  # the last placement ended the referee's part
            or not state.placing
            or state.placing[0] != side
        ):
            return
        side, order = legal.default_order(ctx.scen, state)


# -- the activation and its Rally phase
def activate(ctx: Ctx, actor: str, order: O.Activate) -> None:
    scen, state, gid = ctx.scen, ctx.state, order.group
    if state.phase != "activations":
        raise Rejection(
            "not-now", t("{busy}: one activation at a time", busy=busy(ctx.state)), "2.1"
        )
    if owner(scen, gid) != actor:
        raise Rejection(
            "not-your-group",
            t("{group} is {side}: activate your own", group=gid, side=side_name(owner(scen, gid))),
            "1.1",
        )
    if gid in scen.units and scen.units[gid].group is not None:
        group = scen.units[gid].group
        raise Rejection(
            "not-independent",
            t("{unit} is of {group}: `activate {group}`", unit=gid, group=group),
            "2.8",
        )
    if gid in state.activated:
        raise Rejection(
            "activated-already", t("{group} has been activated this turn already", group=gid), "2.1"
        )
    if not any(state.units[u.id].on_map for u in members(scen, gid)):
        raise Rejection(
            "nothing-on-map", t("{group} has no unit on the map to activate", group=gid), "2.1"
        )
    state.phase, state.active, state.acted = "activation", gid, {}
    state.activated.append(gid)
    state.initiative = other(actor)
    ctx.emit(
        PHASE_BEGAN,
        t("Activation Phase of {group}.", group=group_label(scen, gid)),
        turn=state.turn,
        phase="activation",
        group=gid,
    )


def end(ctx: Ctx, actor: str, order: O.End) -> None:
    state = ctx.state
    if state.phase not in ("activation", "rally") or state.active is None:
        raise Rejection(
            "nothing-to-end",
            t("no Activation or Rally phase is open; {hint}", hint=open_hint()),
            "2.1",
        )
    if owner(ctx.scen, state.active) != actor:
        raise Rejection(
            "not-yours",
            t("the phase is {side}'s to end", side=side_name(owner(ctx.scen, state.active))),
            "2.1",
        )
    if state.phase == "activation":
        begin_rally(ctx)
    elif state.rules >= 2:  # version 2 says what is left (a stored game's texts stay as they were)
        end_rally(ctx, rally.eligible(ctx.scen, state))
    else:
        end_rally(ctx)


def begin_rally(ctx: Ctx) -> None:
    """2.1: the Rally phase at the end of the AG's Activation Phase."""
    state, scen = ctx.state, ctx.scen
    state.phase, state.attempted = "rally", []
    can = rally.eligible(scen, state)
    if not can:
        ctx.emit(
            "RallyPhase",
            t("Rally phase of {group}: no unit may attempt to rally.", group=state.active),
        )
        end_rally(ctx)
        return
    ctx.emit(
        PHASE_BEGAN,
        t(
            "Rally phase of {group}: may attempt: {units} (`rally <UNIT>`, "
            "optional; `end` when done).",
            group=state.active,
            units=ids(can),
        ),
        turn=state.turn,
        phase="rally",
        group=state.active,
        eligible=can,
    )


def do_rally(ctx: Ctx, actor: str, order: O.Rally) -> None:
    state, scen = ctx.state, ctx.scen
    unit = scen.units[order.unit]
    if unit.side == actor and is_collapsed(scen, state, order.unit):  # whatever the phase
        now = rally.eligible(scen, state) if state.phase == "rally" else []
        raise Rejection(
            "collapsed",
            t(
                "{unit} is of {group}, which has collapsed: no unit of a collapsed group may "
                "rally for the rest of the game (6.8); may attempt now: {units}",
                unit=order.unit,
                group=str(unit.group),
                units=none_or(now),
            ),
            "2.5",
        )
    if state.phase != "rally":
        raise Rejection(
            "not-rally-phase",
            t(
                "no Rally phase is open ({busy}); it follows `end` of an activation",
                busy=busy(ctx.state),
            ),
            "2.1",
        )
    if scen.units[order.unit].side != actor:
        raise Rejection(
            "not-your-unit",
            t(
                "{unit} is not yours: the {side} player rallies it (may attempt: {units})",
                unit=order.unit,
                side=side_name(scen.units[order.unit].side),
                units=none_or(rally.eligible(scen, state)),
            ),
            "2.1",
        )
    reason = rally.why_not(scen, state, order.unit)
    if reason is not None:
        can = none_or(rally.eligible(scen, state))
        raise Rejection(
            "may-not-rally", t("{why}; may attempt: {units}", why=reason[1], units=can), reason[0]
        )
    rally.attempt(ctx, order.unit)
    if not rally.eligible(scen, state):
        end_rally(ctx)


def end_rally(ctx: Ctx, unused: list[str] | None = None) -> None:
    """unused: the units that could still have attempted (an `end` says so: 2.7, optional)."""
    state = ctx.state
    if unused:
        said = t(
            "The Rally phase of {group} ends; no attempt by {units}, who could still have tried "
            "(optional, 2.7).",
            group=state.active,
            units=ids(unused),
        )
        ctx.emit("RallyEnded", said, unused=unused)
    else:
        ctx.emit("RallyEnded", t("The Rally phase of {group} ends.", group=state.active))
    tell_boxes(ctx)
    state.phase, state.active, state.acted, state.attempted = "activations", None, {}, []
    ctx.emit(
        PHASE_BEGAN,
        t(
            "Turn {turn}: between activations; {side} next.",
            turn=state.turn,
            side=side_name(state.initiative),
        ),
        turn=state.turn,
        phase="activations",
    )


# -- the end of the turn
def morale(ctx: Ctx, actor: str, order: O.Morale) -> None:
    state = ctx.state
    if state.phase != "activations" or state.morale_done:
        said = (
            t("the Morale Phase of this turn has been held; now: `recovery`")
            if state.morale_done
            else t("{busy}; now: finish it", busy=busy(ctx.state))
        )
        raise Rejection("not-now", said, "6.2")
    morale_phase(ctx)


def morale_phase(ctx: Ctx) -> None:
    fallen = collapse.morale_phase(ctx)
    ctx.state.phase = "recovery"
    if fallen and ctx.scen.ending.on_collapse:
        finish(ctx, t("{groups} collapsed", groups=ids(fallen)), loser=owner(ctx.scen, fallen[0]))
        return
    ctx.emit(
        PHASE_BEGAN,
        t(
            "Turn {turn}: Morale Phase held; the Recovery Phase is next (`recovery`).",
            turn=ctx.state.turn,
        ),
        turn=ctx.state.turn,
        phase="recovery",
    )


def do_recovery(ctx: Ctx, actor: str, order: O.Recovery) -> None:
    state = ctx.state
    if state.phase not in ("activations", "recovery"):
        raise Rejection(
            "not-now", t("{busy}; the Recovery Phase ends the turn", busy=busy(ctx.state)), "3.1"
        )
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
        said = (
            t(
                "{unit} is recovered and awaiting placement; units return in the Recovery Phase",
                unit=order.unit,
            )
            if spot.where == "recovered"
            else t(
                "{unit} is not recovered ({where}); units return in the Recovery Phase",
                unit=order.unit,
                where=where_name(spot.where),
            )
        )
        raise Rejection("not-placing", said, "3.5")
    if scen.units[order.unit].side != actor or state.placing[0] != actor:
        raise Rejection(
            "not-yours", t("{side} places now (3.8)", side=side_name(state.placing[0])), "3.8"
        )
    if order.hex not in scen.map:
        raise Rejection("off-board", t("{hex} is not a hex of the map", hex=order.hex), "1.11")
    reason = recovery.why_not_hex(scen, state, order.unit, order.hex)
    if reason is not None:
        legal = recovery.legal_hexes(scen, state, order.unit)
        raise Rejection(
            "illegal-hex",
            t(
                "{why}; legal hexes for {unit}: {hexes}",
                why=reason[1],
                unit=order.unit,
                hexes=ids(legal),
            ),
            reason[0],
        )
    recovery.place(ctx, order.unit, order.hex)
    next_placement(ctx)


def next_placement(ctx: Ctx) -> None:
    state = ctx.state
    if recovery.next_placer(ctx):
        side = state.placing[0]
        ctx.emit(
            PHASE_BEGAN,
            t(
                "{side} places: {units} (`return <UNIT> <HEX>`, 4.2-4.4).",
                side=side_name(side),
                units=ids(recovery.placeable(ctx.scen, state, side)),
            ),
            turn=state.turn,
            phase="placement",
            side=side,
        )
        return
    recovery.withdrawn_to_recovery(ctx)
    state.recovery_phases += 1
    tell_boxes(ctx)
    if state.recovery_phases >= ctx.scen.ending.recovery_phases:
        finish(ctx, phases_held(state.recovery_phases))
        return
    new_turn(ctx)


def new_turn(ctx: Ctx) -> None:
    state = ctx.state
    state.turn += 1
    state.phase, state.active, state.activated, state.morale_done = "activations", None, [], False
    state.acted, state.attempted, state.placing = {}, [], []
    state.initiative = SIDE_IDS[(state.turn - 1) % 2]
    ctx.emit(
        PHASE_BEGAN,
        t("Turn {turn} begins; {side} first.", turn=state.turn, side=side_name(state.initiative)),
        turn=state.turn,
        phase="activations",
    )


def finish(ctx: Ctx, why: Msg, loser: str | None = None) -> None:
    """The referee's part ends (the result the demo and the contract need). Decision: the
    source has no victory rules; the side with the smaller share of its order of battle off
    the map is named (`verdict = "share"`; "count", the verdict of earlier games: fewer units),
    a collapse: the other side; equal: a draw."""
    scen, units = ctx.scen, ctx.state.units
    lost = {
        s: sum(1 for u, p in units.items() if p.off_map and scen.units[u].side == s)
        for s in SIDE_IDS
    }
    share = scen.ending.verdict == "share"
    of = {s: sum(1 for u in scen.units.values() if u.side == s) for s in SIDE_IDS}
    a, b = SIDE_IDS
    weight = (lost[a] * of[b], lost[b] * of[a]) if share else (lost[a], lost[b])  # a/A vs b/B
    if loser is not None:
        winner = other(loser)
    else:
        winner = "draw" if weight[0] == weight[1] else (a if weight[0] < weight[1] else b)
    text = result_msg(why, winner, lost, of if share else None)
    ctx.state.result = {
        "winner": winner,
        "text": text,
        "lost": lost,
        **({"of": of} if share else {}),
    }
    ctx.emit(GAME_ENDED, t("Game over: {result}.", result=text), winner=winner, lost=lost)


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
