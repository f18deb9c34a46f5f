"""Compose one phase image: a copy of the cached static layer + what changes, then PNG bytes."""

from __future__ import annotations

import hashlib
import io
import math
import threading
import weakref
from collections import OrderedDict

from PIL import Image, ImageDraw

from render import counters, overlay, panel, static, style
from render.events import summarise
from render.geometry import stack_geometry

# -- PNG encoding. The composed image has a few thousand colours (flat fills plus anti-aliased
# edges and text); mapped to a fixed 256-colour palette (render/palette.py, built once per
# scenario) it looks the same, the file is ~2.5x smaller and the zlib pass much faster than RGB
# at Pillow's default level.
PNG_COMPRESS_LEVEL = 3

_lock = threading.RLock()
_by_object: dict[int, tuple[weakref.ref, str]] = {}
_layers: OrderedDict[str, static.Static] = OrderedDict()
_MAX_LAYERS = 8


def fingerprint(scenario) -> str:
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


def static_layer(scenario) -> static.Static:
    """The static layer of this scenario, built once per process and reused for every image.

    Looked up by object identity first (no hashing on the hot path), then by a fingerprint of the
    map data, so two Scenario objects parsed from the same text share one layer."""
    with _lock:
        ent = _by_object.get(id(scenario))
        if ent is not None and ent[0]() is scenario:
            fp = ent[1]
        else:
            fp = fingerprint(scenario)
            key = id(scenario)
            _by_object[key] = (
                weakref.ref(scenario, lambda _r, key=key: _by_object.pop(key, None)),
                fp,
            )
        layer = _layers.get(fp)
        if layer is None:
            layer = static.build(scenario)
            _layers[fp] = layer
            while len(_layers) > _MAX_LAYERS:
                _layers.popitem(last=False)
            from render.palette import build_palette

            layer.palette = build_palette(scenario, compose)
        else:
            _layers.move_to_end(fp)
        return layer


def clear_cache() -> None:
    with _lock:
        _by_object.clear()
        _layers.clear()
        counters.sprite.cache_clear()


def visible_units(scenario, state, view=None) -> list:
    """The units on the map that `view` ("soviet", "german" or None for everyone) may see.

    The one place where hidden information is filtered: everything drawn about units (counters,
    markers, move trails, retreats) goes through it. In Hell's Gate nothing is hidden (every unit
    on the map is face up to both players), so every view sees every unit on the map."""
    return [u for u in state.units.values() if u.box == "map" and u.hex in scenario.hexes]


