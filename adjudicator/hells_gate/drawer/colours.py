"""Colours of the Hell's Gate map: terrain, the two sides' counters and arrows, markers, panel.

Every colour the drawer uses is named here; the tests look pixels up by these names.
"""

from __future__ import annotations

from typing import TypedDict

RGB = tuple[int, int, int]


class Banner(TypedDict):
    """The colours of a banner: its fill, its text and its outline."""

    face: RGB
    text: RGB
    line: RGB


class SideColours(Banner):
    """A side's counters (full and reduced faces), arrows, move trails, and its name."""

    reduced: RGB
    reduced_text: RGB
    arrow: RGB
    trail: RGB
    name: str


# -- map
BG = (206, 214, 220)  # off the map
PAPER = (243, 238, 222)  # clear terrain
WOODS = (170, 204, 150)
WOODS_TREE = (96, 148, 84)
CITY = (222, 200, 190)
CITY_BLOCK = (150, 120, 112)
CITY_EDGE = (120, 70, 64)
GRID = (150, 138, 112)
EDGE = (52, 46, 40)
RIVER = (40, 110, 200)
RIVER_LABEL = (24, 82, 160)
HEX_ID = (92, 82, 64)
TOWN = (30, 26, 22)
HALO = (255, 255, 255)
WATER = (196, 220, 240)  # the Dnieper beyond the east edge

# -- sides: red-brown Soviet with a star, blue-grey German with a cross (shape cue for
# colour-blind players), as on most East-front counter sheets
SIDE: dict[str, SideColours] = {
    "soviet": {
        "face": (178, 48, 38),
        "text": (255, 255, 255),
        "line": (90, 14, 10),
        "reduced": (242, 196, 188),
        "reduced_text": (70, 16, 10),
        "arrow": (205, 30, 30),
        "trail": (190, 40, 30),
        "name": "Soviet",
    },
    "german": {
        "face": (128, 148, 168),
        "text": (10, 16, 22),
        "line": (36, 48, 62),
        "reduced": (214, 223, 232),
        "reduced_text": (20, 30, 40),
        "arrow": (30, 70, 170),
        "trail": (40, 70, 150),
        "name": "German",
    },
}
STAR = (255, 214, 70)
NATO_BOX = (255, 255, 255)
INK = (18, 18, 18)

OOS = (255, 208, 0)
OOS_TEXT = (0, 0, 0)
RETREAT = (214, 24, 28)
RETREAT_TEXT = (255, 255, 255)
TYCHINOVKA = (242, 132, 30)
AIRFIELD = (70, 70, 80)

RETREAT_ARROW = (235, 120, 0)
SHADOW = (60, 52, 44)

# -- panel
PANEL_BG = (250, 248, 242)
PANEL_LINE = (180, 170, 150)
PANEL_TEXT = (28, 26, 24)
PANEL_MUTED = (110, 104, 96)
RED_TURN = (200, 30, 30)
HILITE = (30, 30, 30)
SNOW = (222, 236, 250)
SNOW_TEXT = (30, 80, 140)
MUD = (150, 110, 70)
MUD_TEXT = (255, 255, 255)
