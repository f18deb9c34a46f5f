"""Counter sprites: one small image per (unit, face, markers, size), drawn once and cached.

Shapes are drawn at 4x and reduced (anti-aliased); text is drawn afterwards at 1x so it stays
hinted and crisp. A counter shows, top to bottom: unit id, size mark (X, XX, XXX), the NATO
unit-type box with the side emblem left of it (star: Soviet, cross: German), and the strength
as printed ([n] when bracketed). A reduced unit has a pale face under a coloured header band.
Markers hang under the counter as a strip: yellow OOS, red RET.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

from adjudicator.hells_gate.drawer import colours
from adjudicator.hells_gate.drawer.colours import RGB
from adjudicator.hells_gate.drawer.sizes import SMALL
from adjudicator.hells_gate.scenario import UnitSpec
from render import canvas, labels
from render.canvas import Box, Canvas, Colour, Draw
from render.labels import Label
from render.text import text_fitted, wide_now

K = 4  # supersampling of the shapes
ID = SMALL + 3  # the unit id: the counter's largest text, squeezed sideways where long
STRENGTH = SMALL + 1


def printed_strength(spec: UnitSpec, reduced: bool) -> str:
    """The strength on the face that is up, in brackets if bracketed (rule 2.2, 8.6)."""
    s = (
        spec.strength_reduced
        if reduced and spec.strength_reduced is not None
        else spec.strength_full
    )
    return f"[{s}]" if spec.bracketed else str(s)


def star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.42
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def draw_star(
    d: Draw,
    cx: float,
    cy: float,
    r: float,
    fill: Colour = colours.STAR,
    outline: Colour = (90, 14, 10),
    width: int = 1,
) -> None:
    d.polygon(star_points(cx, cy, r), fill=fill, outline=outline, width=width)


def draw_cross(d: Draw, cx: float, cy: float, r: float, arm: float, edge: float) -> None:
    """Balkenkreuz: a black cross with white edges."""
    for w, col in ((arm + 2 * edge, (255, 255, 255)), (arm, (0, 0, 0))):
        rr = r if col == (0, 0, 0) else r + edge
        d.rectangle((cx - w / 2, cy - rr, cx + w / 2, cy + rr), fill=col)
        d.rectangle((cx - rr, cy - w / 2, cx + rr, cy + w / 2), fill=col)


def emblem(d: Draw, side: str, cx: float, cy: float, r: float, k: float = 1) -> None:
    if side == "soviet":
        draw_star(d, cx, cy, r, width=max(1, round(k * 0.9)))
    else:
        draw_cross(d, cx, cy, r * 0.86, arm=r * 0.55, edge=max(k * 0.9, r * 0.16))


def nato_symbol(d: Draw, box: Box, unit_type: str, lw: float) -> None:
    """The NATO type symbol inside a white box: infantry X, cavalry one diagonal, armour an
    oval, mechanised X + oval."""
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=colours.NATO_BOX, outline=colours.INK, width=round(lw))
    i = lw / 2
    if unit_type in ("infantry", "mech"):
        d.line((x0 + i, y0 + i, x1 - i, y1 - i), fill=colours.INK, width=round(lw))
        d.line((x0 + i, y1 - i, x1 - i, y0 + i), fill=colours.INK, width=round(lw))
    if unit_type == "cavalry":
        d.line((x0 + i, y1 - i, x1 - i, y0 + i), fill=colours.INK, width=round(lw))
    if unit_type in ("armor", "mech"):
        w, h = x1 - x0, y1 - y0
        d.rounded_rectangle(
            (x0 + w * 0.16, y0 + h * 0.2, x1 - w * 0.16, y1 - h * 0.2),
            radius=h * 0.3,
            outline=colours.INK,
            width=round(lw),
        )


def face_colours(side: str, reduced: bool) -> tuple[RGB, RGB]:
    c = colours.SIDE[side]
    if reduced:
        return c["reduced"], c["reduced_text"]
    return c["face"], c["text"]


def sprite(
    spec: UnitSpec,
    reduced: bool,
    oos: bool,
    retreated: bool,
    size: int,
    strip: int,
    labels: tuple[str, str] = ("OOS", "RET"),
) -> Canvas:
    """The counter of one unit, size x size, plus the marker strip if it carries a marker
    (labels: the strip's words for the two markers, in the map's language); drawn once per
    font (render.text.wide_font)."""
    return _sprite(spec, reduced, oos, retreated, size, strip, labels, wide_now())[0]


def paste(
    img: Canvas,
    xy: tuple[int, int],
    spec: UnitSpec,
    reduced: bool,
    oos: bool,
    retreated: bool,
    size: int,
    strip: int,
    labels: tuple[str, str] = ("OOS", "RET"),
) -> Canvas:
    """The counter's sprite pasted on img at xy, its texts recorded there (render.labels, kind
    "counter": a counter's text, measured as any label); returns the sprite."""
    spr, texts = _sprite(spec, reduced, oos, retreated, size, strip, labels, wide_now())
    img.paste(spr, xy)
    note_at(texts, xy)
    return spr


def note_at(texts: tuple[Label, ...], xy: tuple[float, float]) -> None:
    """Record the labels of a sprite pasted at xy (their boxes are the sprite's)."""
    if labels.active():
        dx, dy = round(xy[0]), round(xy[1])
        for lab in texts:
            a, b, c, d = lab.box
            labels.note(lab.text, (a + dx, b + dy, c + dx, d + dy), lab.cap, lab.kind)


