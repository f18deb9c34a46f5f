"""Structural tests of the rendered map: placements, markers, arrows, legend, API, caching."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from adjudicator.core.events import Event
from adjudicator.hells_gate.drawer import (
    colours,
    draw_debug,
    draw_map,
    frame,
    terrain,
    visible_units,
)
from adjudicator.hells_gate.drawer.events import as_dict
from adjudicator.hells_gate.loader import default_scenario_text
from adjudicator.hells_gate.scenario import parse_scenario
from render.hexes import Layout

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def near(c1, c2, tol):
    return all(abs(a - b) <= tol for a, b in zip(c1, c2))


def on_map_ids(state):
    return sorted(u.id for u in state.units.values() if u.box == "map")


def face_point(info):
    """A pixel of the counter's face: below the NATO box, left of the strength."""
    x0, y0, _, _ = info["counter_box"]
    s = info["size"]
    return (x0 + round(0.12 * s), y0 + round(0.9 * s))


@pytest.fixture(scope="module", params=["synthetic", "busy"])
def case(request, scenario):
    state, events = request.getfixturevalue(request.param)
    return scenario, state, events, draw_debug(scenario, state, events)


# -- the image as a file


def test_png_is_wide_small_and_reproducible(scenario, busy):
    state, events = busy
    png = draw_map(scenario, state, events)
    assert png.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(png))
    assert img.width >= 1200
    assert len(png) < 1024 * 1024
    assert draw_map(scenario, state, events) == png


def test_events_as_objects_or_dicts_draw_the_same(scenario, busy):
    state, events = busy
    assert all(isinstance(e, Event) for e in events)
    assert draw_map(scenario, state, events) == draw_map(
        scenario, state, [e.to_dict() for e in events]
    )


def test_rendering_does_not_change_the_state(scenario, busy):
    state, events = busy
    before = state.to_json()
    draw_map(scenario, state, events)
    assert state.to_json() == before


# -- the map


def test_hex_geometry_matches_the_rules(scenario):
    lay = Layout.for_grid(scenario.grid)
    for h in scenario.grid.hexes:
        assert lay.geometric_neighbours(h) == set(scenario.grid.neighbours(h)), h
    # columns A, C, E half a hex lower than B, D, F; north (row 1) at the top
    for r in range(1, 8):
        ya, yb = lay.center(f"A{r}")[1], lay.center(f"B{r}")[1]
        assert math.isclose(ya - yb, lay.h / 2)
    assert lay.center("C1")[1] < lay.center("C7")[1]
    assert lay.center("A4")[0] < lay.center("F4")[0]


def test_terrain_is_drawn(scenario, synthetic):
    state, events = synthetic
    dbg = draw_debug(scenario, state, events)
    img = dbg["image"]
    lay = Layout.for_grid(scenario.grid)
    # a point near the left corner of an empty hex of each terrain, away from symbols and names
    for hex_id, colour in (("C4", colours.PAPER), ("D4", colours.WOODS)):
        cx, cy = lay.center(hex_id)
        x, y = round(cx - 0.55 * lay.R), round(cy + 0.45 * lay.R)
        assert img.getpixel((x, y)) == colour or img.getpixel((x + 3, y)) == colour, hex_id
    assert {
        "clear",
        "woods",
        "cherkassy",
        "river",
        "map_edge",
        "supply_soviet",
        "supply_german",
        "town",
    } <= dbg["drawn"]


# -- counters


def test_every_unit_on_the_map_is_drawn_once_at_its_hex_centre(case):
    _, state, _, dbg = case
    assert sorted(dbg["units"]) == on_map_ids(state)
    R = dbg["R"]
    by_hex = {}
    for uid, info in dbg["units"].items():
        assert info["hex"] == state.units[uid].hex
        cx, cy = dbg["hexes"][info["hex"]]
        assert math.dist(info["center"], (cx, cy)) < 0.75 * R, uid
        by_hex.setdefault(info["hex"], []).append(info["box"])
    for h, boxes in by_hex.items():  # the stack is centred on the hex centre
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        assert near(((x0 + x1) / 2, (y0 + y1) / 2), dbg["hexes"][h], 1.5), h


