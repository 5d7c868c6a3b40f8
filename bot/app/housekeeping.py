"""Jobs that keep the store small and the chat tidy, for whatever runs the periodic work
(`household-bot remind`, or the webhook and polling processes every minute): plain async
functions, safe to run from several workers at once and as often as wanted.

- `purge_inbox`: finished updates older than INBOX_RETENTION_DAYS (default 30) are deleted.
- `close_expired_previews`: previews that waited past OPERATION_TTL_HOURS are closed, as a late
  press would close them, and their messages lose the buttons and say so.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.app.ports import Sender
from bot.texts import previews
from domain.clock import Clock, utc_now
from infra.db.engine import Database
from infra.db.stores.lifecycle import expire_previews, is_departed
from infra.db.stores.lifecycle import purge_inbox as purge_finished_updates
from infra.db.stores.schedule import ScheduleStore
from infra.settings import Settings

log = logging.getLogger(__name__)


async def purge_inbox(database: Database, settings: Settings, *, clock: Clock = utc_now) -> int:
    """Deletes finished inbox updates older than the retention; returns how many."""
    purged = await purge_finished_updates(
        database, now=clock(), retention=timedelta(days=settings.inbox_retention_days))
    if purged:
        log.info("purged %s finished updates from the inbox", purged)
    return purged


async def close_expired_previews(database: Database, settings: Settings, sender: Sender | None = None,
                                 *, clock: Clock = utc_now) -> int:
    """Closes every preview older than the operations' TTL and, given a `sender`, edits each
    posted one to say it expired (not in a group the bot was removed from). Returns how many."""
    closed = await expire_previews(database, now=clock(),
                                   ttl=timedelta(hours=settings.operation_ttl_hours))
    for preview in closed:
        if sender is None or preview.chat_id is None or preview.message_id is None:
            continue
        if await is_departed(database, preview.chat_id):
            continue
        try:
            await sender.edit_text(preview.chat_id, preview.message_id,
                                   previews.expired_text(preview.tool, preview.preview))
        except Exception as error:  # deleted message, migrated chat: the operation is closed anyway
            log.info("could not edit expired preview %s in chat %s: %s",
                     preview.message_id, preview.chat_id, error)
    return len(closed)


def jobs(database: Database, settings: Settings, sender: Sender) -> list[Callable[[datetime], Awaitable[object]]]:
    """The housekeeping for the periodic runner (bot/telegram/periodic.py): each job takes the
    moment it runs at, so the runner's clock is the one they read."""

    async def purge(now: datetime) -> int:
        return await purge_inbox(database, settings, clock=lambda: now)

    async def sweep(now: datetime) -> int:
        return await close_expired_previews(database, settings, sender, clock=lambda: now)

    async def forget_sent(now: datetime) -> int:
        # The schedule's own rows are only needed while their date can still come due.
        before = (now - timedelta(days=settings.inbox_retention_days)).date()
        return await ScheduleStore(database).purge(before)

    return [purge, sweep, forget_sent]
