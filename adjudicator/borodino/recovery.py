"""The Recovery Phase (rules 3.1-3.8), the return to the map [10.3] (4.1-4.7) and the move of
the Withdrawn Boxes (5.1-5.3).

Sequence of `run`: the AGs out of the game (3.2, 3.3); who goes first (3.8); a roll for every
unit in a Recovery Box (3.4-3.7); then the placements, first player first (section 4), each a
decision of its owner; when nothing more can be placed, every Withdrawn Box moves to its
Recovery Box (5.1) and the turn ends. Pure."""

from __future__ import annotations

from adjudicator.borodino.board import (
    Ctx,
    army_name,
    ids,
    is_collapsed,
    label,
    other,
    side_name,
    units_in,
)
from adjudicator.borodino.data import SIDE_IDS, Scenario
from adjudicator.borodino.state import State
from adjudicator.core.i18n import Msg, t, tn

REACH = 3  # 4.2, 4.4: within 3 hexes of a friend
CLEAR = 3  # 4.3: at least 3 hexes from every enemy unit


def run(ctx: Ctx) -> None:
    state = ctx.state
    ctx.emit("RecoveryBegan", t("Recovery Phase of turn {turn}.", turn=state.turn))
    out_of_game(ctx)
    order = who_goes_first(ctx)
    for side in order:
        for uid in units_in(ctx.scen, state, side, "recovery"):
            recovery_roll(ctx, uid)  # 3.7: not optional; awaiting units do not roll again
    state.placing = list(order)


def out_of_game(ctx: Ctx) -> None:
    """3.2, 3.3: an AG some of whose units have entered play, none still to arrive, and none
    on the map (artillery and Opolchenie count) is out of the game: its routed units are
    eliminated."""
    state, scen = ctx.state, ctx.scen
    for gid in scen.groups:
        units = scen.members(gid)
        if gid in state.out_of_game or not any(u.id in state.entered for u in units):
            continue
        if any(state.units[u.id].on_map or state.units[u.id].where == "later" for u in units):
            continue
        state.out_of_game.append(gid)
        gone = [u.id for u in units if state.units[u.id].where != "eliminated"]
        for uid in gone:
            state.units[uid].where = "eliminated"
        ctx.emit(
            "GroupOutOfGame",
            t(
                "{group}: no unit on the map, the whole group routed or eliminated: it is out of "
                "the game (3.2); eliminated: {units}.",
                group=gid,
                units=ids(gone),
            ),
            group=gid,
            eliminated=gone,
        )


def who_goes_first(ctx: Ctx) -> list[str]:
    """3.8: when both players have units to roll or place, each rolls a die, the higher goes
    first, ties are rolled again; else the one player with units goes (no roll)."""
    having = [s for s in SIDE_IDS if _has_units(ctx.scen, ctx.state, s)]
    if len(having) < 2:
        return having
    a, b = SIDE_IDS
    while True:
        da, db = ctx.roll(f"recovery first {a}"), ctx.roll(f"recovery first {b}")
        if da != db:
            first = a if da > db else b
            ctx.state.first = first
            text = t(
                "Who goes first (3.8): {a} {da}, {b} {db}: {first} first.",
                a=side_name(a),
                da=da,
                b=side_name(b),
                db=db,
                first=side_name(first),
            )
            ctx.emit_data("FirstPlayerRolled", text, {a: da, b: db, "first": first})
            return [first, other(first)]
        ctx.emit("FirstPlayerRolled", t("Who goes first (3.8): both {die}, rolled again.", die=da))


def _has_units(scen: Scenario, state: State, side: str) -> bool:
    return bool(units_in(scen, state, side, "recovery") or units_in(scen, state, side, "recovered"))


def recovery_roll(ctx: Ctx, uid: str) -> None:
    """3.4-3.6: one die, no DRM, against the Disordered-side Cohesion."""
    unit, spot = ctx.scen.units[uid], ctx.state.units[uid]
    die, target = ctx.roll(f"recovery {uid}"), unit.cohesion_disordered
    if die <= target:
        spot.where = "recovered"  # 3.5, 4.5: in the Recovery Box until placed
        text = t(
            "{unit} recovers: die {die} <= cohesion {target} (3.5).",
            unit=label(ctx.scen, uid),
            die=die,
            target=target,
        )
        ctx.emit("UnitRecovered", text, unit=uid, die=die, cohesion=target)
    else:
        spot.where = "eliminated"  # 3.6
        text = t(
            "{unit} is eliminated permanently: die {die} > cohesion {target} (3.6).",
            unit=label(ctx.scen, uid),
            die=die,
            target=target,
        )
        ctx.emit("RecoveryFailed", text, unit=uid, die=die, cohesion=target)


