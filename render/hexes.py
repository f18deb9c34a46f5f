"""Where things go on a hex map: hex centres, corners and hexsides of a flat-topped grid in
pixels, and the boxes of the map and of a side panel beside it.

Flat-topped hexes in vertical columns named by letters; the first, third, fifth ... columns
(counted from 1) sit half a hex lower than the others; row numbers grow downwards. Adjacent
hexes have centres exactly one flat-to-flat height apart, so that a picture and a rules' list of
neighbours can be checked against each other. Hex ids are a column letter and a row number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

# -- default sizes (pixels at the output scale)
HEX_RADIUS = 108  # centre to corner: a hex is 216 px across, 187 px flat to flat
MARGIN = 22
PANEL_W = 480
PANEL_GAP = 22

SQ3 = math.sqrt(3)


class Grid(Protocol):
    """A grid of lettered columns and numbered rows, as Layout.for_grid reads it."""

    @property
    def columns(self) -> str: ...

    @property
    def first_row(self) -> int: ...

    @property
    def last_row(self) -> int: ...

    @property
    def hexes(self) -> Iterable[str]: ...


@dataclass(frozen=True)
class Layout:
    """A hex grid in pixels: the map in a margin, a side panel to its right."""

    columns: str
    first_row: int
    last_row: int
    R: float = HEX_RADIUS
    margin: int = MARGIN
    panel_w: int = PANEL_W
    panel_gap: int = PANEL_GAP
    centers: dict[str, tuple[float, float]] = field(default_factory=dict, compare=False)

    @classmethod
    def for_grid(cls, grid: Grid) -> Layout:
        """The layout of a grid: anything with columns, first_row, last_row and hexes."""
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
