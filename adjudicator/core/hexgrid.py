"""Hex grid of lettered columns and numbered rows (rules 1.4-1.6, scenario section 1).

Flat-topped hexes in vertical columns. Columns are counted from A = 1; odd columns (A, C, E)
sit half a hex lower than even columns (B, D, F). The neighbour rule is the scenario's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import lru_cache


def hexside(a: str, b: str) -> frozenset[str]:
    """The hexside between two adjacent hexes, as an unordered pair."""
    return frozenset((a, b))


class HexGrid:
    """Hex ids like "B7": column letter + row number (rule 1.4)."""

    def __init__(self, columns: str, first_row: int, last_row: int):
        self.columns = columns
        self.first_row = first_row
        self.last_row = last_row
        self.hexes: tuple[str, ...] = tuple(
            f"{c}{r}" for c in columns for r in range(first_row, last_row + 1)
        )
        self._index = {h: i for i, h in enumerate(self.hexes)}
        self._neighbours = {h: self._compute_neighbours(h) for h in self.hexes}
        self._distance = lru_cache(maxsize=None)(self._bfs_distance)

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._index

    def order(self, hex_id: str) -> int:
        """Position in hex order (column, then row): used for deterministic ties."""
        return self._index[hex_id]

    def sort(self, hexes: Iterable[str]) -> list[str]:
        return sorted(hexes, key=self._index.__getitem__)

    def coords(self, hex_id: str) -> tuple[int, int]:
        return self.columns.index(hex_id[0]) + 1, int(hex_id[1:])

    def _name(self, c: int, r: int) -> str | None:
        if 1 <= c <= len(self.columns) and self.first_row <= r <= self.last_row:
            return f"{self.columns[c - 1]}{r}"
        return None

    def _compute_neighbours(self, hex_id: str) -> tuple[str, ...]:
        c, r = self.coords(hex_id)
        if c % 2 == 1:
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
        """1.6: hexes on the shortest chain of adjacent hexes; terrain, units, ZOC ignored."""
        return self._distance(a, b)

    def _bfs_distance(self, a: str, b: str) -> int:
        if a == b:
            return 0
        seen = {a: 0}
        queue = deque([a])
        while queue:
            h = queue.popleft()
            for n in self._neighbours[h]:
                if n not in seen:
                    seen[n] = seen[h] + 1
                    if n == b:
                        return seen[n]
                    queue.append(n)
        raise ValueError(f"{b} cannot be reached from {a}")

    def within(self, hex_id: str, radius: int) -> list[str]:
        return [h for h in self.hexes if 0 < self.distance(hex_id, h) <= radius]
