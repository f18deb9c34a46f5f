"""The hidden duel's drawer: a row per side (score bar, the cards played, the card in hand) and
the deck, drawn with the render toolkit only. It draws the state it is given, a viewer's view: a
hand the viewer may not see is None there and drawn face down only if the side holds one."""

from __future__ import annotations

from render import canvas, png, text

COLOURS = {"north": (40, 60, 200), "south": (200, 40, 40)}
INK, PAPER, BACK = (20, 20, 20), (250, 250, 245), (150, 150, 150)


def _card(image, pen, x: int, y: int, value) -> None:
    pen.rectangle((x, y, x + 22, y + 30), fill=PAPER if value is not None else BACK, outline=INK)
    if value is not None:
        text.text(image, (x + 11, y + 15), str(value), 14, INK, anchor="mm")


def _side(image, pen, state, side: str, y: int) -> None:
    text.text(image, (10, y + 8), f"{side} {state.score[side]}", 12, INK)
    pen.rectangle((10, y + 26, 10 + 2 * state.score[side], y + 32), fill=COLOURS[side])
    for n, (card, _die, _sum) in enumerate(state.plays[side]):
        _card(image, pen, 110 + 28 * n, y, card)
    if state.hands[side] is not None or (state.to_move == side and state.step != "draw"):
        _card(image, pen, 210, y, state.hands[side])


def draw(system, state, events=(), view=None, title=None) -> bytes:
    image = canvas.new_image((300, 110), (235, 235, 225))
    pen = canvas.draw(image)
    for row, side in enumerate(("north", "south")):
        _side(image, pen, state, side, 8 + 40 * row)
    text.text(image, (250, 20), f"deck {len(state.deck)}", 12, INK)
    if title:
        text.text(image, (10, 92), title, 11, INK)
    return png.encode(image)
