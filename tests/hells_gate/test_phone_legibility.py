"""Hell's Gate chat images on a 390-px phone, measured on the labels the drawer records
(render.labels): every kind of post image (the focus crop of an attack, of moves, of a retreat,
and the whole map when the actions are spread out or there are none), in English and Russian.

Every label has capitals at least 7 px high at 390 px wide, hex ids exempt. The whole map draws
its units as chips whose ids are as large as the town names (drawer/chips.py). A crop up to 720 px
of the map wide draws full counters (id, size, type, strength in 64 px), whose texts reach 7 px;
a wider crop draws chips with their legend, as the whole map. No two labels are drawn over each other,
but for a counter's text under an attack label on a crop (a label is placed where it covers the
least of the counters). The whole map has a legend of its chips, lines and symbols.
"""

from __future__ import annotations

import pytest

from adjudicator.hells_gate.drawer import chips, clear_cache, compose_focus
from adjudicator.hells_gate.drawer.events import summarise
from adjudicator.hells_gate.drawer.frame import static_layer
from adjudicator.hells_gate.drawer.happened import happened_lines
from adjudicator.hells_gate.drawer.names import whole_map_width
from adjudicator.hells_gate.drawer.sizes import phone_size
from app import frames as app_frames
from app.i18n import language
from app.service import GameService
from bots.demo import run_demo
from render import labels
from render.text import cap_height, wide_font
from storage import Store
from texts.i18n import EN

RU = language("ru")


def _kind(summary) -> str | None:
    if summary.retreats:
        return "retreat"
    if summary.attacks:
        return "attack"
    if summary.moves:
        return "move"
    return None


@pytest.fixture(scope="module")
def demo():
    """The frames of demo seed 1: the first of each kind (attack, move, retreat), the first
    with nothing on the map, and one whose actions are spread over the whole map."""
    store = Store(":memory:")
    result = run_demo(1, store)
    service = GameService(store)
    scenario = service.system(result.name).scenario
    frames = service.frames(result.name)
    picked: dict[str, object] = {}
    for f in frames:
        kind = _kind(summarise(scenario, f.events))
        if kind and kind not in picked:
            picked[kind] = f
    picked["nothing"] = frames[0]
    picked["spread"] = frames[13]
    yield scenario, {k: (app_frames.title(result.name, f), f) for k, f in picked.items()}
    store.close()


def _image(scenario, title, frame, lang, fresh=False):
    if fresh:  # drawn anew, not reused from the caches (which keep their labels)
        clear_cache()
    with labels.recording() as found:
        img, info = compose_focus(scenario, frame.state, frame.events, None, title, language=lang)
    return img, info, found


@pytest.mark.parametrize("lang", [EN, RU], ids=["en", "ru"])
@pytest.mark.parametrize("kind", ["attack", "move", "retreat", "nothing", "spread"])
def test_every_post_image_is_legible_on_a_390_px_phone(demo, kind, lang):
    scenario, picked = demo
    title, frame = picked[kind]
    img, info, found = _image(scenario, title, frame, lang)
    assert max(img.size) <= 1280
    seen = labels.legibility(found, img.width)
    assert len(seen.labels) > 20, kind  # names, counters, the panel: recorded
    w, h = img.size
    off = [
        lab
        for lab in found
        if lab.box[2] <= 0 or lab.box[0] >= w or lab.box[3] <= 0 or lab.box[1] >= h
    ]
    assert not off, f"labels recorded off the image: {off[:4]}"
    small = [(lab.text, round(lab.cap, 1)) for lab in seen.too_small if lab.kind != "counter"]
    assert not small, f"{kind}: {small[:8]}"
    counters = [lab for lab in seen.labels if lab.kind == "counter"]
    assert counters, kind
    assert min(lab.cap for lab in counters) >= 7, kind  # a wide part draws chips (focus.py)
    over = [
        (a.text, b.text)
        for a, b in seen.overlapping
        if info["whole"] or (a.kind != "counter" and b.kind != "counter")
    ]
    assert not over, f"{kind}: {over}"


@pytest.mark.parametrize("lang", [EN, RU], ids=["en", "ru"])
def test_the_whole_map_of_a_post_has_a_legend_and_legible_names(demo, lang):
    scenario, picked = demo
    title, frame = picked["spread"]
    img, info, found = _image(scenario, title, frame, lang, fresh=True)
    assert info["whole"]
    for key in ("river", "supply_soviet", "supply_german", "airfield", "woods", "town"):
        assert key in info["legend"]
    assert "attack_soviet" in info["legend"]  # the arrows it shows
    legend = [lab for lab in found if lab.kind == "legend"]
    assert len(legend) == len(info["legend"])
    assert all(0 <= lab.box[0] and lab.box[2] <= img.width for lab in legend)
    for key in ("soviet_unit", "german_unit"):  # the chips of the units
        assert key in info["legend"]
    korsun = "Корсунь-" if lang is RU else "Korsun-"
    lines = [lab for lab in found if lab.text.startswith(korsun)]
    assert lines, "the long town name written on two lines"
    assert lines[0].cap * 390 / img.width >= 7


