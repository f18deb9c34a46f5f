"""The map on a phone, checked on the pixels of demo frames (a demo game, seed 1, busy frames).

- every text is legible at 1280 px wide: the frame is drawn twice, with and without any text
  (ImageDraw.text does nothing), both are scaled to 1280 px wide, and every blob of pixels that
  differs (a word or a line of text) is at least 9 px high;
- a stack never covers a hex id, a town name or a supply symbol, and an attack label never a hex
  id: each is drawn alone (the map without counters, without ids, names and symbols, without
  labels) and together, and the pixels of one never meet the pixels of the other;
- the focus image of a post is at most 1280 px on its long side and shows the actions;
- the legend's attack and retreat arrows have the colours drawn on the map.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageDraw

from adjudicator.hells_gate.drawer import clear_cache, colours, compose, compose_focus, frame
from adjudicator.hells_gate.drawer import symbols as symbol_module
from adjudicator.hells_gate.drawer.frame import static_layer
from adjudicator.hells_gate.drawer.sizes import SMALL
from app import frames as app_frames
from app.service import GameService
from bots.demo import run_demo
from render import text as text_module
from render.text import PHONE_MIN_PX, PHONE_WIDTH, legible_size
from storage import Store

SAMPLED = (3, 13, 19, 34)  # frames of demo seed 1: German and Soviet attacks, stacks, the end


demo_frames_game: list = []  # the demo game's service and name, set by the fixture


@pytest.fixture(scope="module")
def demo_frames():
    store = Store(":memory:")
    result = run_demo(1, store)
    service = GameService(store)
    system = service.system(result.name)
    all_frames = service.frames(result.name)
    picked = [all_frames[i] for i in SAMPLED]
    demo_frames_game[:] = [service, result.name]
    return system.scenario, [(app_frames.title(result.name, f), f) for f in picked]


@contextlib.contextmanager
def fresh_caches() -> Iterator[None]:
    """Caches cleared before and after, so that what a patched drawing made is not kept."""
    clear_cache()
    text_module._text_mask.cache_clear()
    try:
        yield
    finally:
        clear_cache()
        text_module._text_mask.cache_clear()


def differing(a: Image.Image, b: Image.Image, threshold: int = 48) -> Image.Image:
    """An "L" mask: 255 where a and b differ by more than threshold in some channel."""
    r, g, bl = ImageChops.difference(a, b).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    return diff.point(lambda v: 255 if v > threshold else 0)


def blobs(mask: Image.Image, dx: int = 6) -> list[tuple[int, int, int, int]]:
    """Boxes of the groups of set pixels, a pixel joined to those up to dx away sideways and 1
    up or down: the letters of a word (or a line) make one blob."""
    w, h = mask.size
    px = mask.load()
    todo = {(x, y) for y in range(h) for x in range(w) if px[x, y]}
    out = []
    while todo:
        start = todo.pop()
        stack, xs, ys = [start], [start[0]], [start[1]]
        while stack:
            x, y = stack.pop()
            for nx in range(x - dx, x + dx + 1):
                for ny in (y - 1, y, y + 1):
                    if (nx, ny) in todo:
                        todo.discard((nx, ny))
                        stack.append((nx, ny))
                        xs.append(nx)
                        ys.append(ny)
        out.append((min(xs), min(ys), max(xs) + 1, max(ys) + 1))
    return out


SPECK = 3  # a blob this high or lower is a speck where two drawings meet, not a glyph


def _vertical_label_strip(scenario, scale):
    """Where the river's name is written top to bottom (its glyphs' height is their width)."""
    x1 = static_layer(scenario).layout.map_box[2]
    return (round((x1 - 40) * scale), 0, round((x1 + 10) * scale), 10**6)


def _inside(b, area):
    return area[0] <= b[0] and b[2] <= area[2] and area[1] <= b[1] and b[3] <= area[3]


def test_the_smallest_text_size_is_legible_at_phone_width(demo_frames):
    scenario, _ = demo_frames
    width = static_layer(scenario).image.width
    assert legible_size(width) <= SMALL


def test_every_text_is_at_least_9_px_high_at_1280_px_wide(demo_frames, monkeypatch):
    scenario, picked = demo_frames
    with fresh_caches():
        drawn = [compose(scenario, f.state, f.events, None, t)[0] for t, f in picked]
    with fresh_caches():
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", lambda *a, **k: None)
        bare = [compose(scenario, f.state, f.events, None, t)[0] for t, f in picked]
        monkeypatch.undo()
    for (title, _), a, b in zip(picked, drawn, bare):
        scale = PHONE_WIDTH / a.width
        size = (PHONE_WIDTH, round(a.height * scale))
        mask = differing(
            a.resize(size, Image.Resampling.LANCZOS), b.resize(size, Image.Resampling.LANCZOS)
        )
        edge = mask.crop((mask.width - 6, 0, mask.width, mask.height))
        bottom = mask.crop((0, mask.height - 3, mask.width, mask.height))
        assert edge.getbbox() is None and bottom.getbbox() is None, f"{title}: text leaves it"
        found = [bx for bx in blobs(mask) if bx[3] - bx[1] > SPECK]
        assert len(found) > 200, title  # hex ids, names, counters, panel, legend
        river = _vertical_label_strip(scenario, scale)
        small = [
            bx
            for bx in found
            if (bx[2] - bx[0] if _inside(bx, river) else bx[3] - bx[1]) < PHONE_MIN_PX
        ]
        assert not small, f"{title}: text under {PHONE_MIN_PX} px high at 1280 px: {small[:8]}"


def _without(monkeypatch, target, name, scenario, f, title, events=True):
    """The frame with target.name drawing nothing (nothing it draws is cached)."""
    monkeypatch.setattr(target, name, lambda *a, **k: None)
    img, dbg = compose(scenario, f.state, f.events if events else [], None, title)
    monkeypatch.undo()
    return img, dbg


def test_stacks_never_cover_hex_ids_town_names_or_supply_symbols(demo_frames, monkeypatch):
    scenario, picked = demo_frames
    with fresh_caches():
        marked = static_layer(scenario).image.copy()
    with fresh_caches():  # the map without hex ids and names (text) nor supply/airfield symbols
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", lambda *a, **k: None)
        monkeypatch.setattr(symbol_module, "draw_supply", lambda *a, **k: None)
        monkeypatch.setattr(symbol_module, "draw_airfield", lambda *a, **k: None)
        unmarked = static_layer(scenario).image.copy()
        monkeypatch.undo()
    lay = static_layer(scenario).layout
    protected = differing(marked, unmarked).crop(lay.map_box)
    assert protected.getbbox() is not None
    for title, f in picked:
        together, dbg = compose(scenario, f.state, [], None, title)
        no_counters, _ = _without(monkeypatch, frame, "_counters", scenario, f, title, False)
        stacks = differing(together, no_counters).crop(lay.map_box)
        assert stacks.getbbox() is not None, title
        names = Image.new("L", together.size, 0)
        for h, box in dbg["names"].items():
            names.paste(255, box[:2], static_layer(scenario).names[h].image.getchannel("A"))
        keep = ImageChops.lighter(protected, names.crop(lay.map_box))
        overlap = ImageChops.multiply(stacks, keep)
        assert overlap.getbbox() is None, (
            f"{title}: a stack covers an id, name or symbol at {overlap.getbbox()}"
        )


def test_attack_labels_never_cover_a_hex_id(demo_frames, monkeypatch):
    scenario, picked = demo_frames
    with fresh_caches():
        marked = static_layer(scenario).image.copy()
    with fresh_caches():
        monkeypatch.setattr(ImageDraw.ImageDraw, "text", lambda *a, **k: None)
        unmarked = static_layer(scenario).image.copy()
        monkeypatch.undo()
    ids = differing(marked, unmarked)
    from render import overlay

    labelled = 0
    for title, f in picked:
        together, dbg = compose(scenario, f.state, f.events, None, title)
        bare, _ = _without(monkeypatch, overlay, "badge_label", scenario, f, title)
        labels = differing(together, bare)
        labelled += len(dbg["attacks"])
        overlap = ImageChops.multiply(labels, ids)
        assert overlap.getbbox() is None, f"{title}: an attack label covers a hex id"
    assert labelled > 0


def test_focus_image_is_at_most_1280_px_and_shows_the_actions(demo_frames):
    scenario, picked = demo_frames
    cropped = 0
    for title, f in picked:
        img, info = compose_focus(scenario, f.state, f.events, None, title)
        assert max(img.size) <= 1280 and img.size == info["size"], title
        lay = static_layer(scenario).layout
        x0, y0, x1, y1 = info["crop"]
        for h in info["hexes"]:
            cx, cy = lay.center(h)
            assert x0 <= cx <= x1 and y0 <= cy <= y1, (title, h)
        if (x1 - x0) < lay.map_w:
            cropped += 1
            assert info["scale"] > 1.0, title  # a part of the map is enlarged
        assert info["panel_lines"][0] == title
    assert cropped >= 1


def test_legend_arrows_have_the_colours_drawn_on_the_map(demo_frames):
    scenario, picked = demo_frames
    st = static_layer(scenario)
    for side in ("soviet", "german"):
        x, y = st.legend_at[f"attack_{side}"]
        assert st.image.getpixel((round(x + 14), round(y + 10))) == colours.SIDE[side]["arrow"]
    x, y = st.legend_at["retreat_arrow"]
    assert st.image.getpixel((round(x + 3), round(y + 10))) == colours.RETREAT_ARROW
    seen = set()
    for title, f in picked:
        img, dbg = compose(scenario, f.state, f.events, None, title)
        for atk in dbg["attacks"]:
            side = scenario.units[atk["attackers"][0]].side
            for p, q in atk["arrows"]:
                mid = (round(p[0] + (q[0] - p[0]) * 0.3), round(p[1] + (q[1] - p[1]) * 0.3))
                assert img.getpixel(mid) == colours.SIDE[side]["arrow"], title
                seen.add(side)
    assert seen == {"soviet", "german"}


def test_a_post_and_a_frame_of_the_same_moment_have_the_same_title(demo_frames):
    service, name = demo_frames_game
    system = service.system(name)
    last = service.frames(name)[-1]
    here = system.situation(service.state(name))
    assert app_frames.title(name, last) == app_frames.heading(name, here)
    assert app_frames.heading(name, here).endswith("(game over)")


def test_a_panel_line_too_long_is_wrapped_inside_its_width():
    from render.panel import text_block

    img = Image.new("RGB", (300, 200), (255, 255, 255))
    line = "Weather roll 1: Mud from turn 2 to the end of the game (11.3, 11.4)."
    shown = text_block(img, 10, 10, 200, [(line, (0, 0, 0), SMALL)], (0, 0, 0), width=200)
    assert shown >= 3  # wrapped, not cut
    ink = ImageChops.invert(img.convert("L")).point(lambda v: 255 if v > 40 else 0)
    assert ink.getbbox() is not None and ink.getbbox()[2] <= 210
