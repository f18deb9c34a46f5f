"""Rendered map images of a game: state in, PNG bytes out, no other I/O.

    render_map(scenario, state, events=(), view=None, title=None) -> bytes
    render_debug(scenario, state, events=(), view=None, title=None) -> dict
    visible_units(scenario, state, view=None) -> list[UnitState]

`events` are the events since the last phase image (Event objects or their dicts): the attacks
of the last combat phase among them are drawn as arrows with odds and results, moves as faint
trails, retreats as dashed arrows; destroyed units are listed in the panel. `view` is None (all)
or a side; it only acts through visible_units. The rules code never imports this package.

The static layer (terrain, rivers, names, legend) is drawn once per scenario and cached; a
phase image is a copy of it with counters, markers, arrows and the panel drawn on top.
"""

from __future__ import annotations

from render.frame import clear_cache, compose, render_png, visible_units


def render_map(scenario, state, events=(), view=None, title=None) -> bytes:
    """The map as PNG bytes."""
    return render_png(scenario, state, events, view, title)


def render_debug(scenario, state, events=(), view=None, title=None) -> dict:
    """What render_map draws, as data, for tests: unit id -> hex, pixel box and centre, markers,
    arrows and labels, the legend keys and the kinds of things drawn; "image" is the RGB image
    before encoding."""
    _, dbg = compose(scenario, state, events, view, title)
    return dbg


__all__ = ["clear_cache", "compose", "render_debug", "render_map", "visible_units"]
