"""Photos for a vision model: scaled down and re-encoded, so a photo costs a bounded number of tokens
and a bounded amount of memory.

Pillow is imported on the first photo only. A photo larger than Telegram's own (at most 2,560 px
on a side) is refused from its header, before any pixel is decoded: a forged 7,700 x 7,700 PNG of
173 kB took a worker from 261 MB to 939 MB (issue 27). What is accepted is decoded at a reduced
scale where the format allows it (a JPEG's `draft`), scaled down in place with `reduce` steps
(`thumbnail`'s reducing gap), and only then turned upright and converted, so no full-size copy
is ever made. The longest side sent is at most 1,568 px (what Anthropic recommends; OpenAI's high
detail then costs at most 765 tokens for gpt-4o-mini as litellm counts them, bench/media.py), and
every photo becomes a JPEG: one format every vision provider takes.
"""

from __future__ import annotations

import base64
import io

MAX_SIDE = 1568
MAX_INPUT_SIDE = 2560  # Telegram's photos are at most this on their longest side
JPEG_QUALITY = 85


class UnreadableImage(ValueError):
    pass


class ImageTooLarge(UnreadableImage):
    """Larger than any photo Telegram sends: forged, and refused before it is decoded."""


def prepare_image(data: bytes) -> bytes:
    """The photo as a JPEG whose longest side is at most MAX_SIDE; ImageTooLarge for one over
    MAX_INPUT_SIDE on a side, UnreadableImage for anything Pillow cannot read."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as opened:
            width, height = opened.size  # from the header: nothing is decoded yet
            if width > MAX_INPUT_SIDE or height > MAX_INPUT_SIDE:
                raise ImageTooLarge(f"image too large: {width}x{height}")
            opened.draft("RGB", (MAX_SIDE, MAX_SIDE))  # JPEG: decode at a reduced scale
            # Square bounds: the same size whichever way up the photo turns out to be.
            opened.thumbnail((MAX_SIDE, MAX_SIDE), reducing_gap=2.0)
            image = ImageOps.exif_transpose(opened).convert("RGB")
    except UnreadableImage:
        raise
    except Exception as error:  # Pillow raises many kinds for a file that is not an image
        raise UnreadableImage(str(error)) from None
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def data_uri(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")
