"""The legend of the Hell's Gate map, at the bottom of the panel of the static layer: sample
counters and markers, the NATO unit types, terrain, lines and symbols. Every item drawn is
recorded (key, label) in the layer's legend, which the tests compare with what a map shows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from adjudicator.hells_gate.drawer import colours, counters, symbols
from adjudicator.hells_gate.scenario import Scenario
from render import canvas, overlay
from render import legend as toolkit
from render.canvas import Canvas, Draw
from render.text import font

if TYPE_CHECKING:
    from adjudicator.hells_gate.drawer.terrain import Static

Row = tuple[str, str, Callable[[float, float], None]]  # key, label, draw(x, y)

SAMPLE = 52  # side of the sample counters
NATO_TYPES = [
    ("infantry", "infantry"),
    ("cavalry", "cavalry"),
    ("armor", "armour"),
    ("mech", "mechanised"),
]


def draw_legend(img: Canvas, scenario: Scenario, st: Static) -> None:
    lay = st.layout
    d = canvas.draw(img)
    x0 = st.panel_x + 16
    W = lay.panel_w - 32
    top = lay.size[1] - 392
    st.legend_top = top
    toolkit.heading(d, x0, top, W, "LEGEND", colours.PANEL_LINE, colours.PANEL_TEXT)
    y = top + 34
    samples = _samples(scenario)
    sprites = [(spr, label) for _, spr, label in samples]
    toolkit.sample_row(img, d, x0, y, W, sprites, colours.PANEL_TEXT)
    st.legend.extend((key, label) for key, _, label in samples)
    y += 88
    d.text(
        (x0, y),
        "Counter: id, size (X bde, XX div, XXX corps), type, strength; [n] bracketed.",
        font=font(13),
        fill=colours.PANEL_MUTED,
    )
    y += 22
    toolkit.inline_row(
        img, d, x0, y, W, [(_nato_box(t), label) for t, label in NATO_TYPES], colours.PANEL_TEXT
    )
    st.legend.extend((f"nato_{t}", label) for t, label in NATO_TYPES)
    y += 32
    rows = _terrain_rows(img, d) + _symbol_rows(img, d)
    toolkit.symbol_columns(d, x0, y, W, [(fn, label) for _, label, fn in rows], colours.PANEL_TEXT)
    st.legend.extend((key, label) for key, label, _ in rows)


def _samples(scenario: Scenario) -> list[tuple[str, Canvas, str]]:
    """(key, counter sprite, label): a Soviet, a German and a reduced unit, the two markers."""
    units = scenario.units.values()
    sov = next(u for u in units if u.side == "soviet")
    ger = next(u for u in units if u.side == "german")
    red = next((u for u in units if u.side == "german" and u.steps == 2), ger)
    S = SAMPLE
    return [
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


def _nato_box(unit_type: str) -> Canvas:
    """The NATO symbol of a unit type, 34 x 18, drawn at 4x and reduced."""
    bw, bh = 34, 18
    box_big = canvas.new_image((bw * 4, bh * 4), colours.NATO_BOX)
    counters.nato_symbol(canvas.draw(box_big), (0, 0, bw * 4 - 1, bh * 4 - 1), unit_type, lw=6)
    return box_big.reduce(4)


def _terrain_rows(img: Canvas, d: Draw) -> list[Row]:
    """(key, label, draw(x, y)) of the terrain and the map's lines."""

    def clear(x: float, y: float) -> None:
        d.rectangle((x, y, x + 34, y + 20), fill=colours.PAPER, outline=colours.GRID)

    def woods(x: float, y: float) -> None:
        d.rectangle((x, y, x + 34, y + 20), fill=colours.WOODS, outline=colours.GRID)
        for tx in (x + 9, x + 25):
            d.polygon([(tx, y + 3), (tx - 6, y + 15), (tx + 6, y + 15)], fill=colours.WOODS_TREE)

    def city(x: float, y: float) -> None:
        d.rectangle((x, y, x + 34, y + 20), fill=colours.CITY, outline=colours.CITY_EDGE, width=2)
        for bx, by in ((x + 5, y + 5), (x + 19, y + 5), (x + 12, y + 12)):
            d.rectangle((bx, by, bx + 9, by + 5), fill=colours.CITY_BLOCK)

    def town(x: float, y: float) -> None:
        d.ellipse((x + 12, y + 5, x + 22, y + 15), fill=colours.TOWN)

    def river(x: float, y: float) -> None:
        overlay.aa_patch(
            img,
            (x - 2, y - 2, x + 38, y + 24),
            lambda dd, tx, k: dd.line(
                [tx(x, y + 16), tx(x + 34, y + 4)], fill=colours.RIVER, width=8 * k
            ),
        )

    def edge(x: float, y: float) -> None:
        d.line((x, y + 10, x + 34, y + 10), fill=colours.EDGE, width=5)

    def water(x: float, y: float) -> None:
        d.rectangle((x, y, x + 34, y + 20), fill=colours.WATER)

    return [
        ("clear", "clear", clear),
        ("woods", "woods", woods),
        ("cherkassy", "city (Cherkassy)", city),
        ("town", "town (name only)", town),
        ("river", "river hexside", river),
        ("map_edge", "map edge", edge),
        ("dnieper", "Dnieper (off map)", water),
    ]


def _symbol_rows(img: Canvas, d: Draw) -> list[Row]:
    """(key, label, draw(x, y)) of the map symbols, the marker and the arrows."""

    def sup(side: str) -> Callable[[float, float], None]:
        def fn(x: float, y: float) -> None:
            overlay.aa_patch(
                img,
                (x, y - 4, x + 36, y + 26),
                lambda dd, tx, k: symbols.draw_supply(dd, side, *tx(x + 17, y + 10), 12 * k, k=k),
            )

        return fn

    def air(x: float, y: float) -> None:
        overlay.aa_patch(
            img,
            (x, y - 4, x + 36, y + 26),
            lambda dd, tx, k: symbols.draw_airfield(dd, *tx(x + 17, y + 10), 12 * k),
        )

    def tych(x: float, y: float) -> None:
        symbols.draw_tychinovka(d, x + 17, y + 10, 12)

    return [
        ("supply_soviet", "Soviet supply hex", sup("soviet")),
        ("supply_german", "German supply hex", sup("german")),
        ("airfield", "Korsun airfield", air),
        ("tychinovka", "Tychinovka marker (T2)", tych),
        ("attack", "attack: odds, die, hits", lambda x, y: _attack(img, x, y)),
        ("move", "move (faint trail)", lambda x, y: _move(img, x, y)),
        ("retreat_arrow", "retreat", lambda x, y: _retreat(img, x, y)),
    ]


def _attack(img: Canvas, x: float, y: float) -> None:
    overlay.draw_arrow(
        img,
        (x, y + 10),
        (x + 36, y + 10),
        colours.SIDE["soviet"]["arrow"],
        width=7,
        head_len=13,
        head_w=16,
        halo_w=2,
    )


def _move(img: Canvas, x: float, y: float) -> None:
    overlay.draw_trail(
        img,
        [(x + 4, y + 10), (x + 30, y + 10)],
        colours.SIDE["german"]["trail"],
        width=5,
        head=((x + 24, y + 10), (x + 36, y + 10)),
    )


def _retreat(img: Canvas, x: float, y: float) -> None:
    overlay.draw_arrow(
        img,
        (x, y + 10),
        (x + 36, y + 10),
        colours.RETREAT_ARROW,
        width=6,
        head_len=12,
        head_w=15,
        halo_w=2,
        dash=6,
    )
