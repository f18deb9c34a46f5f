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
from adjudicator.core.i18n import EN, Language, Msg, name, say, t
from render import canvas, png, text

WIDTH = 760
INK, PAPER, GRID = (25, 25, 25), (246, 243, 232), (120, 120, 120)
SIDE_COLOURS = {"russian": (46, 125, 50), "french": (30, 80, 170)}  # green / blue counters
LOST, HELD, MARK = (190, 50, 40), (205, 205, 195), (20, 20, 20)
CHIP_W, CHIP_H = 64, 22


def _chip(
    img: canvas.Canvas, pen: canvas.Draw, x: int, y: int, uid: str, side: str, dashed: bool
) -> None:
    colour = SIDE_COLOURS.get(side, GRID)
    pen.rectangle(
        (x, y, x + CHIP_W, y + CHIP_H), fill=colour, outline=INK, width=2 if dashed else 1
    )
    if dashed:  # recovered, awaiting placement: a white band (not only a colour: 4.5)
        pen.rectangle((x + 2, y + CHIP_H - 6, x + CHIP_W - 2, y + CHIP_H - 2), fill=(255, 255, 255))
    size = text.fit_size(uid, 12, CHIP_W - 6)
    text.text(img, (x + CHIP_W / 2, y + 9), uid, size, (255, 255, 255), anchor="mm")


def _box(
    img: canvas.Canvas, pen: canvas.Draw, y: int, title: str, units: Sequence[tuple[str, str, bool]]
) -> int:
    """A box titled `title` (said in the reader's language) with its units' chips."""
    per_row = (WIDTH - 40) // (CHIP_W + 6)
    rows = max(1, -(-len(units) // per_row))
    height = 26 + rows * (CHIP_H + 6)
    pen.rectangle((10, y, WIDTH - 10, y + height), outline=GRID, width=1)
    text.text(img, (18, y + 4), f"{title} ({len(units)})", 13, INK)
    for n, (uid, side, dashed) in enumerate(units):
        x = 18 + (n % per_row) * (CHIP_W + 6)
        _chip(img, pen, x, y + 22 + (n // per_row) * (CHIP_H + 6), uid, side, dashed)
    return y + height + 8


def _losses(
    img: canvas.Canvas, pen: canvas.Draw, system: Any, state: State, y: int, lang: Language
) -> int:
    scen = system.scenario
    head = t("Activation Groups: units lost against the collapse threshold (6.3)")
    text.text(img, (14, y), say(head, lang), 13, INK)
    y += 20
    for gid, group in scen.groups.items():
        lost, n = losses(scen, state, gid)
        said = t("{id} ({name})", id=gid, name=side_name(group.side))
        text.text(img, (14, y + 2), say(said, lang), 12, INK)
        x0, cell = 200, 34
        for i in range(n):
            fill = LOST if i < lost else HELD
            pen.rectangle(
                (x0 + i * cell, y, x0 + i * cell + cell - 4, y + 16), fill=fill, outline=INK
            )
        if n:
            tx = x0 + collapse_at(n) * cell - 2  # the threshold: the unit whose loss collapses it
            pen.line((tx, y - 4, tx, y + 20), fill=MARK, width=3)
        said = (
            t("{lost} of {n} lost; collapses at {at}", lost=lost, n=n, at=collapse_at(n))
            if n
            else t("not in play")
        )
        if gid in state.collapsed or gid in state.out_of_game:
            said = t("{said}: {mark}", said=said, mark=group_mark(state, gid, n))
        text.text(img, (x0 + max(n, 1) * cell + 10, y + 2), say(said, lang), 12, INK)
        y += 26
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
    scen, lang = system.scenario, language
    img = canvas.new_image((WIDTH, 620), PAPER)
    pen = canvas.draw(img)
    heading: Msg | str = title or name(scen.title, ru=scen.title_ru)
    text.text(img, (14, 10), say(heading, lang), 14, INK)
    y = 36
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
    y = _losses(img, pen, system, state, y + 4, lang)
    return png.encode(img.crop((0, 0, WIDTH, min(620, y + 10))))