# -- return to the map (section 4)
def friends(scen: Scenario, state: State, uid: str) -> list[str]:
    """4.2: the units of its AG on the map; 4.4: an independent unit's other units of its Army."""
    unit = scen.units[uid]
    found = []
    for other_id, spot in state.units.items():
        o = scen.units[other_id]
        if other_id == uid or not spot.on_map or o.side != unit.side:
            continue
        if (o.group == unit.group) if unit.group is not None else (o.army == unit.army):
            found.append(other_id)
    return found


def why_not_hex(scen: Scenario, state: State, uid: str, hex_id: str) -> tuple[str, Msg] | None:
    """(rule, reason) if the recovered unit may not be placed in hex_id, else None."""
    unit = scen.units[uid]
    near = [f for f in friends(scen, state, uid) if _dist(scen, state, f, hex_id) <= REACH]
    if not near:
        rule, whose = (
            ("4.2", t("of its group {group}", group=unit.group))
            if unit.group
            else ("4.4", t("of its Army ({army})", army=army_name(unit)))
        )
        return rule, t(
            "{hex} is not within {reach} hexes of a unit {whose} on the map",
            hex=hex_id,
            reach=REACH,
            whose=whose,
        )
    for uid2, spot in state.units.items():
        if not spot.on_map or spot.hex is None or scen.units[uid2].side == unit.side:
            continue
        away = scen.map.distance(spot.hex, hex_id)
        if away < CLEAR:
            return "4.3", tn(
                "{hex} is {n} hexes from the enemy {enemy} (at least {clear})",
                "{hex} is {n} hexes from the enemy {enemy} (at least {clear})",
                away,
                hex=hex_id,
                enemy=uid2,
                clear=CLEAR,
            )
    return None


def _dist(scen: Scenario, state: State, uid: str, hex_id: str) -> int:
    spot_hex = state.units[uid].hex
    assert spot_hex is not None
    return scen.map.distance(spot_hex, hex_id)


def legal_hexes(scen: Scenario, state: State, uid: str) -> list[str]:
    return [h for h in scen.map.hexes if why_not_hex(scen, state, uid, h) is None]


def nearest_hex(scen: Scenario, state: State, uid: str) -> str | None:
    """The deadline default: the legal hex nearest the unit's AG (independent: its Army's
    units), ties in hex order; a hex no unit holds first (stacking is the players' to judge,
    4.6, so the default does not stack)."""
    legal = legal_hexes(scen, state, uid)
    if not legal:
        return None
    near = friends(scen, state, uid)
    held = {s.hex for s in state.units.values() if s.on_map}

    def rank(h: str) -> tuple[bool, int, int]:
        return h in held, min(_dist(scen, state, f, h) for f in near), scen.map.order(h)

    return min(legal, key=rank)


def placeable(scen: Scenario, state: State, side: str) -> list[str]:
    return [u for u in units_in(scen, state, side, "recovered") if legal_hexes(scen, state, u)]


def place(ctx: Ctx, uid: str, hex_id: str) -> None:
    """4.1: on the map Disordered side up; 4.6: facing is the owner's, on his board; 4.7."""
    spot = ctx.state.units[uid]
    spot.where, spot.hex, spot.disordered = "map", hex_id, True
    back = t(
        "{unit} returns to the map at {hex}, Disordered (4.1).",
        unit=label(ctx.scen, uid),
        hex=hex_id,
    )
    if is_collapsed(ctx.scen, ctx.state, uid):  # 4.7; v2: not artillery or Opolchenie (6.6)
        back = t("{back} It stays Disordered: its group has collapsed (4.7, 6.8).", back=back)
    ctx.emit(
        "UnitReturned",
        back,
        unit=uid,
        hex=hex_id,
    )


def next_placer(ctx: Ctx) -> bool:
    """Drop the sides with nothing left to place (their unplaceable units wait, 4.5); whether a
    side still has a unit to place."""
    state = ctx.state
    while state.placing:
        side = state.placing[0]
        if placeable(ctx.scen, state, side):
            return True
        for uid in units_in(ctx.scen, state, side, "recovered"):
            ctx.emit(
                "PlacementWaits",
                t(
                    "{unit} has no legal hex (4.2-4.4): it waits in the Recovery Box, "
                    "recovered, for a later Recovery Phase (4.5).",
                    unit=label(ctx.scen, uid),
                ),
                unit=uid,
            )
        state.placing.pop(0)
    return False


def withdrawn_to_recovery(ctx: Ctx) -> None:
    """5.1: after all Recovery attempts, every Withdrawn Box moves to its Recovery Box."""
    moved = [u for u, s in ctx.state.units.items() if s.where == "withdrawn"]
    for uid in moved:
        ctx.state.units[uid].where = "recovery"
    if moved:
        ctx.emit(
            "WithdrawnMoved",
            t(
                "Withdrawn Boxes to the Recovery Boxes (5.1): {units}; they roll in the "
                "next Recovery Phase (5.2).",
                units=ids(moved),
            ),
            units=moved,
        )
