"""The "what happened" part of the Hell's Gate side panel: the attacks of the last combat phase
with odds, shifts, die and hits, then destroyed, retreated, reduced, rebuilt, entered ... units,
the weather; as many lines as fit above the legend."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.core.i18n import EN, Language, Msg, say, t
from adjudicator.hells_gate.drawer import colours
from adjudicator.hells_gate.drawer.events import Summary
from adjudicator.hells_gate.drawer.sizes import SMALL
from adjudicator.hells_gate.drawer.words import result_text
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.texts import designation, side_name
from render.canvas import Canvas, Colour, Draw
from render.panel import text_block
from render.text import NB, wrap

Line = tuple[str, Colour, int]  # text, colour, size

SHIFT_NAMES = {  # 8.11
    "S1": t("def. OOS"),
    "S2": t("def. OOS"),
    "S3": t("mud"),
    "S4": t("woods"),
    "S5": t("river"),
    "S6": t("att. OOS"),
    "S7": t("att. OOS"),
}


def shift_text(shift: Mapping[str, Any], language: Language = EN) -> str:
    code = shift.get("code", "")
    name: Msg | str = SHIFT_NAMES.get(code, code)
    if code == "S4" and "cherkassy" in str(shift.get("reason", "")):
        name = t("city")
    return f"{say(name, language)}{NB}{shift.get('columns', 0):+d}"


def draw_happened(
    img: Canvas,
    d: Draw,
    scenario: Scenario,
    s: Summary,
    x0: float,
    y: float,
    W: float,
    bottom: float,
    dbg: dict[str, Any],
    stacks: Sequence[tuple[str, list[str]]] = (),
    language: Language = EN,
) -> None:
    d.line((x0, y, x0 + W, y), fill=colours.PANEL_LINE, width=2)
    y += 8
    lines = happened_lines(scenario, s, stacks, W, language)
    shown = text_block(img, x0, y, bottom, lines, colours.PANEL_MUTED, more_size=SMALL, width=W)
    dbg["happened"] = [t for t, _, _ in lines]
    dbg["happened_items"] = happened_lines(scenario, s, stacks, math.inf, language)  # one each
    dbg["happened_shown"] = shown
    dbg["destroyed"] = [u for u, _, _ in s.destroyed]


def happened_lines(
    scenario: Scenario,
    s: Summary,
    stacks: Sequence[tuple[str, list[str]]],
    W: float,
    language: Language = EN,
) -> list[Line]:
    """What happened, wrapped to W: the stacks drawn with a count badge (every unit there),
    the attacks, the units, the weather; said in the language."""
    lines: list[Line] = [
        (
            say(t("STACK {hex}: {units}", hex=h, units=", ".join(us)), language),
            colours.PANEL_TEXT,
            SMALL,
        )
        for h, us in stacks
    ]
    lines += _attack_lines(s, W, language) + _unit_lines(scenario, s, W, language)
    if s.weather:
        lines.append((say(s.weather, language), colours.PANEL_MUTED, SMALL))
    if not lines:
        nothing = say(t("Nothing happened on the map since the last image."), language)
        lines.append((nothing, colours.PANEL_MUTED, SMALL))
    return lines


def _attack_lines(s: Summary, W: float, lang: Language) -> list[Line]:
    if not s.attacks:
        return []
    turn, _ = s.combat_phase or (None, "")
    side = s.attacks[0].side
    when = t("{side} combat", side=side_name(side)) if side in colours.SIDE else t("combat")
    if turn:
        head = t("ATTACKS, {when}, turn {turn}", when=when, turn=turn)
    else:
        head = t("ATTACKS, {when}", when=when)
    lines: list[Line] = [(say(head, lang), colours.PANEL_TEXT, SMALL)]
    for a in s.attacks:
        shifts = ", ".join(shift_text(sh, lang) for sh in a.shifts)
        kind = t(" decisive") if a.decisive else (t(" overstack") if a.overstack else "")
        args: dict[str, Any] = {
            "n": a.number,
            "hex": a.hex,
            "units": " ".join(a.attackers),
            "attack": a.attack_strength,
            "defense": a.defense_strength,
            "final": a.final_column,
            "kind": kind,
            "nb": NB,
            "die": a.die,
            "result": result_text(a.hits, lang).replace(" ", NB),
        }
        if shifts:  # the column, its shifts and the column they give
            said = t(
                "{n}. {hex} by {units}: {attack}:{defense}, {raw}{shifts} = {final}{kind}, "
                "die{nb}{die}:{nb}{result}",
                raw=a.raw_column,
                shifts=f" ({shifts})",
                **args,
            )
        else:  # nothing shifted: the column alone
            said = t(
                "{n}. {hex} by {units}: {attack}:{defense}, {final}{kind}, "
                "die{nb}{die}:{nb}{result}",
                **args,
            )
        line = say(said, lang)
        for i, part in enumerate(wrap(line, SMALL, W - 30)):
            lines.append(("    " * (i > 0) + part, colours.PANEL_TEXT, SMALL))
    return lines


def _destroyed(scenario: Scenario, unit: str, hex_id: str | None, lang: Language) -> str:
    what = designation(scenario.units[unit])
    if hex_id:
        return say(t("{unit} ({name}) in {hex}", unit=unit, name=what, hex=hex_id), lang)
    return f"{unit} ({say(what, lang)})"


def _unit_lines(scenario: Scenario, s: Summary, W: float, lang: Language) -> list[Line]:
    def said(msg: Msg) -> str:
        return say(msg, lang)

    groups = [
        (
            said(t("DESTROYED")),
            colours.RETREAT,
            [_destroyed(scenario, u, h, lang) for u, h, _ in s.destroyed if u in scenario.units],
        ),
        (
            said(t("Retreated")),
            colours.PANEL_TEXT,
            [
                said(t("{unit} {origin} to {hex}", unit=u, origin=a, hex=b))
                for u, a, b in s.retreats
            ],
        ),
        (said(t("Reduced")), colours.PANEL_TEXT, list(dict.fromkeys(s.flipped))),
        (said(t("Rebuilt")), colours.PANEL_TEXT, s.rebuilt),
        (
            said(t("Entered")),
            colours.PANEL_TEXT,
            [said(t("{unit} at {hex}", unit=u, hex=h)) for u, h in s.entered],
        ),
        (
            said(t("Broke out")),
            colours.PANEL_TEXT,
            [said(t("{unit} from {hex}", unit=u, hex=h)) for u, h in s.broke_out],
        ),
        (said(t("Never enters")), colours.PANEL_TEXT, s.never_entered),
        (said(t("Moved")), colours.PANEL_TEXT, [f"{u} {'-'.join(p)}" for u, p in s.moves]),
    ]
    lines: list[Line] = []
    for head, col, items in groups:
        if not items:
            continue
        size = SMALL
        for i, line in enumerate(wrap(f"{head}: " + ", ".join(items), size, W - 30)):
            lines.append(("    " * (i > 0) + line, col, size))
    return lines