class Occupancy:
    """What already covers the image, at 1/4 scale: counters, names, arrows, labels. Used to put
    arrows and labels where they hide the least."""

    SCALE = 4

    def __init__(self, size):
        self.img = Image.new("L", (size[0] // self.SCALE + 1, size[1] // self.SCALE + 1), 0)
        self.d = ImageDraw.Draw(self.img)

    def box(self, b, value: int, pad: float = 0) -> None:
        s = self.SCALE
        self.d.rectangle(
            ((b[0] - pad) / s, (b[1] - pad) / s, (b[2] + pad) / s, (b[3] + pad) / s), fill=value
        )

    def line(self, p, q, width: float, value: int) -> None:
        s = self.SCALE
        self.d.line(
            (p[0] / s, p[1] / s, q[0] / s, q[1] / s), fill=value, width=max(1, round(width / s))
        )

    def cost(self, b) -> float:
        s = self.SCALE
        x0, y0 = max(0, int(b[0] / s)), max(0, int(b[1] / s))
        x1, y1 = min(self.img.width, math.ceil(b[2] / s)), min(self.img.height, math.ceil(b[3] / s))
        if x1 <= x0 or y1 <= y0:
            return 0.0
        mean = self.img.crop((x0, y0, x1, y1)).resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
        return mean * (x1 - x0) * (y1 - y0)

    def hits(self, p, q, step: float = 6.0) -> int:
        """How many points along p-q lie on something."""
        L = math.hypot(q[0] - p[0], q[1] - p[1])
        n = max(1, int(L // step))
        s = self.SCALE
        w, h = self.img.size
        count = 0
        for i in range(n + 1):
            x = int((p[0] + (q[0] - p[0]) * i / n) / s)
            y = int((p[1] + (q[1] - p[1]) * i / n) / s)
            if 0 <= x < w and 0 <= y < h and self.img.getpixel((x, y)):
                count += 1
        return count


def _exit_distance(center, u, boxes, pad, limit) -> float:
    """How far from the hex centre, along the unit vector u, the counters of the hex reach."""
    t = limit
    while t > 0:
        x, y = center[0] + u[0] * t, center[1] + u[1] * t
        if any(b[0] - pad <= x <= b[2] + pad and b[1] - pad <= y <= b[3] + pad for b in boxes):
            return t + 3.0
        t -= 2.0
    return 0.0


def _span(a_center, b_center, a_boxes, b_boxes, pad, min_len=34.0):
    """The part of the line between two hex centres outside both hexes' counters."""
    dx, dy = b_center[0] - a_center[0], b_center[1] - a_center[1]
    L = math.hypot(dx, dy) or 1.0
    u = (dx / L, dy / L)
    half = L / 2
    s = min(_exit_distance(a_center, u, a_boxes, pad, half), half - 6)
    e = min(_exit_distance(b_center, (-u[0], -u[1]), b_boxes, pad, half), half - 6)
    s, e = max(s, 20.0), max(e, 20.0)
    if L - s - e < min_len:
        cut = (min_len - (L - s - e)) / 2
        s, e = s - cut, e - cut
    return overlay.shorten(a_center, b_center, s, e)


def _arrow_span(lay, a, b, boxes_by_hex, text_occ: Occupancy, pad):
    """An arrow across the hexside between hexes a and b, clear of both stacks; moved sideways
    along the hexside if it would cover a hex id or a town name."""
    (ax, ay), (bx, by) = lay.center(a), lay.center(b)
    L = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / L, (bx - ax) / L
    best = None
    for off in (0, 24, -24):
        ca, cb = (ax + nx * off, ay + ny * off), (bx + nx * off, by + ny * off)
        p, q = _span(ca, cb, boxes_by_hex.get(a, []), boxes_by_hex.get(b, []), pad)
        hit = text_occ.hits(p, q)
        if best is None or hit < best[0]:
            best = (hit, p, q)
        if hit == 0:
            break
    return best[1], best[2]


def compose(scenario, state, events=(), view=None, title=None) -> tuple[Image.Image, dict]:
    st = static_layer(scenario)
    lay = st.layout
    img = st.image.copy()
    d = ImageDraw.Draw(img)
    summary = summarise(scenario, events)
    units = visible_units(scenario, state, view)
    seen = {u.id for u in units}
    dbg: dict = {
        "size": img.size,
        "hexes": {h: lay.center(h) for h in scenario.hexes},
        "R": lay.R,
        "units": {},
        "markers": {"oos": [], "retreat": [], "tychinovka": None},
        "attacks": [],
        "moves": [],
        "retreats": [],
        "names": {},
        "drawn": set(),
        "view": view,
        "legend": [k for k, _ in st.legend],
        "legend_labels": dict(st.legend),
    }
    drawn = dbg["drawn"]
    drawn.update(("clear", "river", "map_edge", "dnieper"))
    drawn.update(h.terrain for h in scenario.hexes.values())
    drawn.update(v for slots in st.slots.values() for v in slots.values())

    # -- placements: every unit on its own tile, the tiles of a hex centred on the hex centre
    stacks: dict[str, list] = {}
    for u in units:
        stacks.setdefault(u.hex, []).append(u)
    boxes_by_hex: dict[str, list] = {}
    placements = []
    for h, us in stacks.items():
        geo = stack_geometry(len(us), any(u.oos or u.retreated for u in us))
        cx, cy = lay.center(h)
        for u, (ox, oy) in zip(us, geo.cells):
            x0, y0 = round(cx + ox), round(cy + oy)
            has_strip = (u.oos or u.retreated) and geo.strip
            box = (x0, y0, x0 + geo.size, y0 + geo.size + (geo.strip if has_strip else 0))
            boxes_by_hex.setdefault(h, []).append(box)
            placements.append((u, box, geo))
    occ = Occupancy(img.size)  # everything, for labels
    text_occ = Occupancy(img.size)  # hex ids and names, for arrows
    for bs in boxes_by_hex.values():
        for b in bs:
            occ.box(b, 90)
    for b in st.text_boxes:
        occ.box(b, 60)
        text_occ.box(b, 255, pad=5)

    # -- town names: in the middle of an empty hex, under the hex id or the counters otherwise
    for h, ns in st.names.items():
        bs = boxes_by_hex.get(h)
        box = ns.place(min(b[1] for b in bs) if bs else None)
        img.paste(ns.image, box[:2], ns.image)
        occ.box(box, 60)
        text_occ.box(box, 255, pad=5)
        dbg["names"][h] = box
        drawn.add("town")

    # -- moves: faint trails under the counters
    for uid, path in summary.moves:
        if uid not in seen or any(h not in scenario.hexes for h in path):
            continue
        pts = [lay.center(h) for h in path]
        side = scenario.units[uid].side if uid in scenario.units else "soviet"
        p, q = pts[-2], pts[-1]
        L = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
        back = ((p[0] - q[0]) / L, (p[1] - q[1]) / L)
        reach = _exit_distance(q, back, boxes_by_hex.get(path[-1], []), 3, lay.h / 2 - 10) or 20
        tip = (q[0] + back[0] * reach, q[1] + back[1] * reach)
        base = (tip[0] + back[0] * 18, tip[1] + back[1] * 18)
        overlay.draw_trail(img, pts, style.SIDE[side]["trail"], head=(base, tip))
        dbg["moves"].append({"unit": uid, "path": path})
        drawn.add("move")

    # -- the Tychinovka marker (rule 12.8: on its hex during the whole of turn 2)
    tych = scenario.flags.get("tychinovka_marker_hex")
    if state.turn == 2 and tych in scenario.hexes:
        used = st.slots.get(tych, {})
        slot = next((s for s in ("left", "right") if s not in used), "right")
        sx, sy = static.slot_center(lay, tych, slot)
        static.draw_tychinovka(d, sx, sy, 14)
        dbg["markers"]["tychinovka"] = tych
        dbg["tychinovka_box"] = (sx - 14, sy - 14, sx + 14, sy + 14)
        occ.box(dbg["tychinovka_box"], 60)
        drawn.add("tychinovka")

    # -- counters
    for u, box, geo in placements:
        spec = scenario.units[u.id]
        reduced = bool(u.reduced and spec.steps == 2)
        spr = counters.sprite(spec, reduced, u.oos, u.retreated, geo.size, geo.strip)
        d.rectangle((box[0] + 2, box[1] + 2, box[2] + 2, box[3] + 2), fill=style.SHADOW)
        img.paste(spr, box[:2])
        marks = [m for m, on in (("oos", u.oos), ("retreat", u.retreated)) if on]
        for m in marks:
            dbg["markers"][m].append(u.id)
        dbg["units"][u.id] = {
            "hex": u.hex,
            "box": box,
            "counter_box": (box[0], box[1], box[0] + geo.size, box[1] + geo.size),
            "center": ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            "side": u.side,
            "reduced": reduced,
            "markers": marks,
            "size": geo.size,
            "strength": counters.printed_strength(spec, reduced),
        }
        drawn.update((f"{u.side}_unit", f"nato_{spec.type}", *marks))
        if reduced:
            drawn.add("reduced")

    # -- retreats and attacks: short arrows across the hexside, over the counters
    for uid, a, b in summary.retreats:
        if uid not in seen or a not in scenario.hexes or b not in scenario.hexes:
            continue
        p, q = _arrow_span(lay, a, b, boxes_by_hex, text_occ, 4)
        overlay.draw_arrow(
            img, p, q, style.RETREAT_ARROW, width=7, head_len=15, head_w=19, halo_w=2.5, dash=7
        )
        occ.line(p, q, 16, 200)
        dbg["retreats"].append({"unit": uid, "from": a, "to": b, "arrow": (p, q)})
        drawn.add("retreat_arrow")
    labels = []
    for atk in summary.attacks:
        if atk.hex not in scenario.hexes:
            continue
        origins = []
        for uid in atk.attackers:
            h = atk.origins.get(uid)
            if h is None and uid in state.units and state.units[uid].box == "map":
                h = state.units[uid].hex
            if h in scenario.hexes and h != atk.hex and h not in origins:
                origins.append(h)
        colour = style.SIDE.get(atk.side, style.SIDE["soviet"])["arrow"]
        arrows = []
        for h in origins:
            p, q = _arrow_span(lay, h, atk.hex, boxes_by_hex, text_occ, 5)
            overlay.draw_arrow(img, p, q, colour)
            occ.line(p, q, 22, 200)
            arrows.append((p, q))
        labels.append((atk, arrows, colour, origins))
        drawn.add("attack")
    for atk, arrows, colour, origins in labels:
        box = _attack_label(img, lay, atk, arrows, colour, occ)
        occ.box(box, 255, pad=3)
        dbg["attacks"].append(
            {
                "number": atk.number,
                "hex": atk.hex,
                "origins": origins,
                "arrows": arrows,
                "label_box": box,
                "final_column": atk.final_column,
                "die": atk.die,
                "hits": atk.hits,
                "attackers": atk.attackers,
            }
        )

    # -- panel
    from adjudicator.hells_gate.victory import victory_points

    vp = state.vp if state.vp else victory_points(scenario, state)
    panel.draw_panel(img, st, scenario, state, summary, vp, view, title, dbg)
    dbg["image"] = img
    return img, dbg


def _attack_label(img, lay, atk, arrows, colour, occ: Occupancy) -> tuple:
    """A small box next to the target: number, final odds, die and hits. Placed where it covers
    the least of the counters, names, arrows and other labels."""
    line1 = f"{atk.final_column}" + (
        " decisive" if atk.decisive else (" overstack" if atk.overstack else "")
    )
    line2 = f"die {atk.die}: {atk.result}"
    badge = 20
    w = round(max(style.text_length(line1, 16), style.text_length(line2, 14))) + badge + 16
    h = 38
    cx, cy = lay.center(atk.hex)
    cands = []
    for p, q in arrows:  # first choice: beside the middle of an arrow
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        L = math.hypot(q[0] - p[0], q[1] - p[1]) or 1
        nx, ny = -(q[1] - p[1]) / L, (q[0] - p[0]) / L
        for sgn in (1, -1):
            off = 14 + (abs(nx) * w + abs(ny) * h) / 2
            cands.append((mx + nx * off * sgn, my + ny * off * sgn))
    for ang in range(0, 360, 30):
        for rr in (0.82, 1.0):
            a = math.radians(ang)
            cands.append((cx + math.cos(a) * lay.R * rr, cy + math.sin(a) * lay.R * rr))
    mx0, _, mx1, _ = lay.map_box
    best, best_score = None, None
    for i, (x, y) in enumerate(cands):
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        if box[0] < mx0 - 10 or box[1] < 2 or box[2] > mx1 + 14 or box[3] > img.height - 2:
            continue
        score = occ.cost(box) + i * 40
        if best_score is None or score < best_score:
            best, best_score = box, score
    if best is None:
        best = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    x0, y0, x1, y1 = (round(v) for v in best)
    bx, by = x0 + 4 + badge / 2, (y0 + y1) / 2

    def shapes(dd, tx, k):
        dd.rounded_rectangle(
            (*tx(x0, y0), *tx(x1, y1)),
            radius=6 * k,
            fill=(255, 255, 255),
            outline=colour,
            width=2 * k,
        )
        dd.ellipse(
            (*tx(bx - badge / 2, by - badge / 2), *tx(bx + badge / 2, by + badge / 2)), fill=colour
        )

    overlay.aa_patch(img, (x0 - 1, y0 - 1, x1 + 2, y1 + 2), shapes)
    style.text(img, (bx, by), str(atk.number), 14, (255, 255, 255), "mm")
    tx = x0 + badge + 10
    style.text(img, (tx, y0 + 3), line1, 16, style.PANEL_TEXT)
    style.text(img, (tx, y0 + 20), line2, 14, style.PANEL_TEXT)
    return (x0, y0, x1, y1)


def encode(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes: mapped to the scenario's palette if given (no dithering), else RGB."""
    buf = io.BytesIO()
    if palette is not None:
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    img.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def render_png(scenario, state, events=(), view=None, title=None) -> bytes:
    img, _ = compose(scenario, state, events, view, title)
    return encode(img, static_layer(scenario).palette)
