"""Panel machinery: rows of labelled boxes (tracks) and blocks of text lines that stop with
"... and n more lines" when they run out of room."""

from __future__ import annotations

from collections.abc import Sequence

from render.canvas import Canvas, Colour, Draw
from render.text import text, text_length, wrap
from texts.i18n import EN, Language, say, tn


def track(
    img: Canvas,
    d: Draw,
    x0: float,
    y: float,
    width: float,
    height: float,
    cells: Sequence[tuple[str, Colour, Colour, int, Colour]],
    size: int,
    gap: float,
) -> None:
    """A row of equal boxes across width, gap apart; cells [(label, fill, outline, line width,
    text colour)], each label centred in its box."""
    n = len(cells)
    bw = (width - gap * (n - 1)) / n
    for i, (label, fill, outline, lw, colour) in enumerate(cells):
        bx = x0 + (bw + gap) * i
        box = (round(bx), y, round(bx + bw), y + height)
        d.rectangle(box, fill=fill, outline=outline, width=lw)
        text(img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, size, colour, "mm")


def text_block(
    img: Canvas,
    x0: float,
    y: float,
    bottom: float,
    lines: Sequence[tuple[str, Colour, int]],
    more_colour: Colour,
    line_h: float = 23,
    more_size: int = 17,
    width: float | None = None,
    language: Language = EN,
) -> int:
    """Lines [(text, colour, size)] from y down, line_h apart, above bottom; when they do not
    all fit, the last line that fits says how many more there are. A line wider than width (if
    given) is wrapped, its further parts indented. Returns how many lines were shown. The
    lines are drawn as given; the "more lines" line is said in `language`."""
    if width is not None:
        wrapped: list[tuple[str, Colour, int]] = []
        for s, colour, size in lines:
            body = s.lstrip(" ")
            lead = s[: len(s) - len(body)]
            room = width - text_length(lead + "    ", size)
            for i, part in enumerate(wrap(body, size, room)):
                wrapped.append((lead + "    " * (i > 0) + part, colour, size))
        lines = wrapped
    shown = 0
    for i, (s, colour, size) in enumerate(lines):
        if y + line_h > bottom - (line_h if i < len(lines) - 1 else 0):
            left = len(lines) - i  # (the English text says "lines" even of one)
            more = tn("... and {n} more lines", "... and {n} more lines", left)
            text(img, (x0, y), say(more, language), more_size, more_colour)
            break
        body = s.lstrip(" ")  # leading spaces indent (a glyph mask starts at its first ink)
        text(img, (x0 + text_length(s[: len(s) - len(body)], size), y), body, size, colour)
        y += line_h
        shown += 1
    return shown
