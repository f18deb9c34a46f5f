"""Anti-aliased overlays on an image: arrows, trails and badge labels are drawn at 3x on a patch
the size of their bounding box, reduced (premultiplied, so edges do not darken) and pasted."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from render import text
from render.canvas import Box, Colour, Point

K = 3

Transform = Callable[[float, float], Point]  # image coordinates -> the enlarged patch's
DrawFn = Callable[[ImageDraw.ImageDraw, Transform, int], None]  # draw_fn(draw, tx, k)
Lines = Sequence[tuple[str, int, float]]  # (text, size, dy) of a badge label


def aa_patch(
    img: Image.Image, bbox: Box, draw_fn: DrawFn, k: int = K, opacity: float = 1.0
) -> None:
    """Draw anti-aliased shapes on img inside bbox.

    draw_fn(draw, tx, k) draws opaque shapes in image coordinates mapped by tx(x, y) onto a k-times
    enlarged copy of that part of the image; the copy is reduced (box filter) and pasted back, so
    edges blend with what lies below. opacity < 1 blends the result with the original."""
    x0 = max(0, math.floor(bbox[0]))
    y0 = max(0, math.floor(bbox[1]))
    x1 = min(img.width, math.ceil(bbox[2]))
    y1 = min(img.height, math.ceil(bbox[3]))
    if x1 <= x0 or y1 <= y0:
        return
    crop = img.crop((x0, y0, x1, y1))
    big = crop.resize((crop.width * k, crop.height * k), Image.Resampling.NEAREST)
    d = ImageDraw.Draw(big)

    def tx(x: float, y: float) -> Point:
        return ((x - x0) * k, (y - y0) * k)

    draw_fn(d, tx, k)
    small = big.reduce(k)
    if opacity < 1.0:
        small = Image.blend(crop, small, opacity)
    img.paste(small, (x0, y0))


def arrow_polygon(
    p0: Point, p1: Point, width: float, head_len: float, head_w: float
) -> list[Point]:
    """Shaft + head as one polygon from p0 to the tip p1."""
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    L = math.hypot(dx, dy) or 1.0
    ux, uy = dx / L, dy / L
    nx, ny = -uy, ux
    head_len = min(head_len, L * 0.7)
    bx, by = x1 - ux * head_len, y1 - uy * head_len
    w, hw = width / 2, head_w / 2
    return [
        (x0 + nx * w, y0 + ny * w),
        (bx + nx * w, by + ny * w),
        (bx + nx * hw, by + ny * hw),
        (x1, y1),
        (bx - nx * hw, by - ny * hw),
        (bx - nx * w, by - ny * w),
        (x0 - nx * w, y0 - ny * w),
    ]


def draw_arrow(
    img: Image.Image,
    p0: Point,
    p1: Point,
    colour: Colour,
    width: float = 9.0,
    head_len: float = 22.0,
    head_w: float = 24.0,
    halo: Colour = (255, 255, 255),
    halo_w: float = 3.0,
    dash: float | None = None,
) -> Box:
    """An arrow from p0 to the tip p1 with a light halo; returns its bounding box."""
    (x0, y0), (x1, y1) = p0, p1
    pad = head_w + halo_w * 2 + 2
    bbox = (min(x0, x1) - pad, min(y0, y1) - pad, max(x0, x1) + pad, max(y0, y1) + pad)
    dx, dy = x1 - x0, y1 - y0
    L = math.hypot(dx, dy) or 1.0
    ux, uy = dx / L, dy / L

    def fn(d: ImageDraw.ImageDraw, tx: Transform, k: int) -> None:
        # halo: the same arrow, wider and starting a little earlier, tip a little further
        hp0 = (x0 - ux * halo_w, y0 - uy * halo_w)
        hp1 = (x1 + ux * halo_w * 1.8, y1 + uy * halo_w * 1.8)
        d.polygon(
            [
                tx(*p)
                for p in arrow_polygon(
                    hp0, hp1, width + 2 * halo_w, head_len + halo_w * 2.4, head_w + 2 * halo_w * 1.6
                )
            ],
            fill=halo,
        )
        if dash:
            n = max(1, int((L - head_len) // dash))
            for i in range(0, n, 2):
                a = (x0 + ux * dash * i, y0 + uy * dash * i)
                b = (
                    x0 + ux * min(dash * (i + 1), L - head_len),
                    y0 + uy * min(dash * (i + 1), L - head_len),
                )
                d.polygon([tx(*p) for p in arrow_polygon(a, b, width, 0, width)], fill=colour)
            base = (x1 - ux * head_len, y1 - uy * head_len)
            d.polygon(
                [tx(*p) for p in arrow_polygon(base, p1, width, head_len, head_w)], fill=colour
            )
        else:
            d.polygon([tx(*p) for p in arrow_polygon(p0, p1, width, head_len, head_w)], fill=colour)

    aa_patch(img, bbox, fn)
    return bbox


def draw_trail(
    img: Image.Image,
    points: Sequence[Point],
    colour: Colour,
    width: float = 6.0,
    opacity: float = 0.45,
    head: tuple[Point, Point] | None = None,
) -> Box:
    """A faint polyline through points (a move), dots at the waypoints, an optional small
    arrowhead (p_from, p_tip). Returns its bounding box."""
    xs = [p[0] for p in points] + ([head[1][0]] if head else [])
    ys = [p[1] for p in points] + ([head[1][1]] if head else [])
    pad = width * 3 + 4
    bbox = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)

    def fn(d: ImageDraw.ImageDraw, tx: Transform, k: int) -> None:
        pts = [tx(*p) for p in points]
        d.line(pts, fill=colour, width=round(width * k), joint="curve")
        r = width * 0.5 * k
        for x, y in pts[:1] + pts[-1:]:  # round caps
            d.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        x, y = pts[0]
        r = width * 1.2 * k
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=round(width * 0.6 * k))
        if head:
            d.polygon(
                [tx(*p) for p in arrow_polygon(head[0], head[1], width, width * 2.6, width * 3.2)],
                fill=colour,
            )

    aa_patch(img, bbox, fn, opacity=opacity)
    return bbox


def shorten(p0: Point, p1: Point, start: float, end: float) -> tuple[Point, Point]:
    """The segment from p0 to p1 with `start` px cut at the start and `end` px at the end."""
    (x0, y0), (x1, y1) = p0, p1
    L = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / L, (y1 - y0) / L
    return (x0 + ux * start, y0 + uy * start), (x1 - ux * end, y1 - uy * end)


def badge_label_width(lines: Lines, badge: int = 20) -> int:
    """The width of a badge label with these lines [(text, size, dy)]."""
    return round(max(text.text_length(s, size) for s, size, _ in lines)) + badge + 16


def badge_label(
    img: Image.Image,
    box: Box,
    badge_text: str,
    lines: Lines,
    colour: Colour,
    ink: Colour,
    badge: int = 20,
    badge_size: int = 14,
) -> None:
    """A white rounded box outlined in colour, a round badge of that colour with badge_text at
    its left (font size badge_size), then lines [(text, size, dy)] in ink, each dy below the top
    of the box."""
    x0, y0, x1, y1 = box
    bx, by = x0 + 4 + badge / 2, (y0 + y1) / 2

    def shapes(dd: ImageDraw.ImageDraw, tx: Transform, k: int) -> None:
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

    aa_patch(img, (x0 - 1, y0 - 1, x1 + 2, y1 + 2), shapes)
    text.text(img, (bx, by), badge_text, badge_size, (255, 255, 255), "mm")
    tx = x0 + badge + 10
    for s, size, dy in lines:
        text.text(img, (tx, y0 + dy), s, size, ink)
