"""Issue 27's cases (30-37): what hostile probing still found. An undone statement import sent
again, a stranger reading the household, files that are no statement, a forged photo, voice notes
that are no audio, a ↩️ Desfazer that cannot work, what an erasure left after a supergroup
migration, and a chunked body far over the webhook's limit. Each runs the bot over its webhook
against the fake Telegram (and the fake model where one is asked), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from bot.telegram.webhook import MAX_BODY_BYTES, create_app
from tests.e2e.harness import (
    ANA,
    SECRET,
    SECRET_HEADER,
    WEBHOOK_PATH,
    bot_config,
    explicit_settings,
    fixed_clock,
    next_update_id,
)
from tests.fakes.telegram_api import FakeTelegramAPI, message_update
from tests.reliability.conftest import backend_name
from tests.reliability.report import Figures
from tests.reliability.support import inbox_at, sync

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

BODY_CHAT = -1027000000008
CHUNK = 64 * 1024
HUGE_BODY = 60 * 1024 * 1024


# --------------------------------------------------------------------------- 37: a huge chunked body


class CountedBody:
    """A request body sent chunk by chunk (Transfer-Encoding: chunked), counting what the server
    pulled: the bytes stay one 64 kB block, however large the body claims to be."""

    def __init__(self, head: bytes, total: int, tail: bytes = b"") -> None:
        self.head = head
        self.total = total
        self.tail = tail
        self.consumed = 0

    async def chunks(self) -> AsyncIterator[bytes]:
        block = b"x" * CHUNK
        for part in (self.head, *([block] * ((self.total - len(self.head) - len(self.tail)) // CHUNK)), self.tail):
            if not part:
                continue
            self.consumed += 1
            yield part

    @property
    def chunk_count(self) -> int:
        return 2 + (self.total - len(self.head) - len(self.tail)) // CHUNK


async def _post_to_the_app(tg: FakeTelegramAPI, url: str, bodies: list[CountedBody | bytes]) -> list[int]:
    """The webhook app itself (its lifespan run here, in this loop), each body posted through an
    ASGI transport that hands the app one chunk each time it asks for one."""
    app = create_app(explicit_settings(bot_config(tg, url)), clock=fixed_clock)
    statuses = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bot", timeout=30) as client:
            for body in bodies:
                content = body.chunks() if isinstance(body, CountedBody) else body
                response = await client.post(WEBHOOK_PATH, content=content,
                                             headers={SECRET_HEADER: SECRET, "Content-Type": "application/json"})
                statuses.append(response.status_code)
    return statuses


def test_a_chunked_body_far_over_the_limit_is_refused_after_reading_at_most_the_limit(
        tg: FakeTelegramAPI, bot_url: str, figures: Figures) -> None:
    update_id = next_update_id()
    head = b'{"update_id": %d, "message": {"text": "' % update_id
    huge = CountedBody(head, HUGE_BODY, b'"}}')
    declared = b'{"update_id": %d, "message": {"text": "%s"}}' % (next_update_id(), b"y" * (MAX_BODY_BYTES + 1))
    # A real update, sent in chunks of a few bytes: still read whole and stored.
    tg.register_chat({"id": BODY_CHAT, "title": "Casa", "type": "supergroup"})
    small_id = next_update_id()
    small = message_update(small_id, BODY_CHAT, ANA.user_id, ANA.first_name, "/ajuda", chat_type="supergroup")
    encoded = json.dumps(small).encode()
    pieces = CountedBody(encoded[:10], len(encoded), encoded[10:])

    statuses = sync(_post_to_the_app(tg, bot_url, [huge, declared, pieces]))

    most = -(-(MAX_BODY_BYTES + 1) // CHUNK) + 1  # the head, then enough 64 kB blocks to pass 1 MB
    stored = sync(inbox_at(bot_url))
    held = figures.add(
        37, backend_name(bot_url), attempts=3,
        expected=f"413 after <= {most} of {huge.chunk_count} chunks; 413 for a declared 1 MB + 1; "
                 "a chunked update stored",
        seen=f"{statuses[0]} after {huge.consumed} of {huge.chunk_count} chunks; {statuses[1]} for a declared "
             f"1 MB + 1; a chunked update {'stored' if small_id in stored else 'not stored'}",
        held=statuses == [413, 413, 200] and huge.consumed <= most and small_id in stored)
    assert held, (statuses, huge.consumed)
    assert update_id not in stored

