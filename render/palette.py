"""A fixed 256-colour palette, so that encoding an image is a cheap nearest-colour mapping
instead of a fresh colour quantisation.

The caller supplies probe images: busy frames drawn with its real pipeline, showing every colour
it uses (and the anti-aliased blends between them). Their octree quantisation is the palette; it
depends only on the probes, so images mapped to it stay reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image


def build_palette(frames: Iterable[Image.Image], colours: int = 256) -> Image.Image:
    """The palette of the probe images `frames` (RGB, same width), stacked top to bottom."""
    images = list(frames)
    probe = Image.new("RGB", (images[0].width, sum(f.height for f in images)))
    y = 0
    for f in images:
        probe.paste(f, (0, y))
        y += f.height
    return probe.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
