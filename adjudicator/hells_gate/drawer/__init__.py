"""The Hell's Gate map drawer: state in, PNG bytes out, no other I/O.

    draw(system, state, events, view=None, title=None, language=EN) -> bytes   # the app's call
    draw_focus(system, state, events, view=None, title=None, language=EN) -> bytes   # a post's
    draw_map(scenario, state, events=(), view=None, title=None) -> bytes
    draw_debug(scenario, state, events=(), view=None, title=None) -> dict
    visible_units(scenario, state, view=None) -> list[UnitState]
    compose(scenario, state, events=(), view=None, title=None) -> (RGB image, debug dict)
    clear_cache()

`events` are the events since the last phase image (Event objects or their dicts): the attacks
of the last combat phase among them are drawn as arrows with odds and results, moves as faint
trails, retreats as dashed arrows; destroyed units are listed in the panel. `view` is None (all)
or a side; it only acts through visible_units.

The static layer (terrain, rivers, names, legend) is drawn once per scenario and cached; a
phase image is a copy of it with counters, markers, arrows and the panel drawn on top. The
drawing itself (canvas, hex geometry, text, arrows, legend and panel machinery, palette, PNG,
caches) is the game-agnostic toolkit in `render/`; this package is the only part of Hell's Gate
that uses it, and the rules never import this package.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from adjudicator.core.i18n import EN, Language
from adjudicator.hells_gate.drawer.events import EventLike
from adjudicator.hells_gate.drawer.focus import compose_focus
from adjudicator.hells_gate.drawer.frame import (
    clear_cache,
    compose,
    draw_png,
    static_layer,
    visible_units,
)
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState
from render import png

if TYPE_CHECKING:
    from adjudicator.hells_gate.system import HellsGateSystem


def draw_map(
    scenario: Scenario,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    """The map as PNG bytes."""
    return draw_png(scenario, state, events, view, title, language=language)


def draw(
    system: HellsGateSystem,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    """The drawer's entry point for the application core (GameSystem.drawer names this
    package): the map of a bound Hell's Gate system's state, its labels in `language`."""
    return draw_png(system.scenario, state, events, view, title, language=language)


def draw_focus(
    system: HellsGateSystem,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    """The focus image of a phase post (drawer/focus.py): the area of the last phase's actions,
    cropped and enlarged, a compact panel below, at most 1280 px on its long side; or the whole
    map, its units as chips (drawer/chips.py) and a compact legend; its labels in `language`,
    legible on a phone 390 px wide."""
    img, _ = compose_focus(system.scenario, state, events, view, title, language=language)
    return png.encode(img, static_layer(system.scenario, language).palette)


def draw_debug(
    scenario: Scenario,
    state: GameState,
    events: Iterable[EventLike] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> dict[str, Any]:
    """What draw_map draws, as data, for tests: unit id -> hex, pixel box and centre, markers,
    arrows and labels, the legend keys and the kinds of things drawn; "image" is the RGB image
    before encoding."""
    _, dbg = compose(scenario, state, events, view, title, language=language)
    return dbg


__all__ = [
    "clear_cache",
    "compose",
    "compose_focus",
    "draw",
    "draw_debug",
    "draw_focus",
    "draw_map",
    "visible_units",
]
