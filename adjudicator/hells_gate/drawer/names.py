"""Town names on the map: each drawn once per scenario, with its dot and white halo, as a sprite
placed per image where the counters leave room."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.i18n import EN, Language
from adjudicator.hells_gate.drawer import colours
from adjudicator.hells_gate.drawer.sizes import phone_size
from adjudicator.hells_gate.drawer.words import town_name
from adjudicator.hells_gate.scenario import HexSpec
from render import canvas
from render.canvas import Canvas
from render.hexes import Layout
from render.labels import Label
from render.text import Font, cap_height, font_for, text_length


def display_name(name: str) -> str:
    """'Korsun-Shevchenkovsky (airfield)' -> 'Korsun-Shevchenkovsky': the part in brackets is
    shown by a symbol or is an alternative spelling."""
    return name.split(" (")[0]


HALO = 2  # the white halo around a name's letters


def whole_map_width(lay: Layout) -> int:
    """The width of the whole map as a post shows it (the map and 8 px around, focus.py)."""
    return lay.map_w + 16


@dataclass
class NameSprite:
    """A town name with its dot and white halo, drawn once and placed per image: in the middle of
    an empty hex (where the town is), else under the hex id if the counters leave room, else
    under the counters. Its size keeps it legible on the whole map of a post on a phone; a long
    name is written on two lines (broken after its hyphen or at a space)."""

    image: Canvas  # RGBA
    centre: tuple[int, int]  # top-left when the hex is empty
    top: tuple[int, int]  # top-left just under the hex id
    bottom: tuple[int, int]  # top-left at the bottom of the hex
    labels: tuple[Label, ...] = ()  # its lines' labels, in the sprite's pixels

    def place(self, stack_top: float | None) -> tuple[int, int, int, int]:
        if stack_top is None:
            x, y = self.centre
        elif self.top[1] + self.image.height + 3 <= stack_top:
            x, y = self.top
        else:
            x, y = self.bottom
        return (x, y, x + self.image.width, y + self.image.height)


def _line_image(label: str, f: Font, city: bool, dot: bool) -> Canvas:
    """One line of the label with its halo (and a town's dot if dot), on a transparent
    background."""
    left = 13 if dot else 0
    l, t, r, b = f.getbbox(label, stroke_width=HALO, anchor="ls")  # whole pixels, typed as floats
    w, h = int(left + (r - l) + 2), int((b - t) + 2)
    img = canvas.new_image((w, h), (*colours.HALO, 0), "RGBA")  # halo colour, transparent
    d = canvas.draw(img)
    base = 1 - t
    d.text(
        (left + 1 - l, base),
        label,
        font=f,
        fill=colours.CITY_EDGE if city else colours.TOWN,
        anchor="ls",
        stroke_width=HALO,
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


def split_name(label: str, size: int, max_w: float) -> list[str]:
    """The label on one line if it fits max_w, else on two: broken after the hyphen or at the
    space nearest its middle ('Korsun-' / 'Shevchenkovsky')."""
    if text_length(label, size) <= max_w:
        return [label]
    breaks = [i + 1 for i, c in enumerate(label) if c == "-"] + [
        i for i, c in enumerate(label) if c == " "
    ]
    if not breaks:
        return [label]
    at = min(breaks, key=lambda i: abs(i - len(label) / 2))
    return [label[:at].rstrip(), label[at:].lstrip()]


def _label_image(lines: list[str], size: int, city: bool, max_w: float) -> NameSprite:
    """The lines, each centred and squeezed to max_w, one under the other, and their labels
    (the sprite's places are set by name_sprite)."""
    parts = [
        _squeeze(_line_image(s, font_for(s, size), city, not city and i == 0), max_w)
        for i, s in enumerate(lines)
    ]
    step = round(size * 1.05)
    w = max(p.width for p in parts)
    h = step * (len(parts) - 1) + parts[-1].height
    img = canvas.new_image((w, h), (*colours.HALO, 0), "RGBA")
    found: list[Label] = []
    for i, (s, p) in enumerate(zip(lines, parts)):
        x, y = (w - p.width) // 2, i * step
        img.alpha_composite(p, (x, y))
        ink = (x + HALO, y + HALO, x + p.width - HALO, y + p.height - HALO)  # within the halo
        found.append(Label(s, ink, cap_height(size)))
    return NameSprite(img, (0, 0), (0, 0), (0, 0), tuple(found))


def name_sprite(
    lay: Layout,
    hex_id: str,
    spec: HexSpec,
    id_bottom: float,
    language: Language = EN,
    symbols: bool = True,
) -> NameSprite:
    """The name of the town in a hex (spec: the hex's scenario data) in the language (its
    name_ru in Russian), id_bottom: the bottom of the hex id's text; symbols: whether the hex
    has symbols at its corners (a name in a hex without is allowed wider)."""
    if spec.name is None:
        raise ValueError(f"{hex_id} has no town name")
    name = town_name(spec, display_name(spec.name), language)
    city = spec.terrain == "cherkassy"
    label = name.upper() if city else name
    size = phone_size(whole_map_width(lay))
    # clear of the symbols at the hex's left and right corners, if any
    max_w = 2 * (0.79 * lay.R - 20) if symbols else 1.45 * lay.R
    ns = _label_image(split_name(label, size, max_w - 14), size, city, max_w)
    w, h = ns.image.size
    cx, cy = lay.center(hex_id)
    ns.centre = (round(cx - w / 2), round(cy - h / 2))
    ns.top = (round(cx - w / 2), round(id_bottom + 3))
    ns.bottom = (round(cx - w / 2), round(cy + lay.h / 2 - 5 - h))
    return ns
