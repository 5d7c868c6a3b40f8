"""The free-text reader's turn in SQL (contract §9): its previews and the conversation that
records them commit together, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from infra.db import Database, SqlStorage
from tests.fakes.posting import PostingService

ANA = Speaker(501, "Ana")
CHAT = -100301


def clock() -> datetime:
    return datetime(2026, 6, 15, 12, tzinfo=UTC)


async def a_household_with_mercado(database: Database) -> PostingService:
    service = PostingService(SqlStorage(database, clock=clock), clock=clock)
    await service.start(CHAT, "Casa", ANA)
    for outcome in await service.command(CHAT, ANA, "despesa", "Mercado 1.500"):
        assert isinstance(outcome, Preview), outcome
        assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, outcome.key)).alert
    return service


async def pending(service: HouseholdService) -> list[Any]:
    context = await service.context(CHAT)
    assert context is not None
    return await context.operations.pending()


async def test_a_spend_the_reader_takes_is_proposed_and_remembered_in_the_conversation(
        database: Database) -> None:
    service = await a_household_with_mercado(database)

    [preview] = await service.talk(CHAT, ANA, "gastei 37,90 no mercado")

    assert isinstance(preview, Preview)
    [operation] = await pending(service)
    assert operation.operation_id == preview.operation_id
    turn = await service.storage.conversations.recent(f"chat:{CHAT}", 5)
    assert turn[0] == {"role": "user", "content": "[Ana] gastei 37,90 no mercado"}
    assert operation.operation_id in str(turn[2]["content"])


async def test_a_reader_turn_the_conversation_cannot_keep_proposes_nothing(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    service = await a_household_with_mercado(database)

    async def append_fails(*_: Any) -> None:
        raise RuntimeError("the conversation's table is gone")

    monkeypatch.setattr(service.storage.conversations, "append", append_fails)

    with pytest.raises(RuntimeError):
        await service.talk(CHAT, ANA, "gastei 37,90 no mercado")

    # The proposal rolled back with the turn: no operation a later "não, era 40" could not find.
    assert await pending(service) == []


async def test_a_correction_replaces_the_preview_it_corrects_in_the_same_transaction(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    service = await a_household_with_mercado(database)
    [first] = await service.talk(CHAT, ANA, "gastei 52 no mercado")
    assert isinstance(first, Preview)

    outcomes = await service.talk(CHAT, ANA, "não pera, 25, troquei os números")

    [operation] = await pending(service)
    assert [o.operation_id for o in outcomes if isinstance(o, Preview)] == [operation.operation_id]
    assert operation.operation_id != first.operation_id

    async def append_fails(*_: Any) -> None:
        raise RuntimeError("the conversation's table is gone")

    monkeypatch.setattr(service.storage.conversations, "append", append_fails)
    with pytest.raises(RuntimeError):
        await service.talk(CHAT, ANA, "não, foi 26")
    # The new proposal and the cancel of the one it corrects rolled back together.
    assert [o.operation_id for o in await pending(service)] == [operation.operation_id]
