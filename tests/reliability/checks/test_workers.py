"""Cases 1, 4 and 10 end to end: three `python -m bot webhook` processes behind one PostgreSQL
database, each update or press posted to all of them at once (the posts leave together, after
every connection is open)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from bot.texts import messages
from tests.e2e.harness import (
    ANA,
    BRUNO,
    Group,
    WorkerProcess,
    answer_text,
    bot_config,
    fresh_postgres_database,
    post_concurrently,
    previews_in,
    wait_until_processed,
    worker_processes,
)
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.reliability.report import Figures, each
from tests.reliability.scale import SCALE
from tests.reliability.support import MONTH, actual_at, sync

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pool_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture(scope="module")
def pool_tg() -> Iterator[FakeTelegramAPI]:
    with FakeTelegramAPI(token="123:ABC") as fake:
        yield fake


@pytest.fixture(scope="module")
def three_workers(pool_tg: FakeTelegramAPI, pool_url: str,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[WorkerProcess]]:
    workdir: Path = tmp_path_factory.mktemp("three-workers")
    with worker_processes(bot_config(pool_tg, pool_url), workdir, count=3) as workers:
        yield workers


def _couple(tg: FakeTelegramAPI, workers: list[WorkerProcess], chat_id: int) -> Group:
    casa = Group(tg, workers[0], chat_id)
    casa.reply_to(ANA, "/start", via=workers[0])
    casa.join(BRUNO, via=workers[1])
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500", via=workers[2]), via=workers[0])
    return casa


def test_the_same_update_delivered_to_three_workers_at_once_is_processed_once(
        pool_tg: FakeTelegramAPI, three_workers: list[WorkerProcess], pool_url: str, figures: Figures) -> None:
    casa = _couple(pool_tg, three_workers, -1012000000001)
    previews, posts = [], 0
    for n in range(SCALE.race_rounds):
        since = casa.mark()
        update = casa.message(BRUNO, f"/gasto {n + 1} mercado {MONTH}")
        statuses = post_concurrently([(worker, update) for worker in three_workers] * 3)
        assert statuses == [200] * 9
        posts += len(statuses)
        # Waits on the inbox, not on a settling /ajuda: a group gets at most 20 messages a minute.
        wait_until_processed(pool_url)
        previews.append(len(previews_in(pool_tg.calls[since:], casa.chat_id)))
    held = figures.add(1, "postgresql, 3 webhook workers", attempts=posts,
                       expected=each([1] * SCALE.race_rounds, "preview", "update"),
                       seen=each(previews, "preview", "update"))
    assert held


def test_confirmar_posted_24_times_across_three_workers_by_both_members_writes_once(
        pool_tg: FakeTelegramAPI, three_workers: list[WorkerProcess], pool_url: str, figures: Figures) -> None:
    casa = _couple(pool_tg, three_workers, -1012000000002)
    writes, presses = [], 0
    # Each of the 24 presses edits the preview (a repeat edits to the same text), and the bot keeps
    # to 20 messages a minute per group: one round here, the rounds are in test_races.py.
    rounds = max(1, SCALE.race_rounds // 2)
    for _ in range(rounds):
        spend = casa.propose(ANA, f"/gasto 37,90 mercado {MONTH}")
        updates = [casa.press_update(ANA if i % 2 else BRUNO, spend.confirm, spend.message_id) for i in range(24)]
        assert post_concurrently([(three_workers[i % 3], u) for i, u in enumerate(updates)]) == [200] * 24
        texts = [answer_text(casa.wait_answer(u["callback_query"]["id"], timeout=30)) for u in updates]
        writes.append(texts.count(messages.confirmed_answer()))
        assert texts.count(messages.already_confirmed_alert()) == 23, texts
        presses += 24
    actual = sync(actual_at(pool_url, casa.chat_id))
    held = figures.add(4, "postgresql, 3 webhook workers", attempts=presses,
                       expected=f"{each([1] * rounds, 'write', 'round')}, R$ {Decimal('37.90') * rounds}",
                       seen=f"{each(writes, 'write', 'round')}, R$ {actual}")
    assert held


def test_twelve_spends_confirmed_at_once_on_three_workers_give_the_exact_sum(
        pool_tg: FakeTelegramAPI, three_workers: list[WorkerProcess], pool_url: str, figures: Figures) -> None:
    casa = _couple(pool_tg, three_workers, -1012000000003)
    updates = [casa.message(ANA if n % 2 else BRUNO, f"/gasto 0,{n:02d} mercado {MONTH}") for n in range(1, 13)]
    since = casa.mark()
    assert post_concurrently([(three_workers[i % 3], u) for i, u in enumerate(updates)]) == [200] * 12
    casa.wait_sent(count=12, since=since, timeout=60)
    spends = previews_in(pool_tg.calls[since:], casa.chat_id)
    presses = [casa.press_update(BRUNO if i % 2 else ANA, p.confirm, p.message_id) for i, p in enumerate(spends)]

    assert post_concurrently([(three_workers[i % 3], u) for i, u in enumerate(presses)]) == [200] * 12

    texts = [answer_text(casa.wait_answer(u["callback_query"]["id"], timeout=60)) for u in presses]
    actual = sync(actual_at(pool_url, casa.chat_id))
    held = figures.add(10, "postgresql, 3 webhook workers", attempts=12,
                       expected="12 writes, R$ 0.78", seen=f"{texts.count(messages.confirmed_answer())} writes, R$ {actual}")
    assert held
