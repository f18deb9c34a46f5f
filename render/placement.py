"""Where to put overlays so that they hide the least: a coarse map of what already covers the
image, arrows between hex centres that stop short of the counters, label boxes placed where they
cover the least."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import cast

from PIL import Image, ImageDraw

from render import overlay
from render.canvas import Box, Point
from render.hexes import Layout

Segment = tuple[Point, Point]  # an arrow: its start and its tip


class Occupancy:
    """What already covers the image, at 1/4 scale: counters, names, arrows, labels. Used to put
    arrows and labels where they hide the least."""

    SCALE = 4

    def __init__(self, size: tuple[int, int]):
        self.img = Image.new("L", (size[0] // self.SCALE + 1, size[1] // self.SCALE + 1), 0)
        self.d = ImageDraw.Draw(self.img)

    def box(self, b: Box, value: int, pad: float = 0) -> None:
        s = self.SCALE
        self.d.rectangle(
            ((b[0] - pad) / s, (b[1] - pad) / s, (b[2] + pad) / s, (b[3] + pad) / s), fill=value
        )

    def line(self, p: Point, q: Point, width: float, value: int) -> None:
        s = self.SCALE
        self.d.line(
            (p[0] / s, p[1] / s, q[0] / s, q[1] / s), fill=value, width=max(1, round(width / s))
        )

    def cost(self, b: Box) -> float:
        s = self.SCALE
        x0, y0 = max(0, int(b[0] / s)), max(0, int(b[1] / s))
        x1, y1 = min(self.img.width, math.ceil(b[2] / s)), min(self.img.height, math.ceil(b[3] / s))
        if x1 <= x0 or y1 <= y0:
            return 0.0
        mean = cast(  # an "L" image: a pixel is one number
            float,
            self.img.crop((x0, y0, x1, y1)).resize((1, 1), Image.Resampling.BOX).getpixel((0, 0)),
        )
        return mean * (x1 - x0) * (y1 - y0)

    def hits(self, p: Point, q: Point, step: float = 6.0) -> int:
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


def exit_distance(center: Point, u: Point, boxes: Iterable[Box], pad: float, limit: float) -> float:
    """How far from the hex centre, along the unit vector u, the boxes (counters) reach."""
    t = limit
    while t > 0:
        x, y = center[0] + u[0] * t, center[1] + u[1] * t
        if any(b[0] - pad <= x <= b[2] + pad and b[1] - pad <= y <= b[3] + pad for b in boxes):
            return t + 3.0
        t -= 2.0
    return 0.0


def span(
    a_center: Point,
    b_center: Point,
    a_boxes: Iterable[Box],
    b_boxes: Iterable[Box],
    pad: float,
    min_len: float = 34.0,
) -> Segment:
    """The part of the line between two hex centres outside both hexes' boxes."""
    dx, dy = b_center[0] - a_center[0], b_center[1] - a_center[1]
    L = math.hypot(dx, dy) or 1.0
    u = (dx / L, dy / L)
    half = L / 2
    s = min(exit_distance(a_center, u, a_boxes, pad, half), half - 6)
    e = min(exit_distance(b_center, (-u[0], -u[1]), b_boxes, pad, half), half - 6)
    s, e = max(s, 20.0), max(e, 20.0)
    if L - s - e < min_len:
        cut = (min_len - (L - s - e)) / 2
        s, e = s - cut, e - cut
    return overlay.shorten(a_center, b_center, s, e)


def arrow_span(
    lay: Layout,
    a: str,
    b: str,
    boxes_by_hex: Mapping[str, Sequence[Box]],
    text_occ: Occupancy,
    pad: float,
) -> Segment:
    """An arrow across the hexside between hexes a and b, clear of both stacks; moved sideways
    along the hexside if it would cover what text_occ holds (hex ids, names)."""
    (ax, ay), (bx, by) = lay.center(a), lay.center(b)
    L = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / L, (bx - ax) / L
    best: tuple[int, Point, Point] | None = None
    for off in (0, 24, -24):
        ca, cb = (ax + nx * off, ay + ny * off), (bx + nx * off, by + ny * off)
        p, q = span(ca, cb, boxes_by_hex.get(a, []), boxes_by_hex.get(b, []), pad)
        hit = text_occ.hits(p, q)
        if best is None or hit < best[0]:
            best = (hit, p, q)
        if hit == 0:
            break
    assert best is not None  # the first offset is always tried
    return best[1], best[2]


def _label_candidates(
    lay: Layout, hex_id: str, arrows: Iterable[Segment], w: float, h: float
) -> list[Point]:
    """Centres to try, best first: beside the middle of each arrow, then around the hex."""
    cx, cy = lay.center(hex_id)
    cands: list[Point] = []
    for p, q in arrows:
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        L = math.hypot(q[0] - p[0], q[1] - p[1]) or 1
        nx, ny = -(q[1] - p[1]) / L, (q[0] - p[0]) / L
        for sgn in (1, -1):
            off = 14 + (abs(nx) * w + abs(ny) * h) / 2
            cands.append((mx + nx * off * sgn, my + ny * off * sgn))
    for ang in range(0, 360, 30):
        for rr in (0.82, 1.0, 0.6, 1.2):
            a = math.radians(ang)
            cands.append((cx + math.cos(a) * lay.R * rr, cy + math.sin(a) * lay.R * rr))
    return cands


def label_box(
    lay: Layout,
    hex_id: str,
    arrows: Iterable[Segment],
    w: float,
    h: float,
    occ: Occupancy,
    bounds: Box,
    avoid: Sequence[Box] = (),
) -> tuple[int, int, int, int]:
    """A w x h box for a label of hex_id (and of the arrows pointing at it), inside bounds
    (x0, y0, x1, y1), where it covers the least of occ; earlier candidates preferred. A box
    that meets one of `avoid` (e.g. hex ids, 2 px apart) is taken only if every one does."""
    best: Box | None = None
    best_score: float | None = None
    for i, (x, y) in enumerate(_label_candidates(lay, hex_id, arrows, w, h)):
        box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        if box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]:
            continue
        hit = any(
            box[0] - 2 < a[2] and a[0] - 2 < box[2] and box[1] - 2 < a[3] and a[1] - 2 < box[3]
            for a in avoid
        )
        score = occ.cost(box) + i * 40 + (10**9 if hit else 0)
        if best_score is None or score < best_score:
            best, best_score = box, score
    if best is None:
        cx, cy = lay.center(hex_id)
        best = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    x0, y0, x1, y1 = best
    return (round(x0), round(y0), round(x1), round(y1))
