"""The legend of the Hell's Gate map, at the bottom of the panel of the static layer: sample
counters and markers, the NATO unit types, terrain, lines and symbols. Every item drawn is
recorded (key, label) in the layer's legend, which the tests compare with what a map shows."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

from adjudicator.core.i18n import EN, Language, Msg, say, t
from adjudicator.hells_gate.drawer import colours, counters, symbols
from adjudicator.hells_gate.drawer.layers import Static
from adjudicator.hells_gate.drawer.sizes import COUNTER, SMALL, STRIP
from adjudicator.hells_gate.drawer.words import strip_labels
from adjudicator.hells_gate.scenario import Scenario
from render import canvas, overlay
from render import legend as toolkit
from render.canvas import Canvas, Colour, Draw
from render.labels import Label
from render.text import text_length, wrap

Draw_ = Callable[[float, float], None]  # draws a legend's symbol with its top-left at x, y
Row = tuple[str, Msg, Draw_]  # key, label, draw(x, y)

SAMPLE = COUNTER  # side of the sample counters: as on the map
NATO_LABELS = [
    ("infantry", t("infantry")),
    ("cavalry", t("cavalry")),
    ("armor", t("armour")),
    ("mech", t("mechanised")),
]


def draw_legend(img: Canvas, scenario: Scenario, st: Static, language: Language = EN) -> None:
    """The legend at the bottom of the panel, its text at sizes.SMALL in the language; every
    arrow and trail in the colour of the side that drew it, as on the map."""
    lay = st.layout
    d = canvas.draw(img)
    x0 = st.panel_x + 16
    W = lay.panel_w - 32
    about = wrap(say(COUNTER_TEXT, language), SMALL, W)
    rows = [
        (key, say(label, language), fn)
        for key, label, fn in _terrain_rows(img, d) + _symbol_rows(img, d)
    ]
    nato = [(key, say(label, language)) for key, label in NATO_LABELS]
    per_col = math.ceil(len(rows) / 2)
    samples_h = SAMPLE + STRIP + 2 + 2 * (SMALL + 4) + 8  # counters, marker strips, 2 lines
    height = 34 + samples_h + len(about) * LINE + 2 * NATO_H + 4 + per_col * ROW
    top = lay.size[1] - height - 12
    st.legend_top = top
    heading = say(t("LEGEND"), language)
    toolkit.heading(d, x0, top, W, heading, colours.PANEL_LINE, colours.PANEL_TEXT, SMALL)
    y = top + 34
    samples = _samples(scenario, language)
    sprites = [(spr, label) for _, (spr, _), label in samples]
    toolkit.sample_row(
        img, d, x0, y, W, sprites, colours.PANEL_TEXT, size=SMALL, label_dy=SAMPLE + STRIP + 2
    )
    for i, (_, (spr, texts), _) in enumerate(samples):  # as sample_row places them
        counters.note_at(texts, (round(x0 + W / len(samples) * (i + 0.5) - spr.width / 2), y))
    st.legend.extend((key, label.replace("\n", " ")) for key, _, label in samples)
    y += samples_h
    for line in about:
        toolkit.write(d, (x0, y), line, SMALL, colours.PANEL_MUTED)
        y += LINE
    for pair in (nato[:2], nato[2:]):
        items = [(_nato_box(kind), label) for kind, label in pair]
        toolkit.inline_row(img, d, x0, y, W, items, colours.PANEL_TEXT, size=SMALL)
        y += NATO_H
    st.legend.extend((f"nato_{kind}", label) for kind, label in nato)
    toolkit.symbol_columns(
        d,
        x0,
        y + 4,
        W,
        [(_recorded(st, key, fn), label) for key, label, fn in rows],
        colours.PANEL_TEXT,
        size=SMALL,
        row_h=ROW,
    )
    st.legend.extend((key, label) for key, label, _ in rows)


def _recorded(st: Static, key: str, fn: Callable[[float, float], None]) -> Callable[..., None]:
    """fn, also keeping where it drew its symbol (st.legend_at[key]: the top-left corner)."""

    def at(x: float, y: float) -> None:
        st.legend_at[key] = (x, y)
        fn(x, y)

    return at


COUNTER_TEXT = t("Counter: id, size (X bde, XX div, XXX corps), type, strength; [n] bracketed.")
LINE = 22  # between lines of text
ROW = 28  # between rows of symbols
NATO_H = 28  # between rows of unit types


def _samples(
    scenario: Scenario, language: Language
) -> list[tuple[str, tuple[Canvas, tuple[Label, ...]], str]]:
    """(key, (counter sprite, its labels), label): a Soviet, a German and a reduced unit, the two
    markers."""
    units = scenario.units.values()
    sov = next(u for u in units if u.side == "soviet")
    ger = next(u for u in units if u.side == "german")
    red = next((u for u in units if u.side == "german" and u.steps == 2), ger)
    S = SAMPLE
    marks = strip_labels(language)
    unit = say(t("unit"), language)  # the id on the sample marker counters
    drawn = counters.sprite_with_labels
    oos = drawn(dataclasses.replace(sov, id=unit), False, True, False, S, STRIP, marks)
    ret = drawn(dataclasses.replace(ger, id=unit), False, False, True, S, STRIP, marks)
    return [
        (key, spr, say(label, language))
        for key, spr, label in (
            ("soviet_unit", drawn(sov, False, False, False, S, 0), t("Soviet\n(star)")),
            ("german_unit", drawn(ger, False, False, False, S, 0), t("German\n(cross)")),
            ("reduced", drawn(red, True, False, False, S, 0), t("reduced\nside")),
            ("oos", oos, t("out of\nsupply")),
            ("retreat", ret, t("retreat\nmarker")),
        )
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
        ("clear", t("clear"), clear),
        ("woods", t("woods"), woods),
        ("cherkassy", t("city (Cherkassy)"), city),
        ("town", t("town"), town),
        ("river", t("river hexside"), river),
        ("map_edge", t("map edge"), edge),
        ("dnieper", t("Dnieper (off map)"), water),
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
        symbols.draw_tychinovka(d, x + 17, y + 10, 12, kind="symbol")  # its line says "T2"

    return [
        ("supply_soviet", t("Soviet supply hex"), sup("soviet")),
        ("supply_german", t("German supply hex"), sup("german")),
        ("airfield", t("Korsun airfield"), air),
        ("tychinovka", t("Tychinovka (T2)"), tych),
        ("attack_soviet", t("Soviet attack"), _attack(img, "soviet")),
        ("attack_german", t("German attack"), _attack(img, "german")),
        ("move_soviet", t("Soviet move"), _move(img, "soviet")),
        ("move_german", t("German move"), _move(img, "german")),
        ("retreat_arrow", t("retreat"), lambda x, y: _retreat(img, x, y)),
    ]


def _attack(img: Canvas, side: str) -> Callable[[float, float], None]:
    """An attack arrow of a side, in the side's arrow colour (as drawer/attacks.py draws it)."""

    def fn(x: float, y: float) -> None:
        overlay.draw_arrow(
            img,
            (x, y + 10),
            (x + 36, y + 10),
            colours.SIDE[side]["arrow"],
            width=7,
            head_len=13,
            head_w=16,
            halo_w=2,
        )

    return fn


