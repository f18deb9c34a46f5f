"""The map part of the phone image: the territories as circles in their controller's colour
(N5; a thick ring: a victory territory, N15), each territory's blocks as squares inside (face up
with their strength where the view shows it, 2.4; face down in their nation's colour), each name
outside its circle and its blocks where no other name or shape is (a fortress, N4 a, as a small
framed number after the name), the battle now fought ringed in red and the moves since the last
map as arrows (BlocksMoved). Drawn from the view only."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any

from adjudicator.core.i18n import Language, say
from adjudicator.northern_war.drawer import style as S
from render import canvas, text

R = 34  # a territory's radius
PAD = 30  # room around the map for the names
SIDE = 56  # room left and right of the outer circles for their names
STRETCH = 1.35  # the map drawn taller than wide: a phone is held upright
Box = tuple[float, float, float, float]


class Layout:
    """Where each territory goes in an image S.WIDTH wide (the scenario's positions scaled)."""

    def __init__(self, sc: Any):
        xs = [t.pos[0] for t in sc.territories.values()]
        ys = [t.pos[1] for t in sc.territories.values()]
        inner = S.WIDTH - 2 * (R + SIDE)
        self.scale = inner / max(1, max(xs) - min(xs))
        self.x0, self.y0 = min(xs), min(ys)
        self.height = round((max(ys) - min(ys)) * self.scale * STRETCH + 2 * (PAD + R) + 30)
        self.pos = {x: self.at(t.pos) for x, t in sc.territories.items()}

    def at(self, pos: tuple[float, float]) -> tuple[float, float]:
        return (
            R + SIDE + (pos[0] - self.x0) * self.scale,
            PAD + R + (pos[1] - self.y0) * self.scale * STRETCH,
        )


def _grid(n: int) -> tuple[int, int]:
    cols = 1 if n == 1 else 2 if n <= 4 else 3
    return cols, math.ceil(n / cols)


def blocks_box(centre: tuple[float, float], n: int) -> Box:
    """The box of n squares centred on the circle (and the circle's own box)."""
    x, y = centre
    cols, rows = _grid(max(n, 1))
    w, h = cols * (S.SQUARE + 3) - 3, rows * (S.SQUARE + 3) - 3
    half_w, half_h = max(R, w / 2), max(R, h / 2)
    return (x - half_w, y - half_h, x + half_w, y + half_h)


def _squares(centre: tuple[float, float], n: int) -> Box:
    """The box of the n squares alone."""
    cols, rows = _grid(n)
    w, h = cols * (S.SQUARE + 3) - 3, rows * (S.SQUARE + 3) - 3
    return (centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2)


def _hits(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 if they touch)."""
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def name_box(
    shape: Box, w: float, h: float, taken: list[Box], shapes: list[Box], limit: Box
) -> Box:
    """Where a name w x h goes beside shape: below, above, right, left or a corner, the first
    place that covers no other name or shape and stays on the map (else the least covering)."""
    x0, y0, x1, y1 = shape
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    spots = [
        spot
        for d in (0, 8, 18)
        for spot in (
            (cx - w / 2, y1 + 4 + d),
            (cx - w / 2, y0 - 4 - h - d),
            (x1 + 6 + d, cy - h / 2),
            (x0 - 6 - w - d, cy - h / 2),
            (x1 - 8 + d, y1 + 2 + d),
            (x0 + 8 - w - d, y1 + 2 + d),
            (x1 - 8 + d, y0 - 2 - h - d),
            (x0 + 8 - w - d, y0 - 2 - h - d),
        )
    ]

    def cost(n: int) -> float:
        p = spots[n]
        b = (p[0], p[1], p[0] + w, p[1] + h)
        out = (b[0] < limit[0]) + (b[2] > limit[2]) + (b[1] < limit[1]) + (b[3] > limit[3])
        names = sum(_hits(b, o) for o in taken)
        others = sum(_hits(b, o) for o in shapes if o != shape)
        near = _gap(b, shape)  # a name nearer another circle than its own reads as that one's
        closer = sum(1 for o in shapes if o != shape and _gap(b, o) < near + 6)
        rank = (0, 60, 150, 150, 250, 250, 300, 300)[n % 8]  # below, above, beside, corners
        return out * 1e9 + names * 1e4 + closer * 2e3 + others + near * 10 + rank

    best = spots[min(range(len(spots)), key=cost)]
    return (best[0], best[1], best[0] + w, best[1] + h)


def draw_map(
    image: canvas.Canvas,
    sc: Any,
    state: Any,
    lay: Layout,
    moves: Iterable[dict[str, Any]],
    language: Language,
) -> None:
    pen = canvas.draw(image)
    for x, terr in sc.territories.items():
        for other in terr.borders:
            if x < other:
                pen.line([lay.pos[x], lay.pos[other]], fill=S.SEA, width=3)
    here = {
        x: [b for b in state.at if state.at[b] == x and state.status[b] == "map"]
        for x in sc.territories
    }
    shapes = {x: blocks_box(lay.pos[x], len(here[x])) for x in sc.territories}
    battle = state.battle["area"] if state.battle else None
    for x in sc.territories:
        ring = 5 if battle == x else 3 if len({_side(sc, b) for b in here[x]}) > 1 else 0
        _circle(pen, sc, state, x, lay.pos[x], ring)
    for move in moves:
        path = [move.get("from"), *move.get("path", [])]
        if path[-1] != move.get("to"):
            path.append(move.get("to"))
        _arrow(pen, [lay.pos[a] for a in path if a in lay.pos])
    for x in sc.territories:
        _blocks(image, sc, state, lay.pos[x], here[x])
    taken = [_squares(lay.pos[x], len(here[x])) for x in sc.territories if here[x]]  # digits
    limit = (4.0, 4.0, S.WIDTH - 4.0, lay.height - 4.0)
    for x in sorted(sc.territories, key=lambda a: -len(here[a])):  # crowded ones first
        _name(image, sc, x, shapes, taken, limit, language)


def _side(sc: Any, block: str) -> str:
    """The side of a block of the view, face down (`?nation@...`) or not."""
    if block.startswith("?"):
        return str(sc.nations[block[1:].split("@")[0]].side)
    return str(sc.side_of(block))


def _circle(
    pen: canvas.Draw, sc: Any, state: Any, x: str, at: tuple[float, float], ring: int
) -> None:
    """A territory; ring: the width of a red ring around it (N3: 5 the battle now fought, 3 a
    territory held by blocks of both sides, a battle to come; 0 none)."""
    cx, cy = at
    width = 5 if x in sc.victory else 1
    box = (cx - R, cy - R, cx + R, cy + R)
    pen.ellipse(box, fill=S.CONTROL[state.control[x]], outline=S.INK, width=width)
    if ring:
        pen.ellipse((cx - R - 7, cy - R - 7, cx + R + 7, cy + R + 7), outline=S.BATTLE, width=ring)


def _blocks(
    image: canvas.Canvas, sc: Any, state: Any, at: tuple[float, float], blocks: list[str]
) -> None:
    if not blocks:
        return
    cols, rows = _grid(len(blocks))
    left = at[0] - (cols * (S.SQUARE + 3) - 3) / 2
    top = at[1] - (rows * (S.SQUARE + 3) - 3) / 2
    for n, b in enumerate(blocks):
        x, y = left + (n % cols) * (S.SQUARE + 3), top + (n // cols) * (S.SQUARE + 3)
        if b.startswith("?"):
            S.square(image, x, y, sc.nations[b[1:].split("@")[0]].colour, None)
        else:
            S.square(image, x, y, sc.nations[sc.blocks[b].nation].colour, state.strength[b])


def _name(
    image: canvas.Canvas,
    sc: Any,
    x: str,
    shapes: dict[str, Box],
    taken: list[Box],
    limit: Box,
    language: Language,
) -> None:
    terr = sc.territories[x]
    said = say(terr.named, language)
    fort = str(terr.fortress) if terr.fortress else ""
    w = text.text_length(said, S.BODY) + (text.text_length(fort, S.BODY) + 14 if fort else 0)
    h = S.BODY + 4
    box = name_box(shapes[x], w, h, taken, list(shapes.values()), limit)
    taken.append(box)
    pen = canvas.draw(image)
    _leader(pen, box, shapes[x])
    pen.rectangle((box[0] - 2, box[1], box[2] + 2, box[3]), fill=S.BACKGROUND)
    text.text(image, (box[0], box[1] + h / 2), said, S.BODY, S.INK, "lm")
    if fort:  # N4 a: the fortress's garrison, framed after the name
        fx = box[2] - text.text_length(fort, S.BODY) - 6
        pen.rectangle((fx - 3, box[1], box[2] + 1, box[3]), outline=S.INK, width=2)
        text.text(image, (fx + 1, box[1] + h / 2), fort, S.BODY, S.INK, "lm")


def _leader(pen: canvas.Draw, box: Box, shape: Box) -> None:
    """A name set apart from its circle (a corner, a crowded place): a thin line to it."""
    cx, cy = (shape[0] + shape[2]) / 2, (shape[1] + shape[3]) / 2
    px = min(max(cx, box[0]), box[2])
    py = min(max(cy, box[1]), box[3])
    d = math.hypot(cx - px, cy - py) or 1.0
    if d - R > 8:
        edge = (cx + (px - cx) * R / d, cy + (py - cy) * R / d)
        pen.line([(px, py), edge], fill=S.GREY, width=2)


def _arrow(pen: canvas.Draw, points: list[tuple[float, float]]) -> None:
    """A move along its path: a line from circle to circle, its head at the last territory."""
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        d = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / d, (by - ay) / d
        start = (ax + ux * (R + 4), ay + uy * (R + 4))
        tip = (bx - ux * (R + 10), by - uy * (R + 10))
        pen.line([start, tip], fill=S.MOVE, width=5)
    if len(points) >= 2:
        (ax, ay), (bx, by) = points[-2], points[-1]
        d = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / d, (by - ay) / d
        tx, ty = bx - ux * (R + 6), by - uy * (R + 6)
        back = (tx - ux * 18, ty - uy * 18)
        wing = (-uy * 10, ux * 10)
        pen.polygon(
            [
                (tx, ty),
                (back[0] + wing[0], back[1] + wing[1]),
                (back[0] - wing[0], back[1] - wing[1]),
            ],
            fill=S.MOVE,
        )
