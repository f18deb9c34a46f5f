"""Compose one Hell's Gate phase image: a copy of the cached static layer (drawer/terrain.py)
plus what changes (town names where the counters leave room, move trails, the Tychinovka marker,
counters, retreat and attack arrows, the panel), then PNG bytes."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from typing import Any

from adjudicator.core.i18n import EN, ENGLISH, Language, say, t
from adjudicator.hells_gate.drawer import (
    attacks,
    chips,
    colours,
    counters,
    panel,
    probe,
    stacking,
    symbols,
    terrain,
    words,
)
from adjudicator.hells_gate.drawer.events import EventLike, Summary, summarise
from adjudicator.hells_gate.drawer.layers import Frame, Static
from adjudicator.hells_gate.drawer.sizes import COUNTER, SMALL, STRIP
from adjudicator.hells_gate.drawer.stacking import IntBox
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState
from adjudicator.hells_gate.victory import victory_points
from render import canvas, labels, overlay, png
from render.cache import LayerCache
from render.canvas import Canvas
from render.placement import Occupancy, exit_distance
from render.text import wide_font

Placement = tuple[UnitState, IntBox, int]  # unit, box, counter size

_layers: dict[str, LayerCache[Static]] = {}  # by language code


def fingerprint(scenario: Scenario) -> str:
    """What the static layer depends on: the map, the units (legend samples), the flags."""
    parts = (
        scenario.id,
        scenario.title,
        scenario.turns,
        scenario.grid.columns,
        scenario.grid.first_row,
        scenario.grid.last_row,
        sorted((h, s.terrain, s.name, s.supply) for h, s in scenario.hexes.items()),
        sorted(tuple(sorted(s)) for s in scenario.river_hexsides),
        sorted((k, repr(v)) for k, v in scenario.flags.items()),
        [repr(u) for u in scenario.units.values()],
    )
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def static_layer(scenario: Scenario, language: Language = EN) -> Static:
    """The static layer of this scenario in a language, built once per process and reused for
    every image.

    Looked up by object identity first (no hashing on the hot path), then by a fingerprint of the
    map data, so two Scenario objects parsed from the same text share one layer."""
    cache = _layers.setdefault(language.code, LayerCache(max_size=8))
    return cache.get(scenario, fingerprint, lambda s: terrain.build(s, language), _add_palette)


def _add_palette(scenario: Scenario, layer: Static) -> None:
    with labels.recording():  # the probe's images are not the one being recorded
        layer.palette = probe.palette(scenario, compose)


def clear_cache() -> None:
    for cache in _layers.values():
        cache.clear()
    counters.clear_cache()


def visible_units(scenario: Scenario, state: GameState, view: str | None = None) -> list[UnitState]:
    """The units on the map that `view` (a side, or None for everyone) may see.

    The one place where hidden information is filtered: everything drawn about units (counters,
    markers, move trails, retreats) goes through it. In Hell's Gate nothing is hidden (every unit
    on the map is face up to both players), so every view sees every unit on the map."""
    return [u for u in state.units.values() if u.box == "map" and u.hex in scenario.hexes]


def compose(
    scenario: Scenario,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
    label_size: int = SMALL,
    brief: bool = False,
) -> tuple[Canvas, dict[str, Any]]:
    """The RGB image of the map and, for tests, what was drawn where (see draw_debug); every
    label in `language` (in a font with its letters); the attack labels' text at label_size,
    only their odds if brief (the die and the hits are in the panel)."""
    with wide_font(language.code != ENGLISH):
        return _compose(scenario, state, events, view, title, language, label_size, brief)


def _compose(
    scenario: Scenario,
    state: GameState,
    events: Iterable[EventLike],
    view: str | None,
    title: str | None,
    language: Language,
    label_size: int = SMALL,
    brief: bool = False,
) -> tuple[Canvas, dict[str, Any]]:
    st = static_layer(scenario, language)
    img = st.image.copy()
    counters.note_at(st.labels, (0, 0))  # the static layer's texts, drawn once
    summary = summarise(scenario, events)
    units = visible_units(scenario, state, view)
    dbg = _debug(scenario, st, img, view)
    f = Frame(scenario, state, st, img, dbg, {u.id for u in units}, lang=language)
    f.label_size, f.brief_labels = label_size, brief
    placements = _place(f, units)
    _occupancy(f)
    _names(f)
    _moves(f, summary)
    _tychinovka(f)
    _counters(f, placements)
    attacks.draw_retreats(f, summary)
    attacks.draw_attacks(f, summary)
    _names_over_arrows(f)
    vp = state.vp if state.vp else victory_points(scenario, state)
    panel.draw_panel(img, st, scenario, state, summary, vp, view, title, f.dbg, language)
    f.dbg["image"] = img
    return img, f.dbg


def draw_png(
    scenario: Scenario,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    img, _ = compose(scenario, state, events, view, title, language=language)
    return png.encode(img, static_layer(scenario, language).palette)


def _debug(scenario: Scenario, st: Static, img: Canvas, view: str | None) -> dict[str, Any]:
    lay = st.layout
    dbg: dict[str, Any] = {
        "size": img.size,
        "hexes": {h: lay.center(h) for h in scenario.hexes},
        "R": lay.R,
        "units": {},
        "markers": {"oos": [], "retreat": [], "tychinovka": None},
        "attacks": [],
        "moves": [],
        "retreats": [],
        "names": {},
        "stacks": {},  # hex -> every unit of a stack drawn with a count badge
        "badges": {},  # hex -> the badge's box
        "drawn": set(),
        "view": view,
        "legend": [k for k, _ in st.legend],
        "legend_labels": dict(st.legend),
    }
    drawn: set[str] = dbg["drawn"]
    drawn.update(("clear", "river", "map_edge", "dnieper"))
    drawn.update(h.terrain for h in scenario.hexes.values())
    drawn.update(v for slots in st.slots.values() for v in slots.values())
    return dbg


def _place(f: Frame, units: Sequence[UnitState]) -> list[Placement]:
    """Every drawn unit on its own tile inside its hex, clear of the hex id, the town name and
    the symbols (drawer/stacking.py); returns (unit, box, counter size) per drawn unit. Stacks
    too big for their hex get a count badge and are listed in dbg["stacks"] for the panel."""
    stacks: dict[str, list[UnitState]] = {}
    for u in units:
        stacks.setdefault(u.map_hex, []).append(u)
    placements: list[Placement] = []
    ids = dict(zip(f.scenario.hexes, f.st.text_boxes))
    for h, us in stacks.items():
        slots = list(f.st.slots.get(h, {}))
        marks = [u.oos or u.retreated for u in us]
        if f.brief_labels:  # the whole map of a post: chips with ids a phone can read
            p, _ = chips.plan(f.lay, h, len(us), f.st.names.get(h), f.label_size)
        else:
            p = stacking.plan(f.lay, h, marks, ids[h], f.st.names.get(h), slots)
        f.plans[h] = p
        f.boxes_by_hex[h] = list(p.tiles)
        for u, box in zip(us, p.boxes):
            placements.append((u, box, COUNTER))
        if p.badge:
            f.dbg["stacks"][h] = [u.id for u in us]
    return placements


def _occupancy(f: Frame) -> None:
    f.occ = Occupancy(f.img.size)
    f.text_occ = Occupancy(f.img.size)
    for bs in f.boxes_by_hex.values():
        for b in bs:
            f.occ.box(b, 90)
    for tb in f.st.text_boxes:
        f.occ.box(tb, 60)
        f.text_occ.box(tb, 255, pad=5)


def _names(f: Frame) -> None:
    """Town names: in the middle of an empty hex, else where the stack's plan put them."""
    for h, ns in f.st.names.items():
        p = f.plans.get(h)
        box = p.name if p is not None and p.name is not None else ns.place(None)
        f.img.paste(ns.image, box[:2], ns.image)
        counters.note_at(ns.labels, box[:2])
        f.occ.box(box, 60)
        f.text_occ.box(box, 255, pad=5)
        f.dbg["names"][h] = box
        f.drawn.add("town")


