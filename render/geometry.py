"""Where things go: hex centres, corners and hexsides of the flat-topped grid, the stack layout.

Scenario section 1: flat-topped hexes in vertical columns; columns A, C, E (odd, counted from
A = 1) sit half a hex lower than B, D, F; north at the top. Adjacent hexes have centres exactly
one flat-to-flat height apart, so the picture and the rules' neighbour list agree (tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from render import style

SQ3 = math.sqrt(3)


@dataclass(frozen=True)
class Layout:
    columns: str
    first_row: int
    last_row: int
    R: float = style.HEX_RADIUS
    margin: int = style.MARGIN
    panel_w: int = style.PANEL_W
    panel_gap: int = style.PANEL_GAP
    centers: dict = field(default_factory=dict, compare=False)

    @classmethod
    def for_grid(cls, grid) -> Layout:
        lay = cls(grid.columns, grid.first_row, grid.last_row)
        for h in grid.hexes:
            lay.centers[h] = lay._center(h)
        return lay

    # -- sizes
    @property
    def h(self) -> float:  # flat-to-flat height
        return SQ3 * self.R

    @property
    def nrows(self) -> int:
        return self.last_row - self.first_row + 1

    @property
    def map_w(self) -> int:
        return math.ceil((len(self.columns) - 1) * 1.5 * self.R + 2 * self.R)

    @property
    def map_h(self) -> int:
        return math.ceil(self.nrows * self.h + (self.h / 2 if len(self.columns) > 1 else 0))

    @property
    def map_box(self) -> tuple[int, int, int, int]:
        return (self.margin, self.margin, self.margin + self.map_w, self.margin + self.map_h)

    @property
    def panel_box(self) -> tuple[int, int, int, int]:
        x0 = self.margin + self.map_w + self.panel_gap
        return (x0, 0, x0 + self.panel_w, self.size[1])

    @property
    def size(self) -> tuple[int, int]:
        return (
            self.margin * 2 + self.map_w + self.panel_gap + self.panel_w,
            self.margin * 2 + self.map_h,
        )

    # -- hexes
    def _center(self, hex_id: str) -> tuple[float, float]:
        ci = self.columns.index(hex_id[0])
        r = int(hex_id[1:]) - self.first_row
        x = self.margin + self.R + 1.5 * self.R * ci
        y = self.margin + self.h / 2 + r * self.h + (self.h / 2 if ci % 2 == 0 else 0)
        return (x, y)

    def center(self, hex_id: str) -> tuple[float, float]:
        return self.centers[hex_id]

    def corners(
        self, hex_id: str, inset: float = 0.0, scale: float = 1.0
    ) -> list[tuple[float, float]]:
        cx, cy = self.center(hex_id)
        r = self.R - inset
        return [
            (
                (cx + r * math.cos(math.radians(a))) * scale,
                (cy + r * math.sin(math.radians(a))) * scale,
            )
            for a in range(0, 360, 60)
        ]

    def hexside(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of the side shared by adjacent hexes a and b."""
        (ax, ay), (bx, by) = self.center(a), self.center(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        d = math.hypot(dx, dy)
        px, py = -dy / d * self.R / 2, dx / d * self.R / 2
        return (mx + px, my + py), (mx - px, my - py)

    def geometric_neighbours(self, hex_id: str) -> set[str]:
        cx, cy = self.center(hex_id)
        return {
            h
            for h, (x, y) in self.centers.items()
            if h != hex_id and abs(math.hypot(x - cx, y - cy) - self.h) < 1e-6
        }

    def edge_sides(self, hex_id: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Sides of the hex with no hex of the map beyond them: the map edge."""
        cx, cy = self.center(hex_id)
        pts = self.corners(hex_id)
        out = []
        for i in range(6):
            a, b = pts[i], pts[(i + 1) % 6]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            nx, ny = cx + 2 * (mx - cx), cy + 2 * (my - cy)  # the centre across that side
            if not any(abs(x - nx) < 1 and abs(y - ny) < 1 for x, y in self.centers.values()):
                out.append((a, b))
        return out

    def half_width(self, dy: float) -> float:
        """Half the hex's width at a vertical offset dy from its centre."""
        return max(0.0, self.R - abs(dy) / SQ3)


@dataclass(frozen=True)
class StackGeometry:
    size: int  # counter side
    strip: int  # height of the marker strip under a counter (0 if no unit here carries one)
    gap: int
    cells: list  # top-left offsets from the hex centre, one per unit, in stack order


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
    else:  # any number of units may stack (rule 2.11): smaller counters, more columns
        cols = math.ceil(math.sqrt(n))
        gap = 3
        size = max(26, min(40, 176 // cols - gap))
    strip = max(10, round(size * 0.2)) if markers else 0
    cell_h = size + strip
    rows = [min(cols, n - i) for i in range(0, n, cols)]
    total_h = len(rows) * cell_h + (len(rows) - 1) * gap
    cells = []
    y = -total_h / 2
    for k in rows:
        row_w = k * size + (k - 1) * gap
        x = -row_w / 2
        for _ in range(k):
            cells.append((round(x), round(y)))
            x += size + gap
        y += cell_h + gap
    return StackGeometry(size, strip, gap, cells)
