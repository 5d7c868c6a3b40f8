"""What the bot stores beside the aggregates: the update inbox, the chat directory, conversations."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sqlalchemy import event, select

from infra.db import ChatDirectory, ChatLink, Database, SqlConversationStore, UpdateInbox
from infra.db.tables import messages
from infra.db.values import loads
from tests.integration.conftest import Backend

LEASE = timedelta(seconds=90)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_the_inbox_refuses_a_duplicate_update_id(database: Database) -> None:
    inbox = UpdateInbox(database)

    assert await inbox.record(1001, -5001, {"update_id": 1001, "message": {"text": "oi"}}) is True
    assert await inbox.record(1001, -5001, {"update_id": 1001, "message": {"text": "de novo"}}) is False

    item = await inbox.claim("worker-1", LEASE)
    assert item is not None and item.payload["message"]["text"] == "oi"


async def test_a_redelivered_update_recorded_at_once_is_accepted_once(database: Database) -> None:
    inbox = UpdateInbox(database)
    barrier = asyncio.Barrier(5)

    async def deliver() -> bool:
        await barrier.wait()
        return await inbox.record(2**40, -5001, {"update_id": 2**40})

    assert sorted(await asyncio.gather(*(deliver() for _ in range(5)))) == [False] * 4 + [True]


async def test_a_hundred_updates_recorded_at_once_in_one_process_are_all_stored(database: Database) -> None:
    # One process's writers meet in SQLite's busy handler (BEGIN IMMEDIATE and a busy timeout),
    # with no lock of our own in front of it: slower under a burst, never "database is locked".
    inbox = UpdateInbox(database)
    barrier = asyncio.Barrier(100)

    async def deliver(update_id: int) -> bool:
        await barrier.wait()
        return await inbox.record(update_id, -5000 - update_id % 10, {"update_id": update_id})

    recorded = await asyncio.gather(*(deliver(update_id) for update_id in range(1, 101)))

    assert recorded == [True] * 100
    claimed = [await inbox.claim("w1", LEASE) for _ in range(10)]
    assert sorted(item.update_id for item in claimed if item is not None) == list(range(1, 11))


async def test_a_chat_s_updates_are_claimed_in_order_one_at_a_time(database: Database) -> None:
    inbox = UpdateInbox(database)
    await inbox.record(1, -100, {"n": 1})
    await inbox.record(2, -100, {"n": 2})
    await inbox.record(3, -200, {"n": 3})

    first = await inbox.claim("w1", LEASE)
    other_chat = await inbox.claim("w2", LEASE)
    assert (first and first.update_id, other_chat and other_chat.update_id) == (1, 3)
    assert await inbox.claim("w3", LEASE) is None  # update 2 waits for update 1

    assert await inbox.done(1, "w1") is True
    second = await inbox.claim("w3", LEASE)
    assert second is not None and (second.update_id, second.payload, second.attempts) == (2, {"n": 2}, 1)


async def test_a_claim_after_a_record_looks_and_takes_in_one_write_and_an_idle_poll_only_reads(
        database: Database) -> None:
    inbox = UpdateInbox(database)
    seen: list[str] = []  # per transaction: the first word of each statement

    def begin(*_: object) -> None:
        seen.append("")

    def statement(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        if not sql.startswith("BEGIN"):  # SQLite's own BEGIN, issued by the begin hook
            seen[-1] = (seen[-1] + " " + sql.split()[0]).strip()

    await inbox.record(1, -100, {"n": 1})
    await inbox.record(2, -100, {"n": 2})
    event.listen(database.engine.sync_engine, "begin", begin)
    event.listen(database.engine.sync_engine, "before_cursor_execute", statement)
    try:
        first = await inbox.claim("w1", LEASE)  # recorded here: looked for and taken at once
        assert seen == ["UPDATE"]
        assert await inbox.claim("w1", LEASE) is None  # update 2 waits for update 1, as ever
        seen.clear()
        assert await inbox.claim("w1", LEASE) is None  # nothing new here: a read, no write
        assert seen == ["SELECT"]
    finally:
        event.remove(database.engine.sync_engine, "begin", begin)
        event.remove(database.engine.sync_engine, "before_cursor_execute", statement)
    assert first is not None and first.update_id == 1
    assert await inbox.done(1, "w1") is True
    second = await inbox.claim("w2", LEASE)
    assert second is not None and second.update_id == 2


async def test_a_lapsed_lease_lets_another_worker_take_the_update(database: Database) -> None:
    clock = Clock()
    inbox = UpdateInbox(database, clock=clock)
    await inbox.record(7, -100, {"n": 7})
    assert await inbox.claim("w1", LEASE) is not None
    assert await inbox.extend(7, "w1", LEASE) is True

    clock.now += LEASE + timedelta(seconds=1)
    retaken = await inbox.claim("w2", LEASE)

    assert retaken is not None and (retaken.update_id, retaken.attempts) == (7, 2)
    assert await inbox.done(7, "w1") is False  # the first worker no longer owns it
    assert await inbox.extend(7, "w1", LEASE) is False
    assert await inbox.done(7, "w2") is True
    assert await inbox.claim("w3", LEASE) is None


async def test_a_chat_keeps_its_first_household_and_each_user_their_member(database: Database) -> None:
    directory = ChatDirectory(database)
    assert await directory.household_of_chat(-100) is None

    assert await directory.link_chat(-100, "casa-1", "orc-1") == ChatLink("casa-1", "orc-1")
    assert await directory.link_chat(-100, "casa-2", "orc-2") == ChatLink("casa-1", "orc-1")
    await directory.link_chat(-200, "casa-9", "orc-9")
    assert await directory.household_of_chat(-100) == ChatLink("casa-1", "orc-1")

    assert await directory.link_member(-100, 42, "m-ana") == "m-ana"
    assert await directory.link_member(-100, 42, "m-other") == "m-ana"
    assert await directory.member_of_user(-100, 42) == "m-ana"
    assert await directory.member_of_user(-200, 42) is None  # another chat, another household
    assert await directory.member_of_user(-100, 43) is None



async def test_the_directory_finds_another_workers_links_and_never_a_rolled_back_one(database: Database) -> None:
    directory = ChatDirectory(database)
    assert await directory.household_of_chat(-100) is None
    assert await directory.member_of_user(-100, 42) is None
    # Linked by another worker after this one found nothing: found now.
    await ChatDirectory(database).link_chat(-100, "casa-1", "orc-1")
    await ChatDirectory(database).link_member(-100, 42, "m-ana")
    assert await directory.household_of_chat(-100) == ChatLink("casa-1", "orc-1")
    assert await directory.member_of_user(-100, 42) == "m-ana"

    # A link made in a transaction that rolls back is never served.
    class Undone(Exception):
        pass

    try:
        async with database.transaction():
            await directory.link_chat(-300, "casa-3", "orc-3")
            await directory.link_member(-300, 7, "m-bia")
            assert await directory.household_of_chat(-300) == ChatLink("casa-3", "orc-3")
            assert await directory.member_of_user(-300, 7) == "m-bia"
            raise Undone
    except Undone:
        pass
    assert await directory.household_of_chat(-300) is None
    assert await directory.member_of_user(-300, 7) is None


async def test_appends_racing_from_two_engines_number_every_message_once(
        backend: Backend, database: Database) -> None:
    other = backend.open()
    try:
        stores = [SqlConversationStore(database), SqlConversationStore(other)]
        barrier = asyncio.Barrier(8)

        async def say(n: int) -> None:
            await barrier.wait()
            await stores[n % 2].append("chat-1", [{"role": "user", "content": f"m{n}"},
                                                  {"role": "assistant", "content": f"r{n}"}])

        await asyncio.gather(*(say(n) for n in range(8)))
    finally:
        await other.dispose()

    async with database.reading() as connection:
        rows = (await connection.execute(
            select(messages.c.ordinal, messages.c.turn, messages.c.body)
            .where(messages.c.conversation_id == "chat-1").order_by(messages.c.ordinal))).all()
    assert [r.ordinal for r in rows] == list(range(1, 17))
    assert [r.turn for r in rows] == [n // 2 + 1 for n in range(16)]
    # each append's two messages stay together, in its turn
    bodies = [loads(r.body)["content"] for r in rows]
    assert all(bodies[i][1:] == bodies[i + 1][1:] for i in range(0, 16, 2))


async def test_a_conversation_keeps_its_messages_in_order_and_only_the_latest_turns(database: Database) -> None:
    store = SqlConversationStore(database, max_turns_kept=3)
    for turn in range(1, 6):
        await store.append("chat-1", [
            {"role": "user", "content": f"[Ana] mensagem {turn}"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{turn}", "type": "function",
                 "function": {"name": "budgetStatus", "arguments": "{\"period\":\"2026-06\"}"}}]},
            {"role": "tool", "tool_call_id": f"c{turn}", "content": "{\"amount\":37.90}"},
            {"role": "assistant", "content": f"resposta {turn}", "amount": Decimal("37.90")},
        ])
    await store.append("chat-2", [{"role": "user", "content": "outra conversa"}])

    last_two = await store.recent("chat-1", 2)
    everything = await store.recent("chat-1", 50)

    assert [m["content"] for m in last_two if m["role"] == "user"] == ["[Ana] mensagem 4", "[Ana] mensagem 5"]
    assert len(last_two) == 8 and last_two[-1]["amount"] == Decimal("37.90")
    assert [m["content"] for m in everything if m["role"] == "user"] == [
        "[Ana] mensagem 3", "[Ana] mensagem 4", "[Ana] mensagem 5"]
    assert await store.recent("chat-2", 10) == [{"role": "user", "content": "outra conversa"}]
    assert await store.recent("chat-3", 10) == []


async def test_older_turns_are_deleted_every_few_turns_and_never_read_in_between(database: Database) -> None:
    store = SqlConversationStore(database, max_turns_kept=3)

    stored: list[int] = []
    for turn in range(1, 26):
        await store.append("chat-1", [{"role": "user", "content": f"m{turn}"},
                                      {"role": "assistant", "content": f"r{turn}"}])
        async with database.reading() as connection:
            stored.append(len((await connection.execute(
                select(messages.c.ordinal).where(messages.c.conversation_id == "chat-1"))).all()))
        assert [m["content"] for m in await store.recent("chat-1", 50) if m["role"] == "user"] == [
            f"m{n}" for n in range(max(1, turn - 2), turn + 1)]

    # deleted when the count of turns crosses 10 and 20: never more than 3 + 10 turns are kept
    assert stored[8] == 18 and stored[9] == 6 and stored[19] == 6 and stored[24] == 16
    assert max(stored) <= 2 * (3 + 10)
