"""The data of Hex duel: the sides, and the board read from a scenario file (hexduel.toml).

`read(text, source)` is the SystemKind's `read`: pbem reads the file and hands over its text
(the rules never do I/O); a text that is no board raises ScenarioError naming the file and the
entry. The map is a core.hexgrid HexGrid with lettered ids ("B2"). Pure.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from adjudicator.core.hexgrid import HexGrid
from adjudicator.core.scenario import ScenarioError

SIDE_IDS = ("red", "blue")


@dataclass(frozen=True)
class Board:
    """The scenario: the map, the homes and the scoring."""

    title: str
    turns: int
    grid: HexGrid  # the columns A, C, ... half a hex lower (the grid's default, low="odd")
    homes: dict[str, str]  # side -> the hex its patrol starts on
    points: dict[str, int]  # hex -> its points (every other hex: 1)
    bonus: int  # H3: for claiming your secret objective


def read(text: str, source: str) -> Board:
    try:
        data = tomllib.loads(text)
        grid = HexGrid(data["columns"], 1, int(data["rows"]))
        board = Board(
            str(data["title"]),
            int(data["turns"]),
            grid,
            dict(data["homes"]),
            dict(data.get("points", {})),
            int(data["bonus"]),
        )
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(source, "file", f"not a hex duel scenario: {exc}") from None
    if set(board.homes) != set(SIDE_IDS) or not set(board.homes.values()) <= set(grid.hexes):
        raise ScenarioError(source, "homes", "a home hex on the map for red and for blue")
    return board


def other(side: str) -> str:
    return SIDE_IDS[1 - SIDE_IDS.index(side)]
