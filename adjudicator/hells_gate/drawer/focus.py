"""The focus image of a phase post, for a phone: the part of the map where the last phase's
actions are (attacks, retreats, moves), cropped and enlarged, with a compact panel below; the
whole map when the actions are spread out or there are none. At most FOCUS_MAX px on its long
side, so that a chat shows it without shrinking it (Telegram shows photos at 1280 px).

A phone shows it about 390 px wide (sizes.PHONE): the panel's text, the attack labels and, on the
whole map, the units' ids are drawn large enough for capitals 7 px high there (sizes.phone_size);
the whole map draws its units as chips (drawer/chips.py) and has a compact legend.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from adjudicator.core.i18n import EN, ENGLISH, Language, Msg, say, t
from adjudicator.hells_gate.drawer import colours, legend
from adjudicator.hells_gate.drawer.events import EventLike
from adjudicator.hells_gate.drawer.sizes import PHONE, PHONE_CAP, SMALL, phone_size
from adjudicator.hells_gate.drawer.words import scenario_title
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState
from adjudicator.hells_gate.texts import phase_name, side_name, weather_name
from render import canvas, labels
from render.canvas import Canvas
from render.text import cap_height, text, text_length, wide_font, wrap

FOCUS_MAX = 1280  # the long side of a focus image, at most
MAX_ENLARGE = 1.6  # a small area is enlarged at most this much
SPREAD = 0.55  # actions over more than this share of the map: the whole map is shown
PANEL_LINES = 6  # lines of "what happened" in the compact panel, at most
PAD = 12
MIN_WIDTH = 600  # the panel is at least this wide, the map centred above it
WIDE_CROP = 720  # a part of the map wider than this draws chips (as the whole map), not counters


def action_hexes(dbg: dict[str, Any]) -> set[str]:
    """The hexes of the last phase's attacks (targets and origins), retreats and moves."""
    hexes: set[str] = set()
    for a in dbg["attacks"]:
        hexes.add(a["hex"])
        hexes.update(a["origins"])
    for r in dbg["retreats"]:
        hexes.update((r["from"], r["to"]))
    for m in dbg["moves"]:
        hexes.update(m["path"])
    return hexes


def whole_box(scenario: Scenario) -> tuple[int, int, int, int]:
    """The whole map (and 8 px around): the map of a post whose actions are spread out."""
    from adjudicator.hells_gate.drawer.frame import static_layer

    mx0, my0, mx1, my1 = static_layer(scenario).layout.map_box
    return (mx0 - 8, my0 - 8, mx1 + 8, my1 + 8)


def crop_box(scenario: Scenario, dbg: dict[str, Any]) -> tuple[tuple[int, int, int, int], bool]:
    """The part of the map to show and whether it is the whole map: the actions' hexes (and
    attack labels) with half a hex around, or the whole map if they cover more than SPREAD of it
    (or there are none); grown to show every attack label whole (a label may stand beyond the
    map's edge)."""
    from adjudicator.hells_gate.drawer.frame import static_layer

    lay = static_layer(scenario).layout
    whole = whole_box(scenario)
    hexes = [h for h in action_hexes(dbg) if h in scenario.hexes]
    labels_at = [a["label_box"] for a in dbg["attacks"]]
    box: tuple[float, float, float, float] = whole
    if hexes:
        boxes = [
            (x - lay.R * 1.5, y - lay.h, x + lay.R * 1.5, y + lay.h)
            for x, y in (lay.center(h) for h in hexes)
        ] + labels_at
        box = (
            max(whole[0], min(b[0] for b in boxes)),
            max(whole[1], min(b[1] for b in boxes)),
            min(whole[2], max(b[2] for b in boxes)),
            min(whole[3], max(b[3] for b in boxes)),
        )
    area = (box[2] - box[0]) * (box[3] - box[1])
    spread = not hexes or area / ((whole[2] - whole[0]) * (whole[3] - whole[1])) > SPREAD
    if spread:
        box = whole
    edge = (0, 0, lay.panel_box[0] - 2, lay.size[1])  # the map's part of the image
    for b in labels_at:
        box = (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
    box = (max(box[0], edge[0]), max(box[1], edge[1]), min(box[2], edge[2]), min(box[3], edge[3]))
    out = (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))
    return out, spread


