"""Images to draw on: new canvases and drawing contexts, so that game drawers need no imaging
library of their own (the types of their annotations are here too)."""

from __future__ import annotations

from PIL import Image, ImageDraw

Canvas = Image.Image  # an image: a canvas, a sprite, a mask
Draw = ImageDraw.ImageDraw  # a drawing context on a canvas
Colour = tuple[int, ...]  # RGB or RGBA
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
LANCZOS = Image.Resampling.LANCZOS  # the filter for resizing a finished image


def new_image(size: tuple[int, int], fill: Colour, mode: str = "RGB") -> Image.Image:
    """A canvas of `size` pixels filled with `fill` (an RGB or RGBA tuple)."""
    return Image.new(mode, size, fill)


def draw(img: Image.Image) -> ImageDraw.ImageDraw:
    """A drawing context on img (lines, polygons, rectangles, ellipses, text)."""
    return ImageDraw.Draw(img)
