"""Counter sprites: one small image per (unit, face, markers, size), drawn once and cached.

Shapes are drawn at 4x and reduced (anti-aliased); text is drawn afterwards at 1x so it stays
hinted and crisp. A counter shows, top to bottom: unit id, size mark (X, XX, XXX), the NATO
unit-type box with the side emblem left of it (star: Soviet, cross: German), and the strength
as printed ([n] when bracketed). A reduced unit has a pale face under a coloured header band.
Markers hang under the counter as a strip: yellow OOS, red RET.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import style

K = 4  # supersampling of the shapes


def printed_strength(spec, reduced: bool) -> str:
    """The strength on the face that is up, in brackets if bracketed (rule 2.2, 8.6)."""
    s = (
        spec.strength_reduced
        if reduced and spec.strength_reduced is not None
        else spec.strength_full
    )
    return f"[{s}]" if spec.bracketed else str(s)


def star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.42
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def draw_star(d: ImageDraw.ImageDraw, cx, cy, r, fill=style.STAR, outline=(90, 14, 10), width=1):
    d.polygon(star_points(cx, cy, r), fill=fill, outline=outline, width=width)


def draw_cross(d: ImageDraw.ImageDraw, cx, cy, r, arm: float, edge: float):
    """Balkenkreuz: a black cross with white edges."""
    for w, col in ((arm + 2 * edge, (255, 255, 255)), (arm, (0, 0, 0))):
        rr = r if col == (0, 0, 0) else r + edge
        d.rectangle((cx - w / 2, cy - rr, cx + w / 2, cy + rr), fill=col)
        d.rectangle((cx - rr, cy - w / 2, cx + rr, cy + w / 2), fill=col)


def emblem(d: ImageDraw.ImageDraw, side: str, cx: float, cy: float, r: float, k: float = 1) -> None:
    if side == "soviet":
        draw_star(d, cx, cy, r, width=max(1, round(k * 0.9)))
    else:
        draw_cross(d, cx, cy, r * 0.86, arm=r * 0.55, edge=max(k * 0.9, r * 0.16))


def nato_symbol(d: ImageDraw.ImageDraw, box, unit_type: str, lw: float) -> None:
    """The NATO type symbol inside a white box: infantry X, cavalry one diagonal, armour an
    oval, mechanised X + oval."""
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=style.NATO_BOX, outline=style.INK, width=round(lw))
    i = lw / 2
    if unit_type in ("infantry", "mech"):
        d.line((x0 + i, y0 + i, x1 - i, y1 - i), fill=style.INK, width=round(lw))
        d.line((x0 + i, y1 - i, x1 - i, y0 + i), fill=style.INK, width=round(lw))
    if unit_type == "cavalry":
        d.line((x0 + i, y1 - i, x1 - i, y0 + i), fill=style.INK, width=round(lw))
    if unit_type in ("armor", "mech"):
        w, h = x1 - x0, y1 - y0
        d.rounded_rectangle(
            (x0 + w * 0.16, y0 + h * 0.2, x1 - w * 0.16, y1 - h * 0.2),
            radius=h * 0.3,
            outline=style.INK,
            width=round(lw),
        )


def fit_font(text: str, size: int, max_w: float, min_size: int = 7):
    while size > min_size and style.font(size).getlength(text) > max_w:
        size -= 1
    return style.font(size)


def colours(side: str, reduced: bool):
    c = style.SIDE[side]
    if reduced:
        return c["reduced"], c["reduced_text"]
    return c["face"], c["text"]


@lru_cache(maxsize=4096)
def sprite(spec, reduced: bool, oos: bool, retreated: bool, size: int, strip: int) -> Image.Image:
    """The counter of one unit, size x size, plus the marker strip if it carries a marker."""
    side = spec.side
    full_face, full_text = colours(side, False)
    face, text = colours(side, reduced)
    line = style.SIDE[side]["line"]
    S = size * K
    big = Image.new("RGB", (S, S), face)
    d = ImageDraw.Draw(big)
    header = round(size * 0.25) * K
    if reduced:  # the "stripe": a band in the full-strength colour across the top
        d.rectangle((0, 0, S, header), fill=full_face)
    bw, bh = round(size * 0.52) * K, round(size * 0.27) * K
    bx0 = round(size * 0.34) * K
    by0 = round(size * 0.40) * K
    nato_symbol(d, (bx0, by0, bx0 + bw, by0 + bh), spec.type, lw=max(K, size * 0.035 * K))
    emblem(d, side, bx0 / 2, by0 + bh / 2, size * 0.13 * K, k=K)
    d.rectangle((0, 0, S - 1, S - 1), outline=line, width=K)
    img = big.reduce(K)
    d = ImageDraw.Draw(img)
    head_text = full_text if reduced else text
    f = fit_font(spec.id, round(size * 0.23), size - 5)
    d.text((size / 2, header / K / 2 + 0.5), spec.id, font=f, fill=head_text, anchor="mm")
    d.text(
        ((bx0 + bw / 2) / K, size * 0.33),
        spec.size,
        font=style.font(max(8, round(size * 0.17))),
        fill=text,
        anchor="mm",
    )
    d.text(
        (size / 2, size * 0.835),
        printed_strength(spec, reduced),
        font=style.font(round(size * 0.31)),
        fill=text,
        anchor="mm",
    )
    if not (oos or retreated) or not strip:
        return img
    out = Image.new("RGB", (size, size + strip), style.SHADOW)
    out.paste(img, (0, 0))
    d = ImageDraw.Draw(out)
    parts = [
        p
        for p, on in (
            (("OOS", style.OOS, style.OOS_TEXT), oos),
            (("RET", style.RETREAT, style.RETREAT_TEXT), retreated),
        )
        if on
    ]
    w = size / len(parts)
    f = style.font(max(8, strip - 1))
    for i, (label, bg, fg) in enumerate(parts):
        x0 = round(i * w)
        x1 = round((i + 1) * w) - 1
        d.rectangle((x0, size, x1, size + strip - 1), fill=bg, outline=style.INK)
        d.text(((x0 + x1) / 2, size + strip / 2), label, font=f, fill=fg, anchor="mm")
    return out
