"""A household's life in SQL: erasure of every record (/apagar), a supergroup migration, a group
the bot left, and the rows only kept for a while (the inbox's finished updates, expired previews)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from infra.db import Database, SqlStorage, UpdateInbox
from infra.db.stores.lifecycle import ERASED, NOT_HOUSEHOLD_DATA, expire_previews, purge_inbox
from infra.db.tables import metadata, operations, processed_updates
from tests.fakes.posting import PostingService

ANA = Speaker(501, "Ana")
BRUNO = Speaker(502, "Bruno")
CHAT, OTHER = -100101, -100202
LEASE = timedelta(seconds=90)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 15, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def only_preview(outcomes: list[Any]) -> Preview:
    [preview] = outcomes
    assert isinstance(preview, Preview), preview
    return preview


async def confirm(service: HouseholdService, chat: int, preview: Preview, by: Speaker = ANA) -> None:
    result = await service.press(chat, by.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert, result


async def a_full_household(service: HouseholdService, chat: int) -> None:
    """Members, an expense with an alias and a spend, a goal with a contribution, a pending
    preview, a conversation and a finished inbox update: a row in every household table."""
    await service.start(chat, f"Casa {chat}", ANA)
    await confirm(service, chat, only_preview(await service.join(chat, BRUNO, None)))
    await confirm(service, chat, only_preview(await service.command(chat, ANA, "despesa", "Mercado 1.500")))
    await confirm(service, chat, only_preview(await service.command(chat, ANA, "gasto", "10 mercado")))
    await confirm(service, chat, only_preview(await service.command(chat, ANA, "meta", "Viagem 6000")))
    await confirm(service, chat, only_preview(await service.command(chat, ANA, "aporte", "100 viagem")))
    only_preview(await service.command(chat, ANA, "gasto", "5 mercado"))
    await service.storage.conversations.append(f"chat:{chat}", [{"role": "user", "content": "oi"}])


async def counts(database: Database) -> dict[str, int]:
    async with database.reading() as connection:
        return {table.name: int((await connection.execute(select(func.count()).select_from(table)))
                                .scalar_one())
                for table in metadata.sorted_tables}


def test_every_table_is_erased_with_its_household_or_said_to_hold_no_household_data() -> None:
    erased = {table.name for table, _ in ERASED}
    assert set(metadata.tables) == erased | NOT_HOUSEHOLD_DATA
    assert not erased & NOT_HOUSEHOLD_DATA


async def test_apagar_confirmed_deletes_every_record_of_the_household_and_only_of_it(
        database: Database) -> None:
    clock = Clock()
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)
    inbox = UpdateInbox(database, clock=clock)
    for chat, update_id in ((CHAT, 1), (OTHER, 2)):
        await a_full_household(service, chat)
        await inbox.record(update_id, chat, {"update_id": update_id})
        item = await inbox.claim("w", LEASE)
        assert item is not None and await inbox.done(item.update_id, "w")
    one_household = await counts(database)

    await confirm(service, CHAT, only_preview(await service.erase(CHAT, BRUNO)))

    left = await counts(database)
    # Everything of CHAT's household is gone; OTHER's household is whole (each table held rows
    # of both, the same number, except the per-process group window, which the service never fills).
    for table, _ in ERASED:
        if table.name in ("group_sends", "departed_chats"):
            continue
        assert left[table.name] * 2 == one_household[table.name], table.name
    assert await service.storage.directory.household_of_chat(CHAT) is None
    assert await service.member(OTHER, BRUNO.user_id) is not None


async def test_a_confirmation_after_the_erasure_recreates_nothing(database: Database) -> None:
    clock = Clock()
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)
    await a_full_household(service, CHAT)
    spend = only_preview(await service.command(CHAT, ANA, "gasto", "7 mercado"))
    await confirm(service, CHAT, only_preview(await service.erase(CHAT, ANA)))

    late = await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, spend.key)

    assert late.alert
    assert {name: n for name, n in (await counts(database)).items() if n} == {}


async def test_a_supergroup_migration_moves_the_household_and_its_pending_previews(
        database: Database) -> None:
    clock = Clock()
    storage = SqlStorage(database, clock=clock)
    service = PostingService(storage, clock=clock)
    await a_full_household(service, CHAT)
    pending = only_preview(await service.command(CHAT, ANA, "gasto", "7 mercado"))

    assert await service.migrate(CHAT, OTHER) is True
    assert await service.migrate(CHAT, OTHER) is False  # Telegram's second message

    assert await storage.directory.household_of_chat(CHAT) is None
    assert (await service.member(OTHER, BRUNO.user_id)) is not None
    await confirm(service, OTHER, pending, by=BRUNO)
    assert "R$ 17,00" in await service.answer("resumo", OTHER, ANA, "")
    assert await storage.conversations.recent(f"chat:{OTHER}", 5) == [{"role": "user", "content": "oi"}]


async def test_a_group_the_bot_left_is_marked_until_it_is_added_back(database: Database) -> None:
    clock = Clock()
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)

    await service.bot_membership(CHAT, present=False)
    await service.bot_membership(CHAT, present=False)
    gone = await service.can_send(CHAT)
    await service.bot_membership(CHAT, present=True)

    assert gone is False
    assert await service.can_send(CHAT) is True
    assert await service.can_send(OTHER) is True


async def test_the_inbox_purge_deletes_only_finished_updates_older_than_the_retention(
        database: Database) -> None:
    clock = Clock()
    inbox = UpdateInbox(database, clock=clock)
    await inbox.record(1, CHAT, {"update_id": 1})
    item = await inbox.claim("w", LEASE)
    assert item is not None and await inbox.done(1, "w")
    await inbox.record(2, CHAT, {"update_id": 2})  # queued, and as old: kept
    clock.now += timedelta(days=31)
    await inbox.record(3, OTHER, {"update_id": 3})
    item = await inbox.claim("w", LEASE)

    purged = await purge_inbox(database, now=clock.now, retention=timedelta(days=30))

    async with database.reading() as connection:
        kept = sorted((await connection.execute(select(processed_updates.c.update_id))).scalars())
    assert (purged, kept) == (1, [2, 3])


async def test_the_sweep_closes_previews_that_waited_past_their_ttl(database: Database) -> None:
    clock = Clock()
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)
    await a_full_household(service, CHAT)
    old = only_preview(await service.command(CHAT, ANA, "gasto", "7 mercado"))
    await service.preview_posted(CHAT, old.operation_id, 4242)
    clock.now += timedelta(hours=49)
    fresh = only_preview(await service.command(CHAT, ANA, "gasto", "8 mercado"))

    closed = await expire_previews(database, now=clock.now, ttl=timedelta(hours=48))

    assert 4242 in {c.message_id for c in closed} and {c.chat_id for c in closed} == {CHAT}
    async with database.reading() as connection:
        statuses = dict((await connection.execute(
            select(operations.c.operation_id, operations.c.status))).all())
    assert statuses[old.operation_id] == "expired" and statuses[fresh.operation_id] == "pending"
