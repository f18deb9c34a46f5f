"""The phone image's measures, colours and small pieces: a block's square, a run of labelled
items that wraps at the image's edge (`Flow`), wrapped paragraphs.

The image is WIDTH pixels wide and every text is at least BODY large: a capital of BODY is 13
pixels high in either font (the bundled one, DejaVu Sans for Russian), 7 pixels once a phone shows
the image 390 pixels wide (render.labels.legibility)."""

from __future__ import annotations

from dataclasses import dataclass, field

from render import canvas, text

WIDTH = 720
BODY = 19  # every label: capitals 13-14 px here, over 7 px at 390 px wide
HEAD = 24  # the title
LINE = 26  # a line of BODY text
MARGIN = 20
BACKGROUND, INK, GREY, SEA = (236, 239, 242), (25, 25, 30), (90, 90, 100), (150, 150, 160)
PAPER = (250, 248, 240)  # a face-up block
CONTROL = {"sweden": (196, 214, 240), "coalition": (236, 214, 204)}
BATTLE = (200, 30, 30)
BATTLE_PAPER = (250, 232, 228)
MOVE = (60, 60, 70)
SQUARE = 28  # a block's side

Colour = tuple[int, ...]


def square(
    image: canvas.Canvas,
    x: float,
    y: float,
    colour: Colour,
    strength: int | None,
    kind: str = "label",
) -> None:
    """A block with its top-left corner at (x, y): face up (strength a number) the strength on
    paper in a frame of its nation's colour (2.4); face down (None) its nation's colour only."""
    pen = canvas.draw(image)
    box = (x, y, x + SQUARE, y + SQUARE)
    if strength is None:
        pen.rectangle(box, fill=colour, outline=INK)
        return
    pen.rectangle(box, fill=PAPER, outline=colour, width=4)
    text.text(image, (x + SQUARE / 2, y + SQUARE / 2 + 1), str(strength), BODY, INK, "mm", kind)


def wrapped(said: str, width: float, size: int = BODY) -> list[str]:
    """Words wrapped into lines no wider than width, each line measured whole."""
    lines: list[str] = []
    for word in said.split():
        longer = f"{lines[-1]} {word}" if lines else word
        if lines and text.text_length(longer, size) <= width:
            lines[-1] = longer
        else:
            lines.append(word)
    return [cut for line in lines for cut in text.wrap(line, size, width)]


def paragraph(
    image: canvas.Canvas,
    x: float,
    y: float,
    said: str,
    width: float,
    fill: Colour = INK,
    size: int = BODY,
    kind: str = "label",
) -> float:
    """said wrapped into width at (x, y); returns the y below it."""
    for line in wrapped(said, width, size):
        text.text(image, (x, y), line, size, fill, kind=kind)
        y += LINE if size == BODY else size + 7
    return y


@dataclass
class Item:
    """One entry of a Flow: an optional block square (colour, strength) and a text."""

    said: str
    colour: Colour | None = None
    strength: int | None = None
    fill: Colour = INK
    square: bool = False


@dataclass
class Flow:
    """Items left to right, wrapping at the right edge, one LINE + 8 high each row."""

    image: canvas.Canvas
    x0: float
    y: float
    width: float
    kind: str = "label"
    indent: float = 0  # of a row that continues the one before
    x: float = field(init=False)

    def __post_init__(self) -> None:
        self.x = self.x0

    def newline(self, indent: float = 0) -> None:
        if self.x > self.x0:
            self.x, self.y = self.x0 + indent, self.y + SQUARE + 8

    def add(self, item: Item, gap: float = 16) -> None:
        wide = text.text_length(item.said, BODY) + (SQUARE + 6 if item.square else 0)
        if self.x > self.x0 + self.indent and self.x + wide > self.x0 + self.width:
            self.newline(self.indent)
        x = self.x
        if item.square and item.colour is not None:
            square(self.image, x, self.y, item.colour, item.strength, self.kind)
            x += SQUARE + 6
        text.text(
            self.image, (x, self.y + SQUARE / 2 + 1), item.said, BODY, item.fill, "lm", self.kind
        )
        self.x = x + text.text_length(item.said, BODY) + gap

    def bottom(self) -> float:
        return self.y + (SQUARE + 8 if self.x > self.x0 + self.indent else 0)
