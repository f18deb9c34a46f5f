"""A player's reports about his own units (the bot does not adjudicate movement, fire or
shock, which are not in the source: the players play them on their board and report what
came of it), and the opponent's dispute of a report.

Invariants: a player reports only his own units; a report about a unit off the map is
refused (1.8); a hex held by an enemy unit takes no unit. Pure."""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.borodino.board import Ctx, enemy_hexes, label, members, side_name
from adjudicator.core.errors import Rejection
from adjudicator.core.events import MODERATORS_ONLY

REPORT_PHASES = ("activations", "activation")


def check(
    ctx: Ctx, actor: str, order: O.At | O.Disorder | O.Rout | O.Eliminate | O.Activated
) -> None:
    scen, state = ctx.scen, ctx.state
    unit, spot = scen.units[order.unit], state.units[order.unit]
    if unit.side != actor:
        raise Rejection(
            "not-your-unit",
            f"{order.unit} is a {side_name(unit.side)} unit: each player reports his own units; "
            f"`dispute {order.unit} <TEXT>` questions a report",
            "1.5",
        )
    if state.phase not in REPORT_PHASES:
        raise Rejection(
            "no-reports-now",
            f"reports wait until the {state.phase} phase is over; now: {_now(ctx)}",
            "2.1" if state.phase == "rally" else "3.1",
        )
    if spot.off_map:
        raise Rejection(
            "off-map",
            f"{label(scen, order.unit)} is off the map ({_where(spot.where)}): reports are "
            "about units on the map only",
            "1.8",
        )
    if spot.where == "later" and not isinstance(order, O.At):
        raise Rejection(
            "not-entered",
            f"{order.unit} has not entered play yet: `at {order.unit} <HEX>` brings it in",
            "6.4",
        )


def _where(where: str) -> str:
    return {
        "withdrawn": "in the Withdrawn Box",
        "recovery": "in the Recovery Box",
        "recovered": "in the Recovery Box, recovered, awaiting placement",
        "eliminated": "Permanently Eliminated",
    }[where]


def _now(ctx: Ctx) -> str:
    if ctx.state.phase == "rally":
        return "`rally <UNIT>` or `end`"
    if ctx.state.phase == "placement":
        return "`return <UNIT> <HEX>`"
    return "`recovery`"


def at(ctx: Ctx, actor: str, order: O.At) -> None:
    check(ctx, actor, order)
    scen, state = ctx.scen, ctx.state
    if order.hex not in scen.map:
        raise Rejection("off-board", f"{order.hex} is not a hex of the map", "1.11")
    if order.hex in enemy_hexes(scen, state, actor):
        raise Rejection(
            "enemy-hex", f"{order.hex} is held by an enemy unit: no unit shares it", "1.5"
        )
    spot = state.units[order.unit]
    entering = spot.where == "later"
    if entering:
        spot.where = "map"
        state.entered.append(order.unit)
    elif state.phase == "activation" and _in_activation(ctx, order.unit) and spot.hex != order.hex:
        _acted(ctx, order.unit, "moved")  # 2.2: a unit that moved in its activation
    spot.hex = order.hex
    verb = "enters play at" if entering else "is at"
    ctx.emit(
        "UnitAt", f"{label(scen, order.unit)} {verb} {order.hex}.", unit=order.unit, hex=order.hex
    )


def disorder(ctx: Ctx, actor: str, order: O.Disorder) -> None:
    check(ctx, actor, order)
    spot = ctx.state.units[order.unit]
    if spot.disordered:
        raise Rejection(
            "already-disordered",
            f"{order.unit} is already Disordered; `rout {order.unit}` if it routed",
            "1.3",
        )
    spot.disordered = True
    ctx.emit("UnitDisordered", f"{label(ctx.scen, order.unit)} is Disordered.", unit=order.unit)


def rout(ctx: Ctx, actor: str, order: O.Rout) -> None:
    """1.6: a routed unit leaves the map for its owner's Withdrawn Box."""
    check(ctx, actor, order)
    spot = ctx.state.units[order.unit]
    spot.where, spot.hex = "withdrawn", None
    ctx.emit(
        "UnitRouted", f"{label(ctx.scen, order.unit)} routs to the Withdrawn Box (1.6).",
        unit=order.unit,
    )  # fmt: skip


def eliminate(ctx: Ctx, actor: str, order: O.Eliminate) -> None:
    """1.7: an eliminated unit goes to the Permanently Eliminated box."""
    check(ctx, actor, order)
    spot = ctx.state.units[order.unit]
    spot.where, spot.hex = "eliminated", None
    ctx.emit(
        "UnitEliminated", f"{label(ctx.scen, order.unit)} is eliminated (1.7).", unit=order.unit
    )


def _in_activation(ctx: Ctx, uid: str) -> bool:
    active = ctx.state.active
    return active is not None and uid in {u.id for u in members(ctx.scen, active)}


def _acted(ctx: Ctx, uid: str, action: str) -> None:
    did = ctx.state.acted.setdefault(uid, [])
    if action not in did:
        did.append(action)


def activated(ctx: Ctx, actor: str, order: O.Activated) -> None:
    """2.2: what a unit did during its activation (it may then not rally)."""
    check(ctx, actor, order)
    if ctx.state.phase != "activation" or not _in_activation(ctx, order.unit):
        active = ctx.state.active
        raise Rejection(
            "not-activated",
            f"{order.unit} is not in an Activation Phase now"
            + (f" (active: {active})" if active else "; `activate <AG>` opens one"),
            "2.2",
        )
    if order.action in ctx.state.acted.get(order.unit, []):
        raise Rejection("already-reported", f"{order.unit} {order.action} already: reported", "2.2")
    _acted(ctx, order.unit, order.action)
    ctx.emit(
        "UnitActed", f"{label(ctx.scen, order.unit)} {order.action} during its activation (2.2).",
        unit=order.unit, action=order.action,
    )  # fmt: skip


def dispute(ctx: Ctx, actor: str, order: O.Dispute) -> None:
    unit = ctx.scen.units[order.unit]
    if unit.side == actor:
        raise Rejection(
            "own-unit",
            f"{order.unit} is your own unit: report it (`at`, `disorder`, `rout`, `eliminate`); "
            "a dispute questions the opponent's report",
            "1.5",
        )
    ctx.state.disputes.append(
        {"turn": ctx.state.turn, "by": actor, "unit": order.unit, "text": order.text}
    )
    ctx.emit(
        "ReportDisputed",
        f"{side_name(actor)} disputes the report on {order.unit}: {order.text}",
        MODERATORS_ONLY, by=actor, unit=order.unit, reason=order.text,
    )  # fmt: skip
    ctx.emit(
        "ReportDisputed",
        f"{side_name(actor)} disputes the report on {order.unit}; sent to the moderators and "
        "recorded in the log.",
        by=actor, unit=order.unit,
    )  # fmt: skip
