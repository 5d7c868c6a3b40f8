"""Races between worker processes over one database (cases 4, 5, 10 and 12), on SQLite and
PostgreSQL. Each worker is a spawned interpreter with its own engine and HouseholdService, so the
database alone decides who wins; every race starts at a multiprocessing.Barrier."""

from __future__ import annotations

import multiprocessing
import os
import signal
from decimal import Decimal

from bot.app.outcomes import Decision
from bot.app.service import HouseholdService
from bot.texts import messages
from infra.db import ChatDirectory, SqlStorage
from tests.integration.conftest import Backend
from tests.reliability.press_worker import Press, confirm_and_hang, press_rounds
from tests.reliability.report import Figures, each
from tests.reliability.scale import SCALE
from tests.reliability.support import (
    ANA,
    BRUNO,
    actual_in,
    couple_with_groceries,
    operations_in,
    race,
    spend_preview,
    sync,
)

CHAT = -1007000000001
CONFIRMED = messages.confirmed_answer()
ALREADY = messages.already_confirmed_alert()
# What a press worker is given (tests/reliability/press_worker.py): a Decision's value.
CONFIRM, CANCEL = Decision.CONFIRM.value, Decision.CANCEL.value


async def _previews(backend: Backend, amounts: list[str]) -> list[tuple[str, str]]:
    """A couple's household in CHAT and one spend preview per amount: (operation id, key)."""
    database = backend.open()
    try:
        service = HouseholdService(SqlStorage(database))
        await couple_with_groceries(service, CHAT)
        previews = [await spend_preview(service, CHAT, amount) for amount in amounts]
        return [(p.operation_id, p.key) for p in previews]
    finally:
        await database.dispose()


async def _state(backend: Backend) -> tuple[Decimal, dict[str, str]]:
    """Mercado's actual for the month, and each operation's status."""
    database = backend.open()
    try:
        stored = await operations_in(database, CHAT)
        return await actual_in(database, CHAT), {op: row["status"] for op, row in stored.items()}
    finally:
        await database.dispose()


def test_confirmar_pressed_24_times_across_3_workers_by_both_members_writes_once(
        backend: Backend, figures: Figures) -> None:
    rounds = SCALE.race_rounds
    previews = sync(_previews(backend, ["37,90"] * rounds))
    per_worker = [[[(ANA.user_id if (worker + press) % 2 else BRUNO.user_id, CONFIRM, key)
                    for press in range(8)] for _, key in previews] for worker in range(3)]

    answers = race(press_rounds, [(backend.url, backend.engine_options, CHAT, worker_rounds)
                                  for worker_rounds in per_worker])

    writes_per_round = [sum(answer == CONFIRMED for worker in answers for answer, _ in worker[r])
                        for r in range(rounds)]
    repeats = sum(answer == ALREADY for worker in answers for one_round in worker for answer, _ in one_round)
    actual, statuses = sync(_state(backend))
    held = figures.add(4, f"{backend.name}, 3 service processes", attempts=24 * rounds,
                       expected=f"{each([1] * rounds, 'write', 'round')}, R$ {Decimal('37.90') * rounds}",
                       seen=f"{each(writes_per_round, 'write', 'round')}, R$ {actual}")
    assert held
    assert repeats == 23 * rounds
    assert list(statuses.values()).count("confirmed") == rounds + 2  # + Bruno's join, the expense


def test_confirmar_and_cancelar_at_the_same_moment_end_in_one_state_that_the_budget_matches(
        backend: Backend, figures: Figures) -> None:
    rounds = max(5, 3 * SCALE.race_rounds)
    amounts = [Decimal(2) ** r for r in range(rounds)]  # a sum names the rounds that wrote
    previews = sync(_previews(backend, [str(a) for a in amounts]))
    confirmer = [[(ANA.user_id, CONFIRM, key)] for _, key in previews]
    canceller = [[(BRUNO.user_id, CANCEL, key)] for _, key in previews]

    answers = race(press_rounds, [(backend.url, backend.engine_options, CHAT, confirmer),
                                  (backend.url, backend.engine_options, CHAT, canceller)])

    actual, statuses = sync(_state(backend))
    final = [statuses[op] for op, _ in previews]
    confirmed_sum = sum((a for a, status in zip(amounts, final, strict=True) if status == "confirmed"),
                        Decimal(0))
    assert all(status in ("confirmed", "cancelled") for status in final), final
    # Each side's answer agrees with the state that won.
    for outcome in answers:
        for r, [(answer, _)] in enumerate(outcome):
            if final[r] == "confirmed":
                assert answer in (CONFIRMED, ALREADY), (r, answer)
            else:
                assert answer in (messages.cancelled_answer(), messages.already_cancelled_alert()), (r, answer)
    won = f"{final.count('confirmed')} confirmed, {final.count('cancelled')} cancelled"
    relation = "=" if actual == confirmed_sum else "!="
    held = figures.add(5, f"{backend.name}, 2 service processes", attempts=rounds,
                       expected="1 final state each; actual = sum of the confirmed",
                       seen=f"{won}; actual R$ {actual} {relation} R$ {confirmed_sum}",
                       held=actual == confirmed_sum)
    assert held, (actual, confirmed_sum, final)


