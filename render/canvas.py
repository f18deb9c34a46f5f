"""Images to draw on: new canvases and drawing contexts, so that game drawers need no imaging
library of their own."""

from __future__ import annotations

from PIL import Image, ImageDraw


def new_image(size: tuple[int, int], fill, mode: str = "RGB") -> Image.Image:
    """A canvas of `size` pixels filled with `fill` (an RGB or RGBA tuple)."""
    return Image.new(mode, size, fill)


def draw(img: Image.Image) -> ImageDraw.ImageDraw:
    """A drawing context on img (lines, polygons, rectangles, ellipses, text)."""
    return ImageDraw.Draw(img)