def compose_focus(
    scenario: Scenario,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> tuple[Canvas, dict[str, Any]]:
    """The focus image and what it shows: {"crop": box of the full map, "scale", "size",
    "hexes": the actions' hexes, "panel_lines", "whole": whether it is the whole map, "legend":
    the keys of its compact legend (the whole map's only)}; every label in the language.

    The attack labels are drawn large enough to stay legible on a phone at the part's width
    (on the whole map as large as its town names), and the whole map has a compact legend under
    it. The labels recorded (render.labels) are in the focus image's pixels."""
    from adjudicator.hells_gate.drawer.frame import compose

    def drawn(size: int, brief: bool) -> tuple[Canvas, dict[str, Any]]:
        return compose(
            scenario, state, events, view, title, language=language, label_size=size, brief=brief
        )

    with labels.recording():  # a first look, to find the part to show (not recorded)
        full, dbg = drawn(SMALL, False)
    (box, whole), size = crop_box(scenario, dbg), SMALL
    for _ in range(3):  # larger labels may take more room: a larger part, larger labels
        with wide_font(language.code != ENGLISH):
            needed = phone_size(box[2] - box[0])
        if needed <= size:
            break
        brief = whole or box[2] - box[0] > WIDE_CROP
        size = needed
        with labels.recording():
            full, dbg = drawn(size, brief)
        box, whole = crop_box(scenario, dbg)
    # a wide part's counters could not be read on a phone: it draws chips, with their legend
    brief = whole or box[2] - box[0] > WIDE_CROP
    for _ in range(3):  # until the image as scaled keeps every text legible on a phone
        with labels.recording() as found:
            full, dbg = drawn(size, brief)
            box, whole = crop_box(scenario, dbg)
            brief = brief or whole
            with wide_font(language.code != ENGLISH):
                out, info = _focus(scenario, state, full, dbg, (box, whole, brief), title, language)
                needed, counters_legible = _legible_at(info, out.width)
        if needed <= size and (brief or counters_legible):
            break
        size, brief = max(size, needed), brief or not counters_legible
    labels.add(found)
    return out, info


def _legible_at(info: dict[str, Any], width: int) -> tuple[int, bool]:
    """The label size a focus image needs, as drawn (its part of the map scaled into width),
    and whether a counter's texts are legible there, once a phone shows it PHONE px wide."""
    factor = info["scale"] * min(1.0, PHONE / width)
    return phone_size(PHONE / factor), cap_height(SMALL) * factor >= PHONE_CAP


def _focus(
    scenario: Scenario,
    state: GameState,
    full: Canvas,
    dbg: dict[str, Any],
    shown: tuple[tuple[int, int, int, int], bool, bool],
    title: str | None,
    language: Language,
) -> tuple[Canvas, dict[str, Any]]:
    box, whole, brief = shown
    cw, ch = box[2] - box[0], box[3] - box[1]
    width = min(FOCUS_MAX, round(cw * MAX_ENLARGE))
    size = phone_size(width)
    legend_h = 0
    for _ in range(6):  # the panel's height depends on its width, the map's scale on both
        size = phone_size(width)
        lines = _panel_lines(scenario, state, dbg, title, width - 2 * PAD, language, size)
        if brief:
            rows = legend.compact_rows(full, dbg["drawn"], language)
            said = [label for _, label in rows]
            legend_h = PAD + legend.compact_height(said, size, width - 2 * PAD)
        panel_h = PAD * 2 + _line_h(size) * len(lines) + legend_h
        scale = min(FOCUS_MAX / cw, (FOCUS_MAX - panel_h) / ch, MAX_ENLARGE)
        w, h = math.floor(cw * scale), math.floor(ch * scale)
        settled = w if whole else max(w, MIN_WIDTH)  # (a wider whole map would be smaller)
        if settled == width:  # the panel and legend were laid out at the width drawn
            break
        width = settled
    out = canvas.new_image((width, h + panel_h), colours.PANEL_BG)
    out.paste(full.crop(box).resize((w, h), canvas.LANCZOS), ((width - w) // 2, 0))
    labels.crop(box)
    labels.scale(w / cw)
    labels.shift((width - w) // 2, 0)
    d = canvas.draw(out)
    d.line((0, h, width, h), fill=colours.PANEL_LINE, width=2)
    keys: list[str] = []
    if brief:
        keys = legend.draw_compact(out, PAD, h + PAD, width - 2 * PAD, dbg["drawn"], size, language)
        d.line((0, h + legend_h, width, h + legend_h), fill=colours.PANEL_LINE, width=1)
    y = h + legend_h + PAD
    for s, colour, line_size in lines:
        body = s.lstrip(" ")
        x = PAD + text_length(s[: len(s) - len(body)], line_size)
        text(out, (x, y), body, line_size, colour)
        y += _line_h(size)
    info = {
        "crop": box,
        "scale": scale,
        "size": out.size,
        "hexes": sorted(action_hexes(dbg)),
        "panel_lines": [s for s, _, _ in lines],
        "map_height": h,
        "whole": whole,
        "brief": brief,  # chips and odds-only labels (the whole map, a wide part)
        "legend": keys,
        "attacks": dbg["attacks"],
    }
    return out, info


def _line_h(size: int) -> int:
    """The distance between the panel's lines of text at size."""
    return round(size * 1.4)


def _panel_lines(
    scenario: Scenario,
    state: GameState,
    dbg: dict[str, Any],
    title: str | None,
    width: float,
    lang: Language = EN,
    size: int = SMALL,
) -> list[tuple[str, colours.RGB, int]]:
    """Title; turn, phase, whose move, weather, VP; then what happened, wrapped, at most
    PANEL_LINES lines (the last one says how many more the full map lists)."""
    p = dbg["panel"]
    active = p["active"] or ""
    status: Msg = t(
        "Turn {turn} of {turns}, {phase}, {weather}",
        turn=p["turn"],
        turns=scenario.turns,
        phase=phase_name(p["phase"]),
        weather=weather_name(p["weather"]),
    )
    if state.result is not None:
        status = t("{status}, game over", status=status)
    elif active in colours.SIDE and state.pending:
        status = t("{status}, {side} to decide", status=status, side=side_name(active))
    elif active in colours.SIDE:
        status = t("{status}, {side} to move", status=status, side=side_name(active))
    vp = p["vp"]
    status = t(
        "{status}. VP: Soviet {soviet}, German {german}",
        status=status,
        soviet=vp["soviet"],
        german=vp["german"],
    )
    game = say(scenario_title(scenario), lang)
    shown = say(title, lang) if title else game
    head: list[tuple[str, colours.RGB, int]] = [
        (s, colours.PANEL_TEXT, size + 2) for s in wrap(shown, size + 2, width)
    ]
    head += [(s, colours.PANEL_MUTED, size) for s in wrap(say(status, lang), size, width)]
    body = [
        ("    " * (i > 0) + s, colour, size)
        for line, colour, _ in dbg["happened_items"]
        for i, s in enumerate(wrap(line, size, width - 30))
    ]
    if len(body) > PANEL_LINES:
        more = len(body) - PANEL_LINES + 1
        body = body[: PANEL_LINES - 1] + [
            (say(t("... {n} more lines: say `map full`", n=more), lang), colours.PANEL_MUTED, size)
        ]
    return head + body
