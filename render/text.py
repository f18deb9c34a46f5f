"""Text on an image: fonts, widths, cached glyph masks, fitting and wrapping.

Fonts: the one bundled with Pillow. `ImageFont.load_default(size=N)` (Aileron, FreeType,
basic layout) is used for every text in Latin letters so that images are the same on every
machine with the same Pillow: golden-image tests rely on it. A text with Cyrillic letters (a
map in Russian) is drawn in DejaVu Sans (`font_for`), the bundled font having none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from render import labels
from render.canvas import Colour, Point

Font = ImageFont.FreeTypeFont  # the type of every font here
NB = "\u00a0"  # a space that wrap() does not break at; drawn as a plain space


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    # with a size, load_default always gives the bundled FreeType font (its type says "or not")
    return cast(ImageFont.FreeTypeFont, ImageFont.load_default(size=size))


# The bundled font has no Cyrillic letters: a text with one is drawn in DejaVu Sans, found by
# Pillow in the system's fonts (Debian's fonts-dejavu-core), or in the bundled font if missing.
# An image in another language draws all its texts in it (`wide_font()`), not only those with a
# Cyrillic letter, so that its lines and labels look alike.
_CYRILLIC = re.compile("[\u0400-\u04ff]")
WIDE_FONT = "DejaVuSans.ttf"
_wide: ContextVar[bool] = ContextVar("wide_font", default=False)


@contextmanager
def wide_font(on: bool = True) -> Iterator[None]:
    """Within the block, every text is drawn (and measured) in the wide font (if on)."""
    token = _wide.set(on)
    try:
        yield
    finally:
        _wide.reset(token)


def wide_now() -> bool:
    """Whether texts are drawn in the wide font now (within `wide_font()`): for caches of
    drawings with text."""
    return _wide.get()


@cache
def _wide_font(size: int) -> ImageFont.FreeTypeFont | None:
    try:
        return ImageFont.truetype(WIDE_FONT, size, layout_engine=ImageFont.Layout.BASIC)
    except OSError:
        return None


def _is_wide(s: str) -> bool:
    return _wide.get() or (not s.isascii() and bool(_CYRILLIC.search(s)))


def font_for(s: str, size: int) -> ImageFont.FreeTypeFont:
    """The font to draw s in: the bundled one, or one with the letters of s where it has none
    (and every text within `wide_font()`)."""
    if not _is_wide(s):
        return font(size)
    return _wide_font(size) or font(size)


font_of = font_for  # (the name the platform's texts use)


def has_script_font() -> bool:
    """Whether texts beyond Latin have a font with their letters on this machine."""
    return _wide_font(12) is not None


def text_length(text: str, size: int) -> float:
    return _length(text, size, _is_wide(text))


@lru_cache(maxsize=8192)
def _length(text: str, size: int, wide: bool) -> float:
    return ((_wide_font(size) if wide else None) or font(size)).getlength(text)


@lru_cache(maxsize=4096)
def _text_mask(
    s: str, size: int, anchor: str, wide: bool = False
) -> tuple[Image.Image, tuple[float, float]]:
    f = (_wide_font(size) if wide else None) or font(size)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)  # whole pixels, typed as floats
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    return mask, (left, top)


def text(
    img: Image.Image,
    xy: Point,
    s: str,
    size: int,
    fill: Colour,
    anchor: str = "la",
    kind: str = "label",
) -> tuple[int, int, int, int]:
    """Draw text as ImageDraw.text would, from a cache of rendered masks (panels and labels
    repeat the same strings from image to image). Returns the box drawn (and records it as a
    label of that kind while `render.labels.recording()` is open)."""
    mask, (left, top) = _text_mask(s, size, anchor, _is_wide(s))
    x, y = round(xy[0] + left), round(xy[1] + top)
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
    box = (x, y, x + mask.width, y + mask.height)
    if labels.active():
        labels.note(s, box, cap_height(size, _is_wide(s)), kind)
    return box


def drawn(s: str, box: tuple[int, int, int, int], size: int, kind: str = "label") -> None:
    """Record a label drawn some other way (ImageDraw.text, a cached sprite pasted): its box in
    the image and its font size."""
    if labels.active():
        labels.note(s, box, cap_height(size, _is_wide(s)), kind)


PHONE_WIDTH = 1280  # what a chat shows of an image on a phone (Telegram's photo size)
PHONE_MIN_PX = 9  # the least height of a capital or a digit there


def cap_height(size: int, wide: bool | None = None) -> int:
    """The ink height of a capital (or a digit) at this font size, in pixels (in the wide font
    if wide, in the font drawn now if None)."""
    return _cap_height(size, _wide.get() if wide is None else wide)


@lru_cache(maxsize=256)
def _cap_height(size: int, wide: bool) -> int:
    f = (_wide_font(size) if wide else None) or font(size)
    _left, top, _right, bottom = f.getbbox("H", anchor="ls")
    return int(bottom - top)


def legible_size(image_width: int, width: int = PHONE_WIDTH, px: int = PHONE_MIN_PX) -> int:
    """The smallest font size whose capitals and digits stay at least px high (one pixel to
    spare) when an image image_width wide is scaled to width: the floor of every text size."""
    scale = min(1.0, width / image_width)
    size = 8
    while (cap_height(size) - 1) * scale < px:
        size += 1
    return size


def condensed_mask(s: str, size: int, max_w: float, least: float = 0.6) -> Image.Image:
    """The glyph mask of s at size, squeezed sideways (never lower) to at most max_w wide, but
    not below `least` of its width: text that must fit keeps the height of its glyphs."""
    mask, _ = _text_mask(s, size, "ls", _is_wide(s))
    if mask.width <= max_w:
        return mask
    w = max(1, round(max(max_w, mask.width * least)))
    return mask.resize((w, mask.height), Image.Resampling.LANCZOS)


def text_fitted(
    img: Image.Image, xy: Point, s: str, size: int, fill: Colour, max_w: float
) -> tuple[int, int, int, int]:
    """s centred on xy (the middle of its capitals), squeezed sideways to max_w if it is wider
    (condensed_mask). Returns the box drawn."""
    mask = condensed_mask(s, size, max_w)
    _, top = _text_mask(s, size, "ls", _is_wide(s))[1]  # the top of the ink, above the baseline
    x = round(xy[0] - mask.width / 2)
    y = round(xy[1] + cap_height(size) / 2 + top)
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
    box = (x, y, x + mask.width, y + mask.height)
    drawn(s, box, size)
    return box


def fit_size(s: str, size: int, max_w: float, min_size: int = 7) -> int:
    """The largest font size <= size at which s is at most max_w wide."""
    while size > min_size and text_length(s, size) > max_w:
        size -= 1
    return size


def fit_font(s: str, size: int, max_w: float, min_size: int = 7) -> ImageFont.FreeTypeFont:
    """The font of the largest size <= size at which s is at most max_w wide."""
    while size > min_size and font_for(s, size).getlength(s) > max_w:
        size -= 1
    return font_for(s, size)


def wrap(s: str, size: int, width: float) -> list[str]:
    """Greedy word wrap at spaces (not at NB); a word wider than width alone is cut (after a
    hyphen if it has one), so that no line is wider than width."""
    space = text_length(" ", size)
    lines: list[str] = []
    cur: list[str] = []
    cur_w = 0.0
    for word in (w.replace(NB, " ") for w in s.split(" ") if w):
        w = text_length(word, size)
        if cur and cur_w + space + w > width:
            lines.append(" ".join(cur))
            cur, cur_w = [word], w
        else:
            cur_w = cur_w + space + w if cur else w
            cur.append(word)
    if cur:
        lines.append(" ".join(cur))
    return [part for line in lines for part in _cut(line, size, width)]


def _cut(line: str, size: int, width: float) -> list[str]:
    """A line cut into pieces no wider than width (at a hyphen if one fits, else anywhere)."""
    out: list[str] = []
    while text_length(line, size) > width and len(line) > 1:
        n = len(line) - 1
        while n > 1 and text_length(line[:n], size) > width:
            n -= 1
        hyphen = line.rfind("-", 0, n)
        n = hyphen + 1 if hyphen > 0 else n
        out.append(line[:n])
        line = line[n:]
    return [*out, line]


def vertical_label(
    s: str, size: int, fill: Colour, background: Colour, pad: int = 8, height: int = 20
) -> Image.Image:
    """s written top to bottom (turned a quarter clockwise) on a background-coloured strip."""
    f = font_for(s, size)
    w = round(f.getlength(s)) + pad
    tmp = Image.new("RGB", (w, height), background)
    ImageDraw.Draw(tmp).text((w / 2, height / 2), s, font=f, fill=fill, anchor="mm")
    return tmp.rotate(-90, expand=True)
