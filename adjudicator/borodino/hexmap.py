"""The hex grid players use on their own board: four-digit ids, column then row ("0712").

Flat-topped hexes in vertical columns, numbered from `first` to `last` column and row. The
columns named by `low_columns` ("odd" or "even") sit half a hex lower than the others, as on
the printed map. Distance (rule 1.11) is the number of hexes on the shortest chain of
adjacent hexes, computed in cube coordinates. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class HexMap:
    columns: tuple[int, int]  # first and last column number
    rows: tuple[int, int]  # first and last row number
    low_columns: str = "odd"  # "odd" | "even": the columns half a hex lower

    @staticmethod
    def name(column: int, row: int) -> str:
        return f"{column:02d}{row:02d}"

    @cached_property
    def hexes(self) -> tuple[str, ...]:
        """Every hex in hex order: column, then row (ties are broken in this order)."""
        (c0, c1), (r0, r1) = self.columns, self.rows
        return tuple(self.name(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))

    @cached_property
    def _index(self) -> dict[str, int]:
        return {h: i for i, h in enumerate(self.hexes)}

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._index

    def order(self, hex_id: str) -> int:
        return self._index[hex_id]

    def sort(self, hexes: Iterable[str]) -> list[str]:
        return sorted(hexes, key=self._index.__getitem__)

    @cached_property
    def _cubes(self) -> dict[str, tuple[int, int]]:
        return {h: self._cube(h) for h in self.hexes}

    def _cube(self, hex_id: str) -> tuple[int, int]:
        col, row = int(hex_id[:2]), int(hex_id[2:])
        low = col % 2 == (1 if self.low_columns == "odd" else 0)
        # a lower column's row r sits beside rows r and r+1 of the columns either side of it
        z = row - (col - 1) // 2 if low else row - col // 2
        return col, z

    def distance(self, a: str, b: str) -> int:
        """1.11: hexes on the shortest chain of adjacent hexes (adjacent: 1)."""
        cubes = self._cubes
        (xa, za), (xb, zb) = cubes[a], cubes[b]
        dx, dz = xa - xb, za - zb
        return max(abs(dx), abs(dz), abs(dx + dz))

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        return {h: tuple(n for n in self.hexes if self.distance(h, n) == 1) for h in self.hexes}

    def neighbours(self, hex_id: str) -> list[str]:
        """The adjacent hexes, in hex order."""
        return list(self._neighbours[hex_id])
