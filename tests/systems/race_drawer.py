"""The dice race's drawer: two score bars, drawn with the render toolkit only."""

from __future__ import annotations

from render import canvas, png

COLOURS = {"red": (200, 40, 40), "blue": (40, 60, 200)}


def draw(system, state, events=(), view=None, title=None) -> bytes:
    image = canvas.new_image((240, 80), (250, 250, 245))
    pen = canvas.draw(image)
    for row, side in enumerate(("red", "blue")):
        width = 10 * state.score[side]
        pen.rectangle((10, 10 + 35 * row, 10 + width, 35 + 35 * row), fill=COLOURS[side])
    return png.encode(image)
