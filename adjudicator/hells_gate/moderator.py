"""Moderator commands. The edits of the position (place, flip, set ...: EDITS) are the kit's kind
"edit": `edit` applies one for a moderator in any game (the app makes it a proposal another
person confirms outside a sandbox game: app/edits.py). A moderator's `default` stays a sandbox
command (check_moderator). A placement counts as no entry, move or retreat for any rule (no 24th
Panzer trigger, no airfield freeze lift). `dice` (fixed dice) is the kit's (core.kit,
core.fixed_dice); `default` is the deadline default (sequence)."""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.fixed_dice import fixed_source
from adjudicator.core.i18n import t
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR, Outcome
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import PHASES, GameState, UnitState, other
from adjudicator.hells_gate.texts import phase_name, weather_name

# the moderator orders that edit the position: MODERATOR_ORDERS but Dice and Default
EDITS = (O.Place, O.Flip, O.SetTurn, O.SetPhase, O.SetWeather, O.SetOOS, O.SetRetreat)
Edit = O.Place | O.Flip | O.SetTurn | O.SetPhase | O.SetWeather | O.SetOOS | O.SetRetreat


def check_moderator(state: GameState, actor: str) -> None:
    """Refuse a moderator command from a player, or outside a sandbox game."""
    if actor not in (MODERATOR_ACTOR, SYSTEM_ACTOR):
        raise Rejection("moderator-only", t("only a moderator may give this command"), None)
    if not state.sandbox:
        raise Rejection(
            "sandbox-only",
            t(
                "moderator commands that change the game are allowed only in sandbox games (no "
                "rule of the game covers them)"
            ),
            None,
        )


def edit(scen: Scenario, state: GameState, order: Edit, dice: DiceSource | None) -> Outcome:
    """A moderator's edit of the position, applied to a copy of `state` (the actor is checked
    already). Only `set phase` rolls: the automatic phases it enters (a weather die, 11.1),
    a moderator's fixed results first, as an order's."""
    ctx = Ctx(scen, state.clone(), fixed_source(state, dice))
    apply(ctx, order)
    ctx.state.fixed_dice = list(ctx.dice.fixed)
    return Outcome(ctx.state, ctx.events, ctx.dice.rolls, None, order)


def apply(ctx: Ctx, order: Edit) -> None:
    """A moderator order that edits the position (check_moderator passed)."""
    if isinstance(order, O.Place):
        _place(ctx, order)
    elif isinstance(order, O.Flip):
        _flip(ctx, order)
    elif isinstance(order, O.SetTurn):
        _set_turn(ctx, order)
    elif isinstance(order, O.SetWeather):
        _set_weather(ctx, order)
    elif isinstance(order, O.SetOOS):
        _set_oos(ctx, order)
    elif isinstance(order, O.SetRetreat):
        _set_retreat(ctx, order)
    else:
        _set_phase(ctx, order)


def _unit(state: GameState, uid: str) -> UnitState:
    u = state.units.get(uid)
    if u is None:
        raise Rejection("unknown-unit", t("there is no unit {unit}", unit=repr(uid)), None)
    return u


def _place(ctx: Ctx, order: O.Place) -> None:
    u = _unit(ctx.state, order.unit)
    where = order.where
    if where in ctx.scen.grid:
        if ctx.state.side_in(where) == other(u.side):
            raise Rejection(
                "place-on-enemy",
                t("{hex} holds enemy units; place {unit} elsewhere", hex=where, unit=u.id),
                "2.11",
            )
        u.box, u.hex, u.track_turn = "map", where, None
    elif where.startswith("turn ") and where.split()[1].isdigit():
        turn = int(where.split()[1])
        if not 1 <= turn <= ctx.scen.turns:
            raise Rejection(
                "bad-turn", t("the turn track runs 1-{turns}", turns=ctx.scen.turns), "1.2"
            )
        _off_map(u, "turn_track")
        u.track_turn = turn
    elif where in ("eliminated", "off"):
        _off_map(u, where)
    else:
        raise Rejection(
            "bad-place",
            t(
                "place a unit in a hex, 'eliminated', 'off' or 'turn N'; not {where}",
                where=repr(where),
            ),
            None,
        )
    ctx.emit(
        "UnitPlaced",
        t("Moderator places {unit} in {where}.", unit=u.id, where=_where(where)),
        unit=u.id,
        where=where,
    )


