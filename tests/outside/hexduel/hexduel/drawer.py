"""The map of Hex duel, drawn with pbem's render toolkit: the hexes (a claimed one in its side's
colour), the patrols, and the objective the viewer may see. It draws the view it is given."""

from __future__ import annotations

from typing import Any

from render import canvas, png, text

COLOURS = {"red": (200, 60, 60), "blue": (60, 80, 200), None: (235, 235, 225)}
INK, R = (20, 20, 20), 30


def draw(system: Any, state: Any, events: Any = (), view: Any = None, title: Any = None) -> bytes:
    board = system.board
    image = canvas.new_image((60 + 46 * len(board.columns), 40 + 52 * board.rows), (250, 250, 245))
    pen = canvas.draw(image)
    for h in board.hexes:
        col, row = board.columns.index(h[0]), int(h[1:])
        x, y = 40 + 46 * col, 30 + 52 * row - (26 if col % 2 else 0)
        owner = state.owner.get(h)
        pen.regular_polygon((x, y, R), 6, fill=COLOURS[owner], outline=INK)
        mark = "*" if h in state.objective.values() else ""
        text.text(image, (x, y - 12), h + mark, 11, INK, anchor="mm")
        for side, at in state.at.items():
            if at == h:
                pen.ellipse((x - 8, y, x + 8, y + 16), fill=COLOURS[side], outline=INK)
    return png.encode(image)
