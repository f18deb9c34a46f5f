"""A moderator's position editor (verbs of kind "edit": `place`, `set`; grammar.EDIT_VERBS): a
unit's hex or box, its state, a group's losses and Collapsed marker, the turn and the phase.

The kit routes an edit here past the gate (moderator or system actor only, in any game; the app
makes it a proposal outside a sandbox). Borodino hides nothing (every counter and box is public),
so no edit is secret and every edit's event is everyone's. An edit is no report and no rule's
step: it counts as no move, rout or loss for any rule (2.2 `acted` is untouched), no Morale or
Recovery Phase is held, and nothing follows from it by itself (a Collapsed marker set by hand
applies no effect of 6.5). Each refusal names what is legal and the rule of the noun it edits.

Invariants after an edit: `entered` holds every unit not "later" (6.4); the placements (phase
"placement") wait for the sides that have a unit to place, first the side that went first
(3.8), and an edit that would leave none is refused. Pure.
"""

from __future__ import annotations

from adjudicator.borodino import legal, recovery
from adjudicator.borodino import orders as O
from adjudicator.borodino.board import (
    Ctx,
    enemy_hexes,
    group_label,
    ids,
    losses,
    members,
    other,
    owner,
    phase_name,
)
from adjudicator.borodino.data import SIDE_IDS
from adjudicator.borodino.state import Spot
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, name, t

PLACES = {  # a unit's place as a word of a text (state.py's locations)
    "withdrawn": name("the Withdrawn Box", ru="Поле Бежавших Частей"),
    "recovery": name("the Recovery Box", ru="Поле Восстанавливаемых Частей"),
    "recovered": name(
        "the Recovery Box, recovered, awaiting placement",
        ru="Поле Восстанавливаемых Частей, восстановлена, ожидает возвращения",
    ),
    "eliminated": name("the Permanently Eliminated box", ru="Поле Окончательно Выбывших Частей"),
    "later": name("not yet entered", ru="ещё не вошла в игру"),
}
STATES = {
    "formed": name("Formed", ru="в Боевом порядке"),
    "disordered": name("Disordered", ru="потерявшая строй"),
}


def apply(ctx: Ctx, order: object) -> None:
    """One edit on ctx.state (a copy); a Rejection changes nothing."""
    legal.not_over(ctx.scen, ctx.state)
    if isinstance(order, O.Place):
        place(ctx, order.unit, order.where)
    elif isinstance(order, O.SetState):
        set_state(ctx, order.unit, order.state)
    elif isinstance(order, O.SetLosses):
        set_losses(ctx, order.group, order.losses)
    elif isinstance(order, O.SetCollapsed):
        set_collapsed(ctx, order.group, order.on)
    elif isinstance(order, O.SetTurn):
        set_turn(ctx, order.turn)
    elif isinstance(order, O.SetPhase):
        set_phase(ctx, order.phase, order.group)
    else:  # pragma: no cover - the grammar gives no other edit
        raise TypeError(f"not an edit: {order!r}")
    keep_placements(ctx)


def place_name(where: str) -> Msg:
    return PLACES.get(where) or t("hex {hex}", hex=where)


def _spot_said(spot: Spot) -> Msg:
    if spot.on_map:
        side = STATES["disordered" if spot.disordered else "formed"]
        return t("hex {hex}, {side}", hex=str(spot.hex), side=side)
    return place_name(spot.where)


def _move(ctx: Ctx, uid: str, where: str, hex_id: str | None) -> None:
    spot, state = ctx.state.units[uid], ctx.state
    if where == "map" and not spot.on_map:
        spot.disordered = False  # from off the map a unit comes Formed (`set state`)
    spot.where, spot.hex = where, hex_id
    if where == "later":
        state.entered = [u for u in state.entered if u != uid]  # 6.4: not yet in play
    elif uid not in state.entered:
        state.entered.append(uid)


