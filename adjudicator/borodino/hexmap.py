"""The hex grid players use on their own board: four-digit ids, column then row ("0712").

The grid is core.hexgrid's, with its `Digits` id scheme: flat-topped hexes in vertical columns,
numbered from the first to the last column and row; the columns named by `low_columns` ("odd"
or "even") sit half a hex lower than the others, as on the printed map. Distance (rule 1.11) is
the number of hexes on the shortest chain of adjacent hexes. Pure.
"""

from __future__ import annotations

from adjudicator.core.hexgrid import HexGrid


def HexMap(columns: tuple[int, int], rows: tuple[int, int], low_columns: str = "odd") -> HexGrid:
    """The board of a scenario's [map]: columns and rows each first to last."""
    return HexGrid.numbered(columns, rows, low_columns)


__all__ = ["HexMap"]