def sprite_with_labels(
    spec: UnitSpec,
    reduced: bool,
    oos: bool,
    retreated: bool,
    size: int,
    strip: int,
    labels: tuple[str, str] = ("OOS", "RET"),
) -> tuple[Canvas, tuple[Label, ...]]:
    """The sprite (as `sprite` draws it) and its texts' labels, in its own pixels."""
    return _sprite(spec, reduced, oos, retreated, size, strip, labels, wide_now())


@lru_cache(maxsize=4096)
def _sprite(
    spec: UnitSpec,
    reduced: bool,
    oos: bool,
    retreated: bool,
    size: int,
    strip: int,
    marks: tuple[str, str],
    wide: bool,
) -> tuple[Canvas, tuple[Label, ...]]:
    """The sprite and its texts' labels, in its own pixels (kept with it, the sprite being
    drawn once and pasted on many images)."""
    with labels.recording() as found:
        img = _shapes(spec, reduced, size)
        _face_text(img, spec, reduced, size)
        if (oos or retreated) and strip:
            img = _with_markers(img, oos, retreated, size, strip, marks)
    return img, tuple(replace(lab, kind="counter") for lab in found)


def clear_cache() -> None:
    _sprite.cache_clear()


def _box_geometry(size: int) -> tuple[int, int, int, int, int]:
    """The header height, the NATO box's size and top-left corner, at K x: four rows of
    sizes.SMALL text fit a counter of sizes.COUNTER (id, size mark, box, strength)."""
    header = round(size * 0.3) * K
    bw, bh = round(size * 0.52) * K, round(size * 0.2) * K
    return header, bw, bh, round(size * 0.34) * K, round(size * 0.55) * K


def _shapes(spec: UnitSpec, reduced: bool, size: int) -> Canvas:
    """The face, the header band if reduced, the NATO box, the emblem, the outline (at K x,
    reduced once)."""
    side = spec.side
    full_face, _ = face_colours(side, False)
    face, _ = face_colours(side, reduced)
    S = size * K
    big = canvas.new_image((S, S), face)
    d = canvas.draw(big)
    header, bw, bh, bx0, by0 = _box_geometry(size)
    if reduced:  # the "stripe": a band in the full-strength colour across the top
        d.rectangle((0, 0, S, header), fill=full_face)
    nato_symbol(d, (bx0, by0, bx0 + bw, by0 + bh), spec.type, lw=max(K, size * 0.035 * K))
    emblem(d, side, bx0 / 2, by0 + bh / 2, size * 0.13 * K, k=K)
    d.rectangle((0, 0, S - 1, S - 1), outline=colours.SIDE[side]["line"], width=K)
    return big.reduce(K)


def _face_text(img: Canvas, spec: UnitSpec, reduced: bool, size: int) -> None:
    """The unit id in the header (squeezed sideways if long, never smaller), the size mark above
    the NATO box, the strength, all at sizes.SMALL or more, at 1x."""
    _, full_text = face_colours(spec.side, False)
    _, text = face_colours(spec.side, reduced)
    header, bw, _, bx0, _ = _box_geometry(size)
    head_text = full_text if reduced else text
    text_fitted(img, (size / 2, header / K / 2 - 0.5), spec.id, ID, head_text, size - 4)
    text_fitted(img, ((bx0 + bw / 2) / K, size * 0.435), spec.size, SMALL, text, size - 6)
    strength = printed_strength(spec, reduced)
    text_fitted(img, (size / 2, size * 0.875), strength, STRENGTH, text, size - 6)


def _with_markers(
    img: Canvas, oos: bool, retreated: bool, size: int, strip: int, labels: tuple[str, str]
) -> Canvas:
    """The counter with its marker strip under it: OOS, RET or both side by side."""
    out = canvas.new_image((size, size + strip), colours.SHADOW)
    out.paste(img, (0, 0))
    d = canvas.draw(out)
    parts = [
        p
        for p, on in (
            ((labels[0], colours.OOS, colours.OOS_TEXT), oos),
            ((labels[1], colours.RETREAT, colours.RETREAT_TEXT), retreated),
        )
        if on
    ]
    w = size / len(parts)
    for i, (label, bg, fg) in enumerate(parts):
        x0 = round(i * w)
        x1 = round((i + 1) * w) - 1
        d.rectangle((x0, size, x1, size + strip - 1), fill=bg, outline=colours.INK)
        text_fitted(out, ((x0 + x1 + 1) / 2, size + strip / 2), label, SMALL, fg, x1 - x0 - 2)
    return out


def draw_badge(img: Canvas, box: tuple[int, int, int, int], label: str, more: str = "more") -> None:
    """The count badge of a stack too big for its hex: a dark tile saying how many more units
    are there (the panel lists them)."""
    d = canvas.draw(img)
    x0, y0, x1, y1 = box
    y1 = y0 + (x1 - x0)
    d.rectangle((x0 + 2, y0 + 2, x1 + 2, y1 + 2), fill=colours.SHADOW)
    d.rectangle((x0, y0, x1, y1), fill=colours.HILITE, outline=colours.INK)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    with labels.recording() as found:  # a counter's texts, as a counter's
        text_fitted(img, (cx, cy - 9), label, SMALL + 4, (255, 255, 255), x1 - x0 - 6)
        text_fitted(img, (cx, cy + 16), more, SMALL, (255, 255, 255), x1 - x0 - 6)
    note_at(tuple(replace(lab, kind="counter") for lab in found), (0, 0))