def test_no_counter_hides_another(case):
    *_, dbg = case
    boxes = [(uid, info["box"]) for uid, info in dbg["units"].items()]
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1 :]:
            overlap = (
                min(ba[2], bb[2]) - max(ba[0], bb[0]) > 0
                and min(ba[3], bb[3]) - max(ba[1], bb[1]) > 0
            )
            assert not overlap, (a, b)


def test_counter_faces_show_side_and_reduced_state(case):
    scenario, state, _, dbg = case
    img = dbg["image"]
    png = Image.open(io.BytesIO(draw_map(scenario, state, case[2]))).convert("RGB")
    seen = set()
    for uid, info in dbg["units"].items():
        c = colours.SIDE[info["side"]]
        want = c["reduced"] if info["reduced"] else c["face"]
        assert img.getpixel(face_point(info)) == want, uid
        assert near(png.getpixel(face_point(info)), want, 12), uid  # after the palette
        u, spec = state.units[uid], scenario.units[uid]
        assert info["reduced"] == (u.reduced and spec.steps == 2)
        strength = spec.strength_reduced if info["reduced"] else spec.strength_full
        assert info["strength"] == (f"[{strength}]" if spec.bracketed else str(strength))
        seen.add((info["side"], info["reduced"]))
    assert ("soviet", False) in seen and ("german", False) in seen


def test_stacks_of_any_size_show_every_unit(scenario):
    from adjudicator.hells_gate.setup import initial_state

    state = initial_state(scenario)
    soviet = [u for u in state.units.values() if u.side == "soviet"]
    for u in soviet[:12]:
        u.box, u.hex = "map", "C4"
    for u in soviet[12:]:
        u.box, u.hex = "map", "D5"
    dbg = draw_debug(scenario, state)
    drawn = [uid for uid, i in dbg["units"].items() if i["hex"] == "C4"]
    assert 1 <= len(drawn) < 12  # the rest behind a count badge, the whole stack in the panel
    assert dbg["stacks"]["C4"] == [u.id for u in soviet[:12]]
    assert set(drawn) <= set(dbg["stacks"]["C4"]) and "C4" in dbg["badges"]
    assert any(line.startswith("STACK C4: ") for line in dbg["happened"])
    test_no_counter_hides_another((None, None, None, dbg))


# -- markers


def test_markers_for_exactly_the_units_that_carry_them(case):
    _, state, _, dbg = case
    img = dbg["image"]
    on_map = [u for u in state.units.values() if u.box == "map"]
    assert sorted(dbg["markers"]["oos"]) == sorted(u.id for u in on_map if u.oos)
    assert sorted(dbg["markers"]["retreat"]) == sorted(u.id for u in on_map if u.retreated)
    for uid, info in dbg["units"].items():
        x0, _, x1, y1 = info["box"]
        cy1 = info["counter_box"][3]
        if not info["markers"]:
            assert y1 == cy1  # no strip under the counter
            continue
        assert y1 > cy1
        w = (x1 - x0) / len(info["markers"])
        for i, m in enumerate(info["markers"]):
            want = colours.OOS if m == "oos" else colours.RETREAT
            assert img.getpixel((round(x0 + i * w + 2), y1 - 2)) == want, (uid, m)


def test_marker_samples_cover_both_markers(scenario, synthetic):
    state, events = synthetic
    dbg = draw_debug(scenario, state, events)
    assert dbg["markers"]["oos"] and dbg["markers"]["retreat"]


def test_tychinovka_marker_only_on_turn_2(scenario, synthetic):
    state, events = synthetic
    dbg = draw_debug(scenario, state, events)
    hex_id = scenario.flags["tychinovka_marker_hex"]
    assert dbg["markers"]["tychinovka"] == hex_id
    x0, y0, x1, y1 = dbg["tychinovka_box"]
    assert dbg["image"].getpixel((round(x0) + 3, round(y0) + 3)) == colours.TYCHINOVKA
    lay = Layout.for_grid(scenario.grid)
    assert math.dist(((x0 + x1) / 2, (y0 + y1) / 2), lay.center(hex_id)) < lay.R
    other = state.clone()
    other.turn = 3
    dbg3 = draw_debug(scenario, other, events)
    assert dbg3["markers"]["tychinovka"] is None
    assert dbg3["image"].getpixel((round(x0) + 3, round(y0) + 3)) != colours.TYCHINOVKA


