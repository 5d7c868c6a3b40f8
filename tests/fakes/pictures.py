"""Pictures for the tests, made without Pillow holding their pixels: a forged 7,700 x 7,700 PNG is
173 kB on the wire and would be 178 MB in the test's own memory if Pillow drew it."""

from __future__ import annotations

import struct
import zlib


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def solid_png(width: int, height: int, rgb: tuple[int, int, int] = (200, 180, 40)) -> bytes:
    """A one-colour RGB PNG, compressed row by row."""
    row = b"\x00" + bytes(rgb) * width  # filter type 0, then the pixels
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", body) + _chunk(b"IEND", b"")


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature, an IHDR claiming `width` x `height`, and an IDAT of a few bytes: decoding
    it would fail, so a refusal that names the size proves nothing was decoded."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"\x00\x01"))
