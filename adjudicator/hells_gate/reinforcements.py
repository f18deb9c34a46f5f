"""Reinforcements (section 7) and the 24th Panzer Division (7.7-7.10)."""

from __future__ import annotations

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t
from adjudicator.hells_gate import turn_rules
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState, other
from adjudicator.hells_gate.texts import none_if_empty, or_list


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
            _never(ctx, u, t("no Soviet unit has entered A2-A6 (7.7, 7.8)"))
            continue
        options = entry_options(scen, state, u)
        if not options:
            _never(ctx, u, t("no friendly supply hex is free of enemy units (7.6)"))
        elif len(options) == 1:
            place(ctx, u, options[0])
        else:
            state.pending.append(
                Decision(
                    "entry",
                    side,
                    entry_prompt(u.id, options),
                    {"unit": u.id, "options": options},
                )
            )
            who, hexes = ctx.name(u.id), ", ".join(options)
            ctx.emit(
                "DecisionPending",
                t("Soviet must choose where {unit} enters: {hexes} (7.4).", unit=who, hexes=hexes)
                if side == "soviet"
                else t(
                    "German must choose where {unit} enters: {hexes} (7.4).", unit=who, hexes=hexes
                ),
                side=side,
                unit=u.id,
            )


def entry_prompt(unit: str, options: list[str]) -> Msg:
    """7.4: the owner chooses among the nearest friendly supply hexes."""
    return t("choose the entry hex of {unit}: {hexes} (7.4)", unit=unit, hexes=or_list(options))


def place(ctx: Ctx, u: UnitState, hex_id: str) -> None:
    u.box, u.hex, u.track_turn, u.reduced = "map", hex_id, None, False
    u.oos = u.retreated = u.moved = u.attacked = False  # 6.14: enter without OOS markers
    u.entered_turn = ctx.state.turn
    turn_rules.note_soviet_presence(ctx.scen, ctx.state, u.side, [hex_id])
    ctx.emit(
        "ReinforcementEntered",
        t("{unit} enters at {hex}.", unit=ctx.name(u.id), hex=hex_id),
        unit=u.id,
        hex=hex_id,
    )


def _never(ctx: Ctx, u: UnitState, why: Msg) -> None:
    u.box, u.hex, u.track_turn = "never_entered", None, None
    ctx.emit(
        "ReinforcementLost",
        t("{unit} never enters: {why}.", unit=ctx.name(u.id), why=why),
        unit=u.id,
    )


def answer_entry(ctx: Ctx, side: str, unit: str, hex_id: str) -> None:
    pending = [d for d in ctx.state.pending if d.kind == "entry" and d.side == side]
    match = next((d for d in pending if d.data["unit"] == unit), None)
    if match is None:
        waiting = none_if_empty([d.data["unit"] for d in pending])
        raise Rejection(
            "no-entry-choice",
            t(
                "{unit} is not waiting for an entry hex; waiting: {waiting}",
                unit=unit,
                waiting=waiting,
            ),
            "7.4",
        )
    if hex_id not in match.data["options"]:
        raise Rejection(
            "bad-entry-hex",
            t(
                "{unit} enters in the nearest free friendly supply hex: {hexes}, not {hex}",
                unit=unit,
                hexes=or_list(match.data["options"]),
                hex=hex_id,
            ),
            "7.4",
        )
    ctx.state.pending.remove(match)
    place(ctx, ctx.state.units[unit], hex_id)