def test_the_focus_crop_keeps_its_labels_in_its_own_pixels(demo):
    scenario, picked = demo
    title, frame = picked["attack"]
    img, info, found = _image(scenario, title, frame, EN)
    assert not info["whole"]
    x0, y0, x1, _ = info["crop"]
    factor = img.width / (x1 - x0)  # the crop fills the width (it is wider than the panel)
    pasted = [a["label_box"] for a in info["attacks"]]
    assert pasted
    for box in pasted:  # each attack label's box on the full map, moved and scaled as the crop
        left, top = (box[0] - x0) * factor, (box[1] - y0) * factor
        inside = [
            lab
            for lab in found
            if abs(lab.box[1] - top) < 30 * factor and left < lab.box[0] < left + 60 * factor
        ]
        assert inside, (box, left, top)


def _reduced_then_destroyed():
    return [
        {"kind": "PhaseBegan", "turn": 3, "phase": "soviet-combat"},
        {"kind": "UnitFlipped", "unit": "389id", "text": "389id is reduced."},
        {"kind": "UnitFlipped", "unit": "106id", "text": "106id is reduced."},
        {"kind": "UnitEliminated", "unit": "389id", "hex": "C6", "text": "389id is destroyed."},
    ]


@pytest.mark.parametrize("lang", [EN, RU], ids=["en", "ru"])
def test_a_unit_reduced_then_destroyed_in_one_phase_is_listed_only_as_destroyed(demo, lang):
    scenario, _ = demo
    summary = summarise(scenario, _reduced_then_destroyed())
    text = "\n".join(line for line, _, _ in happened_lines(scenario, summary, [], 10**6, lang))
    assert text.count("389id") == 1, text
    assert "106id" in text
    destroyed = "УНИЧТОЖЕНЫ" if lang is RU else "DESTROYED"
    line = next(s for s in text.splitlines() if "389id" in s)
    assert line.upper().startswith(destroyed.upper()[:6]), line


def _attack(shifts):
    return {
        "kind": "AttackResolved",
        "hex": "C6",
        "attackers": ["48rc"],
        "origins": {"48rc": "C7"},
        "attack_strength": 8,
        "defense_strength": 2,
        "raw_column": "4:1",
        "final_column": "4:1" if not shifts else "3:1",
        "shifts": shifts,
        "die": 3,
        "hits": 1,
    }


@pytest.mark.parametrize("lang", [EN, RU], ids=["en", "ru"])
def test_an_attack_without_shifts_says_its_column_once(demo, lang):
    """8.11: the column shifts; with none, the raw column is the final one."""
    scenario, _ = demo
    plain = summarise(scenario, [_attack([])])
    lines = [s for s, _, _ in happened_lines(scenario, plain, [], 10**6, lang)]
    said = next(s for s in lines if "C6" in s)
    assert "4:1 = 4:1" not in said and said.count("4:1") == 1, said
    shifted = summarise(scenario, [_attack([{"code": "S3", "columns": -1}])])
    lines = [s for s, _, _ in happened_lines(scenario, shifted, [], 10**6, lang)]
    said = next(s for s in lines if "C6" in s)
    assert "4:1" in said and "= 3:1" in said, said


@pytest.mark.parametrize("wide", [False, True], ids=["latin", "cyrillic-font"])
def test_every_unit_id_fits_a_chip_at_the_size_of_the_whole_maps_names(demo, wide):
    scenario, _ = demo
    with wide_font(wide):
        size = phone_size(whole_map_width(static_layer(scenario).layout))
        assert cap_height(size) * 390 / whole_map_width(static_layer(scenario).layout) >= 7
        assert chips.sizes_fit(size, list(scenario.units))


@pytest.mark.parametrize("lang", [EN, RU], ids=["en", "ru"])
def test_every_frame_of_a_whole_game_is_legible_on_a_390_px_phone(lang):
    """Every post image of a whole demo game, not only the first of each kind: a tall or wide
    part of the map, scaled to fit, draws larger labels or chips until they read at 390 px."""
    store = Store(":memory:")
    result = run_demo(1, store)
    service = GameService(store)
    scenario = service.system(result.name).scenario
    problems = []
    for n, frame in enumerate(service.frames(result.name)):
        title = app_frames.title(result.name, frame)
        img, info, found = _image(scenario, title, frame, lang)
        seen = labels.legibility(found, img.width)
        small = [(lab.text, round(lab.cap, 1)) for lab in seen.too_small]
        over = [
            (a.text, b.text)
            for a, b in seen.overlapping
            if info["whole"] or (a.kind != "counter" and b.kind != "counter")
        ]
        if small or over:
            problems.append((n, info["crop"], small[:3], over[:3]))
    store.close()
    assert not problems
