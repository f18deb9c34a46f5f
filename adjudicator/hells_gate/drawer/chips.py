"""Unit chips: the counters of the whole map of a post, where a phone shows the map about 390 px
wide and a counter's texts would be 5 px high. A chip is a tile in the side's colour (pale when
reduced) with the unit's id as large as the town names, a yellow band under it when out of
supply, a red one when it retreated; the type and strength are left to the focus crops and the
full map. Four chips fit a hex with its id, its town name and its symbols: two rows of two,
above and under the name (drawer/stacking.py places the full counters of the other images).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.hells_gate.drawer import colours
from adjudicator.hells_gate.drawer.colours import RGB
from adjudicator.hells_gate.drawer.names import NameSprite
from adjudicator.hells_gate.drawer.stacking import IntBox, StackPlan
from render import canvas
from render.canvas import Canvas
from render.hexes import Layout
from render.text import cap_height, condensed_mask, drawn

W = 72  # a chip's width: two side by side fit a hex's rows above and under its middle
GAP = 3
BAND = 6  # the marker band at a chip's foot
ROW = 21  # a row's edge nearest the hex's middle is this far from it (the name between)


@dataclass(frozen=True)
class Chip:
    side: str
    reduced: bool
    oos: bool
    retreated: bool


def height(size: int) -> int:
    """A chip's height for ids at font size `size` (a capital, a descender and the band)."""
    return cap_height(size) + round(size * 0.3) + BAND + 4


def plan(
    lay: Layout, hex_id: str, n: int, name: NameSprite | None, size: int
) -> tuple[StackPlan, int]:
    """Where the n chips of a hex go (the last tile a "+k" badge when more than fit), and the
    name's box; returns the plan and how many chips are drawn."""
    cx, cy = lay.center(hex_id)
    h = height(size)
    tall = name is not None and name.image.height > 2 * ROW  # a name on two lines
    if tall:  # the name under the id, one row under it
        rows = [cy + 17]
    else:
        rows = [cy - ROW - h, cy + ROW]
    places = [(x, y) for y in rows for x in (-W - GAP / 2, GAP / 2)]
    if n < len(places) and n % 2 == 1:  # an odd last chip in the middle of its row
        last_row = (n - 1) // 2
        places[n - 1] = (-W / 2, rows[last_row])
    shown = min(n, len(places))
    badge = n > shown
    if badge:
        shown -= 1
    tiles: list[IntBox] = [
        (round(cx + x), round(y), round(cx + x) + W, round(y) + h) for x, y in places
    ][: shown + badge]
    name_box: IntBox | None = None
    if name is not None:
        x, y = name.top if tall else name.centre
        name_box = (x, y, x + name.image.width, y + name.image.height)
    plan = StackPlan(tiles[:shown], tiles[shown] if badge else None, name_box, [False] * shown)
    return plan, shown


def draw(img: Canvas, box: IntBox, uid: str, chip: Chip, size: int) -> None:
    """The chip of one unit in box, its id recorded as a counter's text."""
    c = colours.SIDE[chip.side]
    face: RGB = c["reduced"] if chip.reduced else c["face"]
    ink: RGB = c["reduced_text"] if chip.reduced else c["text"]
    _tile(img, box, face, c["line"])
    bands = [col for col, on in ((colours.OOS, chip.oos), (colours.RETREAT, chip.retreated)) if on]
    x0, _, x1, y1 = box
    d = canvas.draw(img)
    for i, col in enumerate(bands):
        bx0 = x0 + 1 + round((x1 - x0 - 2) * i / len(bands))
        bx1 = x0 + 1 + round((x1 - x0 - 2) * (i + 1) / len(bands)) - 1
        d.rectangle((bx0, y1 - BAND - 1, bx1, y1 - 2), fill=col)
        d.line((bx0, y1 - BAND - 2, bx1, y1 - BAND - 2), fill=colours.INK)
    _id(img, box, uid, ink, size)


def draw_badge(img: Canvas, box: IntBox, label: str, size: int) -> None:
    """The last tile of a hex with more units than chips: "+k" (the panel lists them)."""
    _tile(img, box, colours.HILITE, colours.INK)
    _id(img, box, label, (255, 255, 255), size)


def _tile(img: Canvas, box: IntBox, face: RGB, line: RGB) -> None:
    d = canvas.draw(img)
    x0, y0, x1, y1 = box
    d.rectangle((x0 + 2, y0 + 2, x1 + 1, y1 + 1), fill=colours.SHADOW)
    d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=face, outline=line, width=2)


def _id(img: Canvas, box: IntBox, s: str, ink: RGB, size: int) -> None:
    """s in the chip's upper part, squeezed sideways to its width if long."""
    x0, y0, x1, _ = box
    mask = condensed_mask(s, size, x1 - x0 - 6, least=0.5)
    x = round((x0 + x1) / 2 - mask.width / 2)
    y = y0 + 3
    img.paste(ink, (x, y, x + mask.width, y + mask.height), mask)
    drawn(s, (x, y, x + mask.width, y + mask.height), size, "counter")


def sizes_fit(size: int, ids: Sequence[str]) -> bool:
    """Whether every id fits a chip at size, squeezed at most to half its width."""
    return all(condensed_mask(s, size, W - 6, least=0.5).width <= W - 6 for s in ids)
