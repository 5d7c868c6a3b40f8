"""`python -m bot webhook` as real worker processes: a restart between a preview and its
Confirmar (SQLite), and two workers behind one PostgreSQL database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import (
    ANA,
    BRUNO,
    Group,
    WorkerProcess,
    alerted,
    answer_text,
    bot_config,
    fresh_postgres_database,
    post_concurrently,
    wait_until_processed,
    without_keyboard,
    worker_processes,
)
from tests.fakes.telegram_api import FakeTelegramAPI

RESTART_CHAT = -1005000000001
PG_JOURNEY_CHAT = -1005000000002
PG_REDELIVERY_CHAT = -1005000000003
PG_PRESSES_CHAT = -1005000000004
PG_FORGED_CHAT = -1005000000005
PG_OTHER_CHAT = -1005000000006


def test_a_preview_survives_a_killed_worker_and_is_confirmed_once_by_the_next_one(
    tg: FakeTelegramAPI, sqlite_url: str, tmp_path: Path
) -> None:
    worker = WorkerProcess(bot_config(tg, sqlite_url), tmp_path).start().wait_healthy()
    try:
        casa = Group(tg, worker, RESTART_CHAT)
        casa.reply_to(ANA, "/start")
        casa.join(BRUNO)
        casa.confirm(BRUNO, casa.propose(ANA, "/despesa Mercado 1.500"))
        spend = casa.propose(BRUNO, "/gasto 37,90 mercado")
        wait_until_processed(sqlite_url)

        worker.kill()
        assert worker.process is not None and worker.process.returncode == -9
        assert not worker.healthy()
        worker.start().wait_healthy()

        answer, edit = casa.confirm(ANA, spend)
        assert answer_text(answer) == "✅ Confirmado." and not alerted(answer)
        assert without_keyboard(edit) and "Gasto registrado por Ana" in edit.params["text"]
        again = casa.press(BRUNO, spend.confirm, spend.message_id)
        assert answer_text(again) == "Essa operação já foi confirmada."
        summary = casa.reply_to(ANA, "/resumo")
        assert "R$ 37,90" in summary and "R$ 75,80" not in summary
    finally:
        worker.stop()


# --------------------------------------------------------------------------- PostgreSQL, two workers


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture(scope="module")
def shared_tg() -> Iterator[FakeTelegramAPI]:
    with FakeTelegramAPI(token="123:ABC") as fake:
        yield fake


@pytest.fixture(scope="module")
def two_workers(shared_tg: FakeTelegramAPI, postgres_url: str,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[WorkerProcess]]:
    workdir = tmp_path_factory.mktemp("pg-workers")
    with worker_processes(bot_config(shared_tg, postgres_url), workdir, count=2) as workers:
        yield workers


@pytest.fixture(autouse=True)
def _workers_log_no_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """A worker's failed handler shows up only in its log: fail the test on any ERROR there."""
    if "two_workers" not in request.fixturenames:
        yield
        return
    workers: list[WorkerProcess] = request.getfixturevalue("two_workers")
    offsets = [worker.log_size() for worker in workers]
    yield
    errors = [line for worker, offset in zip(workers, offsets, strict=True)
              for line in worker.errors_since(offset)]
    assert not errors, "the workers logged errors:\n" + "\n".join(errors)


@pytest.mark.postgres
def test_on_postgresql_two_workers_share_the_household_journey(
    shared_tg: FakeTelegramAPI, two_workers: list[WorkerProcess]
) -> None:
    first, second = two_workers
    casa = Group(shared_tg, first, PG_JOURNEY_CHAT, title="Casa no Postgres")

    assert "Casa no Postgres" in casa.reply_to(ANA, "/start", via=first)
    assert "Bruno" in casa.join(BRUNO, via=second).params["text"]
    expense = casa.propose(ANA, "/despesa Mercado 1.500", via=first)
    answer, edit = casa.confirm(BRUNO, expense, via=second)
    assert answer_text(answer) == "✅ Confirmado." and without_keyboard(edit)
    spend = casa.propose(BRUNO, "/gasto 37,90 mercado", via=second)
    answer, edit = casa.confirm(ANA, spend, via=first)
    assert answer_text(answer) == "✅ Confirmado." and "Gasto registrado por Ana" in edit.params["text"]

    for worker in two_workers:
        summary = casa.reply_to(ANA, "/resumo", via=worker)
        assert "R$ 37,90" in summary and "R$ 1.500,00" in summary


