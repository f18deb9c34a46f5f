"""Sizes of the Hell's Gate map that make it legible on a phone.

A chat shows an image 1280 px wide on a phone (render.text.PHONE_WIDTH); the full map is wider
(about 1570 px), so every text is drawn at SMALL or larger: its capitals and digits are then at
least 9 px high at 1280 px (render.text.legible_size; tests/render/test_phone_map.py checks it
on the pixels).
"""

from __future__ import annotations

from render.text import cap_height

SMALL = 18  # the smallest font size anywhere on the map, the panel and the legend
COUNTER = 64  # side of a counter on the map: room for four lines of SMALL text
STRIP = 17  # height of the marker strip (OOS, RET) under a counter
MAX_TILES = 4  # counters of one hex drawn side by side at most; beyond, a count badge

PHONE = 390  # a phone shows a chat image this wide (css px)...
PHONE_CAP = 7.0  # ...and a text is legible there if its capitals are at least this high


def phone_size(image_width: float, least: int = SMALL) -> int:
    """The smallest font size, at least `least`, whose capitals (in the font drawn now) stay at
    least PHONE_CAP px high with a fifth of a pixel to spare once an image image_width wide is
    shown PHONE px wide."""
    factor = min(1.0, PHONE / image_width)
    size = least
    while cap_height(size) * factor < PHONE_CAP + 0.2:
        size += 1
    return size
