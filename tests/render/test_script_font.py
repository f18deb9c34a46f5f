"""Texts beyond Latin on the images (render.text): Russian labels get a font with Cyrillic
letters, Latin ones keep the bundled font (the golden images stay as they were)."""

from __future__ import annotations

from render.text import _text_mask, font, has_script_font


def test_the_machine_has_a_font_with_cyrillic_letters():
    """.ci/run installs Debian's fonts-dejavu-core where it is missing."""
    assert has_script_font()


def test_a_russian_label_is_written_in_the_script_font_and_a_latin_one_in_the_bundled_one():
    assert font(14, "Ход 3") is not font(14, "Turn 3")
    assert font(14, "Turn 3") is font(14) and font(14, "C6 29tk") is font(14)


def test_cyrillic_letters_are_drawn_as_letters_not_as_boxes():
    """Two words of as many letters: boxes for missing glyphs would draw the same mask."""
    a, _ = _text_mask("Жук", 20, "la")
    b, _ = _text_mask("Сон", 20, "la")
    assert a.tobytes() != b.tobytes()
    assert a.getbbox() is not None
