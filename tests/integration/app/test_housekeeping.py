"""The housekeeping jobs another process runs periodically: the inbox purge and the preview sweep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.app.housekeeping import close_expired_previews, purge_inbox
from bot.app.outcomes import Preview, Speaker
from bot.telegram.sending import TelegramSender
from infra.db import Database, SqlStorage, UpdateInbox
from infra.settings import Settings
from tests.fakes.posting import PostingService

ANA = Speaker(501, "Ana")
CHAT = -100303


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 15, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class EditingBot:
    """Records the edits the sweep makes (the Bot API's editMessageText)."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    async def edit_message_text(self, text: str, **params: Any) -> None:
        self.edits.append({"text": text, **params})


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def test_purge_keeps_finished_updates_for_the_retention_setting(database: Database) -> None:
    clock = Clock()
    inbox = UpdateInbox(database, clock=clock)
    await inbox.record(1, CHAT, {"update_id": 1})
    item = await inbox.claim("w", timedelta(seconds=90))
    assert item is not None and await inbox.done(1, "w")

    clock.now += timedelta(days=6)
    kept = await purge_inbox(database, settings(inbox_retention_days=7), clock=clock)
    clock.now += timedelta(days=2)
    purged = await purge_inbox(database, settings(inbox_retention_days=7), clock=clock)

    assert (kept, purged) == (0, 1)
    assert settings().inbox_retention_days == 30


async def test_the_sweep_closes_expired_previews_and_edits_their_messages(database: Database) -> None:
    clock = Clock()
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)
    await service.start(CHAT, "Casa", ANA)
    [preview] = await service.command(CHAT, ANA, "despesa", "Luz 200")
    assert isinstance(preview, Preview)
    await service.preview_posted(CHAT, preview.operation_id, 77)
    bot = EditingBot()

    clock.now += timedelta(hours=47)
    early = await close_expired_previews(database, settings(), TelegramSender(bot), clock=clock)  # type: ignore[arg-type]
    clock.now += timedelta(hours=2)
    closed = await close_expired_previews(database, settings(), TelegramSender(bot), clock=clock)  # type: ignore[arg-type]

    assert (early, closed) == (0, 1)
    [edit] = bot.edits
    assert edit["chat_id"] == CHAT and edit["message_id"] == 77 and edit["reply_markup"] is None
    assert edit["text"].startswith("⌛ Esta proposta expirou") and "Luz" in edit["text"]
    assert await service.pending_previews(CHAT) == []


async def test_the_sweep_edits_nothing_in_a_group_the_bot_left(database: Database) -> None:
    clock = Clock()
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)
    await service.start(CHAT, "Casa", ANA)
    [preview] = await service.command(CHAT, ANA, "despesa", "Luz 200")
    assert isinstance(preview, Preview)
    await service.preview_posted(CHAT, preview.operation_id, 77)
    await service.bot_membership(CHAT, present=False)
    bot = EditingBot()
    clock.now += timedelta(hours=49)

    assert await close_expired_previews(database, settings(), TelegramSender(bot), clock=clock) == 1  # type: ignore[arg-type]
    assert bot.edits == []
