"""The "what happened" part of the Hell's Gate side panel: the attacks of the last combat phase
with odds, shifts, die and hits, then destroyed, retreated, reduced, rebuilt, entered ... units,
the weather; as many lines as fit above the legend."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.hells_gate.drawer import colours
from adjudicator.hells_gate.drawer.events import Summary
from adjudicator.hells_gate.drawer.sizes import SMALL
from adjudicator.hells_gate.scenario import Scenario
from render.canvas import Canvas, Colour, Draw
from render.panel import text_block
from render.text import NB, wrap

Line = tuple[str, Colour, int]  # text, colour, size

SHIFT_NAMES = {
    "S1": "def. OOS",
    "S2": "def. OOS",
    "S3": "mud",
    "S4": "woods",
    "S5": "river",
    "S6": "att. OOS",
    "S7": "att. OOS",
}


def shift_text(shift: Mapping[str, Any]) -> str:
    code = shift.get("code", "")
    name = SHIFT_NAMES.get(code, code)
    if code == "S4" and "cherkassy" in str(shift.get("reason", "")):
        name = "city"
    return f"{name}{NB}{shift.get('columns', 0):+d}"


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
) -> None:
    d.line((x0, y, x0 + W, y), fill=colours.PANEL_LINE, width=2)
    y += 8
    lines = happened_lines(scenario, s, stacks, W)
    shown = text_block(img, x0, y, bottom, lines, colours.PANEL_MUTED, more_size=SMALL, width=W)
    dbg["happened"] = [t for t, _, _ in lines]
    dbg["happened_items"] = happened_lines(scenario, s, stacks, math.inf)  # one per item
    dbg["happened_shown"] = shown
    dbg["destroyed"] = [u for u, _, _ in s.destroyed]


def happened_lines(
    scenario: Scenario, s: Summary, stacks: Sequence[tuple[str, list[str]]], W: float
) -> list[Line]:
    """What happened, wrapped to W: the stacks drawn with a count badge (every unit there),
    the attacks, the units, the weather."""
    lines: list[Line] = [
        (f"STACK {h}: {', '.join(us)}", colours.PANEL_TEXT, SMALL) for h, us in stacks
    ]
    lines += _attack_lines(s, W) + _unit_lines(scenario, s, W)  # (text, colour, size)
    if s.weather:
        lines.append((s.weather, colours.PANEL_MUTED, SMALL))
    if not lines:
        lines.append(
            ("Nothing happened on the map since the last image.", colours.PANEL_MUTED, SMALL)
        )
    return lines


def _attack_lines(s: Summary, W: float) -> list[Line]:
    if not s.attacks:
        return []
    turn, _ = s.combat_phase or (None, "")
    side = s.attacks[0].side
    when = f"{colours.SIDE[side]['name'] if side in colours.SIDE else ''} combat".strip()
    lines: list[Line] = [
        (f"ATTACKS, {when}" + (f", turn {turn}" if turn else ""), colours.PANEL_TEXT, SMALL)
    ]
    for a in s.attacks:
        shifts = ", ".join(shift_text(sh) for sh in a.shifts)
        kind = " decisive" if a.decisive else (" overstack" if a.overstack else "")
        line = (
            f"{a.number}. {a.hex} by {' '.join(a.attackers)}: {a.attack_strength}:"
            f"{a.defense_strength}, {a.raw_column}"
            + (f" ({shifts})" if shifts else "")
            + f" = {a.final_column}{kind}, die{NB}{a.die}:{NB}{a.result.replace(' ', NB)}"
        )
        for i, part in enumerate(wrap(line, SMALL, W - 30)):
            lines.append(("    " * (i > 0) + part, colours.PANEL_TEXT, SMALL))
    return lines


def _unit_lines(scenario: Scenario, s: Summary, W: float) -> list[Line]:
    groups = [
        (
            "DESTROYED",
            colours.RETREAT,
            [
                f"{u} ({scenario.units[u].designation})" + (f" in {h}" if h else "")
                for u, h, _ in s.destroyed
                if u in scenario.units
            ],
        ),
        ("Retreated", colours.PANEL_TEXT, [f"{u} {a} to {b}" for u, a, b in s.retreats]),
        ("Reduced", colours.PANEL_TEXT, list(dict.fromkeys(s.flipped))),
        ("Rebuilt", colours.PANEL_TEXT, s.rebuilt),
        ("Entered", colours.PANEL_TEXT, [f"{u} at {h}" for u, h in s.entered]),
        ("Broke out", colours.PANEL_TEXT, [f"{u} from {h}" for u, h in s.broke_out]),
        ("Never enters", colours.PANEL_TEXT, s.never_entered),
        ("Moved", colours.PANEL_TEXT, [f"{u} {'-'.join(p)}" for u, p in s.moves]),
    ]
    lines: list[Line] = []
    for head, col, items in groups:
        if not items:
            continue
        size = SMALL
        for i, line in enumerate(wrap(f"{head}: " + ", ".join(items), size, W - 30)):
            lines.append(("    " * (i > 0) + line, col, size))
    return lines
