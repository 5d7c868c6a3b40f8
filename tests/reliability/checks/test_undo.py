"""Undo exactly once (contract §8): a double press, presses on several workers, two different undos
of one operation racing, and Telegram redelivering the press; on SQLite and PostgreSQL. Every race
starts at a multiprocessing.Barrier, never after a sleep."""

from __future__ import annotations

import asyncio
from decimal import Decimal

from bot.app.outcomes import Decision, Preview
from bot.app.service import HouseholdService
from bot.texts import history, messages
from infra.db import SqlStorage
from tests.e2e.harness import ANA as ANA_IN_TELEGRAM
from tests.e2e.harness import BRUNO as BRUNO_IN_TELEGRAM
from tests.e2e.harness import alerted, answer_text, previews_in, undo_data
from tests.fakes.posting import PostingService
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.integration.conftest import Backend
from tests.reliability.conftest import Bots, couple_with_groceries
from tests.reliability.press_worker import press_rounds
from tests.reliability.report import Figures
from tests.reliability.support import (
    ANA,
    BRUNO,
    actual_at,
    actual_in,
    operations_in,
    race,
    spend_preview,
    sync,
)
from tests.reliability.support import couple_with_groceries as couple_by_service

CHAT = -1014000000001
CONFIRMED = messages.confirmed_answer()
ALREADY = messages.already_confirmed_alert()
# What a press worker is given (tests/reliability/press_worker.py): a Decision's value.
CONFIRM, UNDO = Decision.CONFIRM.value, Decision.UNDO.value


async def _confirmed_spends(service: HouseholdService, *amounts: str) -> list[Preview]:
    previews = []
    for amount in amounts:
        preview = await spend_preview(service, CHAT, amount)
        result = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, preview.key)
        assert not result.alert, result
        previews.append(preview)
    return previews


async def _undo_proposed(backend: Backend) -> tuple[str, str]:
    """R$ 100 and then R$ 37,90 confirmed, and an undo of the R$ 37,90 proposed with ↩️ Desfazer:
    (the undo's Confirmar key, the undone spend's key)."""
    database = backend.open()
    try:
        service = PostingService(SqlStorage(database))
        await couple_by_service(service, CHAT)
        _, spend = await _confirmed_spends(service, "100", "37,90")
        pressed = await service.press(CHAT, BRUNO.user_id, Decision.UNDO, spend.key)
        assert pressed.post is not None, pressed
        return pressed.post.key, spend.key
    finally:
        await database.dispose()


async def _actual(backend: Backend) -> Decimal:
    """Mercado's actual as the backend's database holds it (its own schema on PostgreSQL)."""
    database = backend.open()
    try:
        return await actual_in(database, CHAT)
    finally:
        await database.dispose()


async def _undo_operations(backend: Backend) -> list[dict[str, object]]:
    database = backend.open()
    try:
        return [row for row in (await operations_in(database, CHAT)).values()
                if row["tool"] == "undoOperation"]
    finally:
        await database.dispose()


def test_the_undos_confirmar_pressed_24_times_on_3_workers_undoes_once(backend: Backend,
                                                                       figures: Figures) -> None:
    undo_key, _ = sync(_undo_proposed(backend))
    per_worker = [[[(ANA.user_id if (worker + press) % 2 else BRUNO.user_id, CONFIRM, undo_key)
                    for press in range(8)]] for worker in range(3)]

    answers = race(press_rounds, [(backend.url, backend.engine_options, CHAT, rounds) for rounds in per_worker])

    said = [answer for worker in answers for answer, _ in worker[0]]
    actual = sync(_actual(backend))
    figures.add(28, f"{backend.name}, the undo's Confirmar on 3 service processes", attempts=len(said),
                expected="1 undo, 23 already confirmed, R$ 100.00",
                seen=f"{said.count(CONFIRMED)} undo, {said.count(ALREADY)} already confirmed, R$ {actual:.2f}")
    assert said.count(CONFIRMED) == 1 and said.count(ALREADY) == 23, said
    assert actual == Decimal("100")


def test_desfazer_pressed_at_once_on_2_workers_and_twice_on_each_proposes_one_undo(backend: Backend,
                                                                                  figures: Figures) -> None:
    database = backend.open()
    try:
        async def spent() -> str:
            service = PostingService(SqlStorage(database))
            await couple_by_service(service, CHAT)
            [spend] = await _confirmed_spends(service, "37,90")
            return spend.key
        spend_key = sync(spent())
    finally:
        sync(database.dispose())
    presses = [[[(ANA.user_id, UNDO, spend_key), (BRUNO.user_id, UNDO, spend_key)]]
               for _ in range(2)]

    race(press_rounds, [(backend.url, backend.engine_options, CHAT, rounds) for rounds in presses])

    undos = sync(_undo_operations(backend))
    actual = sync(_actual(backend))
    figures.add(28, f"{backend.name}, ↩️ Desfazer twice on each of 2 service processes",
                attempts=sum(len(rounds[0]) for rounds in presses),
                expected="1 undo proposed (pending), R$ 37.90 kept",
                seen=f"{len(undos)} undo proposed ({', '.join(str(u['status']) for u in undos)}), "
                     f"R$ {actual:.2f} kept")
    assert len(undos) == 1 and undos[0]["status"] == "pending", undos
    assert actual == Decimal("37.90")


