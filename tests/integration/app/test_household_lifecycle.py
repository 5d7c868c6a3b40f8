"""A household's life in SQL: erasure of every record (/apagar), a supergroup migration, a group
the bot left, and the rows only kept for a while (the inbox's finished updates, expired previews)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from infra.db import Database, SqlStorage, UpdateInbox
from infra.db.stores.group_sends import GroupSendWindow
from infra.db.stores.lifecycle import ERASED, NOT_HOUSEHOLD_DATA, expire_previews, purge_inbox
from infra.db.stores.schedule import Claim, ScheduleStore
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


# -- /apagar after a supergroup migration (issue 27, finding 7) ------------------------------------

OLD_GROUP, SUPERGROUP, NEIGHBOURS = -4_077_000_001, -1_004_077_000_002, -1_004_077_000_003
ANA_ID, BRUNO_ID = 88_000_000_501, 88_000_000_502
TITLE = "Casa da Ana e do Bruno"


def message(update_id: int, chat_id: int, user_id: int, name: str, **fields: Any) -> dict[str, Any]:
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": 1781000000, "from": {"id": user_id, "is_bot": False, "first_name": name},
        "chat": {"id": chat_id, "type": "group", "title": TITLE}, **fields}}


async def handled(inbox: UpdateInbox, update: dict[str, Any], chat_id: int, *, finish: bool = True) -> None:
    """An update stored, claimed and (unless `finish` is False) finished, as a worker does."""
    await inbox.record(update["update_id"], chat_id, update)
    item = await inbox.claim("worker", LEASE)
    assert item is not None and item.update_id == update["update_id"]
    if finish:
        assert await inbox.done(item.update_id, "worker")


async def identifiers(storage: SqlStorage, chat_id: int) -> set[str]:
    """Everything that names the household, its people or its chats, as text."""
    link = await storage.directory.household_of_chat(chat_id)
    assert link is not None
    household = await storage.households.load(link.household_id)
    budget = await storage.budgets.load(link.budget_id)
    goals = await storage.goals.list(link.household_id)
    return {household.id, budget.id, *(m.id for m in household.members), *(e.id for e in budget.expenses),
            *(g.id for g in goals), *(str(n) for n in (OLD_GROUP, SUPERGROUP, ANA_ID, BRUNO_ID)),
            f"chat:{OLD_GROUP}", f"chat:{SUPERGROUP}", TITLE, "Ana", "Bruno"}


async def rows_naming(database: Database, marks: set[str]) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the schema (from the metadata: a new table is read too) with a
    value that is, or holds, one of `marks`."""
    found: dict[str, list[dict[str, Any]]] = {}
    async with database.reading() as connection:
        for table in metadata.sorted_tables:
            for row in (await connection.execute(select(table))).mappings():
                cells = [str(value) for value in row.values() if value is not None]
                if any(mark in cell for mark in marks for cell in cells):
                    found.setdefault(table.name, []).append(dict(row))
    return found


async def test_apagar_after_a_supergroup_migration_leaves_no_row_naming_the_household_or_its_chats(
        database: Database) -> None:
    clock = Clock()
    storage = SqlStorage(database, clock=clock)
    service = PostingService(storage, clock=clock)
    inbox, window, schedule = UpdateInbox(database, clock=clock), GroupSendWindow(database, clock=clock), \
        ScheduleStore(database)
    ana, bruno = Speaker(ANA_ID, "Ana"), Speaker(BRUNO_ID, "Bruno")
    # Neighbours in another group, who must keep everything.
    await service.start(NEIGHBOURS, "Casa da Carla", Speaker(77_000_000_001, "Carla"))
    await confirm(service, NEIGHBOURS, only_preview(await service.command(
        NEIGHBOURS, Speaker(77_000_000_001, "Carla"), "despesa", "Mercado 900")), by=Speaker(77_000_000_001, "Carla"))

    # Life in the group before it became a supergroup: the household, the bot's messages to the
    # group, a bill reminder sent there, updates handled there.
    await service.start(OLD_GROUP, TITLE, ana)
    await confirm(service, OLD_GROUP, only_preview(await service.join(OLD_GROUP, bruno, None)), by=ana)
    await confirm(service, OLD_GROUP, only_preview(await service.command(OLD_GROUP, ana, "despesa", "Luz 200 dia 16")),
                  by=ana)
    await confirm(service, OLD_GROUP, only_preview(await service.command(OLD_GROUP, bruno, "gasto", "10 luz")), by=ana)
    await service.storage.conversations.append(f"chat:{OLD_GROUP}", [{"role": "user", "content": "[Ana] oi"}])
    link = await storage.directory.household_of_chat(OLD_GROUP)
    assert link is not None
    [luz] = (await storage.budgets.load(link.budget_id)).expenses
    bill = Claim("bill", luz.id, date(2026, 6, 16))
    assert await schedule.claim(bill, OLD_GROUP, "worker", clock.now, LEASE)
    assert await schedule.sent(bill, "worker", clock.now)
    for _ in range(3):
        assert await window.reserve(OLD_GROUP) == 0.0
    await handled(inbox, message(1, OLD_GROUP, ANA_ID, "Ana", text="/resumo"), OLD_GROUP)
    marks = await identifiers(storage, OLD_GROUP)

    # Telegram upgrades the group: the old group's service message is being handled when the
    # household moves, and finishes after it; the bot is then gone from the old group.
    migration = message(2, OLD_GROUP, ANA_ID, "Ana", migrate_to_chat_id=SUPERGROUP)
    await handled(inbox, migration, OLD_GROUP, finish=False)
    assert await service.migrate(OLD_GROUP, SUPERGROUP)
    assert await inbox.done(2, "worker")
    await service.bot_membership(OLD_GROUP, present=False)
    assert await window.reserve(SUPERGROUP) == 0.0
    await handled(inbox, message(3, SUPERGROUP, BRUNO_ID, "Bruno", text="/extrato"), SUPERGROUP)

    # /apagar in the supergroup; its press is the update being handled as the erase commits.
    erase = only_preview(await service.erase(SUPERGROUP, bruno))
    press = {"update_id": 4, "callback_query": {"id": "q4", "from": {"id": ANA_ID, "is_bot": False, "first_name": "Ana"},
                                                "chat_instance": "c", "data": f"ok:{erase.key}"}}
    await handled(inbox, press, SUPERGROUP, finish=False)
    await confirm(service, SUPERGROUP, erase, by=ana)

    left = await rows_naming(database, marks)
    # The one record an erasure leaves: its own press, still being handled (security.md).
    updates = [row["update_id"] for row in left.pop("processed_updates", [])]
    assert (updates, left) == ([4], {}), (updates, {name: len(rows) for name, rows in left.items()})
    assert await service.member(NEIGHBOURS, 77_000_000_001) is not None
    assert "R$ 900,00" in await service.answer("resumo", NEIGHBOURS, Speaker(77_000_000_001, "Carla"), "")
