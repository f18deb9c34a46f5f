"""Map symbols of Hell's Gate: supply hexes, the Korsun airfield, the Tychinovka marker, and the
slots at a hex's left and right corners where they go."""

from __future__ import annotations

from adjudicator.hells_gate.drawer import colours, counters
from adjudicator.hells_gate.drawer.sizes import SMALL
from render.canvas import Draw
from render.hexes import Layout
from render.text import drawn, font

AIRCRAFT = [  # seen from above, in tenths of the disc's radius
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


def slot_center(lay: Layout, hex_id: str, slot: str) -> tuple[float, float]:
    """The centre of the symbol slot "left" or "right" of a hex."""
    cx, cy = lay.center(hex_id)
    return (cx - 0.79 * lay.R, cy) if slot == "left" else (cx + 0.79 * lay.R, cy)


def draw_supply(d: Draw, side: str, cx: float, cy: float, r: float, k: float = 1) -> None:
    """A supply hex of a side: its emblem in a white disc ringed in the side's colour."""
    ring = colours.SIDE[side]["face"] if side == "soviet" else colours.SIDE[side]["line"]
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ring, width=round(r * 0.22)
    )
    counters.emblem(d, side, cx, cy, r * 0.62, k=k)


def draw_airfield(d: Draw, cx: float, cy: float, r: float) -> None:
    """An aircraft seen from above in a white disc."""
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=(255, 255, 255),
        outline=colours.AIRFIELD,
        width=round(r * 0.14),
    )
    u = r / 10
    d.polygon([(cx + x * u, cy + y * u) for x, y in AIRCRAFT], fill=colours.AIRFIELD)


def draw_tychinovka(
    d: Draw, cx: float, cy: float, r: float, size: int | None = None, kind: str = "counter"
) -> None:
    """The turn-2 Tychinovka marker (rule 12.8): an orange square marker, 'T2' at font size
    `size` (by default as large as the marker allows)."""
    d.rectangle(
        (cx - r, cy - r, cx + r, cy + r), fill=colours.TYCHINOVKA, outline=colours.INK, width=1
    )
    size = size or max(SMALL, round(r * 1.1))
    d.text((cx, cy + 0.5), "T2", font=font(size), fill=colours.INK, anchor="mm")
    x0, y0, x1, y1 = d.textbbox((cx, cy + 0.5), "T2", font=font(size), anchor="mm")
    drawn("T2", (round(x0), round(y0), round(x1), round(y1)), size, kind)  # a marker's
