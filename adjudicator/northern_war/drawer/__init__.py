"""The block game's image for a phone, drawn with the render toolkit from a viewer's view of the
state (system.view), upright and S.WIDTH wide, every label at least 7 px high once shown 390 px
wide: the heading; the battle now fought or just reported, if any (its blocks face up as the
battle reveals them, N24, with their strength, and what happened); the map (chart.py: the
viewer's own blocks face up with their strength, blocks a battle reveals too, every other block
face down in its nation's colour, names beside the circles, moves as arrows); the viewer's own
blocks by territory, named as a player types them, with strength and rating; what the viewer
has seen (strength then); the legend. The public image (no side) shows every block face down
but those of a battle. It never reads the full state.

Every label is said in the `language` asked for: names in the scenario's Russian forms, the
rest from the package's catalogue, drawn in the wide font in a language other than English."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PIL import Image

from adjudicator.core.i18n import EN, ENGLISH, Language
from adjudicator.northern_war.drawer import chart, panels
from adjudicator.northern_war.drawer import style as S
from render import canvas, labels, png, text

TALL = 2400  # a strip's room before it is cut to what it used


def draw(
    system: Any,
    state: Any,
    events: Iterable[Any] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    return png.encode(compose(system, state, events, view, title, language=language))


def compose(
    system: Any,
    state: Any,
    events: Iterable[Any] = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> canvas.Canvas:
    """The image, before encoding (see the module doc)."""
    sc = system.scenario
    said = [e.to_dict() if hasattr(e, "to_dict") else e for e in events]  # stored or Event
    said = [e for e in said if isinstance(e, dict)]
    moves = _moves(said)
    lay = chart.Layout(sc)
    parts: list[Callable[[canvas.Canvas], float]] = [
        lambda im: panels.heading(im, sc, state, view, title, language),
        lambda im: panels.battle(im, sc, state, said, language),
        lambda im: _map(im, sc, state, lay, moves, language),
    ]
    if view:
        parts += [
            lambda im: panels.own_blocks(im, sc, state, view, language),
            lambda im: panels.seen(im, sc, state, view, language),
        ]
    parts.append(lambda im: panels.legend(im, sc, view, language))
    with text.wide_font(language.code != ENGLISH):
        strips = [s for s in map(_strip, parts) if s[0].height > 0]
    height = sum(strip.height for strip, _ in strips)
    image = canvas.new_image((S.WIDTH, height), S.BACKGROUND)
    y = 0
    for strip, found in strips:
        image.paste(strip, (0, y))
        for lab in found:
            a, b, c, d = lab.box
            labels.note(lab.text, (a, b + y, c, d + y), lab.cap, lab.kind)
        y += strip.height
    return image


def _moves(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves to draw as arrows: each BlocksMoved, and each retreat from its battle's
    territory (N3 g)."""
    found: list[dict[str, Any]] = []
    area = None
    for e in events:
        if e.get("kind") == "BattleBegan":
            area = e.get("area")
        elif e.get("kind") == "BlocksMoved":
            found.append(e)
        elif e.get("kind") == "BlockRetreated" and area is not None:
            found.append({"from": area, "to": e.get("to"), "path": []})
    return found


def _map(
    image: canvas.Canvas,
    sc: Any,
    state: Any,
    lay: chart.Layout,
    moves: list[Any],
    language: Language,
) -> float:
    chart.draw_map(image, sc, state, lay, moves, language)
    return float(lay.height)


def _strip(part: Callable[[canvas.Canvas], float]) -> tuple[Image.Image, list[labels.Label]]:
    """A part drawn on a strip of its own, cut to the height it used, with its labels."""
    strip = canvas.new_image((S.WIDTH, TALL), S.BACKGROUND)
    with labels.recording() as found:
        used = part(strip)
    return strip.crop((0, 0, S.WIDTH, max(0, round(used)))), list(found)


__all__ = ["compose", "draw"]