def _where(where: str) -> object:
    """Where a unit is placed, in words: a hex id, a box or a turn of the turn track."""
    if where == "eliminated":
        return t("eliminated")
    if where == "off":
        return t("off")
    turn = where.split()[1] if where.startswith("turn ") and len(where.split()) == 2 else None
    if turn is not None and where == f"turn {turn}":
        return t("turn {n}", n=turn)
    return where


def _off_map(u: UnitState, box: str) -> None:
    u.box, u.hex = box, None
    u.oos = u.retreated = u.moved = u.attacked = False


def _flip(ctx: Ctx, order: O.Flip) -> None:
    u = _unit(ctx.state, order.unit)
    if ctx.scen.units[u.id].steps != 2:
        raise Rejection(
            "one-step-flip",
            t("{unit} is a one-step unit and has no reduced side", unit=u.id),
            "2.6",
        )
    u.reduced = not u.reduced
    ctx.emit(
        "UnitPlaced",
        t("Moderator flips {unit} to its reduced side.", unit=u.id)
        if u.reduced
        else t("Moderator flips {unit} to its full side.", unit=u.id),
        unit=u.id,
    )


def _set_turn(ctx: Ctx, order: O.SetTurn) -> None:
    if not 1 <= order.turn <= ctx.scen.turns:
        raise Rejection("bad-turn", t("the game has turns 1-{turns}", turns=ctx.scen.turns), "1.2")
    ctx.state.turn = order.turn
    ctx.emit("TurnSet", t("Moderator sets the turn to {turn}.", turn=order.turn), turn=order.turn)


def _set_phase(ctx: Ctx, order: O.SetPhase) -> None:
    from adjudicator.hells_gate.phases import enter_phase

    if order.phase not in PHASES:
        raise Rejection("bad-phase", t("phases: {phases}", phases=", ".join(PHASES)), "4.1")
    state = ctx.state
    state.pending.clear()
    state.result = state.vp = None
    ctx.emit(
        "PhaseSet",
        t("Moderator sets the phase to {phase}.", phase=phase_name(order.phase)),
        phase=order.phase,
    )
    enter_phase(ctx, order.phase)


def _set_weather(ctx: Ctx, order: O.SetWeather) -> None:
    if order.weather not in ("snow", "mud"):
        raise Rejection("bad-weather", t("the weather is snow or mud"), "11.1")
    ctx.state.weather = order.weather
    ctx.emit(
        "WeatherSet",
        t("Moderator sets the weather to {weather}.", weather=weather_name(order.weather)),
        weather=order.weather,
    )


def _marker_unit(ctx: Ctx, uid: str) -> UnitState:
    u = _unit(ctx.state, uid)
    if not u.on_map:
        raise Rejection(
            "unit-not-on-map",
            t("{unit} is not on the map; markers go on map units", unit=uid),
            "2.8",
        )
    return u


def _set_oos(ctx: Ctx, order: O.SetOOS) -> None:
    u = _marker_unit(ctx, order.unit)
    u.oos = order.on
    ctx.emit(
        "MarkerSet",
        t("Moderator places an OOS marker on {unit}.", unit=u.id)
        if order.on
        else t("Moderator removes an OOS marker on {unit}.", unit=u.id),
        unit=u.id,
        marker="oos",
        on=order.on,
    )


def _set_retreat(ctx: Ctx, order: O.SetRetreat) -> None:
    u = _marker_unit(ctx, order.unit)
    u.retreated = order.on
    ctx.emit(
        "MarkerSet",
        t("Moderator places a Retreat marker on {unit}.", unit=u.id)
        if order.on
        else t("Moderator removes a Retreat marker on {unit}.", unit=u.id),
        unit=u.id,
        marker="retreat",
        on=order.on,
    )
