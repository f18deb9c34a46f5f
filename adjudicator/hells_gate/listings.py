"""`options` and `units` sized for a chat: grouped by unit (options) and by side and hex (units),
each reply at most MAX_LINES lines, the details one command away (`options 20tk`, `units C7`).
Every text is a core.i18n Msg (its English the listing's words of old). Pure: reads the state,
changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adjudicator.core.i18n import Msg, cat, lines, t
from adjudicator.core.text import plural
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.legal import legal_orders
from adjudicator.hells_gate.order_text import said_order
from adjudicator.hells_gate.scenario import SIDES, Scenario
from adjudicator.hells_gate.state import GameState, UnitState
from adjudicator.hells_gate.texts import OOS, RETREAT, box_name, side_name
from adjudicator.hells_gate.units import printed

MAX_LINES = 15  # a reply a phone shows without scrolling far
SHOWN = 5  # destinations or targets named on a unit's line before "+N"


def _fmt(order: object) -> str:
    """`the order` to type, in the reader's language."""
    return said_order(order)


def _unit_of(order: object) -> tuple[str, ...]:
    """The units an order is about (an attack: its attackers)."""
    if isinstance(order, O.Attack):
        return order.units
    unit = getattr(order, "unit", None)
    return (unit,) if isinstance(unit, str) else ()


def _capped(rows: list[str], more: Callable[[int], Msg]) -> list[str]:
    """At most MAX_LINES lines; the last says how many were left out (more(n))."""
    if len(rows) <= MAX_LINES:
        return rows
    keep = MAX_LINES - 1
    return [*rows[:keep], more(len(rows) - keep)]


def _some(items: Sequence[str]) -> str:
    head = ", ".join(items[:SHOWN])
    return head + (f" (+{len(items) - SHOWN})" if len(items) > SHOWN else "")


def options_text(scen: Scenario, state: GameState, side: str, unit: str | None = None) -> str:
    orders = legal_orders(scen, state, side)
    if not orders:
        who = state.active_side
        if who:
            return t(
                "Nothing for {side} to do now; waiting for {who}.",
                side=side_name(side),
                who=side_name(who),
            )
        return t("Nothing for {side} to do now.", side=side_name(side))
    if unit is not None:
        return _one_unit(scen, state, side, unit, orders)
    if state.pending and any(d.side == side for d in state.pending):
        answers = [_fmt(o) for o in orders]
        head = t("{side} answers: {prompt}.", side=side_name(side), prompt=state.pending[0].prompt)
        return lines(_capped([head, *answers], lambda n: t("... and {n} more answers", n=n)))
    moves: dict[str, list[str]] = {}
    attacks: dict[str, list[str]] = {}
    for o in orders:
        if isinstance(o, O.Move):
            moves.setdefault(o.unit, [])
            if o.path[-1] not in moves[o.unit]:
                moves[o.unit].append(o.path[-1])
        elif isinstance(o, O.Attack):
            for uid in o.units:
                attacks.setdefault(uid, [])
                if o.hex not in attacks[uid]:
                    attacks[uid].append(o.hex)
    rows: list[str] = []
    for uid in (u for u in state.units if u in moves or u in attacks):  # scenario order
        where = state.units[uid].hex
        parts = []
        if uid in moves:
            parts.append(t("moves to {hexes}", hexes=_some(moves[uid])))
        if uid in attacks:
            parts.append(t("attacks {hexes}", hexes=_some(attacks[uid])))
        rows.append(cat(uid, " (", where, "): ", cat(*parts, sep="; ")))
    others = [_fmt(o) for o in orders if not isinstance(o, (O.Move, O.Attack))]
    units = len(rows)
    tail: list[str] = []
    if attacks:
        tail.append(
            t("`preview attack <HEX> with <UNIT> ...` shows the odds (up to 2 per hexside).")
        )
    if others:
        tail.append(
            t(
                "`options <UNIT>` lists one unit's orders; or {others}.",
                others=cat(*others, sep=", "),
            )
        )
    else:
        tail.append(t("`options <UNIT>` lists one unit's orders."))
    head = t("{side}, {units} may act:", side=side_name(side), units=plural(units, "unit"))
    room = MAX_LINES - 1 - len(tail)
    if len(rows) > room:
        left = plural(len(rows) - room + 1, "more unit")
        rows = [*rows[: room - 1], t("... and {units}", units=left)]
    return lines([head, *rows, *tail])


def place_name(u: UnitState) -> str:
    """Where a unit is: its hex, or the box it is in (the turn track's box of its turn)."""
    if u.on_map:
        return str(u.hex)
    if u.box == "turn_track":
        return t("turn {turn} box", turn=u.track_turn)
    return box_name(u.box)


def _one_unit(
    scen: Scenario, state: GameState, side: str, unit: str, orders: Sequence[object]
) -> str:
    seen: set[object] = set()
    mine = []
    for o in orders:  # an attack by 5gtk and 47rc is the one by 47rc and 5gtk
        key = (o.hex, frozenset(o.units), o.decisive, o.flip) if isinstance(o, O.Attack) else o
        if unit in _unit_of(o) and key not in seen:
            seen.add(key)
            mine.append(o)
    u = state.units[unit]
    label = cat(unit, " (", u.hex or box_name(u.box), ")")
    if not mine:
        why = t("it is not yours") if u.side != side else t("it has no legal order now")
        return t("No orders for {unit}: {why}.", unit=label, why=why)
    rows: list[str] = [cat(label, ": ", plural(len(mine), "order"))]
    rows += [_fmt(o) for o in mine]
    return lines(
        _capped(
            rows,
            lambda n: t("... and {n} more (any other group or path is checked when ordered)", n=n),
        )
    )


def marks(u: UnitState) -> str:
    """ " (OOS, Retreat)": the markers a unit carries, or ""."""
    on = [m for m, here in ((OOS, u.oos), (RETREAT, u.retreated)) if here]
    return cat(" (", cat(*on, sep=", "), ")") if on else ""


def units_by_side(scen: Scenario, state: GameState) -> str:
    """Every unit, by side then by hex (a box), strengths only: `units <HEX>` or `units
    <SIDE>` names them."""
    rows: list[str] = []
    for side in SIDES:
        here: dict[str, list[str]] = {}
        for uid, u in state.units.items():
            if u.side == side:
                here.setdefault(place_name(u), []).append(cat(uid, " ", printed(scen, u), marks(u)))
        count = sum(len(v) for v in here.values())
        rows.append(cat("**", side_name(side), "** (", plural(count, "unit"), "):"))
        rows += [cat("  ", place, ": ", cat(*ids, sep=", ")) for place, ids in here.items()]
    rows.append(t("`units <HEX>` or `units soviet|german` adds the designations."))
    return lines(rows)


__all__ = ["MAX_LINES", "marks", "options_text", "place_name", "units_by_side"]
