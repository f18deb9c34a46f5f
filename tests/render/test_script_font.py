"""Texts beyond Latin on the images (render.text): Russian labels get a font with Cyrillic
letters, Latin ones keep the bundled font (the golden images stay as they were)."""

from __future__ import annotations

from render.text import font, font_for, has_script_font, text


def test_the_machine_has_a_font_with_cyrillic_letters():
    """.ci/run installs Debian's fonts-dejavu-core where it is missing."""
    assert has_script_font()


def test_a_russian_label_is_written_in_the_script_font_and_a_latin_one_in_the_bundled_one():
    assert font_for("Ход 3", 14) is not font_for("Turn 3", 14)
    assert font_for("Turn 3", 14) is font(14) and font_for("C6 29tk", 14) is font(14)


def test_cyrillic_letters_are_drawn_as_letters_not_as_boxes():
    """Two words of as many letters: boxes for missing glyphs would draw the same mask."""
    from PIL import Image

    a, b = (Image.new("L", (80, 30), 0) for _ in range(2))
    text(a, (2, 2), "Жук", 20, 255)
    text(b, (2, 2), "Сон", 20, 255)
    assert a.tobytes() != b.tobytes()
    assert a.getbbox() is not None