def test_two_different_undos_of_one_spend_confirmed_at_once_on_2_workers_reverse_it_once(
        backend: Backend, figures: Figures) -> None:
    undo_key, _ = sync(_undo_proposed(backend))

    async def second_undo() -> str:
        database = backend.open()
        try:
            service = PostingService(SqlStorage(database))
            [preview] = await service.undo_last(CHAT, ANA, operation_id="cmd-desfazer")
            assert isinstance(preview, Preview), preview
            return preview.key
        finally:
            await database.dispose()

    other_key = sync(second_undo())
    answers = race(press_rounds, [
        (backend.url, backend.engine_options, CHAT, [[(ANA.user_id, CONFIRM, undo_key)]]),
        (backend.url, backend.engine_options, CHAT, [[(BRUNO.user_id, CONFIRM, other_key)]]),
    ])

    said = sorted((answer, alert) for worker in answers for answer, alert in worker[0])
    refused = [(answer, alert) for answer, alert in said if answer != CONFIRMED]
    actual = sync(_actual(backend))
    figures.add(28, f"{backend.name}, two undos of one spend on 2 service processes", attempts=len(said),
                expected="1 undone, 1 refused as already undone, R$ 100.00",
                seen=f"{len(said) - len(refused)} undone, "
                     f"{sum(1 for answer, alert in refused if alert and 'já foi desfeita' in answer)} refused as "
                     f"already undone, R$ {actual:.2f}")
    assert [answer for answer, _ in said].count(CONFIRMED) == 1, said
    assert refused and refused[0][1] and "já foi desfeita" in refused[0][0], said
    # R$ 100 + R$ 37,90 - R$ 37,90, never - R$ 37,90 twice.
    assert actual == Decimal("100")
    statuses = sorted(str(row["status"]) for row in sync(_undo_operations(backend)))
    assert statuses == ["confirmed", "pending"]


def test_a_confirmation_of_the_undo_processed_again_writes_nothing_more(backend: Backend,
                                                                       figures: Figures) -> None:
    undo_key, spend_key = sync(_undo_proposed(backend))

    async def twice() -> tuple[str, str, str, Decimal]:
        database = backend.open()
        try:
            service = PostingService(SqlStorage(database))
            first = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, undo_key)
            # a retried update, after a crash
            again = await service.press(CHAT, ANA.user_id, Decision.CONFIRM, undo_key)
            both = await asyncio.gather(service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, undo_key),
                                        service.press(CHAT, ANA.user_id, Decision.UNDO, spend_key))
            assert both[1].alert and both[1].post is None
            return first.answer, again.answer, both[0].answer, await actual_in(database, CHAT)
        finally:
            await database.dispose()

    first, again, raced, actual = sync(twice())

    answers = [first, again, raced]
    figures.add(28, f"{backend.name}, the undo's confirmation processed again", attempts=len(answers) + 1,
                expected="1 undo, 2 already confirmed, a late ↩️ Desfazer refused, R$ 100.00",
                seen=f"{answers.count(CONFIRMED)} undo, {answers.count(ALREADY)} already confirmed, "
                     f"a late ↩️ Desfazer refused, R$ {actual:.2f}")
    assert (first, again, raced) == (CONFIRMED, ALREADY, ALREADY)
    assert actual == Decimal("100")


def test_a_redelivered_desfazer_press_posts_one_undo_preview_and_its_confirmation_undoes_once(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    bot = bots.start()
    casa = couple_with_groceries(tg, bot, CHAT)
    _, edit = casa.confirm(ANA_IN_TELEGRAM, casa.propose(ANA_IN_TELEGRAM, "/gasto 37,90 mercado"))
    undo = undo_data(edit)
    assert undo is not None
    since = casa.mark()

    update = casa.press_update(BRUNO_IN_TELEGRAM, undo, int(edit.params["message_id"]))
    responses = [casa.post(update) for _ in range(3)]  # Telegram delivering it again
    casa.settle()

    assert [r.status_code for r in responses] == [200] * 3
    proposals = previews_in(tg.calls[since:], CHAT)
    [proposal] = proposals
    answer, _ = casa.confirm(ANA_IN_TELEGRAM, proposal)
    redelivered = casa.press_update(ANA_IN_TELEGRAM, proposal.confirm, proposal.message_id)
    casa.post(redelivered)
    casa.post(redelivered)
    casa.settle()
    actual = sync(actual_at(bots.url, CHAT))
    undone = answer_text(answer) == CONFIRMED and not alerted(answer)
    figures.add(28, f"{bots.backend}, webhook: ↩️ Desfazer delivered 3 times, its Confirmar 3 times",
                attempts=6, expected="1 undo preview, undone once, R$ 0.00",
                seen=f"{len(proposals)} undo preview, {'undone once' if undone else 'not undone'}, "
                     f"R$ {actual:.2f}")
    assert undone
    assert actual == Decimal("0")
    assert answer_text(casa.press(ANA_IN_TELEGRAM, undo, int(edit.params["message_id"]))) == \
        history.already_undone_alert()
