"""What media cost (issue 15): a 3,000-line statement's preview, confirmation and re-import on
SQLite (the same service code the bot runs, no Telegram), the peak RSS they add, and the image
tokens of a photo's model request as litellm counts them for gpt-4o-mini.

    .venv/bin/python bench/media.py [--lines 3000] [--format ofx|nubank-csv] [--json out.json]

The RSS figure is the growth of the process's peak while the statement is previewed, confirmed
and imported again (ofxtools imported before it). Goals: preview <= 2 s, confirmation <= 3 s, re-import finding 0 new <= 2 s, peak RSS growth
<= 50 MB, a photo <= 1,600 image tokens, and preparing the largest photo accepted (2,560 px on a
side) <= 64 MB above the interpreter's resident memory.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.prompt_size import EXPENSES
from bot.app.media import Incoming, MediaService
from bot.app.outcomes import Decision, Preview, Reply, Speaker
from bot.app.service import HouseholdService
from domain.money import Money
from infra.db.engine import Database
from infra.db.migrate import upgrade
from infra.db.storage import SqlStorage

GOALS = {"preview_s": 2.0, "confirm_s": 3.0, "reimport_s": 2.0, "rss_growth_mb": 50.0, "photo_image_tokens": 1600,
         "photo_peak_rss_mb": 64.0}
NOW = datetime(2026, 6, 30, 15, tzinfo=UTC)
CHAT = -100900
ANA = Speaker(1, "Ana")
BRUNO = Speaker(2, "Bruno")


def statement_ofx(lines: int, seed: int = 15) -> bytes:
    """An Itaú-like OFX 1.x in Latin-1: 70% debits naming an expense, 20% naming none, 10% credits."""
    rng = random.Random(seed)
    names = [alias or name for name, _, aliases, _ in EXPENSES for alias in [*aliases[:1], None]]
    body = []
    for index in range(lines):
        day = date(2026, 6, 1) + timedelta(days=index % 30)
        roll = rng.random()
        if roll < 0.7:
            memo, amount = f"COMPRA CARTAO {rng.choice(names).upper()} {index}", -rng.randint(100, 50000)
        elif roll < 0.9:
            memo, amount = f"PIX ENVIADO FULANO {index}", -rng.randint(100, 50000)
        else:
            memo, amount = f"PIX RECEBIDO SALÁRIO {index}", rng.randint(100, 500000)
        body.append(f"<STMTTRN>\n<TRNTYPE>{'DEBIT' if amount < 0 else 'CREDIT'}\n<DTPOSTED>{day:%Y%m%d}\n"
                    f"<TRNAMT>{amount / 100:.2f}".replace(".", ",") +
                    f"\n<FITID>{index:010d}\n<MEMO>{memo}\n</STMTTRN>")
    text = ("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n"
            "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n"
            "<STMTRS>\n<CURDEF>BRL\n<BANKTRANLIST>\n" + "\n".join(body) +
            "\n</BANKTRANLIST>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n")
    return text.encode("latin-1")


def statement_nubank_csv(lines: int, seed: int = 15) -> bytes:
    """A Nubank card CSV (`date,title,amount`, UTF-8 with a BOM): 70% purchases naming an expense,
    20% naming none, 10% payments or refunds (negative)."""
    rng = random.Random(seed)
    names = [alias or name for name, _, aliases, _ in EXPENSES for alias in [*aliases[:1], None]]
    rows = ["date,title,amount"]
    for index in range(lines):
        day = date(2026, 6, 1) + timedelta(days=index % 30)
        roll = rng.random()
        if roll < 0.7:
            title, amount = f"{rng.choice(names).title()} {index}", rng.randint(100, 50000)
        elif roll < 0.9:
            title, amount = f"Loja Qualquer {index}", rng.randint(100, 50000)
        else:
            title, amount = f"Pagamento recebido {index}", -rng.randint(100, 500000)
        rows.append(f"{day.isoformat()},{title},{amount / 100:.2f}")
    return ("\ufeff" + "\n".join(rows) + "\n").encode("utf-8")


STATEMENTS = {"ofx": ("itau.ofx", statement_ofx), "nubank-csv": ("nubank.csv", statement_nubank_csv)}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def statements(lines: int, kind: str = "ofx") -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.db"
        await asyncio.to_thread(upgrade, url)
        database = Database(url)
        storage = SqlStorage(database, clock=lambda: NOW)
        service = HouseholdService(storage, model=None, clock=lambda: NOW)
        media = MediaService(service)
        await service.start(CHAT, "Casa", ANA)
        # /entrar is a request a member confirms: Ana lets Bruno in, so that he may confirm too.
        # A preview is only confirmed once posted (the Telegram adapter tells the service so).
        [joining] = await service.join(CHAT, BRUNO, None)
        assert isinstance(joining, Preview), joining
        await service.preview_posted(CHAT, joining.operation_id, 1)
        joined = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, joining.key)
        assert not joined.alert, joined
        link = await storage.directory.household_of_chat(CHAT)
        assert link is not None
        budget = await storage.budgets.load(link.budget_id)
        for name, expected, aliases, _ in EXPENSES:
            budget.register(name, Money.of(expected, "BRL"), aliases=aliases)
        await storage.budgets.save(budget)
        filename, make = STATEMENTS[kind]
        data = make(lines)

        async def fetch() -> bytes:
            return data

        incoming = Incoming(fetch, filename, len(data))
        rss_before = peak_rss_mb()
        started = time.perf_counter()
        [preview] = await media.statement(CHAT, ANA, incoming, "doc-1")
        preview_s = time.perf_counter() - started
        assert isinstance(preview, Preview), preview
        await service.preview_posted(CHAT, preview.operation_id, 2)
        started = time.perf_counter()
        result = await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, preview.key)
        confirm_s = time.perf_counter() - started
        assert not result.alert, result
        started = time.perf_counter()
        [again] = await media.statement(CHAT, ANA, incoming, "doc-2")
        reimport_s = time.perf_counter() - started
        assert isinstance(again, Reply) and "Nada novo" in again.text, again
        rss_growth = peak_rss_mb() - rss_before
        await database.dispose()
    return {"format": kind, "lines": lines, "file_kb": round(len(data) / 1024), "imported": int(preview.text.split()[2]),
            "preview_s": round(preview_s, 3), "confirm_s": round(confirm_s, 3),
            "reimport_s": round(reimport_s, 3), "rss_growth_mb": round(rss_growth, 1)}


def photo_tokens() -> dict[str, int]:
    """Image tokens of a photo's request (the message with the image minus the same without it)."""
    from PIL import Image

    from domain.agent.media_prompt import PHOTO_INSTRUCTIONS
    from infra.images import data_uri, prepare_image
    from infra.llm import _litellm

    litellm = _litellm()
    # As Telegram sends them: at most 2,560 px on a side (infra/images.py refuses anything larger).
    sizes = {"phone photo 2560x1920": (2560, 1920), "screenshot 1080x2400": (1080, 2400),
             "square 1568x1568": (1568, 1568), "long receipt 1152x2560": (1152, 2560),
             "tiny 300x200": (300, 200)}
    found = {}
    for label, size in sizes.items():
        out = io.BytesIO()
        Image.effect_noise(size, 60).convert("RGB").save(out, "JPEG")
        text = {"type": "text", "text": PHOTO_INSTRUCTIONS}
        image = {"type": "image_url", "image_url": {"url": data_uri(prepare_image(out.getvalue()))}}
        with_image = [{"role": "user", "content": [{"type": "text", "text": "[Ana] 📷 (foto)"}, text, image]}]
        without = [{"role": "user", "content": [{"type": "text", "text": "[Ana] 📷 (foto)"}, text]}]
        found[label] = (litellm.token_counter(model="gpt-4o-mini", messages=with_image)
                        - litellm.token_counter(model="gpt-4o-mini", messages=without))
    return found


