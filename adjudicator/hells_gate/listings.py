"""`options` and `units` sized for a chat: grouped by unit (options) and by side and hex (units),
each reply at most MAX_LINES lines, the details one command away (`options 20tk`, `units C7`).
Pure: reads the state, changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from adjudicator.core.text import plural
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState
from adjudicator.hells_gate.units import printed

if TYPE_CHECKING:
    from adjudicator.hells_gate.rules import HellsGate

MAX_LINES = 15  # a reply a phone shows without scrolling far
SHOWN = 5  # destinations or targets named on a unit's line before "+N"
SIDES = ("soviet", "german")


def _fmt(order: object) -> str:
    from adjudicator.hells_gate.grammar import format_order

    return format_order(order)


def _unit_of(order: object) -> tuple[str, ...]:
    """The units an order is about (an attack: its attackers)."""
    if isinstance(order, O.Attack):
        return order.units
    unit = getattr(order, "unit", None)
    return (unit,) if isinstance(unit, str) else ()


def _capped(lines: list[str], more: str) -> list[str]:
    """At most MAX_LINES lines; the last says how many were left out (more: "{n} more ...")."""
    if len(lines) <= MAX_LINES:
        return lines
    keep = MAX_LINES - 1
    return [*lines[:keep], more.format(n=len(lines) - keep)]


def _some(items: Sequence[str]) -> str:
    head = ", ".join(items[:SHOWN])
    return head + (f" (+{len(items) - SHOWN})" if len(items) > SHOWN else "")


def options_text(rules: HellsGate, state: GameState, side: str, unit: str | None = None) -> str:
    orders = rules.legal_orders(state, side)
    if not orders:
        who = state.active_side
        return f"Nothing for {side.title()} to do now" + (
            f"; waiting for {who.title()}." if who else "."
        )
    if unit is not None:
        return _one_unit(rules.scen, state, side, unit, orders)
    if state.pending and any(d.side == side for d in state.pending):
        answers = [f"`{_fmt(o)}`" for o in orders]
        head = f"{side.title()} answers: {state.pending[0].prompt}."
        return "\n".join(_capped([head, *answers], "... and {n} more answers"))
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
    lines = []
    for uid in (u for u in state.units if u in moves or u in attacks):  # scenario order
        where = state.units[uid].hex
        parts = []
        if uid in moves:
            parts.append(f"moves to {_some(moves[uid])}")
        if uid in attacks:
            parts.append(f"attacks {_some(attacks[uid])}")
        lines.append(f"{uid} ({where}): {'; '.join(parts)}")
    others = [f"`{_fmt(o)}`" for o in orders if not isinstance(o, (O.Move, O.Attack))]
    units = len(lines)
    tail = []
    if attacks:
        tail.append("`preview attack <HEX> with <UNIT> ...` shows the odds (up to 2 per hexside).")
    tail.append(
        "`options <UNIT>` lists one unit's orders"
        + (f"; or {', '.join(others)}." if others else ".")
    )
    head = f"{side.title()}, {plural(units, 'unit')} may act:"
    room = MAX_LINES - 1 - len(tail)
    if len(lines) > room:
        lines = [*lines[: room - 1], f"... and {plural(len(lines) - room + 1, 'more unit')}"]
    return "\n".join([head, *lines, *tail])


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
    name = f"{unit} ({u.hex or u.box.replace('_', ' ')})"
    if not mine:
        why = "it is not yours" if u.side != side else "it has no legal order now"
        return f"No orders for {name}: {why}."
    lines = [f"{name}: {plural(len(mine), 'order')}"]
    lines += [f"`{_fmt(o)}`" for o in mine]
    return "\n".join(
        _capped(lines, "... and {n} more (any other group or path is checked when ordered)")
    )


def _marks(u: UnitState) -> str:
    marks = [m for m, on in (("OOS", u.oos), ("Retreat", u.retreated)) if on]
    return f" ({', '.join(marks)})" if marks else ""


def _place(u: UnitState) -> str:
    if u.on_map:
        return str(u.hex)
    return f"turn {u.track_turn} box" if u.box == "turn_track" else u.box.replace("_", " ")


def units_by_side(scen: Scenario, state: GameState) -> str:
    """Every unit, by side then by hex (a box), strengths only: `units <HEX>` or `units
    <SIDE>` names them."""
    lines = []
    for side in SIDES:
        here: dict[str, list[str]] = {}
        for uid, u in state.units.items():
            if u.side == side:
                here.setdefault(_place(u), []).append(f"{uid} {printed(scen, u)}{_marks(u)}")
        count = sum(len(v) for v in here.values())
        lines.append(f"**{side.title()}** ({plural(count, 'unit')}):")
        lines += [f"  {place}: {', '.join(ids)}" for place, ids in here.items()]
    lines.append("`units <HEX>` or `units soviet|german` adds the designations.")
    return "\n".join(lines)


__all__ = ["MAX_LINES", "options_text", "units_by_side"]
