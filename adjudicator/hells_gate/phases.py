"""The sequence of play (section 4): automatic phases run by themselves and the game advances
to the next phase that needs a player, unless a decision is pending."""

from __future__ import annotations

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t, tn
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate import reinforcements, victory
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.state import (
    AUTOMATIC_PHASES,
    PHASES,
    phase_kind,
    phase_side,
    phasing_side,
)
from adjudicator.hells_gate.supply import in_supply_hexes, length_limit
from adjudicator.hells_gate.texts import phase_name


def enter_phase(ctx: Ctx, phase: str) -> None:
    state = ctx.state
    state.phase = phase
    ctx.emit(
        "PhaseBegan",
        t("Turn {turn}, {phase} phase.", turn=state.turn, phase=phase_name(phase)),
        turn=state.turn,
        phase=phase,
    )
    kind = phase_kind(phase)
    if kind == "supply":
        side = phasing_side(phase)
        check_supply(ctx, side)
        reinforcements.bring_on(ctx, side)
        if not state.pending:
            after_reinforcements(ctx)
        return
    if kind == "combat":
        state.attacked_hexes = []
        for u in state.units.values():
            u.attacked = False
    elif kind == "movement":
        for u in state.units.values():
            u.moved = False
    elif kind == "recovery":
        for u in state.units.values():  # the player turn is over: its flags go
            u.moved = u.attacked = False
        recover(ctx, phasing_side(phase))
    elif phase == "joint":
        joint(ctx)
        return
    if phase in AUTOMATIC_PHASES:
        next_phase(ctx)


def next_phase(ctx: Ctx) -> None:
    state = ctx.state
    if state.phase == "german-recovery" and state.turn >= ctx.scen.turns:
        end_game(ctx)  # 4.7, 4.8: no joint phase after turn 8
        return
    enter_phase(ctx, PHASES[(PHASES.index(state.phase) + 1) % len(PHASES)])


def check_supply(ctx: Ctx, side: str) -> None:
    """6.1, 6.9, 6.10, 12.7: place and remove OOS markers."""
    state, scen = ctx.state, ctx.scen
    ok = in_supply_hexes(scen, state, side, length_limit(scen, state, side))
    for u in sorted(state.on_map(side), key=lambda u: u.id):
        traced = u.hex in ok
        if not traced and not u.oos:
            u.oos = True
            ctx.emit(
                "OutOfSupply",
                t("{unit} in {hex} is out of supply.", unit=ctx.name(u.id), hex=u.hex),
                unit=u.id,
                hex=u.hex,
            )
        elif traced and u.oos:
            u.oos = False
            ctx.emit(
                "SupplyRestored",
                t("{unit} in {hex} is back in supply.", unit=ctx.name(u.id), hex=u.hex),
                unit=u.id,
                hex=u.hex,
            )


def after_reinforcements(ctx: Ctx) -> None:
    """12.16: the turn-5/7 rebuild comes at the end of the Soviet supply phase."""
    state = ctx.state
    if state.phase == "soviet-supply" and state.turn in ctx.scen.flags["red_turns"]:
        options = rebuild_candidates(ctx)
        if options:
            state.pending.append(
                Decision(
                    "rebuild",
                    "soviet",
                    rebuild_prompt(options),
                    {"options": options},
                )
            )
            ctx.emit(
                "DecisionPending",
                t(
                    "Soviet may rebuild one reduced corps (12.16): {units}.",
                    units=", ".join(options),
                ),
                side="soviet",
            )
            return
    next_phase(ctx)


def rebuild_prompt(options: list[str]) -> Msg:
    return t(
        "choose whether to flip one reduced corps to full strength: rebuild {units}, or end "
        "(12.16)",
        units=" | ".join(options),
    )


def breakout_prompt(options: list[str]) -> Msg:
    return t(
        "choose breakout attempts (12.17): breakout {units}, then end", units=" | ".join(options)
    )


def rebuild_candidates(ctx: Ctx) -> list[str]:
    scen = ctx.scen
    return sorted(
        u.id
        for u in ctx.state.on_map("soviet")
        if scen.units[u.id].is_corps and scen.units[u.id].steps == 2 and u.reduced and not u.oos
    )


def answer_rebuild(ctx: Ctx, d: Decision, order: O.Rebuild | O.End) -> None:
    """12.16: the rebuild chosen (or none), then the game goes on."""
    state = ctx.state
    if isinstance(order, O.Rebuild):
        if order.unit not in d.data["options"]:
            raise Rejection(
                "bad-rebuild",
                t(
                    "{unit} cannot be rebuilt: only a reduced Soviet corps on the map "
                    "without an OOS marker; choose {units}",
                    unit=order.unit,
                    units=", ".join(d.data["options"]),
                ),
                "12.16",
            )
        state.units[order.unit].reduced = False
        ctx.emit(
            "UnitRebuilt",
            t("{unit} is rebuilt to full strength (12.16).", unit=ctx.name(order.unit)),
            unit=order.unit,
        )
    state.pending.remove(d)
    next_phase(ctx)


def recover(ctx: Ctx, side: str) -> None:
    """10.1: the phasing player removes all Retreat markers from his units."""
    for u in sorted(ctx.state.on_map(side), key=lambda u: u.id):
        if u.retreated:
            u.retreated = False
            ctx.emit(
                "RetreatMarkerRemoved",
                t("{unit} loses its Retreat marker.", unit=ctx.name(u.id)),
                unit=u.id,
            )