PHOTO_PEAK = """
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


def solid_png(width: int, height: int) -> bytes:
    """A one-colour PNG written row by row: a forged 7,700 px photo without 178 MB of pixels here."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer, row = zlib.compressobj(9), b"\x00" + bytes((200, 180, 40)) * width
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def photo_peaks() -> dict[str, float]:
    """How far above its resident memory a fresh interpreter's peak (VmHWM, reset through
    /proc/self/clear_refs; Linux) goes while it prepares each photo for the model: the largest
    Telegram sends (2,560 px on a side; a PNG has no reduced-scale decode, a JPEG does) and the
    forged 7,700 x 7,700 PNG (refused from its header)."""
    from PIL import Image

    from infra.images import MAX_INPUT_SIDE

    side = MAX_INPUT_SIDE
    jpeg = io.BytesIO()
    Image.effect_noise((side, side), 60).convert("RGB").save(jpeg, "JPEG")
    photos = {f"PNG {side}x{side}": solid_png(side, side), f"JPEG {side}x{side}": jpeg.getvalue(),
              "forged PNG 7700x7700": solid_png(7700, 7700)}
    repo = str(Path(__file__).resolve().parents[1])
    found = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, data in photos.items():
            path = Path(folder) / "photo"
            path.write_bytes(data)
            done = subprocess.run([sys.executable, "-c", PHOTO_PEAK.format(repo=repo, path=str(path))],
                                  capture_output=True, text=True, check=True)
            found[label] = round(float(done.stdout.strip()), 1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--format", choices=sorted(STATEMENTS), default="ofx",
                        help="the statement: an Itaú-like OFX, or a Nubank card CSV")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    # ofxtools' package import (its HTTP client and every OFX model) costs about a second once
    # per process, on the first statement a worker reads: timed apart from the statement's work.
    started = time.perf_counter()
    import ofxtools.Parser  # noqa: F401

    ofxtools_import_s = round(time.perf_counter() - started, 3)
    result: dict[str, Any] = asyncio.run(statements(args.lines, args.format))
    result["ofxtools_import_s"] = ofxtools_import_s
    result["first_preview_s"] = round(ofxtools_import_s + result["preview_s"], 3)
    tokens = photo_tokens()
    result["photo_image_tokens"] = max(tokens.values())
    result["photo_image_tokens_by_size"] = tokens
    peaks = photo_peaks()
    result["photo_peak_rss_mb"] = max(v for k, v in peaks.items() if not k.startswith("forged"))
    result["photo_peak_rss_mb_by_photo"] = peaks
    for key, goal in GOALS.items():
        mark = "ok" if result[key] <= goal else "MISSED"
        print(f"{key:22} {result[key]:>10}   goal <= {goal}   {mark}")
    print(f"{'(first statement)':22} {result['first_preview_s']} s with the one-time ofxtools import "
          f"({result['ofxtools_import_s']} s)")
    print(f"{'(by size)':22} {tokens}")
    print(f"{'(peak RSS by photo)':22} {peaks}")
    print(f"{'(statement)':22} {result['format']}, {result['lines']} lines, {result['file_kb']} KB, {result['imported']} imported")
    if args.json:
        args.json.write_text(json.dumps({"goals": GOALS, **result}, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
