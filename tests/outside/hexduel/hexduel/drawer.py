"""The map of Hex duel, drawn with pbem's render toolkit: the hexes (a claimed one in its side's
colour), the patrols, and the objectives the viewer may see (*). It draws the view it is given.
"""

from __future__ import annotations

from typing import Any

from render import canvas, png, text

COLOURS = {"red": (200, 60, 60), "blue": (60, 80, 200), None: (235, 235, 225)}
INK, R = (20, 20, 20), 30


def draw(system: Any, state: Any, events: Any = (), view: Any = None, title: Any = None) -> bytes:
    grid = system.board.grid
    size = (60 + 46 * grid.last_column, 40 + 52 * grid.last_row)
    image = canvas.new_image(size, (250, 250, 245))
    pen = canvas.draw(image)
    for h in grid.hexes:
        col, row = grid.coords(h)  # from 1; the odd columns sit half a hex lower
        x, y = 46 * col - 6, 30 + 52 * row - (0 if col % 2 else 26)
        pen.regular_polygon((x, y, R), 6, fill=COLOURS[state.owner.get(h)], outline=INK)
        mark = "*" if h in state.objective.values() else ""
        text.text(image, (x, y - 12), h + mark, 11, INK, anchor="mm")
        for side, at in state.at.items():
            if at == h:
                pen.ellipse((x - 8, y, x + 8, y + 16), fill=COLOURS[side], outline=INK)
    return png.encode(image)
