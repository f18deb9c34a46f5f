"""The boxes image of the Borodino referee: each side's Withdrawn Box and Recovery Box (the
recovered units awaiting placement marked), the Permanently Eliminated box, and each Activation
Group's losses against its collapse threshold (6.3). Drawn with the render toolkit from the
state a viewer is shown (nothing is hidden in this system)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.borodino.board import collapse_at, group_mark, losses, side_name
from adjudicator.borodino.data import SIDE_IDS
from adjudicator.borodino.state import State
from adjudicator.core.i18n import EN, ENGLISH, Language, Msg, name, say, t
from render import canvas, labels, png, text

# Drawn for a phone: a chat shows the image 390 px wide, where a 480 px image's 12 px text keeps
# capitals 7 px high (tests/test_small_system_images.py); so every text is 12 px or more, long
# titles wrap, and each Activation Group's threshold bar has a line of its own, full width.
WIDTH = 480
INK, PAPER, GRID = (25, 25, 25), (246, 243, 232), (120, 120, 120)
SIDE_COLOURS = {"russian": (46, 125, 50), "french": (30, 80, 170)}  # green / blue counters
LOST, HELD, MARK = (190, 50, 40), (205, 205, 195), (20, 20, 20)
CHIP_W, CHIP_H = 80, 24
SMALL, MEDIUM = 12, 14  # font sizes: the least, and titles
LINE = 17  # the height of a line of SMALL text
CELL, BAR_H = 40, 24  # the widest cell of a threshold bar, and its height


def _lines(
    img: canvas.Canvas, x: int, y: int, said: str, size: int, width: int, fill: Any = INK
) -> int:
    """said wrapped to width from (x, y); the y below it."""
    for line in text.wrap(said, size, width):
        text.text(img, (x, y), line, size, fill)
        y += size + 5
    return y


def _chip(
    img: canvas.Canvas, pen: canvas.Draw, x: int, y: int, uid: str, side: str, dashed: bool
) -> None:
    colour = SIDE_COLOURS.get(side, GRID)
    pen.rectangle(
        (x, y, x + CHIP_W, y + CHIP_H), fill=colour, outline=INK, width=2 if dashed else 1
    )
    if dashed:  # recovered, awaiting placement: a white band (not only a colour: 4.5)
        pen.rectangle((x + 2, y + CHIP_H - 6, x + CHIP_W - 2, y + CHIP_H - 2), fill=(255, 255, 255))
    text.text_fitted(img, (x + CHIP_W / 2, y + 10), uid, SMALL, (255, 255, 255), CHIP_W - 6)


def _box(
    img: canvas.Canvas, pen: canvas.Draw, y: int, title: str, units: Sequence[tuple[str, str, bool]]
) -> int:
    """A box titled `title` (said in the reader's language) with its units' chips."""
    per_row = (WIDTH - 28) // (CHIP_W + 6)
    rows = -(-len(units) // per_row)
    said = text.wrap(f"{title} ({len(units)})", SMALL, WIDTH - 36)
    top = 8 + len(said) * LINE
    height = top + rows * (CHIP_H + 6) + (4 if rows else 0)
    pen.rectangle((8, y, WIDTH - 8, y + height), outline=GRID, width=1)
    for k, line in enumerate(said):
        text.text(img, (16, y + 6 + k * LINE), line, SMALL, INK)
    for n, (uid, side, dashed) in enumerate(units):
        x = 16 + (n % per_row) * (CHIP_W + 6)
        _chip(img, pen, x, y + top + (n // per_row) * (CHIP_H + 6), uid, side, dashed)
    return y + height + 6


def _bar(img: canvas.Canvas, pen: canvas.Draw, y: int, lost: int, n: int) -> None:
    """The group's units as cells, the lost ones red, each numbered where it is wide enough,
    and the threshold: a heavy line after the cell whose loss collapses the group (6.3)."""
    x0 = 16
    cell = min(CELL, (WIDTH - 2 * x0) // max(n, 1))
    for i in range(n):
        x = x0 + i * cell
        pen.rectangle((x, y, x + cell - 3, y + BAR_H), fill=LOST if i < lost else HELD, outline=INK)
        if cell >= 24:
            colour = (255, 255, 255) if i < lost else INK
            text.text(img, (x + (cell - 3) / 2, y + BAR_H / 2), str(i + 1), SMALL, colour, "mm")
    if n:
        tx = x0 + collapse_at(n) * cell - 2  # the threshold: the unit whose loss collapses it
        pen.rectangle((tx - 2, y - 6, tx + 2, y + BAR_H + 6), fill=MARK)


def _losses(
    img: canvas.Canvas, pen: canvas.Draw, system: Any, state: State, y: int, lang: Language
) -> int:
    scen = system.scenario
    head = t("Activation Groups: units lost against the collapse threshold (6.3)")
    y = _lines(img, 12, y, say(head, lang), MEDIUM, WIDTH - 24) + 4
    for gid, group in scen.groups.items():
        lost, n = losses(scen, state, gid)
        said = t("{id} ({name})", id=gid, name=side_name(group.side))
        colour = SIDE_COLOURS.get(group.side, INK)
        y = _lines(img, 16, y, say(said, lang), MEDIUM, WIDTH - 32, colour) + 8
        if n:
            _bar(img, pen, y, lost, n)
            y += BAR_H + 12
        said = (
            t("{lost} of {n} lost; collapses at {at}", lost=lost, n=n, at=collapse_at(n))
            if n
            else t("not in play")
        )
        if gid in state.collapsed or gid in state.out_of_game:
            said = t("{said}: {mark}", said=said, mark=group_mark(state, gid, n))
        y = _lines(img, 16, y, say(said, lang), SMALL, WIDTH - 32) + 8
    return y


def draw(
    system: Any,
    state: State,
    events: Sequence[Any] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    """The boxes image, its labels said in `language`."""
    with text.wide_font(language.code != ENGLISH):  # every text in one font, measured in it
        return _draw(system, state, title, language)


def _draw(system: Any, state: State, title: str | None, lang: Language) -> bytes:
    scen = system.scenario
    img = canvas.new_image((WIDTH, 3000), PAPER)  # cut to what is drawn
    pen = canvas.draw(img)
    heading: Msg | str = title or name(scen.title, ru=scen.title_ru)
    y = _lines(img, 12, 10, say(heading, lang), MEDIUM, WIDTH - 24) + 6
    for side in SIDE_IDS:
        mine = [(u, s) for u, s in state.units.items() if scen.units[u].side == side]
        y = _box(
            img,
            pen,
            y,
            say(t("{side} Withdrawn Box", side=side_name(side)), lang),
            [(u, side, False) for u, s in mine if s.where == "withdrawn"],
        )
        box = [
            (u, side, s.where == "recovered")
            for u, s in mine
            if s.where in ("recovery", "recovered")
        ]
        said = t("{side} Recovery Box (white band: recovered, to place)", side=side_name(side))
        y = _box(img, pen, y, say(said, lang), box)
    gone = [
        (u, scen.units[u].side, False) for u, s in state.units.items() if s.where == "eliminated"
    ]
    y = _box(img, pen, y, say(t("Permanently Eliminated"), lang), gone)
    y = _losses(img, pen, system, state, y + 6, lang)
    labels.crop((0, 0, WIDTH, y + 4))
    return png.encode(img.crop((0, 0, WIDTH, y + 4)))
