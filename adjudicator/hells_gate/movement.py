"""Movement (section 9) with the turn limits of 12.2, 12.6, 12.8 and 12.14."""

from __future__ import annotations

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t
from adjudicator.core.text import plural
from adjudicator.hells_gate import turn_rules
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.orders import Move
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState


def allowance(scen: Scenario, state: GameState, u: UnitState) -> tuple[int, str]:
    """9.3, 9.6, 9.7, 9.9, 9.10: hexes a unit may move, and the rule that sets it."""
    if u.oos:
        return 1, "9.9"
    if state.weather == "mud":
        return 1, "9.10"
    kind = scen.units[u.id].type
    if kind == "cavalry":
        return int(scen.flags["snow_move_cavalry"]), "9.11"
    if kind in ("armor", "mech"):
        return 2, "9.6"
    return 1, "9.3"


def check_move(scen: Scenario, state: GameState, side: str, order: Move) -> UnitState:
    u = state.units.get(order.unit)
    if u is None:
        raise Rejection("unknown-unit", t("there is no unit {unit}", unit=repr(order.unit)), None)
    if u.side != side:
        raise Rejection(
            "not-your-unit",
            t("{unit} is a Soviet unit", unit=u.id)
            if u.side == "soviet"
            else t("{unit} is a German unit", unit=u.id),
            "4.6",
        )
    if not u.on_map:
        raise Rejection("unit-not-on-map", t("{unit} is not on the map", unit=u.id), "9.1")
    if u.retreated:
        raise Rejection(
            "retreated-unit-moves",
            t("{unit} has a Retreat marker and may not move until its recovery phase", unit=u.id),
            "8.36",
        )
    if u.moved:
        raise Rejection(
            "already-moved", t("{unit} has already moved in this phase", unit=u.id), "9.2"
        )
    if not order.path:
        raise Rejection("empty-path", t("name the hex to move to"), "9.2")
    turn_rules.check_move_limits(scen, state, u, order.path)
    _check_path(scen, state, u, order.path)
    return u


def _check_path(scen: Scenario, state: GameState, u: UnitState, path: tuple[str, ...]) -> None:
    limit, rule = allowance(scen, state, u)
    if len(path) > limit:
        raise Rejection(
            "too-far",
            t(
                "{unit} may move at most {hexes} now ({why}); you gave {n}",
                unit=u.id,
                hexes=plural(limit, "hex"),
                why=_allowance_reason(rule),
                n=len(path),
            ),
            rule,
        )
    here = u.map_hex
    for h in path:
        if h not in scen.grid:
            raise Rejection(
                "off-map", t("{hex} is not on the map; units may not leave it", hex=h), "9.4"
            )
        if not scen.grid.adjacent(here, h):
            raise Rejection(
                "not-adjacent",
                t(
                    "{hex} is not adjacent to {origin}; each step goes to an adjacent hex: {near}",
                    hex=h,
                    origin=here,
                    near=", ".join(scen.grid.neighbours(here)),
                ),
                "9.2",
            )
        if state.side_in(h) not in (None, u.side):
            raise Rejection(
                "enemy-hex", t("{hex} holds enemy units; a unit may not enter it", hex=h), "9.4"
            )
        here = h
    if len(path) == 2 and scen.units[u.id].type in ("armor", "mech"):
        _check_armor_terrain(scen, u, path)


def _check_armor_terrain(scen: Scenario, u: UnitState, path: tuple[str, ...]) -> None:
    """9.8: no 2 woods hexes entered, no 2 river hexsides crossed, in one 2-hex move."""
    if all(scen.is_woods_for_movement(h) for h in path):
        raise Rejection(
            "two-woods",
            t(
                "{unit} may not enter two woods hexes ({a} and {b}) in one move",
                unit=u.id,
                a=path[0],
                b=path[1],
            ),
            "9.8",
        )
    crossings = [scen.is_river(a, b) for a, b in zip((u.map_hex, *path), path)]
    if all(crossings):
        raise Rejection(
            "two-rivers", t("{unit} may not cross two river hexsides in one move", unit=u.id), "9.8"
        )


def _allowance_reason(rule: str) -> Msg:
    return _ALLOWANCE_REASONS[rule]


_ALLOWANCE_REASONS = {  # why a unit may move so far now
    "9.9": t("it is out of supply"),
    "9.10": t("the weather is Mud"),
    "9.6": t("armor and mech move 2 in Snow"),
    "9.11": t("cavalry moves 2 in Snow"),
    "9.3": t("the base allowance"),
}


def apply_move(ctx: Ctx, side: str, order: Move) -> None:
    u = check_move(ctx.scen, ctx.state, side, order)
    origin = u.map_hex
    u.hex, u.moved = order.path[-1], True
    turn_rules.note_soviet_presence(ctx.scen, ctx.state, side, order.path)
    ctx.emit(
        "UnitMoved",
        t("{unit} moves {path}.", unit=ctx.name(u.id), path="-".join((origin, *order.path))),
        unit=u.id,
        origin=origin,
        path=list(order.path),
        hex=u.hex,
    )


def legal_paths(scen: Scenario, state: GameState, u: UnitState) -> list[tuple[str, ...]]:
    """Every legal move of a unit, in hex order of its path."""
    out = []
    limit, _ = allowance(scen, state, u)
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(limit):
        nxt = []
        for path in frontier:
            here = path[-1] if path else u.map_hex
            for h in scen.grid.neighbours(here):
                nxt.append((*path, h))
        frontier = nxt
        for path in frontier:
            try:
                check_move(scen, state, u.side, Move(u.id, path))
            except Rejection:
                continue
            out.append(path)
    return sorted(out, key=lambda p: [scen.grid.order(h) for h in p])


def complete_path(scen: Scenario, state: GameState, side: str, order: Move) -> Move:
    """A one-hex order to a hex 2 away: take the first legal path in hex order (a convenience
    for chat players; the canonical text then names the whole path)."""
    u = state.units.get(order.unit)
    if u is None or not u.on_map or len(order.path) != 1:
        return order
    origin = u.map_hex
    if scen.grid.adjacent(origin, order.path[0]):
        return order
    target = order.path[0]
    if target not in scen.grid or u.retreated or u.moved or u.side != side:
        return order  # check_move names the problem
    for path in legal_paths(scen, state, u):
        if len(path) == 2 and path[-1] == target:
            return Move(order.unit, path)
    limit, rule = allowance(scen, state, u)
    distance = scen.grid.distance(origin, target)
    if distance > limit:
        raise Rejection(
            "too-far",
            t(
                "{hex} is {distance} hexes from {origin}; {unit} may move at most {limit} now "
                "({why})",
                hex=target,
                distance=distance,
                origin=origin,
                unit=u.id,
                limit=limit,
                why=_allowance_reason(rule),
            ),
            rule,
        )
    vias = [h for h in scen.grid.neighbours(origin) if scen.grid.adjacent(h, target)]
    check_move(scen, state, side, Move(order.unit, (vias[0], target)))
    return order
