"""Reinforcements (section 7) and the 24th Panzer Division (7.7-7.10)."""

from __future__ import annotations

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import turn_rules
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState, other


def entry_options(scen: Scenario, state: GameState, u: UnitState) -> list[str]:
    """7.2/7.4/7.5: the entry hex, else the nearest friendly supply hexes free of enemy units."""
    spec = scen.units[u.id]
    # A unit that starts on the map but was placed on the turn track by a moderator enters at
    # its setup hex.
    entry = spec.entry_hex or spec.setup_hex
    if entry is None:  # the scenario check gives every unit one of them (2.1)
        raise ValueError(f"{u.id} has neither an entry hex nor a setup hex")
    if _can_enter(scen, state, u.side, entry):
        return [entry]
    free = [h for h in scen.supply_hexes(u.side) if _can_enter(scen, state, u.side, h)]
    if not free:
        return []
    best = min(scen.grid.distance(entry, h) for h in free)
    return scen.grid.sort(h for h in free if scen.grid.distance(entry, h) == best)


def _can_enter(scen: Scenario, state: GameState, side: str, hex_id: str) -> bool:
    if state.side_in(hex_id) == other(side):
        return False
    # 12.8 Decision: no German reinforcement in B3 on turn 2
    return not (
        side == "german" and state.turn == 2 and hex_id == scen.flags["tychinovka_marker_hex"]
    )


def bring_on(ctx: Ctx, side: str) -> None:
    """7.1: every unit in this turn's box enters; ties in 7.4 wait for the owner's choice."""
    state, scen = ctx.state, ctx.scen
    for u in [
        u
        for u in state.units.values()
        if u.side == side and u.box == "turn_track" and u.track_turn == state.turn
    ]:
        if u.id == scen.flags["german_24th_panzer"] and not state.soviet_entered_trigger:
            _never(ctx, u, "no Soviet unit has entered A2-A6 (7.7, 7.8)")
            continue
        options = entry_options(scen, state, u)
        if not options:
            _never(ctx, u, "no friendly supply hex is free of enemy units (7.6)")
        elif len(options) == 1:
            place(ctx, u, options[0])
        else:
            state.pending.append(
                Decision(
                    "entry",
                    side,
                    f"choose the entry hex of {u.id}: {' or '.join(options)} (7.4)",
                    {"unit": u.id, "options": options},
                )
            )
            ctx.emit(
                "DecisionPending",
                f"{side.title()} must choose where {ctx.name(u.id)} "
                f"enters: {', '.join(options)} (7.4).",
                side=side,
                unit=u.id,
            )


def place(ctx: Ctx, u: UnitState, hex_id: str) -> None:
    u.box, u.hex, u.track_turn, u.reduced = "map", hex_id, None, False
    u.oos = u.retreated = u.moved = u.attacked = False  # 6.14: enter without OOS markers
    u.entered_turn = ctx.state.turn
    turn_rules.note_soviet_presence(ctx.scen, ctx.state, u.side, [hex_id])
    ctx.emit("ReinforcementEntered", f"{ctx.name(u.id)} enters at {hex_id}.", unit=u.id, hex=hex_id)


def _never(ctx: Ctx, u: UnitState, why: str) -> None:
    u.box, u.hex, u.track_turn = "never_entered", None, None
    ctx.emit("ReinforcementLost", f"{ctx.name(u.id)} never enters: {why}.", unit=u.id)


def answer_entry(ctx: Ctx, side: str, unit: str, hex_id: str) -> None:
    pending = [d for d in ctx.state.pending if d.kind == "entry" and d.side == side]
    match = next((d for d in pending if d.data["unit"] == unit), None)
    if match is None:
        waiting = ", ".join(d.data["unit"] for d in pending) or "none"
        raise Rejection(
            "no-entry-choice", f"{unit} is not waiting for an entry hex; waiting: {waiting}", "7.4"
        )
    if hex_id not in match.data["options"]:
        raise Rejection(
            "bad-entry-hex",
            f"{unit} enters in the nearest free friendly supply hex: "
            f"{' or '.join(match.data['options'])}, not {hex_id}",
            "7.4",
        )
    ctx.state.pending.remove(match)
    place(ctx, ctx.state.units[unit], hex_id)
