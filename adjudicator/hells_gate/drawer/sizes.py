"""Sizes of the Hell's Gate map that make it legible on a phone.

A chat shows an image 1280 px wide on a phone (render.text.PHONE_WIDTH); the full map is wider
(about 1570 px), so every text is drawn at SMALL or larger: its capitals and digits are then at
least 9 px high at 1280 px (render.text.legible_size; tests/render/test_phone_map.py checks it
on the pixels).
"""

from __future__ import annotations

SMALL = 18  # the smallest font size anywhere on the map, the panel and the legend
COUNTER = 64  # side of a counter on the map: room for four lines of SMALL text
STRIP = 17  # height of the marker strip (OOS, RET) under a counter
MAX_TILES = 4  # counters of one hex drawn side by side at most; beyond, a count badge
