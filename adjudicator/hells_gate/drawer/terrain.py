"""The static layer of a Hell's Gate map: everything that does not change during a game, drawn
once per scenario.

Map (terrain, hex ids, town names, rivers on their hexsides, supply hexes, the map edge, the
Dnieper beyond the east edge, a north arrow), the panel background and the legend. Shapes are
drawn at SUPERSAMPLE x and reduced once (anti-aliased edges); text is drawn after the reduction,
at 1x, so it stays crisp.
"""

from __future__ import annotations

from adjudicator.core.i18n import EN, Language, say, t
from adjudicator.hells_gate.drawer import colours, legend, names, symbols
from adjudicator.hells_gate.drawer.layers import Static
from adjudicator.hells_gate.drawer.names import whole_map_width
from adjudicator.hells_gate.drawer.sizes import phone_size
from adjudicator.hells_gate.scenario import Scenario
from render import canvas, labels
from render.canvas import Canvas, Colour, Draw, Point
from render.hexes import Layout
from render.text import drawn, text, vertical_label

SUPERSAMPLE = 2  # the static layer is drawn at 2x and reduced once
ID_SIZE = 21  # hex ids: read on a focus crop or the full map (exempt from the phone's floor)


def build(scenario: Scenario, language: Language = EN) -> Static:
    lay = Layout.for_grid(scenario.grid)
    W, H = lay.size
    k = SUPERSAMPLE
    big = canvas.new_image((W * k, H * k), colours.BG)
    d = canvas.draw(big)
    _background(d, lay, k)
    _terrain(d, scenario, lay, k)
    _rivers_and_edge(d, scenario, lay, k)
    slots = _symbols(d, scenario, lay, k)
    north = _north_arrow(d, lay, k)
    img = big.reduce(k)
    st = Static(lay, img, slots=slots, panel_x=lay.panel_box[0])
    # text, at 1x; its labels kept with the layer, to be recorded on every image made of it
    with labels.recording() as found:
        _texts(img, scenario, st, north, language)
        _dnieper_label(img, lay, language)
        legend.draw_legend(img, scenario, st, language)
    st.labels = tuple(found)
    return st


def _background(d: Draw, lay: Layout, k: int) -> None:
    """The Dnieper beyond the east edge (water under the last column, covered by its hexes) and
    the panel."""
    W, H = lay.size
    _, my0, mx1, my1 = lay.map_box
    d.rectangle(
        ((mx1 - lay.R) * k, my0 * k, (mx1 + lay.margin * 0.6) * k, my1 * k), fill=colours.WATER
    )
    px0 = lay.panel_box[0]
    d.rectangle((px0 * k, 0, W * k, H * k), fill=colours.PANEL_BG)
    d.line((px0 * k, 0, px0 * k, H * k), fill=colours.PANEL_LINE, width=2 * k)


def _terrain(d: Draw, scenario: Scenario, lay: Layout, k: int) -> None:
    """Every hex's terrain, then the hex grid over them."""
    fills = {"clear": colours.PAPER, "woods": colours.WOODS, "cherkassy": colours.CITY}
    for h, spec in scenario.hexes.items():
        d.polygon(
            [(x * k, y * k) for x, y in lay.corners(h)],
            fill=fills.get(spec.terrain, colours.PAPER),
        )
        if spec.terrain == "woods":
            draw_trees(d, lay, h, k)
        elif spec.terrain == "cherkassy":
            draw_city(d, lay, h, k)
    for h in scenario.hexes:
        pts = [(x * k, y * k) for x, y in lay.corners(h)]
        d.line(pts + pts[:1], fill=colours.GRID, width=round(1.5 * k))


def _side_line(d: Draw, p: Point, q: Point, colour: Colour, width: int, k: int) -> None:
    """A line along a hexside with round caps, so that the hexsides join."""
    d.line((p[0] * k, p[1] * k, q[0] * k, q[1] * k), fill=colour, width=width * k)
    for x, y in (p, q):
        r = width / 2 * k
        d.ellipse((x * k - r, y * k - r, x * k + r, y * k + r), fill=colour)


def _rivers_and_edge(d: Draw, scenario: Scenario, lay: Layout, k: int) -> None:
    for a, b in (tuple(sorted(s)) for s in scenario.river_hexsides):
        _side_line(d, *lay.hexside(a, b), colours.RIVER, 8, k)
    for h in scenario.hexes:
        for p, q in lay.edge_sides(h):
            _side_line(d, p, q, colours.EDGE, 5, k)


