"""What players read: status, units, supply, options, previews, and the `show` document."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.core.text import plural
from adjudicator.hells_gate import combat, supply
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.listings import SIDES, options_text, units_by_side
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, phasing_side
from adjudicator.hells_gate.units import printed, steps_left
from adjudicator.hells_gate.victory import victory_points

if TYPE_CHECKING:
    from adjudicator.hells_gate.rules import HellsGate

DECISION_RULES = {"losses": "8.23", "entry": "7.4", "rebuild": "12.16", "breakout": "12.17"}


def attack_line(calc: combat.AttackCalc, decisive: bool, die: int, hits: int) -> str:
    shifts = ", ".join(f"{s['code']} {s['columns']:+d}" for s in calc.shifts) or "no shifts"
    kind = "decisive attack" if decisive else "overstack" if calc.overstack else "attack"
    return (
        f"{kind.capitalize()} on {calc.hex} by {', '.join(calc.attackers)}: "
        f"{calc.attack_strength}:{calc.defense_strength}, raw {calc.raw_column}, {shifts}, "
        f"final {calc.final_column}; die {die}: {plural(hits, 'hit')}."
    )


def example_answer(d: Decision) -> str:
    from adjudicator.hells_gate.grammar import format_order

    if d.kind == "losses":
        return (
            f"`losses <UNIT> ...` or `losses retreat <HEX>` for the {plural(d.data['hits'], 'hit')}"
        )
    if d.kind == "entry":
        return format_order(O.Enter(d.data["unit"], d.data["options"][0]))
    if d.kind == "rebuild":
        return f"`rebuild {d.data['options'][0]}` or `end`"
    return f"`breakout {d.data['options'][0]}` or `end`"


def preview(scen: Scenario, state: GameState, side: str, attack: O.Attack) -> dict[str, Any]:
    calc = combat.calculate(scen, state, side, attack)
    doc = calc.to_json(attack.decisive, None, None)
    doc["hits_normal"] = combat.hits_by_face(scen, calc.final_column, calc.overstack)
    doc["hits_decisive"] = (
        combat.hits_by_face(scen, calc.final_column, True) if calc.decisive_allowed else None
    )
    doc["decisive_allowed"] = calc.decisive_allowed
    doc["flip_choices"] = calc.flip_choices if calc.decisive_allowed else []
    return doc


def preview_text(doc: dict[str, Any]) -> str:
    head = (
        f"Attack on {doc['hex']} with {' '.join(doc['attackers'])}: "
        f"{doc['attack_strength']} against {doc['defense_strength']}, raw column "
        f"{doc['raw_column']}."
    )
    lines = [head]
    for s in doc["shifts"]:
        lines.append(
            f"  {s['code']} {abs(s['columns'])} {'right' if s['columns'] > 0 else 'left'}: {s['reason']}"
        )
    lines.append(
        f"Final column {doc['final_column']}"
        + (" (overstacked: right-hand results)" if doc["overstack"] else "")
        + "."
    )
    faces = "  ".join(f"{i}:{h}" for i, h in enumerate(doc["hits_normal"], 1))
    lines.append(f"Hits by die, normal: {faces}")
    if doc["hits_decisive"] is not None:
        faces = "  ".join(f"{i}:{h}" for i, h in enumerate(doc["hits_decisive"], 1))
        lines.append(f"Hits by die, decisive (flip {' or '.join(doc['flip_choices'])}): {faces}")
    else:
        lines.append("No decisive attack possible (8.17).")
    return "\n".join(lines)


def status_text(scen: Scenario, state: GameState) -> str:
    lines = [
        f"Turn {state.turn} of {scen.turns}, {state.phase} phase, weather {state.weather.title()}."
    ]
    if state.result is not None:
        r = state.result
        lines.append(
            f"Game over: {r['winner']} (Soviet {r['soviet']} VP, German {r['german']} VP)."
        )
    elif state.pending:
        for d in state.pending:
            lines.append(f"Waiting for {d.side.title()}: {d.prompt}.")
    else:
        lines.append(f"{phasing_side(state.phase).title()} to move.")
    vp = victory_points(scen, state)
    lines.append(f"VP so far: Soviet {vp['soviet']['total']}, German {vp['german']['total']}.")
    if state.sandbox:
        lines.append("Sandbox game: moderator commands are on.")
    return "\n".join(lines)


def unit_line(scen: Scenario, state: GameState, uid: str) -> str:
    u, spec = state.units[uid], scen.units[uid]
    where = (
        u.hex
        if u.on_map
        else (f"turn {u.track_turn} box" if u.box == "turn_track" else u.box.replace("_", " "))
    )
    marks = [
        m
        for m, on in (
            ("reduced", u.reduced),
            ("OOS", u.oos),
            ("Retreat", u.retreated),
            ("moved", u.moved),
            ("attacked", u.attacked),
        )
        if on
    ]
    return (
        f"{uid:10} {where:14} {spec.designation} ({spec.size} {spec.type}) "
        f"{printed(scen, u)}" + (f" [{', '.join(marks)}]" if marks else "")
    )


def units_text(scen: Scenario, state: GameState, where: str | None) -> str:
    ids = list(state.units)
    if where is None:
        return units_by_side(scen, state)
    if where in SIDES:
        ids = [i for i in ids if state.units[i].side == where]
        lines = [unit_line(scen, state, i) for i in ids]
        return "\n".join([f"**{where.title()}** ({plural(len(ids), 'unit')}):", *lines])
    elif where is not None:
        ids = [i for i in ids if state.units[i].hex == where and state.units[i].on_map]
        if not ids:
            return f"No units in {scen.hex_label(where)}."
    return "\n".join(unit_line(scen, state, i) for i in ids)


def supply_text(scen: Scenario, state: GameState, side: str | None) -> str:
    lines = []
    for u in state.on_map(side):
        r = supply.explain(scen, state, u.id)
        mark = "OOS marker" if u.oos else "no OOS marker"
        now = ("in supply, " if not u.oos else "can trace now: ") if r.traced else ""
        note = ""
        if r.traced == u.oos:  # 6.11: the marker changes only in the side's supply phase
            note = (
                f"; the marker {'stays' if u.oos else 'stays off'} until the next "
                f"{u.side.title()} supply phase (6.9, 6.10)"
            )
        lines.append(f"{u.id} ({u.hex}, {mark}): {now}{r.reason}{note}")
    return "\n".join(lines) or "No units on the map."


def answer(rules: HellsGate, state: GameState, actor: str, query: object) -> str:
    scen = rules.scen
    side = actor if actor in ("soviet", "german") else None
    if isinstance(query, O.Preview):
        if side is None:
            raise Rejection("not-a-player", "only a player previews his own attacks", "1.1")
        rules.check(state, side, query.attack)  # refused exactly as the attack would be
        return preview_text(preview(scen, state, side, query.attack))
    if isinstance(query, O.Options):
        if side is None:  # a spectator or moderator: the options of the side the game waits for
            waiting = [d.side for d in state.pending][:1] or [
                s for s in SIDES if s == state.active_side
            ]
            return "\n".join(options_text(rules, state, s, query.unit) for s in waiting) or (
                "Nobody acts now."
            )
        return options_text(rules, state, side, query.unit)
    if isinstance(query, O.Status):
        return status_text(scen, state)
    if isinstance(query, O.Units):
        return units_text(scen, state, query.where)
    if isinstance(query, O.Supply):
        return supply_text(scen, state, side)
    if isinstance(query, O.Help):
        from adjudicator.hells_gate.grammar import help_text

        return help_text(query.command)
    raise Rejection(
        "unsupported-query", f"{type(query).__name__.lower()} is answered by the service", None
    )


def show(scen: Scenario, state: GameState) -> dict[str, Any]:
    units = {}
    for uid, u in state.units.items():
        units[uid] = {
            "side": u.side,
            "hex": u.hex if u.on_map else None,
            "box": u.box,
            "reduced": u.reduced,
            "steps": steps_left(scen, u) if u.box in ("map", "turn_track") else 0,
            "oos": u.oos,
            "retreat": u.retreated,
        }
    return {
        "turn": state.turn,
        "phase": state.phase,
        "weather": state.weather,
        "active_side": state.active_side,
        "pending": [d.to_dict() for d in state.pending],
        "units": units,
        "vp": state.vp or victory_points(scen, state),
        "result": state.result,
        "sandbox": state.sandbox,
    }
