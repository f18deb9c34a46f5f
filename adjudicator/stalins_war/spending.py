"""Spending the OPS of an open action round (section 8): leaving enemy ZOC (8.3 to 8.6),
strategic movement (8.9), Combat markers (8.14 to 8.16, 8.20). The bot does not see the board:
it keeps the books of what the player says he spends. Each function changes the Open it is
given and returns the events; a refusal (Rejection, with the rule) comes first. Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.events import Event
from adjudicator.core.i18n import Msg, t, tn
from adjudicator.stalins_war import texts
from adjudicator.stalins_war.orders import SpendCombat, SpendLeave, SpendStrategic
from adjudicator.stalins_war.spent import spent_msg
from adjudicator.stalins_war.state import (
    ZERO_MOVE,
    ZERO_RESET,
    Open,
    SwState,
)


def _need(opened: Open, cost: int, what: Msg, rule: str) -> None:
    if cost > opened.ops:
        banked = opened.kind in (ZERO_MOVE, ZERO_RESET)
        raise Rejection(
            "no-ops",
            t(
                "{what} costs {cost} OPS and {ops} banked OPS (9.6) are left; spend less, or "
                "`end` the action round",
                what=what,
                cost=cost,
                ops=opened.ops,
            )
            if banked
            else t(
                "{what} costs {cost} OPS and {ops} OPS are left; spend less, or `end` the "
                "action round",
                what=what,
                cost=cost,
                ops=opened.ops,
            ),
            rule,
        )


def _movement(opened: Open) -> None:
    if opened.combat:
        raise Rejection(
            "movement-over",
            t(
                "Combat markers are placed after all movement: no OPS may be spent on movement "
                "once one is placed; place more Combat markers or `end`"
            ),
            "8.14",
        )


def spend_leave(state: SwState, opened: Open, order: SpendLeave) -> list[Event]:
    _movement(opened)
    z = opened.zoc.get(order.hex, {"started": [], "left": [], "paid": False})
    if z["paid"]:
        raise Rejection(
            "left-already",
            t(
                "every unit that started the round in {hex} has left it; the 1 OPS was paid "
                "once (at most once a hex and round)",
                hex=order.hex,
            ),
            "8.6",
        )
    again = sorted(set(order.units) & set(z["left"]))
    clash = sorted(set(order.units) & set(order.stays))
    if again or clash:
        which = ", ".join(again or clash)
        raise Rejection(
            "unit-twice",
            t("{units} left {hex} already; name each unit once", units=which, hex=order.hex)
            if again
            else t(
                "{units} cannot both leave and stay in {hex} already; name each unit once",
                units=which,
                hex=order.hex,
            ),
            "8.3",
        )
    if state.rules >= 2:
        _leave_v2(opened, order, z)
    started = sorted(set(z["started"]) | set(order.units) | set(order.stays))
    left = sorted(set(z["left"]) | set(order.units))
    cost = 1 if set(left) == set(started) else 0  # rules 8.3 to 8.5
    if cost:
        _need(
            opened,
            1,
            t("the last unit that started the round in {hex} leaving it", hex=order.hex),
            "8.6",
        )
    opened.zoc[order.hex] = {"started": started, "left": left, "paid": bool(cost)}
    opened.ops -= cost
    if cost:
        opened.moves.append(order.hex)  # rule 8.12
    line = texts.leave_text(order, started, left, cost)
    return _spent(opened, line, cost)


def _leave_v2(opened: Open, order: SpendLeave, z: dict[str, Any]) -> None:
    """Rules version 2: the OPS of 8.3 are paid when the last unit that started the round in the
    hex leaves (8.6), so the first `spend leave` of a hex says which units started there: those
    that leave and those that stay (`stays none`: no other). Later ones name only those units
    (8.5: a unit that moved in during the round does not count and leaves free)."""
    units = ", ".join(order.units)
    if not z["started"]:
        if not order.stays and not order.none_stay:
            raise Rejection(
                "stays-unsaid",
                t(
                    "say which units that started the round in {hex} stay there: `spend leave "
                    "{hex} {units} stays <UNIT>...`, or `spend leave {hex} {units} stays none` "
                    "if no other unit started there (then the 1 OPS is paid now, 8.6); nothing "
                    "was charged",
                    hex=order.hex,
                    units=units,
                ),
                "8.4",
            )
        return
    rest = [u for u in z["started"] if u not in z["left"]]
    strangers = sorted((set(order.units) | set(order.stays)) - set(z["started"]))
    if strangers:
        raise Rejection(
            "not-a-starter",
            t(
                "{units} did not start the round in {hex} by your first `spend leave` there "
                "(still there of those: {rest}); a unit that moved in during the round does "
                "not count and leaves free (8.5): do not name it",
                units=", ".join(strangers),
                hex=order.hex,
                rest=", ".join(rest),
            ),
            "8.5",
        )
    if order.none_stay and set(order.units) != set(rest):
        raise Rejection(
            "stays-unsaid",
            t(
                "`stays none` says the last units that started the round in {hex} leave, but "
                "{rest} are still there; name them all, or name who stays",
                hex=order.hex,
                rest=", ".join(sorted(set(rest) - set(order.units))),
            ),
            "8.6",
        )


def _spent(opened: Open, line: str, cost: int) -> list[Event]:
    """A spend booked on the round (its line kept for the round's summary) and told."""
    opened.spent.append(line)
    text = t(
        "{side}: {line}; {ops} OPS left.", side=texts.NAMES[opened.side], line=line, ops=opened.ops
    )
    return [Event("OpsSpent", text, {"side": opened.side, "cost": cost, "left": opened.ops})]


def spend_strategic(state: SwState, opened: Open, order: SpendStrategic) -> list[Event]:
    _movement(opened)
    cost = len(order.units)  # rule 8.9
    _need(
        opened,
        cost,
        tn("strategic movement of {n} unit", "strategic movement of {n} units", cost),
        "8.9",
    )
    opened.ops -= cost
    if order.origin:
        opened.moves.append(order.origin)  # rule 8.13
    line = spent_msg("strategic", units=", ".join(order.units), cost=cost)
    return _spent(opened, line, cost)


def spend_combat(state: SwState, opened: Open, order: SpendCombat) -> list[Event]:
    twice = sorted({h for h in order.hexes if order.hexes.count(h) > 1 or h in opened.combat})
    if twice:
        raise Rejection(
            "combat-marker-twice",
            t(
                "{hexes} has a Combat marker this round already; one Combat marker a hex",
                hexes=", ".join(twice),
            ),
            "8.16",
        )
    cost = len(order.hexes)  # rule 8.15
    _need(opened, cost, tn("placing {n} Combat marker", "placing {n} Combat markers", cost), "8.15")
    opened.ops -= cost
    opened.combat.extend(order.hexes)
    both = [h for h in order.hexes if h in opened.moves]
    hexes = ", ".join(order.hexes)
    line = (
        spent_msg("combat-both", hexes=hexes, cost=cost, both=", ".join(both))
        if both
        else spent_msg("combat", hexes=hexes, cost=cost)
    )
    return _spent(opened, line, cost)
