"""Golden images: a few reference renders compared pixel by pixel with a tolerance.

They use only the font bundled with Pillow (ImageFont.load_default), so they are reproducible on
any machine with the same Pillow; the tolerance absorbs small FreeType/zlib differences.

To regenerate them after an intended change of the drawing, run

    RENDER_UPDATE_GOLDEN=1 python -m pytest tests/render/test_render_golden.py

and look at the new files in tests/render/golden/ before committing them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from adjudicator.hells_gate.drawer import draw_map
from adjudicator.hells_gate.drawer.frame import static_layer
from adjudicator.hells_gate.setup import new_game

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("RENDER_UPDATE_GOLDEN") == "1"
MAX_MEAN_DIFF = 2.0  # mean absolute difference per pixel (largest channel), 0-255
MAX_SHARE_OVER_40 = 0.01  # share of pixels differing by more than 40


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def compare(name: str, actual: Image.Image, tmp_path) -> None:
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path, optimize=True)
        pytest.skip(f"golden image {name} written")
    assert path.exists(), f"{path} missing: run with RENDER_UPDATE_GOLDEN=1 to create it"
    expected = Image.open(path).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size} != golden {expected.size}"
    r, g, b = ImageChops.difference(actual, expected).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b)
    hist = diff.histogram()
    n = actual.width * actual.height
    mean = sum(i * c for i, c in enumerate(hist)) / n
    over = sum(hist[41:]) / n
    if mean >= MAX_MEAN_DIFF or over >= MAX_SHARE_OVER_40:
        actual.save(tmp_path / name)
        pytest.fail(
            f"{name} differs from the golden image: mean diff {mean:.2f} (max {MAX_MEAN_DIFF}), "
            f"{over:.2%} of pixels off by more than 40 (max {MAX_SHARE_OVER_40:.0%}); "
            f"this render: {tmp_path / name}"
        )


def test_golden_setup_whole_map(scenario, tmp_path):
    """Turn 1 as set up, no events: the whole image at half size."""
    state = new_game(scenario).state
    img = decode(draw_map(scenario, state, (), title="Golden: setup"))
    compare("setup_half.png", img.reduce(2), tmp_path)


def test_golden_combat_detail(scenario, synthetic, tmp_path):
    """Counters with markers, attack arrows with labels, a retreat, at full size."""
    state, events = synthetic
    lay = static_layer(scenario).layout
    (x0, y0), (x1, y1) = lay.center("A6"), lay.center("D7")
    box = (
        round(x0 - lay.R),
        round(y0 - lay.h * 0.75),
        round(x1 + lay.R * 0.6),
        round(y1 + lay.h / 2),
    )
    img = decode(draw_map(scenario, state, events, title="Golden: combat"))
    compare("combat_detail.png", img.crop(box), tmp_path)


def test_golden_panel(scenario, synthetic, tmp_path):
    """The side panel above the legend: turn and phase tracks, banner, weather, VP, events."""
    state, events = synthetic
    st = static_layer(scenario)
    img = decode(draw_map(scenario, state, events, title="Golden: panel"))
    compare("panel.png", img.crop((st.panel_x, 0, img.width, st.legend_top)), tmp_path)