def place(ctx: Ctx, uid: str, where: str) -> None:
    """`place <UNIT> <HEX|BOX>` (1.5 and its Decision)."""
    spot = ctx.state.units[uid]
    was = _spot_said(spot)
    if where in PLACES:
        _move(ctx, uid, where, None)
    elif where in ctx.scen.map:
        if where in enemy_hexes(ctx.scen, ctx.state, ctx.scen.units[uid].side):
            raise Rejection(
                "enemy-hex",
                t(
                    "{hex} is held by an enemy unit: no unit shares it; place {unit} elsewhere",
                    hex=where,
                    unit=uid,
                ),
                "1.5",
            )
        _move(ctx, uid, "map", where)
    else:
        raise Rejection(
            "bad-place",
            t(
                "{where} is no place of a unit: a hex of the map, or withdrawn, recovery, "
                "awaiting, eliminated or later",
                where=where,
            ),
            "1.5",
        )
    ctx.emit(
        "UnitPlaced",
        t(
            "Moderator places {unit} in {where} (was: {was}).",
            unit=uid,
            where=_spot_said(spot),
            was=was,
        ),
        unit=uid,
        where=spot.where,
        hex=spot.hex,
    )


def set_state(ctx: Ctx, uid: str, value: str) -> None:
    """`set state <UNIT> formed|disordered|routed|eliminated` (1.3, 1.6, 1.7)."""
    spot = ctx.state.units[uid]
    was = _spot_said(spot)
    if value in STATES:
        if not spot.on_map:
            raise Rejection(
                "off-map",
                t(
                    "{unit} is off the map ({where}): only a unit on the map is Formed or "
                    "Disordered; `place {unit} <HEX>` first, or set it routed or eliminated",
                    unit=uid,
                    where=place_name(spot.where),
                ),
                "1.3",
            )
        spot.disordered = value == "disordered"
    elif value == "routed":
        _move(ctx, uid, "withdrawn", None)  # 1.6: the Withdrawn Box
    else:
        _move(ctx, uid, "eliminated", None)  # 1.7
    ctx.emit(
        "UnitStateSet",
        t("Moderator sets {unit}: {now} (was: {was}).", unit=uid, now=_spot_said(spot), was=was),
        unit=uid,
        state=value,
    )


def _group(ctx: Ctx, gid: str) -> None:
    if gid not in ctx.scen.groups:
        raise Rejection(
            "not-a-group",
            t(
                "{unit} is an independent unit, not an Activation Group; groups: {groups}",
                unit=gid,
                groups=ids(list(ctx.scen.groups)),
            ),
            "1.1",
        )


def set_losses(ctx: Ctx, gid: str, want: int) -> None:
    """`set losses <AG> <N>`: L of 6.3 raised to N; the group's last counted units on the map in
    the order of battle rout to the Withdrawn Box (1.6). Lowering is a `place` of a lost unit."""
    _group(ctx, gid)
    scen, state = ctx.scen, ctx.state
    lost, n = losses(scen, state, gid)
    counted = [u.id for u in scen.members(gid) if u.counts_for_collapse and u.id in state.entered]
    gone = [u for u in counted if state.units[u].off_map]
    if want < lost:
        raise Rejection(
            "lower-losses",
            t(
                "{group} has lost {lost} (6.3): its losses are its units off the map; to lower "
                "them, `place` a lost unit in a hex (lost: {units}); N may be {lost} to {n}",
                group=gid,
                lost=lost,
                n=n,
                units=ids(gone),
            ),
            "6.3",
        )
    if want > n:
        raise Rejection(
            "too-many-losses",
            t(
                "{group} has {n} units in play that count (6.3, 6.4: not artillery or "
                "Opolchenie, not units still to arrive): N may be {lost} to {n}",
                group=gid,
                n=n,
                lost=lost,
            ),
            "6.3",
        )
    routed = [u for u in reversed(counted) if state.units[u].on_map][: want - lost]
    for uid in routed:
        _move(ctx, uid, "withdrawn", None)
    ctx.emit(
        "LossesSet",
        t(
            "Moderator sets the losses of {group}: {lost} of {n} (was {was}); routed to the "
            "Withdrawn Box: {units}.",
            group=group_label(scen, gid),
            lost=want,
            n=n,
            was=lost,
            units=ids(list(reversed(routed))),
        ),
        group=gid,
        lost=want,
        n=n,
        routed=routed,
    )