# -- what happened


def test_attacks_drawn_as_arrows_with_labels(case):
    scenario, _, events, dbg = case
    attacks = [e for e in map(as_dict, events) if e["kind"] == "AttackResolved"]
    assert attacks, "the case should contain attacks"
    assert [a["hex"] for a in dbg["attacks"]] == [
        a["hex"] for a in attacks
    ]  # one combat phase here
    img = dbg["image"]
    labels = [a["label_box"] for a in dbg["attacks"]]
    checked = 0
    for atk, ev in zip(dbg["attacks"], attacks):
        assert set(atk["origins"]) == set(ev["origins"].values()) - {ev["hex"]}
        assert len(atk["arrows"]) == len(atk["origins"])
        target = dbg["hexes"][atk["hex"]]
        colour = colours.SIDE[scenario.units[ev["attackers"][0]].side]["arrow"]
        for origin, (p, q) in zip(atk["origins"], atk["arrows"]):
            assert math.dist(q, target) < math.dist(p, target)  # points at the target
            assert math.dist(p, dbg["hexes"][origin]) < math.dist(q, dbg["hexes"][origin])
            mid = (
                (p[0] + q[0]) / 2 - (q[0] - p[0]) * 0.15,
                (p[1] + q[1]) / 2 - (q[1] - p[1]) * 0.15,
            )
            if any(
                b[0] - 4 <= mid[0] <= b[2] + 4 and b[1] - 4 <= mid[1] <= b[3] + 4 for b in labels
            ):
                continue
            if img.getpixel((round(mid[0]), round(mid[1]))) == colour:
                checked += 1
        x0, y0, x1, y1 = atk["label_box"]
        assert x1 - x0 > 40 and y1 - y0 > 20
    assert checked >= len(attacks) // 2
    text = " ".join(" ".join(dbg["happened"]).split())  # wrapped lines joined again
    for a in attacks:
        assert f"{a['hex']} by {' '.join(a['attackers'])}" in text
        assert f"die {a['die']}" in text


def test_only_the_last_combat_phase_is_drawn(scenario, synthetic):
    state, events = synthetic
    older = [
        {"kind": "PhaseBegan", "turn": 1, "phase": "german-combat"},
        {**events[1], "hex": "B2", "attackers": ["34id"], "origins": {"34id": "A1"}},
    ]
    dbg = draw_debug(scenario, state, older + events)
    assert [a["hex"] for a in dbg["attacks"]] == ["C6", "B7", "C2"]


def test_moves_retreats_and_destroyed(scenario, synthetic):
    state, events = synthetic
    dbg = draw_debug(scenario, state, events)
    assert [m["unit"] for m in dbg["moves"]] == ["206rd"]
    assert [(r["unit"], r["from"], r["to"]) for r in dbg["retreats"]] == [("106id", "B7", "A7")]
    assert dbg["destroyed"] == ["kg168"]
    text = "\n".join(dbg["happened"])
    assert "DESTROYED: kg168" in text
    assert "Retreated: 106id B7 to A7" in text
    assert "Entered: 18tk at D7" in text
    assert dbg["happened_shown"] == len(dbg["happened"])
    # the retreat arrow is drawn in its colour between the two hexes
    p, q = dbg["retreats"][0]["arrow"]
    img = dbg["image"]
    pts = [(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t) for t in (0.1, 0.2, 0.3, 0.4, 0.5)]
    assert any(img.getpixel((round(x), round(y))) == colours.RETREAT_ARROW for x, y in pts)


def test_no_events_draws_no_arrows(scenario, synthetic):
    state, _ = synthetic
    dbg = draw_debug(scenario, state, ())
    assert not dbg["attacks"] and not dbg["moves"] and not dbg["retreats"]
    assert "attack" not in dbg["drawn"] and "move" not in dbg["drawn"]


