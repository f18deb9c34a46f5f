"""PNG encoding of a composed image, optionally mapped to a fixed palette first.

A composed map has a few thousand colours (flat fills plus anti-aliased edges and text); mapped
to a fixed 256-colour palette (render/palette.py, built once per map) it looks the same, the file
is ~2.5x smaller and the zlib pass much faster than RGB at Pillow's default level.
"""

from __future__ import annotations

import io

from PIL import Image

PNG_COMPRESS_LEVEL = 3


def encode(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes: mapped to the palette if given (no dithering), else RGB."""
    buf = io.BytesIO()
    if palette is not None:
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    img.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
