"""The static layer: everything that does not change during a game, drawn once per scenario.

Map (terrain, hex ids, town names, rivers on their hexsides, supply hexes, the map edge, the
Dnieper beyond the east edge, a north arrow), the panel background and the legend. Shapes are
drawn at SUPERSAMPLE x and reduced once (anti-aliased edges); text is drawn after the reduction,
at 1x, so it stays crisp.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render import counters, overlay, style
from render.geometry import Layout

WATER = (196, 220, 240)


@dataclass
class Static:
    layout: Layout
    image: Image.Image
    text_boxes: list = field(default_factory=list)  # (x0, y0, x1, y1) of the hex ids
    slots: dict = field(default_factory=dict)  # hex -> {"left": what, "right": what}
    legend: list = field(default_factory=list)  # (key, label) in drawing order
    legend_top: int = 0
    names: dict = field(default_factory=dict)  # hex -> NameSprite
    palette: Image.Image | None = None  # set by frame.static_layer (render/palette.py)
    panel_x: int = 0


def display_name(name: str) -> str:
    """'Korsun-Shevchenkovsky (airfield)' -> 'Korsun-Shevchenkovsky': the part in brackets is
    shown by a symbol or is an alternative spelling."""
    return name.split(" (")[0]


@dataclass
class NameSprite:
    """A town name with its dot and white halo, drawn once and placed per image: in the middle of
    an empty hex (where the town is), else under the hex id if the counters leave room, else
    under the counters."""

    image: Image.Image  # RGBA
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


def name_sprite(lay: Layout, hex_id: str, spec, id_bottom: float) -> NameSprite:
    name = display_name(spec.name)
    city = spec.terrain == "cherkassy"
    label = name.upper() if city else name
    f = counters.fit_font(label, 17 if city else 16, 1.55 * lay.R, 11)
    dot = 0 if city else 13
    l, t, r, b = f.getbbox(label, stroke_width=2, anchor="ls")
    w, h = dot + (r - l) + 2, (b - t) + 2
    img = Image.new("RGBA", (w, h), (*style.HALO, 0))  # halo colour, transparent: clean edges
    d = ImageDraw.Draw(img)
    base = 1 - t
    d.text(
        (dot + 1 - l, base),
        label,
        font=f,
        fill=style.CITY_EDGE if city else style.TOWN,
        anchor="ls",
        stroke_width=2,
        stroke_fill=style.HALO,
    )
    if dot:
        cy = base + f.getbbox("x", anchor="ls")[1] / 2  # half the x-height above the baseline
        d.ellipse(
            (1, cy - 5, 11, cy + 5), fill=(*style.TOWN, 255), outline=(*style.HALO, 255), width=1
        )
    cx, cy = lay.center(hex_id)
    # in the middle, unless it would run into the symbols at the hex's left and right corners
    mid = cy - h / 2 if w <= 2 * (0.79 * lay.R - 20) else cy + 20
    centre = (round(cx - w / 2), round(mid))
    top = (round(cx - w / 2), round(id_bottom + 3))
    bottom = (round(cx - w / 2), round(cy + lay.h / 2 - 5 - h))
    return NameSprite(img, centre, top, bottom)


def slot_center(lay: Layout, hex_id: str, slot: str) -> tuple[float, float]:
    cx, cy = lay.center(hex_id)
    return (cx - 0.79 * lay.R, cy) if slot == "left" else (cx + 0.79 * lay.R, cy)


def draw_supply(d, side: str, cx: float, cy: float, r: float, k: float = 1) -> None:
    ring = style.SIDE[side]["face"] if side == "soviet" else style.SIDE[side]["line"]
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ring, width=round(r * 0.22)
    )
    counters.emblem(d, side, cx, cy, r * 0.62, k=k)


def draw_airfield(d, cx: float, cy: float, r: float) -> None:
    """An aircraft seen from above in a white disc."""
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=(255, 255, 255),
        outline=style.AIRFIELD,
        width=round(r * 0.14),
    )
    u = r / 10
    plane = [
        (0, -7.5),
        (1, -6.5),
        (1, -2),
        (7.5, 1.5),
        (7.5, 3),
        (1, 1),
        (1, 5),
        (3, 6.8),
        (3, 7.8),
        (0, 7),
        (-3, 7.8),
        (-3, 6.8),
        (-1, 5),
        (-1, 1),
        (-7.5, 3),
        (-7.5, 1.5),
        (-1, -2),
        (-1, -6.5),
    ]
    d.polygon([(cx + x * u, cy + y * u) for x, y in plane], fill=style.AIRFIELD)


def draw_trees(d, lay: Layout, hex_id: str, k: int) -> None:
    cx, cy = lay.center(hex_id)
    step = 30
    for j, y in enumerate(range(-int(lay.h / 2), int(lay.h / 2) + 1, 26)):
        off = step / 2 if j % 2 else 0
        x = -lay.R + off
        while x <= lay.R:
            if (
                lay.half_width(y - 9) - 9 >= abs(x)
                and lay.half_width(y + 9) - 9 >= abs(x)
                and abs(y) + 12 < lay.h / 2
            ):
                tx, ty = cx + x, cy + y
                d.polygon(
                    [
                        ((tx) * k, (ty - 9) * k),
                        ((tx - 7) * k, (ty + 5) * k),
                        ((tx + 7) * k, (ty + 5) * k),
                    ],
                    fill=style.WOODS_TREE,
                )
                d.rectangle(
                    ((tx - 1.2) * k, (ty + 5) * k, (tx + 1.2) * k, (ty + 9) * k),
                    fill=style.WOODS_TREE,
                )
            x += step


def draw_city(d, lay: Layout, hex_id: str, k: int) -> None:
    cx, cy = lay.center(hex_id)
    for j, y in enumerate(range(-int(lay.h / 2) + 30, int(lay.h / 2) - 30, 20)):
        off = 11 if j % 2 else 0
        x = -lay.R + 12 + off
        while x <= lay.R:
            if lay.half_width(y) - 14 >= abs(x) and lay.half_width(y + 8) - 14 >= abs(x):
                d.rectangle(
                    ((cx + x - 6) * k, (cy + y) * k, (cx + x + 6) * k, (cy + y + 8) * k),
                    fill=style.CITY_BLOCK,
                )
            x += 22
    d.polygon(
        [(x * k, y * k) for x, y in lay.corners(hex_id, inset=5)],
        outline=style.CITY_EDGE,
        width=round(3 * k),
    )


def build(scenario) -> Static:
    lay = Layout.for_grid(scenario.grid)
    W, H = lay.size
    k = style.SUPERSAMPLE
    big = Image.new("RGB", (W * k, H * k), style.BG)
    d = ImageDraw.Draw(big)
    mx0, my0, mx1, my1 = lay.map_box
    R = lay.R
    # the Dnieper beyond the east edge: water under the last column, covered by its hexes
    d.rectangle(((mx1 - R) * k, my0 * k, (mx1 + lay.margin * 0.6) * k, my1 * k), fill=WATER)
    # panel
    px0 = lay.panel_box[0]
    d.rectangle((px0 * k, 0, W * k, H * k), fill=style.PANEL_BG)
    d.line((px0 * k, 0, px0 * k, H * k), fill=style.PANEL_LINE, width=2 * k)
    # terrain
    fills = {"clear": style.PAPER, "woods": style.WOODS, "cherkassy": style.CITY}
    for h, spec in scenario.hexes.items():
        d.polygon(
            [(x * k, y * k) for x, y in lay.corners(h)], fill=fills.get(spec.terrain, style.PAPER)
        )
        if spec.terrain == "woods":
            draw_trees(d, lay, h, k)
        elif spec.terrain == "cherkassy":
            draw_city(d, lay, h, k)
    # hex grid
    for h in scenario.hexes:
        pts = [(x * k, y * k) for x, y in lay.corners(h)]
        d.line(pts + pts[:1], fill=style.GRID, width=round(1.5 * k))
    # rivers along their hexsides (round caps so that the hexsides join)
    rw = 8
    for a, b in (tuple(sorted(s)) for s in scenario.river_hexsides):
        p, q = lay.hexside(a, b)
        d.line((p[0] * k, p[1] * k, q[0] * k, q[1] * k), fill=style.RIVER, width=rw * k)
        for x, y in (p, q):
            r = rw / 2 * k
            d.ellipse((x * k - r, y * k - r, x * k + r, y * k + r), fill=style.RIVER)
    # map edge
    ew = 5
    for h in scenario.hexes:
        for p, q in lay.edge_sides(h):
            d.line((p[0] * k, p[1] * k, q[0] * k, q[1] * k), fill=style.EDGE, width=ew * k)
            for x, y in (p, q):
                r = ew / 2 * k
                d.ellipse((x * k - r, y * k - r, x * k + r, y * k + r), fill=style.EDGE)
    # supply hexes, airfield
    slots: dict[str, dict] = {h: {} for h in scenario.hexes}
    for h, spec in scenario.hexes.items():
        if spec.supply:
            slots[h]["left"] = f"supply_{spec.supply}"
            x, y = slot_center(lay, h, "left")
            draw_supply(d, spec.supply, x * k, y * k, 15 * k, k=k)
    airfield = scenario.flags.get("airfield_hex")
    if airfield in slots:
        slots[airfield]["right"] = "airfield"
        x, y = slot_center(lay, airfield, "right")
        draw_airfield(d, x * k, y * k, 15 * k)
    # north arrow in the free half hex above the first column
    nx, ny = mx0 + R * 0.45, my0 + lay.h * 0.28
    d.polygon(
        [
            (nx * k, (ny - 22) * k),
            ((nx - 10) * k, (ny + 12) * k),
            (nx * k, (ny + 5) * k),
            ((nx + 10) * k, (ny + 12) * k),
        ],
        fill=style.EDGE,
    )
    img = big.reduce(k)
    d = ImageDraw.Draw(img)
    st = Static(lay, img, slots=slots, panel_x=px0)
    # text, at 1x
    d.text((nx, ny + 16), "N", font=style.font(18), fill=style.EDGE, anchor="mt")
    id_font = style.font(21)
    for h, spec in scenario.hexes.items():
        cx, cy = lay.center(h)
        y = cy - lay.h / 2 + 4
        d.text((cx, y), h, font=id_font, fill=style.HEX_ID, anchor="mt")
        box = d.textbbox((cx, y), h, font=id_font, anchor="mt")
        st.text_boxes.append(box)
        if spec.name:
            st.names[h] = name_sprite(lay, h, spec, box[3])
    # the Dnieper label, vertical, in the water beyond the east edge
    _dnieper_label(img, lay)
    _legend(img, scenario, st)
    return st


def _dnieper_label(img: Image.Image, lay: Layout) -> None:
    f = style.font(15)
    text = "DNIEPER"
    w = round(f.getlength(text)) + 8
    tmp = Image.new("RGB", (w, 20), WATER)
    ImageDraw.Draw(tmp).text((w / 2, 10), text, font=f, fill=style.RIVER_LABEL, anchor="mm")
    tmp = tmp.rotate(-90, expand=True)
    mx1 = lay.map_box[2]
    # the notch between the last column's hexes 3 and 4 (or the middle of the edge)
    y = lay.margin + lay.h * (lay.nrows // 2)
    img.paste(tmp, (round(mx1 - tmp.width - 3), round(y - tmp.height / 2)))


def _legend(img: Image.Image, scenario, st: Static) -> None:
    """The legend at the bottom of the panel: counters, markers, terrain, lines and symbols."""
    lay = st.layout
    d = ImageDraw.Draw(img)
    x0 = st.panel_x + 16
    W = lay.panel_w - 32
    f = style.font(15)
    fs = style.font(13)
    top = lay.size[1] - 392
    st.legend_top = top
    d.line((x0, top, x0 + W, top), fill=style.PANEL_LINE, width=2)
    d.text((x0, top + 8), "LEGEND", font=style.font(17), fill=style.PANEL_TEXT)
    y = top + 34
    legend = st.legend

    def add(key, label):
        legend.append((key, label))

    # counters: Soviet, German, reduced, markers
    sov = next(u for u in scenario.units.values() if u.side == "soviet")
    ger = next(u for u in scenario.units.values() if u.side == "german")
    red = next((u for u in scenario.units.values() if u.side == "german" and u.steps == 2), ger)
    S = 52
    samples = [
        ("soviet_unit", counters.sprite(sov, False, False, False, S, 0), "Soviet (star)"),
        ("german_unit", counters.sprite(ger, False, False, False, S, 0), "German (cross)"),
        ("reduced", counters.sprite(red, True, False, False, S, 0), "reduced side"),
        (
            "oos",
            counters.sprite(dataclasses.replace(sov, id="unit"), False, True, False, S, 11),
            "Out of supply",
        ),
        (
            "retreat",
            counters.sprite(dataclasses.replace(ger, id="unit"), False, False, True, S, 11),
            "Retreat marker",
        ),
    ]
    cw = W / len(samples)
    for i, (key, spr, label) in enumerate(samples):
        cx = x0 + cw * i + cw / 2
        img.paste(spr, (round(cx - S / 2), y))
        d.text((cx, y + 66), label, font=fs, fill=style.PANEL_TEXT, anchor="mt")
        add(key, label)
    y += 88
    d.text(
        (x0, y),
        "Counter: id, size (X bde, XX div, XXX corps), type, strength; [n] bracketed.",
        font=fs,
        fill=style.PANEL_MUTED,
    )
    y += 22
    # NATO types
    bw, bh = 34, 18
    types = [
        ("infantry", "infantry"),
        ("cavalry", "cavalry"),
        ("armor", "armour"),
        ("mech", "mechanised"),
    ]
    tw = W / len(types)
    for i, (t, label) in enumerate(types):
        bx = x0 + tw * i
        box_big = Image.new("RGB", (bw * 4, bh * 4), style.NATO_BOX)
        counters.nato_symbol(ImageDraw.Draw(box_big), (0, 0, bw * 4 - 1, bh * 4 - 1), t, lw=6)
        img.paste(box_big.reduce(4), (round(bx), y))
        d.text((bx + bw + 6, y + bh / 2), label, font=fs, fill=style.PANEL_TEXT, anchor="lm")
        add(f"nato_{t}", label)
    y += 32
    # two columns of symbol + text
    rows = []
    rows.append(
        (
            "clear",
            "clear",
            lambda x, y: d.rectangle((x, y, x + 34, y + 20), fill=style.PAPER, outline=style.GRID),
        )
    )

    def woods(x, y):
        d.rectangle((x, y, x + 34, y + 20), fill=style.WOODS, outline=style.GRID)
        for tx in (x + 9, x + 25):
            d.polygon([(tx, y + 3), (tx - 6, y + 15), (tx + 6, y + 15)], fill=style.WOODS_TREE)

    rows.append(("woods", "woods", woods))

    def city(x, y):
        d.rectangle((x, y, x + 34, y + 20), fill=style.CITY, outline=style.CITY_EDGE, width=2)
        for bx, by in ((x + 5, y + 5), (x + 19, y + 5), (x + 12, y + 12)):
            d.rectangle((bx, by, bx + 9, by + 5), fill=style.CITY_BLOCK)

    rows.append(("cherkassy", "city (Cherkassy)", city))

    def town(x, y):
        d.ellipse((x + 12, y + 5, x + 22, y + 15), fill=style.TOWN)

    rows.append(("town", "town (name only)", town))

    def river(x, y):
        overlay.aa_patch(
            img,
            (x - 2, y - 2, x + 38, y + 24),
            lambda dd, tx, k: dd.line(
                [tx(x, y + 16), tx(x + 34, y + 4)], fill=style.RIVER, width=8 * k
            ),
        )

    rows.append(("river", "river hexside", river))

    def edge(x, y):
        d.line((x, y + 10, x + 34, y + 10), fill=style.EDGE, width=5)

    rows.append(("map_edge", "map edge", edge))

    def water(x, y):
        d.rectangle((x, y, x + 34, y + 20), fill=WATER)

    rows.append(("dnieper", "Dnieper (off map)", water))

    def sup(side):
        def fn(x, y):
            overlay.aa_patch(
                img,
                (x, y - 4, x + 36, y + 26),
                lambda dd, tx, k: draw_supply(dd, side, *tx(x + 17, y + 10), 12 * k, k=k),
            )

        return fn

    rows.append(("supply_soviet", "Soviet supply hex", sup("soviet")))
    rows.append(("supply_german", "German supply hex", sup("german")))

    def air(x, y):
        overlay.aa_patch(
            img,
            (x, y - 4, x + 36, y + 26),
            lambda dd, tx, k: draw_airfield(dd, *tx(x + 17, y + 10), 12 * k),
        )

    rows.append(("airfield", "Korsun airfield", air))

    def tych(x, y):
        draw_tychinovka(d, x + 17, y + 10, 12)

    rows.append(("tychinovka", "Tychinovka marker (T2)", tych))

    def attack(x, y):
        overlay.draw_arrow(
            img,
            (x, y + 10),
            (x + 36, y + 10),
            style.SIDE["soviet"]["arrow"],
            width=7,
            head_len=13,
            head_w=16,
            halo_w=2,
        )

    rows.append(("attack", "attack: odds, die, hits", attack))

    def move(x, y):
        overlay.draw_trail(
            img,
            [(x + 4, y + 10), (x + 30, y + 10)],
            style.SIDE["german"]["trail"],
            width=5,
            head=((x + 24, y + 10), (x + 36, y + 10)),
        )

    rows.append(("move", "move (faint trail)", move))

    def retreat(x, y):
        overlay.draw_arrow(
            img,
            (x, y + 10),
            (x + 36, y + 10),
            style.RETREAT_ARROW,
            width=6,
            head_len=12,
            head_w=15,
            halo_w=2,
            dash=6,
        )

    rows.append(("retreat_arrow", "retreat", retreat))

    half = (len(rows) + 1) // 2
    colw = W / 2
    for i, (key, label, fn) in enumerate(rows):
        col, row = divmod(i, half)
        x = x0 + col * colw
        yy = y + row * 27
        fn(x, yy)
        d.text((x + 46, yy + 10), label, font=f, fill=style.PANEL_TEXT, anchor="lm")
        add(key, label)


def draw_tychinovka(d, cx: float, cy: float, r: float) -> None:
    """The turn-2 Tychinovka marker (rule 12.8): an orange square marker, 'T2' and a bar."""
    d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=style.TYCHINOVKA, outline=style.INK, width=1)
    d.text((cx, cy + 0.5), "T2", font=style.font(round(r * 1.1)), fill=style.INK, anchor="mm")
