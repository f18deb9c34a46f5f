"""Legend machinery: a heading and rows of labelled items (sample images, inline symbols, or
symbols drawn by the caller in columns). What the items are is the caller's business."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from render.canvas import Canvas, Colour, Draw, Point
from render.text import drawn, font_for


def write(d: Draw, xy: Point, s: str, size: int, ink: Colour, anchor: str = "la") -> None:
    """A legend's text drawn as ImageDraw.text draws it, and recorded as a "legend" label."""
    f = font_for(s, size)
    d.text(xy, s, font=f, fill=ink, anchor=anchor)
    x0, y0, x1, y1 = d.textbbox(xy, s, font=f, anchor=anchor)
    drawn(s, (round(x0), round(y0), round(x1), round(y1)), size, "legend")


def heading(
    d: Draw,
    x0: float,
    top: float,
    width: float,
    title: str,
    line_colour: Colour,
    ink: Colour,
    size: int = 17,
) -> None:
    """A rule across the width and the title under it."""
    d.line((x0, top, x0 + width, top), fill=line_colour, width=2)
    write(d, (x0, top + 8), title, size, ink)


def sample_row(
    img: Canvas,
    d: Draw,
    x0: float,
    y: int,
    width: float,
    samples: Sequence[tuple[Canvas, str]],
    ink: Colour,
    size: int = 13,
    label_dy: int = 66,
) -> None:
    """Sample images [(image, label)] centred in equal cells, each label centred under it (a
    label's lines are split at "\n", size + 4 px apart)."""
    cw = width / len(samples)
    for i, (spr, label) in enumerate(samples):
        cx = x0 + cw * i + cw / 2
        img.paste(spr, (round(cx - spr.width / 2), y))
        for j, line in enumerate(label.split("\n")):
            xy = (cx, y + label_dy + j * (size + 4))
            write(d, xy, line, size, ink, "mt")


def inline_row(
    img: Canvas,
    d: Draw,
    x0: float,
    y: int,
    width: float,
    items: Sequence[tuple[Canvas, str]],
    ink: Colour,
    size: int = 13,
    gap: int = 6,
) -> None:
    """Symbol images [(image, label)] at the left of equal cells, each label right of it."""
    cw = width / len(items)
    for i, (sym, label) in enumerate(items):
        bx = x0 + cw * i
        img.paste(sym, (round(bx), y))
        xy = (bx + sym.width + gap, y + sym.height / 2)
        write(d, xy, label, size, ink, "lm")


def symbol_columns(
    d: Draw,
    x0: float,
    y: float,
    width: float,
    rows: Sequence[tuple[Callable[[float, float], None], str]],
    ink: Colour,
    size: int = 15,
    columns: int = 2,
    row_h: float = 27,
    label_dx: float = 46,
    label_dy: float = 10,
) -> None:
    """Rows [(draw(x, y), label)] filled column by column: draw(x, y) draws the symbol with its
    top-left corner at (x, y); the label follows label_dx to the right."""
    per_col = math.ceil(len(rows) / columns)
    colw = width / columns
    for i, (fn, label) in enumerate(rows):
        col, row = divmod(i, per_col)
        x = x0 + col * colw
        yy = y + row * row_h
        fn(x, yy)
        write(d, (x + label_dx, yy + label_dy), label, size, ink, "lm")