def _symbols(d: Draw, scenario: Scenario, lay: Layout, k: int) -> dict[str, dict[str, str]]:
    """Supply hexes (left slot) and the airfield (right slot); returns what is in each slot."""
    slots: dict[str, dict[str, str]] = {h: {} for h in scenario.hexes}
    for h, spec in scenario.hexes.items():
        if spec.supply:
            slots[h]["left"] = f"supply_{spec.supply}"
            x, y = symbols.slot_center(lay, h, "left")
            symbols.draw_supply(d, spec.supply, x * k, y * k, 15 * k, k=k)
    airfield = scenario.flags.get("airfield_hex")
    if airfield in slots:
        slots[airfield]["right"] = "airfield"
        x, y = symbols.slot_center(lay, airfield, "right")
        symbols.draw_airfield(d, x * k, y * k, 15 * k)
    return slots


def _north_arrow(d: Draw, lay: Layout, k: int) -> Point:
    """The north arrow in the free half hex above the first column; returns its centre."""
    mx0, my0, _, _ = lay.map_box
    nx, ny = mx0 + lay.R * 0.45, my0 + lay.h * 0.28
    d.polygon(
        [
            (nx * k, (ny - 22) * k),
            ((nx - 10) * k, (ny + 12) * k),
            (nx * k, (ny + 5) * k),
            ((nx + 10) * k, (ny + 12) * k),
        ],
        fill=colours.EDGE,
    )
    return nx, ny


def _texts(img: Canvas, scenario: Scenario, st: Static, north: Point, language: Language) -> None:
    """The N of the north arrow, the hex ids and the town names' sprites."""
    lay = st.layout
    nx, ny = north
    n = say(t("N"), language)  # north
    text(img, (nx, ny + 14), n, phone_size(whole_map_width(lay)), colours.EDGE, anchor="mt")
    for h, spec in scenario.hexes.items():
        cx, cy = lay.center(h)
        y = cy - lay.h / 2 + 4
        box = text(img, (cx, y), h, ID_SIZE, colours.HEX_ID, anchor="mt", kind="id")
        st.text_boxes.append(box)
        if spec.name:
            marker = scenario.flags.get("tychinovka_marker_hex")  # its slot, on turn 2
            has_symbols = bool(st.slots.get(h)) or h == marker
            st.names[h] = names.name_sprite(lay, h, spec, box[3], language, has_symbols)


def draw_trees(d: Draw, lay: Layout, hex_id: str, k: int) -> None:
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
                _tree(d, cx + x, cy + y, k)
            x += step


def _tree(d: Draw, tx: float, ty: float, k: int) -> None:
    d.polygon(
        [
            ((tx) * k, (ty - 9) * k),
            ((tx - 7) * k, (ty + 5) * k),
            ((tx + 7) * k, (ty + 5) * k),
        ],
        fill=colours.WOODS_TREE,
    )
    d.rectangle(
        ((tx - 1.2) * k, (ty + 5) * k, (tx + 1.2) * k, (ty + 9) * k),
        fill=colours.WOODS_TREE,
    )


def draw_city(d: Draw, lay: Layout, hex_id: str, k: int) -> None:
    cx, cy = lay.center(hex_id)
    for j, y in enumerate(range(-int(lay.h / 2) + 30, int(lay.h / 2) - 30, 20)):
        off = 11 if j % 2 else 0
        x = -lay.R + 12 + off
        while x <= lay.R:
            if lay.half_width(y) - 14 >= abs(x) and lay.half_width(y + 8) - 14 >= abs(x):
                d.rectangle(
                    ((cx + x - 6) * k, (cy + y) * k, (cx + x + 6) * k, (cy + y + 8) * k),
                    fill=colours.CITY_BLOCK,
                )
            x += 22
    d.polygon(
        [(x * k, y * k) for x, y in lay.corners(hex_id, inset=5)],
        outline=colours.CITY_EDGE,
        width=round(3 * k),
    )


def _dnieper_label(img: Canvas, lay: Layout, language: Language) -> None:
    """The Dnieper's name, vertical, in the water beyond the east edge."""
    label = say(t("DNIEPER"), language)
    size = phone_size(whole_map_width(lay))
    tmp = vertical_label(label, size, colours.RIVER_LABEL, colours.WATER, height=size + 4)
    mx1 = lay.map_box[2]
    # the notch between the last column's hexes 3 and 4 (or the middle of the edge)
    y = lay.margin + lay.h * (lay.nrows // 2)
    x0, y0 = round(mx1 - tmp.width - 1), round(y - tmp.height / 2)
    img.paste(tmp, (x0, y0))
    drawn(label, (x0, y0, x0 + tmp.width, y0 + tmp.height), size)  # its letters stand sideways
