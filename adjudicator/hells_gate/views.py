"""What a viewer sees: the answers to the queries (status, units, supply, options, previews)
and the `show` document. Every viewer sees the whole game (no hidden information). Pure."""

from __future__ import annotations

from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, lines, name, t
from adjudicator.core.system import Answer
from adjudicator.core.text import plural
from adjudicator.hells_gate import combat, sequence, supply
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.listings import options_text, place_name, units_by_side
from adjudicator.hells_gate.scenario import SIDES, Scenario
from adjudicator.hells_gate.state import GameState, phasing_side
from adjudicator.hells_gate.texts import (
    OOS,
    RETREAT,
    designation,
    hex_label,
    or_list,
    phase_phrase,
    side_name,
    type_name,
    weather_title,
)
from adjudicator.hells_gate.units import printed, steps_left
from adjudicator.hells_gate.victory import victory_points


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


def _shift_line(s: dict[str, Any]) -> str:
    n, code, reason = abs(s["columns"]), s["code"], s["reason"]
    if s["columns"] > 0:
        return t("  {code} {n} right: {reason}", code=code, n=n, reason=reason)
    return t("  {code} {n} left: {reason}", code=code, n=n, reason=reason)


def preview_text(doc: dict[str, Any]) -> str:
    head = t(
        "Attack on {hex} with {units}: {attack} against {defense}, raw column {raw}.",
        hex=doc["hex"],
        units=" ".join(doc["attackers"]),
        attack=doc["attack_strength"],
        defense=doc["defense_strength"],
        raw=doc["raw_column"],
    )
    rows: list[str] = [head, *(_shift_line(s) for s in doc["shifts"])]
    if doc["overstack"]:
        rows.append(
            t(
                "Final column {column} (overstacked: right-hand results).",
                column=doc["final_column"],
            )
        )
    else:
        rows.append(t("Final column {column}.", column=doc["final_column"]))
    faces = "  ".join(f"{i}:{h}" for i, h in enumerate(doc["hits_normal"], 1))
    rows.append(t("Hits by die, normal: {faces}", faces=faces))
    if doc["hits_decisive"] is not None:
        faces = "  ".join(f"{i}:{h}" for i, h in enumerate(doc["hits_decisive"], 1))
        rows.append(
            t(
                "Hits by die, decisive (flip {units}): {faces}",
                units=or_list(doc["flip_choices"]),
                faces=faces,
            )
        )
    else:
        rows.append(t("No decisive attack possible (8.17)."))
    return lines(rows)


_WINNERS = {  # the result's winner ("soviet", "german", "draw") as the status names it
    "soviet": name("soviet", ru="победа СССР"),
    "german": name("german", ru="победа Германии"),
    "draw": name("draw", ru="ничья"),
}


def status_text(scen: Scenario, state: GameState) -> str:
    rows: list[str] = [
        t(
            "Turn {turn} of {turns}, {phase}, weather {weather}.",
            turn=state.turn,
            turns=scen.turns,
            phase=phase_phrase(state.phase),
            weather=weather_title(state.weather),
        )
    ]
    if state.result is not None:
        r = state.result
        rows.append(
            t(
                "Game over: {winner} (Soviet {soviet} VP, German {german} VP).",
                winner=_WINNERS.get(r["winner"], r["winner"]),
                soviet=r["soviet"],
                german=r["german"],
            )
        )
    elif state.pending:
        for d in state.pending:
            rows.append(t("Waiting for {side}: {prompt}.", side=side_name(d.side), prompt=d.prompt))
    else:
        rows.append(t("{side} to move.", side=side_name(phasing_side(state.phase))))
    vp = victory_points(scen, state)
    rows.append(
        t(
            "VP so far: Soviet {soviet}, German {german}.",
            soviet=vp["soviet"]["total"],
            german=vp["german"]["total"],
        )
    )
    if state.rules != 1:  # the rules version the game was set up under (a stored game's: 1)
        rows.append(t("Rules version {n}.", n=state.rules))
    if state.sandbox:
        rows.append(t("Sandbox game: moderator commands are on."))
    return lines(rows)


def unit_line(scen: Scenario, state: GameState, uid: str) -> str:
    u, spec = state.units[uid], scen.units[uid]
    on = [
        m
        for m, here in (
            (t("reduced"), u.reduced),
            (OOS, u.oos),
            (RETREAT, u.retreated),
            (t("moved"), u.moved),
            (t("attacked"), u.attacked),
        )
        if here
    ]
    return t(
        "{unit:10} {where:14} {designation} ({size} {type}) {strength}{marks}",
        unit=uid,
        where=place_name(u),
        designation=designation(spec),
        size=spec.size,
        type=type_name(spec.type),
        strength=printed(scen, u),
        marks=cat(" [", cat(*on, sep=", "), "]") if on else "",
    )


def units_text(scen: Scenario, state: GameState, where: str | None) -> str:
    ids = list(state.units)
    if where is None:
        return units_by_side(scen, state)
    if where in SIDES:
        ids = [i for i in ids if state.units[i].side == where]
        head = cat("**", side_name(where), "** (", plural(len(ids), "unit"), "):")
        return lines([head, *(unit_line(scen, state, i) for i in ids)])
    ids = [i for i in ids if state.units[i].hex == where and state.units[i].on_map]
    if not ids:
        return t("No units in {hex}.", hex=hex_label(scen.hexes[where]))
    return lines([unit_line(scen, state, i) for i in ids])


def supply_text(scen: Scenario, state: GameState, side: str | None) -> str:
    rows: list[str] = []
    for u in state.on_map(side):
        r = supply.explain(scen, state, u.id)
        mark = t("OOS marker") if u.oos else t("no OOS marker")
        now: str = ""
        if r.traced:
            now = t("in supply, ") if not u.oos else t("can trace now: ")
        note: str = ""
        if r.traced == u.oos and u.oos:  # 6.11: the marker changes only in the supply phase
            note = t(
                "; the marker stays until the next {side} supply phase (6.9, 6.10)",
                side=side_name(u.side),
            )
        elif r.traced == u.oos:
            note = t(
                "; the marker stays off until the next {side} supply phase (6.9, 6.10)",
                side=side_name(u.side),
            )
        rows.append(cat(u.id, " (", u.hex, ", ", mark, "): ", now, r.reason, note))
    return lines(rows) or t("No units on the map.")


def answer(scen: Scenario, state: GameState, actor: str, query: object) -> Answer:
    """A query answered (`help` is the kit's); a preview's detail is its numbers."""
    side = actor if actor in SIDES else None
    if isinstance(query, O.Preview):
        if side is None:
            raise Rejection("not-a-player", t("only a player previews his own attacks"), "1.1")
        sequence.check(scen, state, side, query.attack)  # refused exactly as the attack would be
        doc = preview(scen, state, side, query.attack)
        return Answer(preview_text(doc), doc)
    if isinstance(query, O.Options):
        if side is None:  # a spectator or moderator: the options of the side the game waits for
            waiting = [d.side for d in state.pending][:1] or [
                s for s in SIDES if s == state.active_side
            ]
            return Answer(
                lines([options_text(scen, state, s, query.unit) for s in waiting])
                or t("Nobody acts now.")
            )
        return Answer(options_text(scen, state, side, query.unit))
    if isinstance(query, O.Status):
        return Answer(status_text(scen, state))
    if isinstance(query, O.Units):
        return Answer(units_text(scen, state, query.where))
    if isinstance(query, O.Supply):
        return Answer(supply_text(scen, state, side))
    raise Rejection(
        "unsupported-query",
        t("{query} is answered by the service", query=type(query).__name__.lower()),
        None,
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
