"""Who may write, and erasure racing a write (cases 26 and 27), on SQLite and PostgreSQL, with
worker processes that each have their own engine and service: the database alone decides."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.app.outcomes import Decision, Preview, Speaker
from bot.texts import messages
from infra.db import Database, SqlStorage
from infra.db.stores.lifecycle import ERASED, HouseholdKeys
from infra.db.tables import metadata
from tests.fakes.posting import PostingService
from tests.integration.conftest import Backend
from tests.reliability.press_worker import press_rounds
from tests.reliability.report import Figures
from tests.reliability.scale import SCALE
from tests.reliability.support import ANA, BRUNO, couple_with_groceries, race, spend_preview, sync

STRANGER = Speaker(666, "Zé")
CHAT = -1008000000001
PRESSES_PER_WORKER = 4
CONFIRM = Decision.CONFIRM.value  # what a press worker is given (tests/reliability/press_worker.py)


async def _table_rows(database: Database) -> dict[str, int]:
    async with database.reading() as connection:
        return {table.name: int((await connection.execute(
            select(func.count()).select_from(table))).scalar_one()) for table in metadata.sorted_tables}


async def _household_rows(database: Database, chat_id: int, keys: HouseholdKeys) -> int:
    """Rows of that household in every household table (the erasure's own registry)."""
    keys = HouseholdKeys(keys.household_id, (chat_id,), keys.budget_ids)
    total = 0
    async with database.reading() as connection:
        for table, where in ERASED:
            total += int((await connection.execute(
                select(func.count()).select_from(table).where(where(keys)))).scalar_one())
    return total


# --------------------------------------------------------------------------- case 26


async def _strangers_request(backend: Backend) -> tuple[str, dict[str, int]]:
    """The stranger's /entrar preview's key, and the rows every table holds."""
    database = backend.open()
    try:
        service = PostingService(SqlStorage(database))
        await couple_with_groceries(service, CHAT)
        [request] = await service.join(CHAT, STRANGER, None)
        assert isinstance(request, Preview)
        return request.key, await _table_rows(database)
    finally:
        await database.dispose()


async def _after(backend: Backend) -> tuple[dict[str, int], bool, str]:
    database = backend.open()
    try:
        service = PostingService(SqlStorage(database))
        member = await service.member(CHAT, STRANGER.user_id)
        pending = await service.pending_previews(CHAT)
        return await _table_rows(database), member is None, pending[0].text if pending else ""
    finally:
        await database.dispose()


def test_a_strangers_entrar_confirmed_by_themselves_is_refused_and_writes_nothing(
        backend: Backend, figures: Figures) -> None:
    key, before = sync(_strangers_request(backend))
    presses = [[(STRANGER.user_id, CONFIRM, key)] * PRESSES_PER_WORKER]

    answers = race(press_rounds, [(backend.url, backend.engine_options, CHAT, presses)] * 2)

    after, still_a_stranger, pending = sync(_after(backend))
    refused = [alert and answer == messages.own_join_alert()
               for worker in answers for answer, alert in worker[0]]
    changed = sum(abs(after[name] - before[name]) for name in before)
    held = figures.add(26, f"{backend.name}, 2 service processes", attempts=len(refused),
                       expected=f"{len(refused)} refused, 0 rows written",
                       seen=f"{sum(refused)} refused, {changed} rows written")
    assert held
    assert still_a_stranger and "Zé quer entrar na casa" in pending


# --------------------------------------------------------------------------- case 27


async def _erase_and_spend(backend: Backend, chat_id: int) -> tuple[str, str, HouseholdKeys]:
    """A couple's household in `chat_id`, a spend preview, and an /apagar preview."""
    database = backend.open()
    try:
        storage = SqlStorage(database)
        service = PostingService(storage)
        await couple_with_groceries(service, chat_id)
        spend = await spend_preview(service, chat_id, "37,90")
        [erase] = await service.erase(chat_id, BRUNO)
        assert isinstance(erase, Preview)
        link = await storage.directory.household_of_chat(chat_id)
        assert link is not None
        keys = HouseholdKeys(link.household_id, (chat_id,), (link.budget_id,))
        return erase.key, spend.key, keys
    finally:
        await database.dispose()


async def _left_of(backend: Backend, chat_id: int, keys: HouseholdKeys) -> tuple[int, bool]:
    database = backend.open()
    try:
        service = PostingService(SqlStorage(database))
        return await _household_rows(database, chat_id, keys), await service.member(chat_id, ANA.user_id) is None
    finally:
        await database.dispose()


def test_apagar_racing_a_confirmation_on_another_worker_ends_deleted_and_recreates_nothing(
        backend: Backend, figures: Figures) -> None:
    rounds = SCALE.race_rounds
    left_per_round, spend_won = [], 0
    for n in range(rounds):
        chat_id = CHAT - 1 - n
        erase, spend, keys = sync(_erase_and_spend(backend, chat_id))

        answers = race(press_rounds, [
            (backend.url, backend.engine_options, chat_id, [[(ANA.user_id, CONFIRM, erase)]]),
            (backend.url, backend.engine_options, chat_id, [[(BRUNO.user_id, CONFIRM, spend)]])])

        left, gone = sync(_left_of(backend, chat_id, keys))
        assert gone
        left_per_round.append(left)
        outcomes = sorted(answer for worker in answers for answer, _ in worker[0])
        assert outcomes.count(messages.confirmed_answer()) >= 1, outcomes  # the erasure always wins
        spend_won += outcomes.count(messages.confirmed_answer()) - 1

    held = figures.add(27, f"{backend.name}, 2 service processes", attempts=rounds,
                       expected=f"household rows left per round: {[0] * rounds}",
                       seen=f"household rows left per round: {left_per_round} "
                            f"(the spend was confirmed first in {spend_won})",
                       held=left_per_round == [0] * rounds)
    assert held, f"rows of the erased household left per round: {left_per_round}; spend won {spend_won}"
