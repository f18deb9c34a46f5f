"""Town names on the map: each drawn once per scenario, with its dot and white halo, as a sprite
placed per image where the counters leave room."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.i18n import EN, Language
from adjudicator.hells_gate.drawer import colours
from adjudicator.hells_gate.drawer.sizes import SMALL
from adjudicator.hells_gate.drawer.words import town_name
from adjudicator.hells_gate.scenario import HexSpec
from render import canvas
from render.canvas import Canvas
from render.hexes import Layout
from render.text import Font, font_for


def display_name(name: str) -> str:
    """'Korsun-Shevchenkovsky (airfield)' -> 'Korsun-Shevchenkovsky': the part in brackets is
    shown by a symbol or is an alternative spelling."""
    return name.split(" (")[0]


@dataclass
class NameSprite:
    """A town name with its dot and white halo, drawn once and placed per image: in the middle of
    an empty hex (where the town is), else under the hex id if the counters leave room, else
    under the counters."""

    image: Canvas  # RGBA
    centre: tuple[int, int]  # top-left when the hex is empty
    top: tuple[int, int]  # top-left just under the hex id
    bottom: tuple[int, int]  # top-left at the bottom of the hex

    def place(self, stack_top: float | None) -> tuple[int, int, int, int]:
        if stack_top is None:
            x, y = self.centre
        elif self.top[1] + self.image.height + 3 <= stack_top:
            x, y = self.top
        else:
            x, y = self.bottom
        return (x, y, x + self.image.width, y + self.image.height)


def _label_image(label: str, f: Font, city: bool) -> Canvas:
    """The label with its halo (and a town's dot), on a transparent background."""
    dot = 0 if city else 13
    l, t, r, b = f.getbbox(label, stroke_width=2, anchor="ls")  # whole pixels, typed as floats
    w, h = int(dot + (r - l) + 2), int((b - t) + 2)
    img = canvas.new_image((w, h), (*colours.HALO, 0), "RGBA")  # halo colour, transparent
    d = canvas.draw(img)
    base = 1 - t
    d.text(
        (dot + 1 - l, base),
        label,
        font=f,
        fill=colours.CITY_EDGE if city else colours.TOWN,
        anchor="ls",
        stroke_width=2,
        stroke_fill=colours.HALO,
    )
    if dot:
        cy = base + f.getbbox("x", anchor="ls")[1] / 2  # half the x-height above the baseline
        d.ellipse(
            (1, cy - 5, 11, cy + 5),
            fill=(*colours.TOWN, 255),
            outline=(*colours.HALO, 255),
            width=1,
        )
    return img


def _squeeze(img: Canvas, max_w: float) -> Canvas:
    """The sprite squeezed sideways to max_w if it is wider (its glyphs keep their height)."""
    if img.width <= max_w:
        return img
    return img.resize((round(max_w), img.height), canvas.LANCZOS)


def name_sprite(
    lay: Layout, hex_id: str, spec: HexSpec, id_bottom: float, language: Language = EN
) -> NameSprite:
    """The name of the town in a hex (spec: the hex's scenario data) in the language (its
    name_ru in Russian), id_bottom: the bottom of the hex id's text."""
    if spec.name is None:
        raise ValueError(f"{hex_id} has no town name")
    name = town_name(spec, display_name(spec.name), language)
    city = spec.terrain == "cherkassy"
    label = name.upper() if city else name
    img = _squeeze(_label_image(label, font_for(label, SMALL), city), 1.25 * lay.R)
    w, h = img.size
    cx, cy = lay.center(hex_id)
    # in the middle, unless it would run into the symbols at the hex's left and right corners
    mid = cy - h / 2 if w <= 2 * (0.79 * lay.R - 20) else cy + 20
    centre = (round(cx - w / 2), round(mid))
    top = (round(cx - w / 2), round(id_bottom + 3))
    bottom = (round(cx - w / 2), round(cy + lay.h / 2 - 5 - h))
    return NameSprite(img, centre, top, bottom)
