"""The webhook as Telegram and strangers use it (cases 1, 2, 3 and 15): redeliveries, secrets,
a slow model and a rate-limited Telegram, through an in-process bot on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.texts import messages
from tests.e2e.harness import (
    ANA,
    BRUNO,
    SECRET,
    SECRET_HEADER,
    TEST_DATABASE_URL,
    TOKEN,
    Group,
    fresh_postgres_database,
    last_preview,
    migrated_sqlite,
    post_concurrently,
    previews_in,
    wait_until_processed,
)
from tests.fakes.llm_server import FakeLLMServer, delay, tool_calls
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.reliability.conftest import Bots, couple_with_groceries
from tests.reliability.report import Figures, each
from tests.reliability.scale import SCALE
from tests.reliability.support import actual_at, inbox_at, operations_at, sync

CHAT = -1009000000001
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@pytest.fixture
def sqlite_url_and_postgres(tmp_path: Path, sqlite_template: Path) -> Iterator[list[str]]:
    """A SQLite database, and a PostgreSQL one when TEST_DATABASE_URL is set."""
    sqlite = migrated_sqlite(tmp_path / "household.db", template=sqlite_template)
    if not TEST_DATABASE_URL:
        yield [sqlite]
        return
    with fresh_postgres_database() as postgres:
        yield [sqlite, postgres]


def test_the_same_update_delivered_twice_and_three_times_at_once_is_processed_once(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    casa = couple_with_groceries(tg, bots.start(), CHAT)
    deliveries = 0
    previews = []
    for n in range(SCALE.race_rounds):
        since = casa.mark()
        update = casa.message(ANA, f"/gasto {n + 1} mercado")
        statuses = [casa.post(update).status_code, casa.post(update).status_code]
        statuses += post_concurrently([(casa.webhook, update)] * 3)
        assert statuses == [200] * 5
        deliveries += len(statuses)
        # Waits on the inbox, not on a settling /ajuda: a group gets at most 20 messages a minute.
        wait_until_processed(bots.url)
        previews.append(len(previews_in(tg.calls[since:], CHAT)))

    spends = [op for op in sync(operations_at(bots.url, CHAT)).values() if op["tool"] == "recordSpend"]
    held = figures.add(1, f"{bots.backend}, 1 process", attempts=deliveries,
                       expected=f"{each([1] * SCALE.race_rounds, 'preview', 'update')}, {SCALE.race_rounds} operations",
                       seen=f"{each(previews, 'preview', 'update')}, {len(spends)} operations")
    assert held


def test_a_missing_or_wrong_webhook_secret_gets_403_with_no_model_call_and_no_write(
        tg: FakeTelegramAPI, llm: FakeLLMServer, bots: Bots, figures: Figures) -> None:
    bot = bots.start(llm)
    casa = Group(tg, bot, CHAT)
    wrong: list[dict[str, str | bytes] | None] = [
        None, {SECRET_HEADER: ""}, {SECRET_HEADER: "wrong"}, {SECRET_HEADER: SECRET + "x"},
        {SECRET_HEADER: SECRET[:-1]}, {SECRET_HEADER: SECRET.upper()}, {SECRET_HEADER: "x" * 4096},
        {SECRET_HEADER: TOKEN}, {SECRET_HEADER: SECRET.replace("e", "é").encode()},
        {"X-Telegram-Bot-Api-Secret": SECRET},  # the right value under another header
    ]
    updates = [casa.message(ANA, "/start"), casa.message(ANA, "acho que gastei 40 no mercado"),
               casa.press_update(ANA, "ok:AAAAAAAAAAAAAAAA", 1)]
    before = len(tg.calls)

    statuses = []
    # Idle connections dropped before uvicorn closes its end (5 s): no request on a closing one.
    with httpx.Client(timeout=10, limits=httpx.Limits(keepalive_expiry=1.0)) as client:
        for headers in wrong:
            for update in updates:
                statuses.append(client.post(casa.webhook.webhook_url, json=update,
                                            headers=headers or {}).status_code)
            statuses.append(client.post(casa.webhook.webhook_url, content=b"{not json",
                                        headers=headers or {}).status_code)

    stored = sync(inbox_at(bots.url))
    refused = statuses.count(403)
    telegram_calls = len(tg.calls) - before
    held = figures.add(2, bots.backend, attempts=len(statuses),
                       expected=f"{len(statuses)}x 403, 0 stored, 0 model calls, 0 replies",
                       seen=f"{refused}x 403, {len(stored)} stored, {len(llm.requests)} model calls, "
                            f"{telegram_calls} replies")
    assert held
    # The household was never created: the refused /start did nothing.
    assert casa.reply_to(BRUNO, "/resumo") == messages.not_started_text()


def _slow_model_round(tg: FakeTelegramAPI, url: str, slow: float) -> tuple[str, bool, str]:
    """One bot on `url` whose model takes `slow` seconds: (where, held, what was seen)."""
    spend = {"expense": "Mercado", "period": "2026-06", "amount": {"amount": Decimal("37.90"), "currency": "BRL"},
             "operationId": "op-lento"}
    bots = Bots(tg, url)
    with FakeLLMServer() as llm:
        try:
            casa = couple_with_groceries(tg, bots.start(llm, llm_timeout=slow + 30), CHAT if
                                         bots.backend == "sqlite" else CHAT - 1)
            # The preview ends the turn (contract §8): one model call, its words with it.
            llm.script([delay(slow, then=tool_calls(("recordSpend", spend), content="Confira a prévia."))])
            since = casa.mark()
            update = casa.message(ANA, "acho que gastei 37,90 no mercado")

            started = time.monotonic()
            first = casa.post(update)
            answered_in = time.monotonic() - started
            while not llm.requests:  # the model is now thinking
                assert time.monotonic() - started < 10, "the message never reached the model"
                time.sleep(0.01)
            redeliveries = [casa.post(update) for _ in range(3)]  # Telegram trying again meanwhile
            redelivered_in = max(r.elapsed.total_seconds() for r in redeliveries)
            casa.wait_sent(count=2, since=since, timeout=slow + 20)
            redeliveries.append(casa.post(update))  # and once more after the answer
            casa.settle()
        finally:
            bots.stop_all()
        statuses = [first.status_code] + [r.status_code for r in redeliveries]
        previews = len(previews_in(tg.calls[since:], casa.chat_id))
        pending = [op for op in sync(operations_at(url, casa.chat_id)).values() if op["tool"] == "recordSpend"]
        held = (answered_in < 1.0 and redelivered_in < 1.0 and statuses == [200] * 5 and previews == 1
                and len(llm.requests) == 1 and [op["status"] for op in pending] == ["pending"])
        seen = (f"{statuses.count(200)}x 200 in <= {max(answered_in, redelivered_in):.2f} s; "
                f"{previews} preview; {len(llm.requests)} model calls")
        return bots.backend, held, seen


def test_a_model_that_takes_long_gets_the_webhook_answered_at_once_and_a_redelivery_makes_no_second_preview(
        tg: FakeTelegramAPI, sqlite_url_and_postgres: list[str], figures: Figures) -> None:
    """The backends run side by side: the model's delay is the test's length, once."""
    slow = SCALE.slow_model_seconds
    with ThreadPoolExecutor(len(sqlite_url_and_postgres)) as pool:
        results = list(pool.map(lambda url: _slow_model_round(tg, url, slow), sqlite_url_and_postgres))
    for where, held, seen in results:
        figures.add(3, f"{where}, model {slow:.0f} s", attempts=5,
                    expected="200 in < 1 s each; 1 preview; 1 model call", seen=seen, held=held)
    assert all(held for _, held, _ in results), results


def test_telegram_answering_429_with_retry_after_is_waited_out_and_the_database_is_unaffected(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    casa = couple_with_groceries(tg, bots.start(), CHAT)
    attempts, waited = 0, []
    for n in range(SCALE.hostile_rounds + 1):
        # The preview's sendMessage is refused once with retry_after=1 …
        since = casa.mark()
        tg.fail_next("sendMessage", status=429, retry_after=1)
        preview = casa.propose(ANA, f"/gasto {n + 1} mercado")
        waited.append(_retry_wait(tg.calls[since:], "sendMessage"))
        # … and so is the edit after Confirmar.
        since = casa.mark()
        tg.fail_next("editMessageText", status=429, retry_after=1)
        casa.confirm(BRUNO, preview)
        waited.append(_retry_wait(tg.calls[since:], "editMessageText"))
        attempts += 2

    spends = [op for op in sync(operations_at(bots.url, CHAT)).values() if op["tool"] == "recordSpend"]
    written = sync(actual_at(bots.url, CHAT))
    total = sum(range(1, SCALE.hostile_rounds + 2))
    held = figures.add(15, bots.backend, attempts=attempts,
                       expected=f"each retried after >= 1 s; {attempts // 2} operations, R$ {total}",
                       seen=f"each retried after >= {min(waited):.2f} s; {len(spends)} operations, "
                            f"R$ {written:.0f}",
                       held=min(waited) >= 1.0 and len(spends) == attempts // 2 and written == total)
    assert held, waited


def _retry_wait(calls: list[Any], method: str) -> float:
    """Seconds between the 429 and the successful retry of `method` among `calls`."""
    tries = [c for c in calls if c.method == method]
    refused = next(c for c in tries if c.status == 429)
    retried = next(c for c in tries if c.ok and c.at > refused.at)
    return float(retried.at - refused.at)


__all__ = ["last_preview"]
