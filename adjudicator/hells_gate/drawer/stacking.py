"""Where the counters of a hex go: inside the hex, clear of its id, its town name and its
symbols (supply, airfield), so that a stack never covers any of them.

Counters are tiled two to a row at their full size (sizes.COUNTER, whose text stays legible on
a phone). When a stack does not fit (more than sizes.MAX_TILES counters, or markers and a town
name leave too little room), its first counters are drawn and the last tile is a count badge
("+3"); the whole stack is then listed in the panel (drawer/panel.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from adjudicator.hells_gate.drawer import symbols
from adjudicator.hells_gate.drawer.names import NameSprite
from adjudicator.hells_gate.drawer.sizes import COUNTER, MAX_TILES, STRIP
from render.canvas import Box
from render.hexes import Layout

IntBox = tuple[int, int, int, int]
GAP = 3
SHADOW = 2  # the counters' shadow, right and below
SLOT_R = 16  # radius of a symbol in a slot, plus a pixel


@dataclass
class StackPlan:
    """The boxes of the counters drawn (in stack order), the badge's box if some are not drawn,
    the town name's box (None if the hex has no name)."""

    boxes: list[IntBox] = field(default_factory=list)
    badge: IntBox | None = None
    name: IntBox | None = None
    strips: list[bool] = field(default_factory=list)  # which drawn counters carry a marker

    @property
    def tiles(self) -> list[IntBox]:
        return self.boxes + ([self.badge] if self.badge else [])


def _inside_hex(lay: Layout, hex_id: str, b: Box) -> bool:
    cx, cy = lay.center(hex_id)
    for x, y in ((b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])):
        dy = y - cy
        if abs(dy) > lay.h / 2 - 1 or abs(x - cx) > lay.half_width(dy) - 1:
            return False
    return True


def _meets(a: Box, b: Box, pad: float = 2) -> bool:
    return a[0] - pad < b[2] and b[0] - pad < a[2] and a[1] - pad < b[3] and b[1] - pad < a[3]


def _tiles(marks: Sequence[bool], cy: float, cx: float) -> list[IntBox]:
    """Tiles two to a row, the rows centred on (cx, cy), a row as tall as its tallest tile."""
    rows = [list(marks[i : i + 2]) for i in range(0, len(marks), 2)]
    heights = [COUNTER + (STRIP if any(r) else 0) for r in rows]
    y = cy - (sum(heights) + GAP * (len(rows) - 1)) / 2
    out: list[IntBox] = []
    for r, h in zip(rows, heights):
        x = cx - (len(r) * COUNTER + (len(r) - 1) * GAP) / 2
        for m in r:
            x0, y0 = round(x), round(y)
            out.append((x0, y0, x0 + COUNTER, y0 + COUNTER + (STRIP if m else 0)))
            x += COUNTER + GAP
        y += h + GAP
    return out


def plan(
    lay: Layout,
    hex_id: str,
    marks: Sequence[bool],
    id_box: Box,
    name: NameSprite | None,
    slots: Sequence[str],
) -> StackPlan:
    """Where the counters of a hex go (marks: whether each unit carries a marker strip).

    Tries every count of drawn counters from all of them down to one (plus a badge), each name
    place (under the id, at the bottom), and stack centres near the hex centre; the first that
    keeps every tile inside the hex and clear of the id, the name and the symbols wins."""
    cx, cy = lay.center(hex_id)
    blocked: list[Box] = [id_box]
    for slot in slots:
        sx, sy = symbols.slot_center(lay, hex_id, slot)
        blocked.append((sx - SLOT_R, sy - SLOT_R, sx + SLOT_R, sy + SLOT_R))
    n = len(marks)
    names = [None] if name is None else [name.top, name.bottom]
    for shown in range(min(n, MAX_TILES), 0, -1):
        badge = shown < n
        if badge and shown == MAX_TILES:
            continue  # the badge takes the place of a counter
        tile_marks = list(marks[:shown]) + ([False] if badge else [])
        # a stack centred on its hex (the name above or under it) before one moved off it
        for dy in (0, 8, -8, 16, -16, 24, -24, 32, -32, 40, -40):
            for place in names:
                name_box: Box | None = None
                if name is not None and place is not None:
                    w, h = name.image.size
                    name_box = (place[0], place[1], place[0] + w, place[1] + h)
                tiles = _tiles(tile_marks, cy + dy, cx)
                grown = [(t[0], t[1], t[2] + SHADOW, t[3] + SHADOW) for t in tiles]
                keep_out = blocked + ([name_box] if name_box else [])
                if all(_inside_hex(lay, hex_id, t) for t in tiles) and not any(
                    _meets(t, b) for t in grown for b in keep_out
                ):
                    nb = None if name_box is None else tuple(round(v) for v in name_box)
                    return StackPlan(
                        tiles[:shown],
                        tiles[shown] if badge else None,
                        nb,  # type: ignore[arg-type]
                        list(marks[:shown]),
                    )
    tiles = _tiles([False, False], cy + 10, cx)  # never reached with the map's hexes
    return StackPlan(tiles[:1], tiles[1], None, [False])