# -- panel and legend


def test_panel_shows_turn_phase_side_weather_and_vp(scenario, busy):
    from adjudicator.hells_gate.victory import victory_points

    state, events = busy
    dbg = draw_debug(scenario, state, events)
    vp = victory_points(scenario, state)
    assert dbg["panel"] == {
        "turn": state.turn,
        "phase": state.phase,
        "weather": state.weather,
        "active": state.active_side,
        "vp": {"soviet": vp["soviet"]["total"], "german": vp["german"]["total"]},
    }


def test_legend_lists_what_is_drawn(case):
    *_, dbg = case
    assert dbg["drawn"] <= set(dbg["legend"]), dbg["drawn"] - set(dbg["legend"])
    assert {
        "soviet_unit",
        "german_unit",
        "reduced",
        "oos",
        "retreat",
        "tychinovka",
        "attack_soviet",
        "attack_german",
        "move_soviet",
        "move_german",
        "retreat_arrow",
        "nato_infantry",
        "nato_cavalry",
        "nato_armor",
        "nato_mech",
    } <= set(dbg["legend"])


# -- views, caching, separation from the rules


def test_view_goes_through_visible_units(scenario, synthetic, monkeypatch):
    state, events = synthetic
    everyone = [u.id for u in visible_units(scenario, state, None)]
    assert everyone == on_map_ids(state) or sorted(everyone) == on_map_ids(state)
    for side in ("soviet", "german"):  # nothing is hidden in Hell's Gate
        assert [u.id for u in visible_units(scenario, state, side)] == everyone
        assert draw_map(scenario, state, events, view=side).startswith(PNG_SIGNATURE)

    def soviet_only(scen, st, view=None):
        return [u for u in st.units.values() if u.box == "map" and u.side == "soviet"]

    monkeypatch.setattr(frame, "visible_units", soviet_only)
    dbg = draw_debug(scenario, state, events, view="soviet")
    assert dbg["view"] == "soviet"
    assert {i["side"] for i in dbg["units"].values()} == {"soviet"}
    assert not dbg["retreats"]  # the retreating unit is German, so not visible here
    assert all(u in dbg["units"] for u in dbg["markers"]["oos"] + dbg["markers"]["retreat"])


def test_static_layer_is_built_once_per_scenario(scenario, synthetic, monkeypatch):
    state, events = synthetic
    layer = frame.static_layer(scenario)
    assert frame.static_layer(scenario) is layer
    twin = parse_scenario(default_scenario_text(), "twin")  # same map, another object
    assert frame.static_layer(twin) is layer

    def no_rebuild(_scenario):
        raise AssertionError("static layer rebuilt")

    monkeypatch.setattr(terrain, "build", no_rebuild)
    draw_map(scenario, state, events)
    assert layer.image.getpixel((5, 5)) == colours.BG  # the cached layer itself is never drawn on


def test_the_rules_never_import_the_renderer():
    for path in (ROOT / "adjudicator").rglob("*.py"):
        if "drawer" in path.parent.parts or path.name == "drawer.py":
            continue  # a system's drawer (a drawer/ package or drawer.py): the places that draw
        text = path.read_text("utf-8")
        assert "import render" not in text and "from render" not in text, path
    code = (
        "import sys, adjudicator.hells_gate.loader, adjudicator.hells_gate.system, adjudicator.grammar; "
        "assert not [m for m in sys.modules if m == 'render' or m.startswith('render.')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_toolkit_knows_no_game():
    """render/ is game-agnostic: it imports nothing of the adjudicator but the texts' leaf
    module (adjudicator.core.i18n: a Language to say its own words in) and names no side."""
    leaf = re.compile(r"^from adjudicator\.core\.i18n import [\w, ]+$", re.MULTILINE)
    for path in (ROOT / "render").rglob("*.py"):
        text = leaf.sub("", path.read_text("utf-8")).lower()
        for word in ("adjudicator", "soviet", "german"):
            assert word not in text, (path, word)
