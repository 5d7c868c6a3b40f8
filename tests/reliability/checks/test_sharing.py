"""Case 29 (issue 23): 50 spends and 10 acertos confirmed at once from two worker processes leave
the balance computed by hand, each written once, and the running balance equal to its shares."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import func, select

from bot.app.outcomes import Decision, Preview, Speaker
from bot.app.service import HouseholdService
from bot.texts import messages
from infra.db import Database, SqlStorage
from infra.db.tables import ledger_balances, ledger_shares
from tests.integration.conftest import Backend
from tests.reliability.press_worker import Press, press_rounds
from tests.reliability.report import Figures
from tests.reliability.support import ANA, BRUNO, MONTH, couple_with_groceries, posted, race, sync

CHAT = -1002900000001
SEED = 10_000  # Ana's first spend, in cents, confirmed before the race: Bruno owes R$ 50,00
ANA_SPENDS = [1_001 + 37 * n for n in range(25)]  # cents; with the seed, Ana pays 26 spends
BRUNO_SPENDS = [300 + n for n in range(24)]  # Bruno pays 24 small ones: his debt never runs out
ACERTOS = [100] * 10  # Bruno pays Ana R$ 1,00 ten times


def cents_text(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d}"


async def _proposed(service: HouseholdService, speaker: Speaker, command: str, text: str) -> Preview:
    [preview] = await service.command(CHAT, speaker, command, text)
    assert isinstance(preview, Preview), preview
    await posted(service, CHAT, preview)
    return preview


async def _setup(backend: Backend) -> list[str]:
    """The couple, the seed spend confirmed, and the 49 spends and 10 acertos proposed: their keys."""
    database = backend.open()
    try:
        service = HouseholdService(SqlStorage(database))
        await couple_with_groceries(service, CHAT)
        seed = await _proposed(service, ANA, "gasto", f"{cents_text(SEED)} mercado {MONTH}")
        assert not (await service.press(CHAT, BRUNO.user_id, Decision.CONFIRM, seed.key)).alert
        keys = [(await _proposed(service, ANA, "gasto", f"{cents_text(c)} mercado {MONTH}")).key
                for c in ANA_SPENDS]
        keys += [(await _proposed(service, BRUNO, "gasto", f"{cents_text(c)} mercado {MONTH}")).key
                 for c in BRUNO_SPENDS]
        keys += [(await _proposed(service, BRUNO, "acerto", cents_text(c))).key for c in ACERTOS]
        return keys
    finally:
        await database.dispose()


async def _outcome(backend: Backend) -> tuple[str, int, int, bool]:
    """/saldo's answer, how many spends and acertos it covers, and whether the running balance
    equals the sum of the shares."""
    database: Database = backend.open()
    try:
        service = HouseholdService(SqlStorage(database))
        answer = await service.answer("saldo", CHAT, ANA, "")
        context = await service.context(CHAT)
        assert context is not None
        balance = await SqlStorage(database).ledger.balance(context.household.id)
        async with database.reading() as connection:
            summed = dict((await connection.execute(
                select(ledger_shares.c.member_id, func.sum(ledger_shares.c.paid_minor - ledger_shares.c.owed_minor))
                .group_by(ledger_shares.c.member_id))).all())
            kept = dict((await connection.execute(
                select(ledger_balances.c.member_id, ledger_balances.c.net_minor))).all())
        return answer, balance.spends, balance.settlements, summed == kept
    finally:
        await database.dispose()


def test_50_spends_and_10_acertos_confirmed_at_once_from_two_workers_leave_the_balance_computed_by_hand(
        backend: Backend, figures: Figures) -> None:
    keys = sync(_setup(backend))
    presses: list[Press] = [(ANA.user_id if n % 2 else BRUNO.user_id, Decision.CONFIRM.value, key)
                            for n, key in enumerate(keys)]

    answers = race(press_rounds, [(backend.url, backend.engine_options, CHAT, [presses[worker::2]])
                                  for worker in range(2)])

    confirmed = sum(answer == messages.confirmed_answer() for worker in answers for answer, _ in worker[0])
    # By hand: Bruno owes half (rounded down) of what Ana paid, Ana half of what Bruno paid; the
    # acertos take off what Bruno paid back.
    owed = (sum(c // 2 for c in [SEED, *ANA_SPENDS]) - sum(c // 2 for c in BRUNO_SPENDS) - sum(ACERTOS))
    expected_line = f"Bruno deve R$ {cents_text(owed)} a Ana"
    answer, spends, settlements, consistent = sync(_outcome(backend))
    held = figures.add(29, f"{backend.name}, 2 service processes", attempts=len(keys),
                       expected=f"59 writes; {expected_line}; 50 spends, 10 acertos",
                       seen=f"{confirmed} writes; {answer.splitlines()[2]}; {spends} spends, "
                            f"{settlements} acertos" + ("" if consistent else "; running balance off"),
                       held=consistent and expected_line in answer)
    assert held, answer
    assert (confirmed, spends, settlements) == (59, 50, 10)
    assert Decimal(owed) > 0
