"""Photos for the vision model (infra/images.py): no larger than Telegram's own photos, refused
from their header before any pixel is decoded, and decoded at a reduced scale where the format
allows, so the memory a photo takes stays bounded."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from infra.images import MAX_INPUT_SIDE, MAX_SIDE, ImageTooLarge, UnreadableImage, prepare_image
from tests.fakes.pictures import png_header, solid_png

REPO = Path(__file__).resolve().parents[2]


def encoded(kind: str, width: int, height: int) -> bytes:
    if kind == "PNG":
        return solid_png(width, height)
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 180, 40)).save(out, kind)
    return out.getvalue()


def test_telegram_photos_are_at_most_2560_px_on_a_side_and_that_is_the_cap() -> None:
    assert MAX_INPUT_SIDE == 2560


@pytest.mark.parametrize(("width", "height"), [(7700, 7700), (2561, 100), (100, 2561)])
def test_a_photo_larger_than_telegram_sends_is_refused_from_its_header(width: int, height: int) -> None:
    with pytest.raises(ImageTooLarge) as refused:
        prepare_image(png_header(width, height))
    assert f"{width}x{height}" in str(refused.value)


@pytest.mark.parametrize("kind", ["PNG", "JPEG"])
def test_the_largest_photo_telegram_sends_is_scaled_to_the_models_side(kind: str) -> None:
    with Image.open(io.BytesIO(prepare_image(encoded(kind, MAX_INPUT_SIDE, 1920)))) as sent:
        assert (sent.format, max(sent.size)) == ("JPEG", MAX_SIDE)


def test_an_image_too_large_is_still_an_unreadable_image_to_its_callers() -> None:
    assert issubclass(ImageTooLarge, UnreadableImage)


PEAK = """
import sys
sys.path.insert(0, {repo!r})

def status(key):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) for line in lines if line.startswith(key + ":"))

data = open({path!r}, "rb").read()
import PIL.Image, PIL.ImageOps, PIL.JpegImagePlugin, PIL.PngImagePlugin
from infra.images import UnreadableImage, prepare_image
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")  # the peak (VmHWM) starts again from what is resident now
before = status("VmRSS")
try:
    prepare_image(data)
except UnreadableImage:
    pass
print((status("VmHWM") - before) / 1024)
"""


def peak_growth_mb(data: bytes, folder: Path) -> float:
    """How far above its resident memory a fresh interpreter's peak goes while it prepares
    `data` (Pillow imported before, so only the photo's own memory counts). Linux only: the
    peak is reset through /proc/self/clear_refs."""
    path = folder / "photo"
    path.write_bytes(data)
    script = PEAK.format(repo=str(REPO), path=str(path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


@pytest.mark.parametrize(("kind", "side"), [("PNG", 7700), ("PNG", MAX_INPUT_SIDE), ("JPEG", MAX_INPUT_SIDE)])
def test_a_photo_takes_at_most_48_mb_of_memory_to_prepare(kind: str, side: int, tmp_path: Path) -> None:
    """A 2560 x 2560 RGB image is 26 MB decoded (Pillow keeps 4 bytes a pixel) and its scaling takes another 26; the forged 7,700 x 7,700 PNG took 681 MB."""
    assert peak_growth_mb(encoded(kind, side, side), tmp_path) <= 64