def set_collapsed(ctx: Ctx, gid: str, on: bool) -> None:
    """`set collapsed <AG> yes|no`: the Collapsed marker (6.7) alone; no effect of 6.5."""
    _group(ctx, gid)
    state = ctx.state
    state.collapsed = [g for g in state.collapsed if g != gid] + ([gid] if on else [])
    text = (
        t(
            "Moderator puts the Collapsed marker on {group} (6.7): no unit of it leaves the "
            "Disordered state (6.8); the effects of 6.5 are not applied.",
            group=group_label(ctx.scen, gid),
        )
        if on
        else t(
            "Moderator removes the Collapsed marker of {group} (6.7); it may collapse again (6.9).",
            group=group_label(ctx.scen, gid),
        )
    )
    ctx.emit("CollapseSet", text, group=gid, collapsed=on)


def set_turn(ctx: Ctx, turn: int) -> None:
    """`set turn <N>`: turn N begins (as turns.new_turn), N - 1 Recovery Phases held."""
    last = ctx.scen.ending.recovery_phases
    if not 1 <= turn <= last:
        raise Rejection(
            "bad-turn",
            t(
                "this game has turns 1 to {last} (its referee's part ends after {last} Recovery "
                "Phases); not {turn}",
                last=last,
                turn=turn,
            ),
            "3.1",
        )
    state = ctx.state
    state.turn, state.recovery_phases = turn, turn - 1
    _between_activations(ctx)
    state.activated, state.morale_done = [], False
    state.initiative = SIDE_IDS[(turn - 1) % 2]
    ctx.emit(
        "TurnSet",
        t("Moderator sets turn {turn}: between activations, nothing activated yet.", turn=turn),
        turn=turn,
    )


def _between_activations(ctx: Ctx) -> None:
    state = ctx.state
    state.phase, state.active, state.acted, state.attempted, state.placing = (
        "activations",
        None,
        {},
        [],
        [],
    )


def set_phase(ctx: Ctx, phase: str, gid: str | None) -> None:
    """`set phase <PHASE> [<AG|UNIT>]` (state.py's phases)."""
    scen, state = ctx.scen, ctx.state
    _between_activations(ctx)
    if phase in ("activation", "rally"):
        assert gid is not None
        if gid in scen.units and scen.units[gid].group is not None:
            group = scen.units[gid].group
            raise Rejection(
                "not-independent",
                t(
                    "{unit} is of {group}: its group's phase is `set phase {phase} {group}`",
                    unit=gid,
                    group=str(group),
                    phase=phase,
                ),
                "2.8",
            )
        if not any(state.units[u.id].on_map for u in members(scen, gid)):
            raise Rejection("nothing-on-map", t("{group} has no unit on the map", group=gid), "2.1")
        state.phase, state.active, state.morale_done = phase, gid, False
        if gid not in state.activated:
            state.activated.append(gid)  # 2.1: once a turn
        state.initiative = other(owner(scen, gid))
    elif phase == "activations":
        state.morale_done = False
    elif phase == "recovery":
        state.morale_done = True  # 6.2: the Morale Phase comes first
        state.phase = "recovery"
    else:
        state.morale_done, state.phase = True, "placement"
        first = state.first or state.initiative
        state.placing = [first, other(first)]
    said = phase_name(phase)
    if gid is not None:
        said = t("{phase} of {group}", phase=phase_name(phase), group=gid)
    ctx.emit(
        "PhaseSet", t("Moderator sets the phase: {phase}.", phase=said), phase=phase, group=gid
    )


def keep_placements(ctx: Ctx) -> None:
    """The placements wait only for the sides with a unit to place (4.5: the others wait); an
    edit that leaves none to place is refused."""
    state, scen = ctx.state, ctx.scen
    if state.phase != "placement":
        return
    state.placing = [s for s in state.placing if recovery.placeable(scen, state, s)]
    if not state.placing:
        waiting = [u for u, s in state.units.items() if s.where == "recovered"]
        raise Rejection(
            "nothing-to-place",
            t(
                "no recovered unit has a legal hex to return to (4.2-4.5; awaiting: {units}): "
                "the placements would wait for nobody; `place <UNIT> awaiting` a unit that "
                "can return, or `set phase activations`",
                units=ids(waiting),
            ),
            "4.5",
        )


__all__ = ["apply", "place_name"]