def _move(img: Canvas, side: str) -> Callable[[float, float], None]:
    """A move trail of a side, in the side's trail colour (as drawer/frame.py draws it)."""

    def fn(x: float, y: float) -> None:
        overlay.draw_trail(
            img,
            [(x + 4, y + 10), (x + 30, y + 10)],
            colours.SIDE[side]["trail"],
            width=5,
            head=((x + 24, y + 10), (x + 36, y + 10)),
        )

    return fn


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


COMPACT = ("river", "woods", "cherkassy", "town", "supply_soviet", "supply_german", "airfield")
COMPACT_IF_DRAWN = (
    "tychinovka",
    "attack_soviet",
    "attack_german",
    "retreat_arrow",
    "move_soviet",
    "move_german",
)


CHIPS = ("soviet_unit", "german_unit")
CHIPS_IF_DRAWN = ("reduced", "oos", "retreat")
LABEL_DX = 46  # a symbol's left edge to its label (render.legend.symbol_columns)


def compact_rows(img: Canvas, drawn: set[str], language: Language = EN) -> list[tuple[str, str]]:
    """(key, label) of a compact legend on img (the whole map of a post): its unit chips
    (drawer/chips.py), the map's lines and symbols, and the arrows and marker of this image
    (drawn: what the map drew)."""
    d = canvas.draw(img)
    keys = [
        *CHIPS,
        *(k for k in CHIPS_IF_DRAWN if k in drawn),
        *COMPACT,
        *(k for k in COMPACT_IF_DRAWN if k in drawn),
    ]
    rows = {key: (say(label, language).replace("\n", " "), fn) for key, label, fn in _rows(img, d)}
    return [(key, rows[key][0]) for key in keys if key in rows]


def draw_compact(
    img: Canvas, x0: float, y: float, width: float, drawn: set[str], size: int, language: Language
) -> list[str]:
    """The compact legend (compact_rows) in two columns from (x0, y), its text at size; returns
    the keys drawn."""
    d = canvas.draw(img)
    rows = {key: fn for key, _, fn in _rows(img, d)}
    shown = compact_rows(img, drawn, language)
    toolkit.symbol_columns(
        d,
        x0,
        y,
        width,
        [(rows[key], label) for key, label in shown],
        colours.PANEL_TEXT,
        size=size,
        columns=compact_columns([label for _, label in shown], size, width),
        row_h=compact_row_h(size),
    )
    return [key for key, _ in shown]


def compact_columns(labels: list[str], size: int, width: float) -> int:
    """Three columns if every label fits one (after its symbol), else two."""
    widest = max((text_length(s, size) for s in labels), default=0)
    return 3 if LABEL_DX + widest + 10 <= width / 3 else 2


def compact_height(labels: list[str], size: int, width: float) -> int:
    """The height of the compact legend with these labels."""
    return compact_row_h(size) * math.ceil(len(labels) / compact_columns(labels, size, width))


def compact_row_h(size: int) -> int:
    return max(ROW, round(size * 1.45))


def _rows(img: Canvas, d: Draw) -> list[Row]:
    return _chip_rows(d) + _terrain_rows(img, d) + _symbol_rows(img, d)


def _chip_rows(d: Draw) -> list[Row]:
    """(key, label, draw(x, y)) of the unit chips of the whole map of a post."""

    def chip(side: str, reduced: bool = False, band: Colour | None = None) -> Draw_:
        c = colours.SIDE[side]

        def fn(x: float, y: float) -> None:
            face = c["reduced"] if reduced else c["face"]
            d.rectangle((x, y, x + 34, y + 20), fill=face, outline=c["line"], width=2)
            if band is not None:
                d.rectangle((x + 2, y + 14, x + 32, y + 18), fill=band)
                d.line((x + 2, y + 13, x + 32, y + 13), fill=colours.INK)

        return fn

    return [
        ("soviet_unit", t("Soviet unit"), chip("soviet")),
        ("german_unit", t("German unit"), chip("german")),
        ("reduced", t("reduced\nside"), chip("german", reduced=True)),
        ("oos", t("out of\nsupply"), chip("soviet", band=colours.OOS)),
        ("retreat", t("retreat\nmarker"), chip("german", band=colours.RETREAT)),
    ]
