"""A player's reports about his own units (the bot does not adjudicate movement, fire or
shock, which are not in the source: the players play them on their board and report what
came of it), and the opponent's dispute of a report.

Invariants: a player reports only his own units; a report about a unit off the map is
refused (1.8); a hex held by an enemy unit takes no unit. Pure."""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.borodino.board import Ctx, enemy_hexes, label, members, side_name
from adjudicator.borodino.rally import ACTS
from adjudicator.core.errors import Rejection
from adjudicator.core.events import MODERATORS_ONLY
from adjudicator.core.i18n import Msg, t

REPORT_PHASES = ("activations", "activation")


def check(
    ctx: Ctx, actor: str, order: O.At | O.Disorder | O.Rout | O.Eliminate | O.Activated
) -> None:
    scen, state = ctx.scen, ctx.state
    unit, spot = scen.units[order.unit], state.units[order.unit]
    if unit.side != actor:
        raise Rejection(
            "not-your-unit",
            t(
                "{unit} is a {side} unit: each player reports his own units; "
                "`dispute {unit} <TEXT>` questions a report",
                unit=order.unit,
                side=side_name(unit.side),
            ),
            "1.5",
        )
    if state.phase not in REPORT_PHASES:
        raise Rejection(
            "no-reports-now",
            _wait(state.phase, _now(ctx)),
            "2.1" if state.phase == "rally" else "3.1",
        )
    if spot.off_map:
        raise Rejection(
            "off-map",
            t(
                "{unit} is off the map ({where}): reports are about units on the map only",
                unit=label(scen, order.unit),
                where=_where(spot.where),
            ),
            "1.8",
        )
    if spot.where == "later" and not isinstance(order, O.At):
        raise Rejection(
            "not-entered",
            t("{unit} has not entered play yet: `at {unit} <HEX>` brings it in", unit=order.unit),
            "6.4",
        )


def _wait(phase: str, now: Msg) -> Msg:
    """Reports wait until the phase is over (2.1, 3.1)."""
    if phase == "rally":
        return t("reports wait until the rally phase is over; now: {now}", now=now)
    if phase == "placement":
        return t("reports wait until the placement phase is over; now: {now}", now=now)
    return t("reports wait until the recovery phase is over; now: {now}", now=now)


def _where(where: str) -> Msg:
    return {
        "withdrawn": t("in the Withdrawn Box"),
        "recovery": t("in the Recovery Box"),
        "recovered": t("in the Recovery Box, recovered, awaiting placement"),
        "eliminated": t("Permanently Eliminated"),
    }[where]


def _now(ctx: Ctx) -> Msg:
    if ctx.state.phase == "rally":
        return t("`rally <UNIT>` or `end`")
    if ctx.state.phase == "placement":
        return t("`return <UNIT> <HEX>`")
    return t("`recovery`")


def at(ctx: Ctx, actor: str, order: O.At) -> None:
    check(ctx, actor, order)
    scen, state = ctx.scen, ctx.state
    if order.hex not in scen.map:
        raise Rejection("off-board", t("{hex} is not a hex of the map", hex=order.hex), "1.11")
    if order.hex in enemy_hexes(scen, state, actor):
        raise Rejection(
            "enemy-hex",
            t("{hex} is held by an enemy unit: no unit shares it", hex=order.hex),
            "1.5",
        )
    spot = state.units[order.unit]
    entering = spot.where == "later"
    if entering:
        spot.where = "map"
        state.entered.append(order.unit)
    elif state.phase == "activation" and _in_activation(ctx, order.unit) and spot.hex != order.hex:
        _acted(ctx, order.unit, "moved")  # 2.2: a unit that moved in its activation
    spot.hex = order.hex
    said = (
        t("{unit} enters play at {hex}.", unit=label(scen, order.unit), hex=order.hex)
        if entering
        else t("{unit} is at {hex}.", unit=label(scen, order.unit), hex=order.hex)
    )
    ctx.emit("UnitAt", said, unit=order.unit, hex=order.hex)


def disorder(ctx: Ctx, actor: str, order: O.Disorder) -> None:
    check(ctx, actor, order)
    spot = ctx.state.units[order.unit]
    if spot.disordered:
        raise Rejection(
            "already-disordered",
            t("{unit} is already Disordered; `rout {unit}` if it routed", unit=order.unit),
            "1.3",
        )
    spot.disordered = True
    ctx.emit(
        "UnitDisordered",
        t("{unit} is Disordered.", unit=label(ctx.scen, order.unit)),
        unit=order.unit,
    )


def rout(ctx: Ctx, actor: str, order: O.Rout) -> None:
    """1.6: a routed unit leaves the map for its owner's Withdrawn Box."""
    check(ctx, actor, order)
    spot = ctx.state.units[order.unit]
    spot.where, spot.hex = "withdrawn", None
    ctx.emit(
        "UnitRouted",
        t("{unit} routs to the Withdrawn Box (1.6).", unit=label(ctx.scen, order.unit)),
        unit=order.unit,
    )


def eliminate(ctx: Ctx, actor: str, order: O.Eliminate) -> None:
    """1.7: an eliminated unit goes to the Permanently Eliminated box."""
    check(ctx, actor, order)
    spot = ctx.state.units[order.unit]
    spot.where, spot.hex = "eliminated", None
    ctx.emit(
        "UnitEliminated",
        t("{unit} is eliminated (1.7).", unit=label(ctx.scen, order.unit)),
        unit=order.unit,
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
            t(
                "{unit} is not in an Activation Phase now (active: {active})",
                unit=order.unit,
                active=active,
            )
            if active
            else t(
                "{unit} is not in an Activation Phase now; `activate <AG>` opens one",
                unit=order.unit,
            ),
            "2.2",
        )
    if order.action in ctx.state.acted.get(order.unit, []):
        raise Rejection(
            "already-reported",
            t("{unit} {act} already: reported", unit=order.unit, act=ACTS[order.action]),
            "2.2",
        )
    _acted(ctx, order.unit, order.action)
    ctx.emit(
        "UnitActed",
        t(
            "{unit} {act} during its activation (2.2).",
            unit=label(ctx.scen, order.unit),
            act=ACTS[order.action],
        ),
        unit=order.unit,
        action=order.action,
    )


def dispute(ctx: Ctx, actor: str, order: O.Dispute) -> None:
    unit = ctx.scen.units[order.unit]
    if unit.side == actor:
        raise Rejection(
            "own-unit",
            t(
                "{unit} is your own unit: report it (`at`, `disorder`, `rout`, `eliminate`); "
                "a dispute questions the opponent's report",
                unit=order.unit,
            ),
            "1.5",
        )
    ctx.state.disputes.append(
        {"turn": ctx.state.turn, "by": actor, "unit": order.unit, "text": order.text}
    )
    ctx.emit(
        "ReportDisputed",
        t(
            "{side} disputes the report on {unit}: {text}",
            side=side_name(actor),
            unit=order.unit,
            text=order.text,
        ),
        MODERATORS_ONLY,
        by=actor,
        unit=order.unit,
        reason=order.text,
    )
    ctx.emit(
        "ReportDisputed",
        t(
            "{side} disputes the report on {unit}; sent to the moderators and recorded in the log.",
            side=side_name(actor),
            unit=order.unit,
        ),
        by=actor,
        unit=order.unit,
    )