def _names_over_arrows(f: Frame) -> None:
    """A town name an arrow crosses is drawn again over it (unless a label is there): the name
    stays legible, the arrow shows on both sides of it."""
    arrows = [r["arrow"] for r in f.dbg["retreats"]]
    arrows += [seg for a in f.dbg["attacks"] for seg in a["arrows"]]
    labels_at = [a["label_box"] for a in f.dbg["attacks"]]
    for h, box in f.dbg["names"].items():
        if any(_meets(box, lb) for lb in labels_at):
            continue
        if any(_crosses(box, p, q) for p, q in arrows):
            ns = f.st.names[h]
            f.img.paste(ns.image, box[:2], ns.image)


def _meets(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: Sequence[float], p: Sequence[float], q: Sequence[float]) -> bool:
    """Whether the segment p-q passes through box (sampled every 2 px)."""
    n = max(1, round(math.hypot(q[0] - p[0], q[1] - p[1]) / 2))
    return any(
        box[0] <= p[0] + (q[0] - p[0]) * i / n <= box[2]
        and box[1] <= p[1] + (q[1] - p[1]) * i / n <= box[3]
        for i in range(n + 1)
    )


def _moves(f: Frame, summary: Summary) -> None:
    """Moves: faint trails under the counters, the head short of the counters at the end."""
    scenario, lay = f.scenario, f.lay
    for uid, path in summary.moves:
        if uid not in f.seen or any(h not in scenario.hexes for h in path):
            continue
        pts = [lay.center(h) for h in path]
        side = scenario.units[uid].side if uid in scenario.units else "soviet"
        p, q = pts[-2], pts[-1]
        L = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
        back = ((p[0] - q[0]) / L, (p[1] - q[1]) / L)
        boxes = f.boxes_by_hex.get(path[-1], [])
        reach = exit_distance(q, back, boxes, 3, lay.h / 2 - 10) or 20
        tip = (q[0] + back[0] * reach, q[1] + back[1] * reach)
        base = (tip[0] + back[0] * 18, tip[1] + back[1] * 18)
        overlay.draw_trail(f.img, pts, colours.SIDE[side]["trail"], head=(base, tip))
        f.dbg["moves"].append({"unit": uid, "path": path})
        f.drawn.add(f"move_{side}")


