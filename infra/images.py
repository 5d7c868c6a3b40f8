"""Photos for a vision model: scaled down and re-encoded, so a photo costs a bounded number of tokens.

Pillow is imported on the first photo only. The longest side is at most 1,568 px (what Anthropic
recommends; OpenAI's high detail then costs at most 765 tokens for gpt-4o-mini as litellm counts
them, bench/media.py), and every photo becomes a JPEG: one format every vision provider takes.
"""

from __future__ import annotations

import base64
import io

MAX_SIDE = 1568
JPEG_QUALITY = 85
MAX_PIXELS = 60_000_000  # refuse decompression bombs long before they fill the memory


class UnreadableImage(ValueError):
    pass


def prepare_image(data: bytes) -> bytes:
    """The photo as a JPEG whose longest side is at most MAX_SIDE, or UnreadableImage."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as opened:
            if opened.width * opened.height > MAX_PIXELS:
                raise UnreadableImage(f"image too large: {opened.width}x{opened.height}")
            opened.draft("RGB", (MAX_SIDE, MAX_SIDE))  # JPEG: decode at a reduced scale, cheaper
            image = ImageOps.exif_transpose(opened).convert("RGB")
    except UnreadableImage:
        raise
    except Exception as error:  # Pillow raises many kinds for a file that is not an image
        raise UnreadableImage(str(error)) from None
    image.thumbnail((MAX_SIDE, MAX_SIDE))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def data_uri(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