def test_twelve_different_spends_confirmed_at_once_on_3_workers_give_the_exact_sum(
        backend: Backend, figures: Figures) -> None:
    rounds = SCALE.race_rounds
    cents = [f"0,{n:02d}" for n in range(1, 13)] * rounds  # 0,01 .. 0,12 per round: 0,78
    previews = sync(_previews(backend, cents))
    per_worker: list[list[list[Press]]] = [[] for _ in range(3)]
    for r in range(rounds):
        batch = previews[12 * r:12 * (r + 1)]
        for worker in range(3):
            per_worker[worker].append([(ANA.user_id if i % 2 else BRUNO.user_id, CONFIRM, key)
                                       for i, (_, key) in enumerate(batch) if i % 3 == worker])

    answers = race(press_rounds, [(backend.url, backend.engine_options, CHAT, worker_rounds)
                                  for worker_rounds in per_worker])

    confirmed = sum(answer == CONFIRMED for worker in answers for one_round in worker for answer, _ in one_round)
    actual, _ = sync(_state(backend))
    expected = Decimal("0.78") * rounds
    held = figures.add(10, f"{backend.name}, 3 service processes", attempts=12 * rounds,
                       expected=f"{12 * rounds} writes, R$ {expected}",
                       seen=f"{confirmed} writes, R$ {actual}")
    assert held


async def _budget_of(backend: Backend) -> str:
    database = backend.open()
    try:
        link = await ChatDirectory(database).household_of_chat(CHAT)
        assert link is not None
        return link.budget_id
    finally:
        await database.dispose()


async def _press(backend: Backend, key: str) -> str:
    database = backend.open()
    try:
        service = HouseholdService(SqlStorage(database))
        return (await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, key)).answer
    finally:
        await database.dispose()


def test_a_worker_killed_between_the_write_and_the_commit_leaves_nothing_and_a_later_confirm_applies_once(
        backend: Backend, figures: Figures) -> None:
    rounds = SCALE.kill_rounds
    previews = sync(_previews(backend, ["10"] * rounds))
    budget_id = sync(_budget_of(backend))
    context = multiprocessing.get_context("spawn")
    partial, later = [], []
    for operation_id, key in previews:
        saved = context.Event()
        worker = context.Process(target=confirm_and_hang, args=(
            backend.url, backend.engine_options, f"chat:{CHAT}", budget_id, operation_id, saved))
        worker.start()
        assert saved.wait(60), "the worker never reached its save"
        before_kill = sync(_state(backend))  # read while the worker's transaction is open
        os.kill(worker.pid, signal.SIGKILL)  # type: ignore[arg-type]
        worker.join(30)
        assert worker.exitcode == -signal.SIGKILL
        after_kill = sync(_state(backend))
        partial.append((before_kill[1][operation_id], after_kill[1][operation_id], after_kill[0]))
        later.append((sync(_press(backend, key)), sync(_press(backend, key))))

    actual, _ = sync(_state(backend))
    clean = all(b == a == "pending" for b, a, _ in partial)
    no_partial_write = [amount for _, _, amount in partial] == [Decimal(10) * n for n in range(rounds)]
    once = all(first == CONFIRMED and second == ALREADY for first, second in later)
    held = figures.add(12, f"{backend.name}, SIGKILL before COMMIT", attempts=rounds,
                       expected=f"0 partial writes; then {rounds} writes, R$ {10 * rounds}",
                       seen=f"{sum(not (b == a == 'pending') for b, a, _ in partial)} partial writes; "
                            f"then {sum(f == CONFIRMED for f, _ in later)} writes, R$ {actual:.0f}")
    assert held, (partial, later)
    assert clean and no_partial_write and once
