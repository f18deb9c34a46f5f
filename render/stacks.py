"""Stacks of counters in a hex: where each counter of a stack goes, none hiding another."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class StackGeometry:
    size: int  # counter side
    strip: int  # height of the marker strip under a counter (0 if no unit here carries one)
    gap: int
    cells: list[
        tuple[int, int]
    ]  # top-left offsets from the hex centre, one per unit, in stack order


def stack_geometry(n: int, markers: bool) -> StackGeometry:
    """Tile n counters around the hex centre: rows of up to `cols`, every row centred.

    No counter overlaps another, so nothing hides a unit; the tile's centre is the hex centre.
    """
    if n <= 4:
        size, gap, cols = 60, 5, 1 if n == 1 else 2
    elif n <= 6:
        size, gap, cols = 50, 4, 3
    elif n <= 9:
        size, gap, cols = 42, 4, 3
    else:  # any number of counters: smaller counters, more columns
        cols = math.ceil(math.sqrt(n))
        gap = 3
        size = max(26, min(40, 176 // cols - gap))
    strip = max(10, round(size * 0.2)) if markers else 0
    cell_h = size + strip
    rows = [min(cols, n - i) for i in range(0, n, cols)]
    total_h = len(rows) * cell_h + (len(rows) - 1) * gap
    cells: list[tuple[int, int]] = []
    y = -total_h / 2
    for k in rows:
        row_w = k * size + (k - 1) * gap
        x = -row_w / 2
        for _ in range(k):
            cells.append((round(x), round(y)))
            x += size + gap
        y += cell_h + gap
    return StackGeometry(size, strip, gap, cells)