def joint(ctx: Ctx) -> None:
    """4.4, 11.3-11.5: weather roll for the next turn while Snow, then the turn advances."""
    state = ctx.state
    if state.weather == "snow":
        die = ctx.roll("weather")
        if die <= 2:
            state.weather = "mud"
            ctx.emit(
                "WeatherChanged",
                t(
                    "Weather roll {die}: Mud from turn {turn} to the end of the game (11.3, 11.4).",
                    die=die,
                    turn=state.turn + 1,
                ),
                weather="mud",
                die=die,
            )
        else:
            ctx.emit(
                "WeatherStays",
                t("Weather roll {die}: Snow stays.", die=die),
                weather="snow",
                die=die,
            )
    state.turn += 1
    enter_phase(ctx, "soviet-supply")


def breakout_candidates(ctx: Ctx) -> list[str]:
    """12.17: OOS, did not move, no Retreat marker, and at least one refuge hex."""
    state = ctx.state
    side = phase_side(state.phase)
    return sorted(
        u.id
        for u in state.on_map(side)
        if u.oos and not u.moved and not u.retreated and refuges(ctx, u.id)
    )


def refuges(ctx: Ctx, unit_id: str) -> list[str]:
    """12.18: hexes at distance 1 or 2 with a friendly unit without an OOS marker."""
    state, grid = ctx.state, ctx.scen.grid
    u = state.units[unit_id]
    good = {v.hex for v in state.on_map(u.side) if not v.oos}
    return [h for h in grid.within(u.map_hex, 2) if h in good]


def offer_breakouts(ctx: Ctx) -> bool:
    state = ctx.state
    if state.turn < ctx.scen.turns:
        return False
    options = breakout_candidates(ctx)
    if not options:
        return False
    side = phasing_side(state.phase)
    state.pending.append(
        Decision(
            "breakout",
            side,
            breakout_prompt(options),
            {"options": options},
        )
    )
    units = ", ".join(options)
    ctx.emit(
        "DecisionPending",
        t("Soviet may attempt breakouts: {units}.", units=units)
        if side == "soviet"
        else t("German may attempt breakouts: {units}.", units=units),
        side=side,
    )
    return True


def answer_breakout(ctx: Ctx, d: Decision, order: O.Breakout | O.End) -> None:
    """12.17: one breakout attempted (the decision stays while candidates are left), or none
    more; then the game goes on."""
    state = ctx.state
    if isinstance(order, O.Breakout):
        options = breakout_candidates(ctx)
        if order.unit not in options:
            raise Rejection(
                "bad-breakout",
                t(
                    "{unit} may not attempt a breakout: it needs an OOS marker, no move this "
                    "phase, no Retreat marker and a refuge within 2 hexes; candidates: "
                    "{units}",
                    unit=order.unit,
                    units=", ".join(options) or t("none"),
                ),
                "12.17",
            )
        attempt_breakout(ctx, order.unit)
        remaining = breakout_candidates(ctx)
        d.data["options"] = remaining
        if remaining:
            return
    state.pending.remove(d)
    next_phase(ctx)


def attempt_breakout(ctx: Ctx, unit_id: str) -> None:
    """12.19-12.21: d6 + 1 per refuge hex; 5+ breaks out, else eliminated."""
    from adjudicator.hells_gate.losses import eliminate

    u = ctx.state.units[unit_id]
    found = refuges(ctx, unit_id)
    die = ctx.roll(f"breakout {unit_id}")
    total = die + len(found)
    if total >= 5:
        origin = u.hex
        u.box, u.hex, u.oos, u.retreated = "broken_out", None, False, False
        ctx.emit(
            "UnitBrokeOut",
            tn(
                "{unit} breaks out from {hex}: {die} + {n} refuge = {total}.",
                "{unit} breaks out from {hex}: {die} + {n} refuges = {total}.",
                len(found),
                unit=ctx.name(unit_id),
                hex=origin,
                die=die,
                total=total,
            )
            if ctx.state.rules >= 2
            else t(  # rules 1: the wording its stored games logged (they replay to the letter)
                "{unit} breaks out from {hex}: {die} + {n} refuge(s) = {total}.",
                unit=ctx.name(unit_id),
                hex=origin,
                die=die,
                n=len(found),
                total=total,
            ),
            unit=unit_id,
            hex=origin,
            die=die,
            total=total,
        )
    else:
        eliminate(
            ctx,
            u,
            tn(
                "fails to break out: {die} + {n} refuge = {total}",
                "fails to break out: {die} + {n} refuges = {total}",
                len(found),
                die=die,
                total=total,
            )
            if ctx.state.rules >= 2
            else t(  # rules 1: the wording its stored games logged
                "fails to break out: {die} + {n} refuge(s) = {total}",
                die=die,
                n=len(found),
                total=total,
            ),
        )


def end_game(ctx: Ctx) -> None:
    state = ctx.state
    ctx.emit("GameEnding", t("Turn 8 is over: end-of-game supply attrition (13)."))
    victory.attrition(ctx)
    state.vp = victory.victory_points(ctx.scen, state)
    state.result = victory.final_result(ctx.scen, state)
    r = state.result
    text = {"draw": t("a draw"), "soviet": t("a Soviet victory"), "german": t("a German victory")}
    ctx.emit(
        "GameEnded",
        t(
            "Game over: Soviet {soviet} VP, German {german} VP: {result}.",
            soviet=r["soviet"],
            german=r["german"],
            result=text[r["winner"]],
        ),
        **r,
    )