def _tychinovka(f: Frame) -> None:
    """The Tychinovka marker (rule 12.8: on its hex during the whole of turn 2)."""
    tych = f.scenario.flags.get("tychinovka_marker_hex")
    if f.state.turn != 2 or tych not in f.scenario.hexes:
        return
    used = f.st.slots.get(tych, {})
    slot = next((s for s in ("left", "right") if s not in used), "right")
    sx, sy = symbols.slot_center(f.lay, tych, slot)
    r = 20 if f.brief_labels else 14  # on the whole map of a post, its text as large as names
    size = f.label_size if f.brief_labels else None
    symbols.draw_tychinovka(canvas.draw(f.img), sx, sy, r, size)
    f.dbg["markers"]["tychinovka"] = tych
    f.dbg["tychinovka_box"] = (sx - r, sy - r, sx + r, sy + r)
    f.occ.box(f.dbg["tychinovka_box"], 60)
    f.drawn.add("tychinovka")


def _counters(f: Frame, placements: Sequence[Placement]) -> None:
    d = canvas.draw(f.img)
    for u, box, size in placements:
        spec = f.scenario.units[u.id]
        reduced = bool(u.reduced and spec.steps == 2)
        strip = STRIP if box[3] - box[1] > size else 0
        strip_words = words.strip_labels(f.lang)
        if f.brief_labels:
            chip = chips.Chip(u.side, reduced, u.oos, u.retreated)
            chips.draw(f.img, box, u.id, chip, f.label_size)
        else:
            d.rectangle((box[0] + 2, box[1] + 2, box[2] + 2, box[3] + 2), fill=colours.SHADOW)
            counters.paste(
                f.img, box[:2], spec, reduced, u.oos, u.retreated, size, strip, strip_words
            )
        marks = [m for m, on in (("oos", u.oos), ("retreat", u.retreated)) if on]
        for m in marks:
            f.dbg["markers"][m].append(u.id)
        f.dbg["units"][u.id] = {
            "hex": u.hex,
            "box": box,
            "counter_box": (box[0], box[1], box[0] + size, box[1] + size),
            "center": ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            "side": u.side,
            "reduced": reduced,
            "markers": marks,
            "size": size,
            "strength": counters.printed_strength(spec, reduced),
        }
        f.drawn.update((f"{u.side}_unit", f"nato_{spec.type}", *marks))
        if reduced:
            f.drawn.add("reduced")
    for h, p in f.plans.items():
        if p.badge is not None:
            hidden = len(f.dbg["stacks"][h]) - len(p.boxes)
            if f.brief_labels:
                chips.draw_badge(f.img, p.badge, f"+{hidden}", f.label_size)
            else:
                counters.draw_badge(f.img, p.badge, f"+{hidden}", say(t("more"), f.lang))
            f.dbg["badges"][h] = p.badge