@pytest.mark.postgres
def test_on_postgresql_the_same_update_posted_to_both_workers_is_processed_once(
    shared_tg: FakeTelegramAPI, two_workers: list[WorkerProcess]
) -> None:
    first, second = two_workers
    casa = Group(shared_tg, first, PG_REDELIVERY_CHAT)
    casa.reply_to(ANA, "/start")
    since = casa.mark()
    update = casa.message(ANA, "/despesa Aluguel 2.500 dia 10")

    statuses = post_concurrently([(first, update), (second, update), (first, update), (second, update)])

    assert statuses == [200] * 4
    casa.settle(via=second)
    previews = [c for c in casa.sent(since) if c.params.get("reply_markup")]
    assert len(previews) == 1


@pytest.mark.postgres
def test_on_postgresql_ten_presses_split_across_both_workers_write_once(
    shared_tg: FakeTelegramAPI, two_workers: list[WorkerProcess]
) -> None:
    casa = Group(shared_tg, two_workers[0], PG_PRESSES_CHAT)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    spend = casa.propose(BRUNO, "/gasto 37,90 mercado")
    presses = [casa.press_update(ANA if i % 2 else BRUNO, spend.confirm, spend.message_id)
               for i in range(10)]

    statuses = post_concurrently([(two_workers[i % 2], update) for i, update in enumerate(presses)])

    assert statuses == [200] * 10
    texts = sorted(answer_text(casa.wait_answer(u["callback_query"]["id"])) for u in presses)
    assert texts.count("✅ Confirmado.") == 1, texts
    assert texts.count("Essa operação já foi confirmada.") == 9, texts
    summary = casa.reply_to(ANA, "/resumo", via=two_workers[1])
    assert "R$ 37,90" in summary and "R$ 75,80" not in summary


@pytest.mark.postgres
def test_on_postgresql_forged_and_other_chats_callback_data_are_alerted_by_either_worker(
    shared_tg: FakeTelegramAPI, two_workers: list[WorkerProcess]
) -> None:
    casa = Group(shared_tg, two_workers[0], PG_FORGED_CHAT)
    vizinhos = Group(shared_tg, two_workers[1], PG_OTHER_CHAT)
    for group in (casa, vizinhos):
        group.reply_to(ANA, "/start")
        group.confirm(ANA, group.propose(ANA, "/despesa Mercado 1.500"))
    spend = casa.propose(ANA, "/gasto 80 mercado")
    theirs = vizinhos.propose(ANA, "/gasto 55 mercado")
    key = spend.confirm.partition(":")[2]

    for index, data in enumerate(["ok:AAAAAAAAAAAAAAAA", "ok:" + key[:-1] + "\x00", "ok:\x00",
                                  "no:' OR 1=1 --", "ok:çãõ€", "ok:" + "A" * 61, "hello",
                                  theirs.confirm, theirs.cancel]):
        answer = casa.press(ANA, data, spend.message_id, via=two_workers[index % 2])
        assert alerted(answer), (data, answer.params)

    assert "R$ 80,00" not in casa.reply_to(ANA, "/resumo")
    assert "R$ 55,00" not in vizinhos.reply_to(ANA, "/resumo")
    assert answer_text(casa.confirm(ANA, spend, via=two_workers[1])[0]) == "✅ Confirmado."
