"""Text on an image: fonts, widths, cached glyph masks, fitting and wrapping.

Fonts: only the one bundled with Pillow. `ImageFont.load_default(size=N)` (Aileron, FreeType,
basic layout) is used everywhere so that images are the same on every machine with the same
Pillow: golden-image tests rely on it.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from render.canvas import Colour, Point

Font = ImageFont.FreeTypeFont  # the type of every font here
NB = "\u00a0"  # a space that wrap() does not break at; drawn as a plain space


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    # with a size, load_default always gives the bundled FreeType font (its type says "or not")
    return cast(ImageFont.FreeTypeFont, ImageFont.load_default(size=size))


@lru_cache(maxsize=8192)
def text_length(text: str, size: int) -> float:
    return font(size).getlength(text)


@lru_cache(maxsize=4096)
def _text_mask(s: str, size: int, anchor: str) -> tuple[Image.Image, tuple[float, float]]:
    f = font(size)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)  # whole pixels, typed as floats
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    return mask, (left, top)


def text(
    img: Image.Image, xy: Point, s: str, size: int, fill: Colour, anchor: str = "la"
) -> tuple[int, int, int, int]:
    """Draw text as ImageDraw.text would, from a cache of rendered masks (panels and labels
    repeat the same strings from image to image). Returns the box drawn."""
    mask, (left, top) = _text_mask(s, size, anchor)
    x, y = round(xy[0] + left), round(xy[1] + top)
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
    return (x, y, x + mask.width, y + mask.height)


def fit_size(s: str, size: int, max_w: float, min_size: int = 7) -> int:
    """The largest font size <= size at which s is at most max_w wide."""
    while size > min_size and text_length(s, size) > max_w:
        size -= 1
    return size


def fit_font(s: str, size: int, max_w: float, min_size: int = 7) -> ImageFont.FreeTypeFont:
    """The font of the largest size <= size at which s is at most max_w wide."""
    while size > min_size and font(size).getlength(s) > max_w:
        size -= 1
    return font(size)


def wrap(s: str, size: int, width: float) -> list[str]:
    """Greedy word wrap at spaces (not at NB)."""
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
    return lines


def vertical_label(
    s: str, size: int, fill: Colour, background: Colour, pad: int = 8, height: int = 20
) -> Image.Image:
    """s written top to bottom (turned a quarter clockwise) on a background-coloured strip."""
    f = font(size)
    w = round(f.getlength(s)) + pad
    tmp = Image.new("RGB", (w, height), background)
    ImageDraw.Draw(tmp).text((w / 2, height / 2), s, font=f, fill=fill, anchor="mm")
    return tmp.rotate(-90, expand=True)
