"""A drawing toolkit for board-game maps (Pillow), knowing no game: game drawers build on it.

    render.canvas     new_image, draw: canvases and drawing contexts
    render.hexes      Layout: a flat-topped hex grid in pixels, with a side panel beside the map
    render.stacks     stack_geometry: counters of a stack tiled around a hex centre
    render.text       font, text, text_length, fit_size, fit_font, wrap, vertical_label
    render.labels     recording, legibility: each label's box, measured as a phone shows it
    render.overlay    aa_patch, draw_arrow, draw_trail, shorten, badge_label: anti-aliased overlays
    render.placement  Occupancy, exit_distance, span, arrow_span, label_box: where overlays go
    render.legend     heading, sample_row, inline_row, symbol_columns: legend machinery
    render.panel      track, text_block: panel machinery
    render.palette    build_palette: a fixed palette from probe images given by the caller
    render.png        encode: PNG bytes, mapped to a fixed palette if given
    render.cache      LayerCache: layers (e.g. a static layer) cached by a caller-given key

Everything is deterministic: only the font bundled with Pillow is used, so images are the same
on every machine with the same Pillow.
"""

from __future__ import annotations

from render.cache import LayerCache
from render.canvas import draw, new_image
from render.hexes import Layout
from render.palette import build_palette
from render.png import encode
from render.stacks import stack_geometry

__all__ = ["LayerCache", "Layout", "build_palette", "draw", "encode", "new_image", "stack_geometry"]
