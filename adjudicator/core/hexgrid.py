"""Hex grids of flat-topped hexes in vertical columns, with pluggable hex ids.

Columns and rows are numbered; an id scheme writes and reads a hex's id:
- `Letters`: a column letter and a row number, "B7" (Hell's Gate, rules 1.4-1.6: columns counted
  from A = 1);
- `Digits`: two digits of column and two of row, "0712" (Borodino and the players' own boards).
The columns named by `low` ("odd" or "even" column numbers) sit half a hex lower than the
others: a hex of a low column touches rows r and r+1 of the columns either side of it. Hex order
is column, then row (ties are broken in it). Distance (Hell's Gate 1.6, Borodino 1.11) is the
number of hexes on the shortest chain of adjacent hexes, terrain, units and ZOC ignored. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


class IdScheme(Protocol):
    """How a hex's id is written from its column and row numbers, and read back."""

    def name(self, column: int, row: int) -> str: ...

    def coords(self, hex_id: str) -> tuple[int, int]: ...


@dataclass(frozen=True)
class Letters:
    """ "B7": the column's letter (the first of `letters` is column 1), then the row."""

    letters: str

    def name(self, column: int, row: int) -> str:
        return f"{self.letters[column - 1]}{row}"

    def coords(self, hex_id: str) -> tuple[int, int]:
        return self.letters.index(hex_id[0]) + 1, int(hex_id[1:])


@dataclass(frozen=True)
class Digits:
    """ "0712": column 7, row 12 (two digits each)."""

    def name(self, column: int, row: int) -> str:
        return f"{column:02d}{row:02d}"

    def coords(self, hex_id: str) -> tuple[int, int]:
        return int(hex_id[:2]), int(hex_id[2:])


def hexside(a: str, b: str) -> frozenset[str]:
    """The hexside between two adjacent hexes, as an unordered pair."""
    return frozenset((a, b))


class HexGrid:
    """A rectangle of hexes: columns and rows first to last (see the module doc).

    `HexGrid("ABCDEF", 1, 9)` is Hell's Gate's lettered map; `HexGrid.numbered((1, 12), (1, 10))`
    a map of four-digit ids."""

    def __init__(
        self,
        columns: str,
        first_row: int,
        last_row: int,
        *,
        scheme: IdScheme | None = None,
        first_column: int = 1,
        last_column: int | None = None,
        low: str = "odd",
    ):
        if low not in ("odd", "even"):
            raise ValueError(f"low columns are 'odd' or 'even', not {low!r}")
        self.columns = columns  # the letters of a lettered grid ("" for another scheme)
        self.scheme: IdScheme = scheme if scheme is not None else Letters(columns)
        self.first_column = first_column
        self.last_column = last_column if last_column is not None else len(columns)
        self.first_row = first_row
        self.last_row = last_row
        self.low = low
        self.hexes: tuple[str, ...] = tuple(
            self.scheme.name(c, r)
            for c in range(self.first_column, self.last_column + 1)
            for r in range(first_row, last_row + 1)
        )
        self._index = {h: i for i, h in enumerate(self.hexes)}
        self._cubes = {h: self._cube(*self.coords(h)) for h in self.hexes}
        self._neighbours = {h: self._compute_neighbours(h) for h in self.hexes}

    @classmethod
    def numbered(cls, columns: tuple[int, int], rows: tuple[int, int], low: str = "odd") -> HexGrid:
        """A grid of four-digit ids ("0712"), columns and rows each first to last."""
        c0, c1 = columns
        return cls("", rows[0], rows[1], scheme=Digits(), first_column=c0, last_column=c1, low=low)

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._index

    def order(self, hex_id: str) -> int:
        """Position in hex order (column, then row): used for deterministic ties."""
        return self._index[hex_id]

    def sort(self, hexes: Iterable[str]) -> list[str]:
        return sorted(hexes, key=self._index.__getitem__)

    def coords(self, hex_id: str) -> tuple[int, int]:
        """(column, row) of a hex id."""
        return self.scheme.coords(hex_id)

    def _is_low(self, column: int) -> bool:
        return column % 2 == (1 if self.low == "odd" else 0)

    def _cube(self, column: int, row: int) -> tuple[int, int]:
        # a low column's row r sits beside rows r and r+1 of the columns either side of it
        shift = (column - 1) // 2 if self._is_low(column) else column // 2
        return column, row - shift

    def _name(self, c: int, r: int) -> str | None:
        inside = self.first_column <= c <= self.last_column and self.first_row <= r <= self.last_row
        return self.scheme.name(c, r) if inside else None

    def _compute_neighbours(self, hex_id: str) -> tuple[str, ...]:
        c, r = self.coords(hex_id)
        if self._is_low(c):
            cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
        else:
            cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
        found = (self._name(cc, rr) for cc, rr in cand)
        return tuple(self.sort(h for h in found if h))

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The adjacent hexes on the map, in hex order (rule 1.5)."""
        return self._neighbours[hex_id]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._neighbours[a]

    def distance(self, a: str, b: str) -> int:
        """1.6: hexes on the shortest chain of adjacent hexes; terrain, units, ZOC ignored (on a
        full rectangle of hexes the chain never needs to leave it: cube distance)."""
        (xa, za), (xb, zb) = self._cubes[a], self._cubes[b]
        dx, dz = xa - xb, za - zb
        return max(abs(dx), abs(dz), abs(dx + dz))

    def within(self, hex_id: str, radius: int) -> list[str]:
        return [h for h in self.hexes if 0 < self.distance(hex_id, h) <= radius]


__all__ = ["Digits", "HexGrid", "IdScheme", "Letters", "hexside"]
