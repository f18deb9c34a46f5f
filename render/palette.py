"""A fixed 256-colour palette, so that encoding an image is a cheap nearest-colour mapping
instead of a fresh colour quantisation.

The caller supplies probe images: busy frames drawn with its real pipeline, showing every colour
it uses (and the anti-aliased blends between them). Their octree quantisation is the palette; it
depends only on the probes, so images mapped to it stay reproducible.
"""

from __future__ import annotations

from PIL import Image


def build_palette(frames, colours: int = 256) -> Image.Image:
    """The palette of the probe images `frames` (RGB, same width), stacked top to bottom."""
    frames = list(frames)
    probe = Image.new("RGB", (frames[0].width, sum(f.height for f in frames)))
    y = 0
    for f in frames:
        probe.paste(f, (0, y))
        y += f.height
    return probe.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
