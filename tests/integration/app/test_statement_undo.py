"""A statement import undone, in SQL (SQLite and PostgreSQL): the undo releases the lines'
fingerprints in its own confirmation's transaction, so the same file imports again, exactly once."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.app.media import Incoming, MediaService
from bot.app.outcomes import Decision, Outcome, Preview, Reply, Speaker
from domain.money import Period
from infra.db import Database, SqlBudgetRepository, SqlStorage
from infra.db.tables import statement_imports
from tests.fakes.posting import PostingService

ANA = Speaker(501, "Ana")
CHAT = -100707
JUNE = Period(2026, 6)
NOW = datetime(2026, 6, 30, 15, tzinfo=UTC)
SAMPLE = Path(__file__).parents[2] / "samples" / "statements" / "itau_june.ofx"


def the_file() -> Incoming:
    data = SAMPLE.read_bytes()

    async def fetch() -> bytes:
        return data

    return Incoming(fetch, "itau_june.ofx", len(data))


async def a_household(database: Database) -> tuple[PostingService, MediaService]:
    service = PostingService(SqlStorage(database, clock=lambda: NOW), clock=lambda: NOW)
    await service.start(CHAT, "Casa", ANA)
    for command in ("Farmácia 300", "Padaria 100"):
        [preview] = await service.command(CHAT, ANA, "despesa", command)
        assert isinstance(preview, Preview)
        assert not (await service.press(CHAT, ANA.user_id, Decision.CONFIRM, preview.key)).alert
    return service, MediaService(service)


async def imported(service: PostingService, media: MediaService, operation_id: str) -> Preview:
    """The file sent and its preview confirmed; the preview."""
    [preview] = await media.statement(CHAT, ANA, the_file(), operation_id)
    assert isinstance(preview, Preview), preview
    await service.preview_posted(CHAT, preview.operation_id, hash(operation_id) % 10_000)
    result = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, preview.key)
    assert not result.alert, result
    return preview


async def undone(service: PostingService, preview: Preview) -> None:
    pressed = await service.press(CHAT, ANA.user_id, Decision.UNDO, preview.key)
    assert pressed.post is not None, pressed
    result = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, pressed.post.key)
    assert not result.alert, result


async def actuals(database: Database) -> dict[str, Decimal]:
    link = await SqlStorage(database).directory.household_of_chat(CHAT)
    assert link is not None
    budget = await SqlBudgetRepository(database).load(link.budget_id)
    return {e.name: e.actual_for(JUNE).amount for e in budget.expenses}


async def fingerprints(database: Database) -> int:
    async with database.reading() as connection:
        return int((await connection.execute(select(func.count()).select_from(statement_imports))).scalar_one())


def only_reply(outcomes: list[Outcome]) -> str:
    [reply] = outcomes
    assert isinstance(reply, Reply), reply
    return reply.text


async def test_an_undone_import_can_be_imported_again_exactly_once(database: Database) -> None:
    service, media = await a_household(database)
    first = await imported(service, media, "doc-1")
    once = await actuals(database)
    assert once == {"Farmácia": Decimal("180.50"), "Padaria": Decimal("25.00")}

    await undone(service, first)
    assert await actuals(database) == {"Farmácia": Decimal("0"), "Padaria": Decimal("0")}
    assert await fingerprints(database) == 0

    again = await imported(service, media, "doc-2")
    assert again.text.startswith("🏦 Importar 2 lançamentos")
    assert await actuals(database) == once
    third = only_reply(await media.statement(CHAT, ANA, the_file(), "doc-3"))
    assert third.startswith("🏦 Nada novo para importar") and "Já importados antes: 2" in third
    assert await actuals(database) == once and await fingerprints(database) == 2


async def test_an_undo_that_fails_keeps_the_imports_fingerprints(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The release is in the undo's confirmation: when that rolls back, the lines stay imported."""
    service, media = await a_household(database)
    first = await imported(service, media, "doc-1")
    pressed = await service.press(CHAT, ANA.user_id, Decision.UNDO, first.key)
    assert pressed.post is not None

    async def failing_save(self: SqlBudgetRepository, budget: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(SqlBudgetRepository, "save", failing_save)
    with pytest.raises(RuntimeError):
        await service.press(CHAT, ANA.user_id, Decision.CONFIRM, pressed.post.key)
    monkeypatch.undo()

    assert await fingerprints(database) == 2
    assert await actuals(database) == {"Farmácia": Decimal("180.50"), "Padaria": Decimal("25.00")}
    nothing = only_reply(await media.statement(CHAT, ANA, the_file(), "doc-2"))
    assert "Já importados antes: 2" in nothing

