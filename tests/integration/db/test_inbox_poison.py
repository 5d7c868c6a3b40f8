"""No update blocks its chat (issue 17): an update that fails every worker, or whose stored
payload cannot be read, is marked failed and its chat's next update is claimed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from infra.db import Database, UpdateInbox
from infra.db.stores.inbox import FAILED, MAX_ATTEMPTS
from infra.db.tables import processed_updates

LEASE = timedelta(seconds=90)
CHAT = -100


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def status_of(database: Database, update_id: int) -> str:
    async with database.reading() as connection:
        return str((await connection.execute(select(processed_updates.c.status).where(
            processed_updates.c.update_id == update_id))).scalar_one())


async def test_a_hostile_decimal_marker_comes_back_as_the_text_it_was(database: Database) -> None:
    inbox = UpdateInbox(database)
    payload = {"update_id": 1, "message": {"chat": {"id": CHAT}, "text": {"$decimal": "bad"}}}
    await inbox.record(1, CHAT, payload)

    item = await inbox.claim("w1", LEASE)

    assert item is not None and item.payload == payload


async def test_an_update_whose_payload_cannot_be_read_is_marked_failed_and_the_chat_moves_on(
        database: Database) -> None:
    inbox = UpdateInbox(database)
    await inbox.record(1, CHAT, {"update_id": 1})
    await inbox.record(2, CHAT, {"update_id": 2})
    async with database.transaction() as unit:  # a payload stored by an older, broken version
        await unit.connection.execute(update(processed_updates).where(
            processed_updates.c.update_id == 1).values(payload='{"update_id": 1, "text": "unterminated'))

    item = await inbox.claim("w1", LEASE)

    assert item is not None and item.update_id == 2
    assert await status_of(database, 1) == FAILED


async def test_an_update_that_every_worker_dies_on_fails_after_its_attempts_and_the_chat_moves_on(
        database: Database) -> None:
    clock = Clock()
    inbox = UpdateInbox(database, clock=clock)
    await inbox.record(1, CHAT, {"update_id": 1})
    await inbox.record(2, CHAT, {"update_id": 2})

    for attempt in range(1, MAX_ATTEMPTS + 1):
        item = await inbox.claim(f"w{attempt}", LEASE)
        assert item is not None and (item.update_id, item.attempts) == (1, attempt)
        clock.now += LEASE + timedelta(seconds=1)  # the worker died: its lease lapses
    following = await inbox.claim("w-last", LEASE)

    assert following is not None and following.update_id == 2
    assert await status_of(database, 1) == FAILED
    assert await inbox.done(2, "w-last") is True
    assert await inbox.claim("w-last", LEASE) is None
