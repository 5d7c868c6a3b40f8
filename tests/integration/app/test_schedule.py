"""Bill reminders and the monthly closing against a real database (SQLite and PostgreSQL), with
a controllable clock: the day before, the short month, a restart after the hour, several
workers at once, /lembretes off, a worker that dies holding a claim."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from bot.app.ports import ChatLink
from bot.app.schedule import Schedule
from bot.app.service import HouseholdService
from bot.telegram.sending import TelegramSender
from domain.budget import Budget
from domain.goals import Goal
from domain.household import Household
from domain.money import Money, Period
from infra.db import Database
from infra.db.storage import SqlStorage
from infra.db.stores.schedule import BILL, Claim, ScheduleStore
from infra.db.tables import chats, expenses, scheduled_sends
from tests.integration.conftest import Backend

SAO_PAULO = "America/Sao_Paulo"
CHAT = -100200300
OTHER_CHAT = -100200301


def at(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    """A moment in São Paulo (UTC-3, no daylight saving), as an aware UTC datetime."""
    return datetime(year, month, day, hour + 3, minute, tzinfo=UTC) if hour + 3 < 24 else \
        datetime(year, month, day, hour + 3 - 24, minute, tzinfo=UTC) + timedelta(days=1)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class FakeBot:
    """Records what would reach Telegram; `fail` makes the next sends raise."""

    def __init__(self) -> None:
        self.messages: list[tuple[int, str]] = []
        self.photos: list[tuple[int, bytes, str | None]] = []
        self.fail = 0

    async def send_message(self, chat_id: int, text: str, **_: Any) -> None:
        if self.fail:
            self.fail -= 1
            raise RuntimeError("Telegram is down")
        await asyncio.sleep(0)  # let racing workers interleave
        self.messages.append((chat_id, text))

    async def send_photo(self, chat_id: int, photo: bytes, caption: str | None = None, **_: Any) -> None:
        self.photos.append((chat_id, photo, caption))


async def household(database: Database, chat_id: int, *, bills: list[tuple[str, str, int, str | None]],
                    goal: bool = False) -> ChatLink:
    storage = SqlStorage(database)
    home = Household.create("Casa", "BRL")
    ana = home.add_member("Ana")
    budget = Budget.create("BRL", household_id=home.id)
    for name, amount, day, method in bills:
        budget.register(name, Money.of(amount, "BRL"), billing_day=day, payment_method=method)
    await storage.households.save(home)
    await storage.budgets.save(budget)
    if goal:
        trip = Goal.create("Amsterdam", Money.of(6000, "EUR"), members=[ana],
                           created_at=datetime(2026, 1, 10).date(), deadline=datetime(2027, 9, 1).date(),
                           household_id=home.id)
        await storage.goals.save(trip)
    return await storage.directory.link_chat(chat_id, home.id, budget.id)


def schedule(database: Database, bot: FakeBot, clock: Clock) -> Schedule:
    """The schedule as bot.bootstrap.Services.schedule builds it: Telegram's Sender over the bot,
    and the month as the service reads it."""
    storage = SqlStorage(database)
    month = HouseholdService(storage, clock=clock, timezone=SAO_PAULO).month
    return Schedule(storage, ScheduleStore(database), TelegramSender(bot), month,  # type: ignore[arg-type]
                    timezone=SAO_PAULO, reminder_hour=9, clock=clock)


async def test_the_day_before_the_billing_day_the_group_gets_one_reminder_from_the_hour_on(
        database: Database) -> None:
    await household(database, CHAT, bills=[("Aluguel", "3200", 16, "Pix"), ("Luz", "220", 20, None)])
    bot, clock = FakeBot(), Clock(at(2026, 6, 15, 8, 59))
    worker = schedule(database, bot, clock)

    assert (await worker.run_due(clock.now)).reminders == 0  # not 9 yet in São Paulo
    clock.now = at(2026, 6, 15, 9, 0)
    assert (await worker.run_due(clock.now)).reminders == 1
    clock.now = at(2026, 6, 15, 9, 1)
    assert (await worker.run_due(clock.now)).reminders == 0  # the next minute: already sent

    assert bot.messages == [(CHAT, "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)")]


async def test_a_billing_day_of_31_is_reminded_on_the_27th_of_a_28_day_february(database: Database) -> None:
    await household(database, CHAT, bills=[("Cartão", "1200", 31, "Boleto"), ("Escola", "900", 28, None),
                                           ("Luz", "220", 27, None)])
    bot = FakeBot()
    clock = Clock(at(2027, 2, 27, 10, 0))

    await schedule(database, bot, clock).run_due(clock.now)

    assert sorted(bot.messages) == [(CHAT, "📅 Amanhã vence Cartão: R$ 1.200,00 (Boleto)"),
                                    (CHAT, "📅 Amanhã vence Escola: R$ 900,00")]
    clock.now = at(2027, 3, 30, 10, 0)  # in March, 31 is a day like any other
    await schedule(database, bot, clock).run_due(clock.now)
    assert bot.messages[-1] == (CHAT, "📅 Amanhã vence Cartão: R$ 1.200,00 (Boleto)")
    assert len(bot.messages) == 3


async def test_a_bot_down_at_the_hour_reminds_when_it_comes_back_that_day_and_never_a_day_late(
        backend: Backend) -> None:
    first = backend.open()
    try:
        await household(first, CHAT, bills=[("Aluguel", "3200", 16, "Pix"), ("Internet", "150", 17, None)])
        bot = FakeBot()
        # Up before the hour, then down from 08:30 until 15:40.
        assert (await schedule(first, bot, Clock(at(2026, 6, 15, 8, 30))).run_due(at(2026, 6, 15, 8, 30))
                ).reminders == 0
    finally:
        await first.dispose()
    restarted = backend.open()
    try:
        clock = Clock(at(2026, 6, 15, 15, 40))
        assert (await schedule(restarted, bot, clock).run_due(clock.now)).reminders == 1
        # Down again all of the 16th: the 17th's reminder was due that day, and is not sent on the 17th.
        clock.now = at(2026, 6, 17, 9, 5)
        assert (await schedule(restarted, bot, clock).run_due(clock.now)).reminders == 0
    finally:
        await restarted.dispose()
    assert bot.messages == [(CHAT, "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)")]


async def test_two_workers_and_a_remind_run_at_once_send_each_reminder_once(backend: Backend) -> None:
    setup = backend.open()
    try:
        await household(setup, CHAT, bills=[("Aluguel", "3200", 16, "Pix"), ("Condomínio", "850", 16, None)])
        await household(setup, OTHER_CHAT, bills=[("Aluguel", "2500", 16, None)])
    finally:
        await setup.dispose()
    databases = [backend.open() for _ in range(3)]
    bot, clock = FakeBot(), Clock(at(2026, 6, 15, 9, 0))
    try:
        results = await asyncio.gather(*(schedule(db, bot, clock).run_due(clock.now) for db in databases))
    finally:
        for db in databases:
            await db.dispose()

    assert sum(r.reminders for r in results) == 3
    assert sorted(bot.messages) == sorted([(CHAT, "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)"),
                                           (CHAT, "📅 Amanhã vence Condomínio: R$ 850,00"),
                                           (OTHER_CHAT, "📅 Amanhã vence Aluguel: R$ 2.500,00")])


async def test_with_reminders_off_the_household_gets_none_until_they_are_on_again(database: Database) -> None:
    link = await household(database, CHAT, bills=[("Aluguel", "3200", 16, "Pix")])
    await household(database, OTHER_CHAT, bills=[("Aluguel", "2500", 16, None)])
    bot, clock = FakeBot(), Clock(at(2026, 6, 15, 9, 0))
    worker = schedule(database, bot, clock)

    assert "desligados" in await worker.switch_reminders(link, "off")
    await worker.run_due(clock.now)
    assert bot.messages == [(OTHER_CHAT, "📅 Amanhã vence Aluguel: R$ 2.500,00")]

    assert "ligados" in await worker.switch_reminders(link, "on")
    clock.now = at(2026, 6, 15, 9, 1)
    await worker.run_due(clock.now)
    assert bot.messages[1:] == [(CHAT, "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)")]


async def test_an_unknown_lembretes_word_changes_nothing(database: Database) -> None:
    link = await household(database, CHAT, bills=[])
    worker = schedule(database, FakeBot(), Clock(at(2026, 6, 15, 9, 0)))
    assert "/lembretes on" in await worker.switch_reminders(link, "talvez")
    assert await ScheduleStore(database).reminders_enabled(link.household_id)


async def test_a_failed_send_is_tried_again_at_the_next_check(database: Database) -> None:
    await household(database, CHAT, bills=[("Aluguel", "3200", 16, "Pix")])
    bot, clock = FakeBot(), Clock(at(2026, 6, 15, 9, 0))
    worker = schedule(database, bot, clock)
    bot.fail = 1

    assert (await worker.run_due(clock.now)).reminders == 0
    clock.now += timedelta(minutes=1)
    assert (await worker.run_due(clock.now)).reminders == 1
    assert bot.messages == [(CHAT, "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)")]


async def test_a_claim_whose_worker_died_before_sending_is_sent_by_another_once_its_lease_lapses(
        database: Database) -> None:
    await household(database, CHAT, bills=[("Aluguel", "3200", 16, "Pix")])
    store = ScheduleStore(database)
    async with database.reading() as connection:
        expense_id = (await connection.execute(select(expenses.c.id))).scalar_one()
    claim = Claim(BILL, expense_id, datetime(2026, 6, 16).date())
    start = at(2026, 6, 15, 9, 0)
    assert await store.claim(claim, CHAT, "dead-worker", start, timedelta(minutes=5))  # and then it died

    bot, clock = FakeBot(), Clock(start + timedelta(minutes=1))
    assert (await schedule(database, bot, clock).run_due(clock.now)).reminders == 0
    clock.now = start + timedelta(minutes=6)
    assert (await schedule(database, bot, clock).run_due(clock.now)).reminders == 1
    assert bot.messages == [(CHAT, "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)")]
    async with database.reading() as connection:
        row = (await connection.execute(select(scheduled_sends.c.status, scheduled_sends.c.attempts))).one()
    assert (row.status, row.attempts) == ("sent", 2)


async def test_on_the_first_the_group_gets_the_closed_month_once_with_a_chart(database: Database) -> None:
    link = await household(database, CHAT, bills=[("Aluguel", "3200", 10, "Pix")], goal=True)
    await household(database, OTHER_CHAT, bills=[("Aluguel", "2500", 10, None)])  # set up on the 1st
    async with database.transaction() as unit:
        await unit.connection.execute(update(chats).where(chats.c.chat_id == CHAT)
                                      .values(created_at=datetime(2026, 6, 20, tzinfo=UTC)))
        await unit.connection.execute(update(chats).where(chats.c.chat_id == OTHER_CHAT)
                                      .values(created_at=at(2026, 7, 1, 8, 0)))
    bot, clock = FakeBot(), Clock(at(2026, 7, 1, 9, 30))

    results = await asyncio.gather(schedule(database, bot, clock).run_due(clock.now),
                                   schedule(database, bot, clock).run_due(clock.now))

    assert sum(r.closings for r in results) == 1
    [(chat, text)] = bot.messages
    assert chat == CHAT and text.startswith("🗓️ Fechamento de junho de 2026")
    assert "Aluguel: R$ 0,00 de R$ 3.200,00" in text and "Amsterdam" in text
    [(chat, png, caption)] = bot.photos
    assert chat == CHAT and png.startswith(b"\x89PNG\r\n\x1a\n") and caption and "Junho de 2026" in caption
    assert link.household_id
    clock.now = at(2026, 7, 2, 9, 30)
    assert (await schedule(database, bot, clock).run_due(clock.now)).closings == 0


async def test_the_closed_month_is_the_month_resumo_shows_archived_items_left_out_and_its_own_expected(
        database: Database) -> None:
    link = await household(database, CHAT, bills=[("Aluguel", "3200", 10, "Pix"), ("Academia", "150", 5, None)],
                           goal=True)
    storage = SqlStorage(database)
    budget = await storage.budgets.load(link.budget_id, periods=())
    budget.adjust_amount("Aluguel", Money.of("3500", "BRL"), effective=Period(2026, 7))
    budget.archive("Academia")
    await storage.budgets.save(budget)
    [trip] = await storage.goals.list(link.household_id, history=False)
    trip.archive()
    await storage.goals.save(trip)
    async with database.transaction() as unit:  # a household from before June: June closes
        await unit.connection.execute(update(chats).where(chats.c.chat_id == CHAT)
                                      .values(created_at=datetime(2026, 5, 20, tzinfo=UTC)))
    bot, clock = FakeBot(), Clock(at(2026, 7, 1, 9, 30))

    await schedule(database, bot, clock).run_due(clock.now)

    [(_, text)] = bot.messages
    assert "Aluguel: R$ 0,00 de R$ 3.200,00" in text  # June's amount, not July's R$ 3.500,00
    assert "Academia" not in text and "Amsterdam" not in text


async def test_the_chart_of_a_month_with_nothing_in_it_says_so(database: Database) -> None:
    link = await household(database, CHAT, bills=[])
    answer = await schedule(database, FakeBot(), Clock(at(2026, 6, 15, 9, 0))).chart(link, None)
    assert isinstance(answer, str) and "junho de 2026" in answer


# --------------------------------------------------------------------------- issue 24: faturas


async def household_with_card(database: Database, chat_id: int, *, closing: int, due: int,
                              purchases: list[tuple[str, int, date]]) -> ChatLink:
    """A household with a Mercado expense and a card "Nubank", and purchases on it: (amount, N, day)."""
    storage = SqlStorage(database)
    home = Household.create("Casa", "BRL")
    home.add_member("Ana")
    budget = Budget.create("BRL", household_id=home.id)
    mercado = budget.register("Mercado", Money.of("5000", "BRL"))
    card = budget.register_card("Nubank", closing, due)
    for amount, count, day in purchases:
        budget.record_purchase(mercado, Money.of(amount, "BRL"), card=card, on=day, installments=count)
    await storage.households.save(home)
    await storage.budgets.save(budget)
    return await storage.directory.link_chat(chat_id, home.id, budget.id)


async def test_the_day_before_a_fatura_falls_due_the_group_gets_its_total_once(database: Database) -> None:
    # Closes on the 3rd, due on the 10th: July's fatura holds June 3 to July 2.
    await household_with_card(database, CHAT, closing=3, due=10, purchases=[
        ("120", 1, date(2026, 6, 15)), ("900", 3, date(2026, 6, 20)), ("50", 1, date(2026, 7, 5))])
    bot, clock = FakeBot(), Clock(at(2026, 7, 9, 8, 59))
    worker = schedule(database, bot, clock)

    assert (await worker.run_due(clock.now)).faturas == 0  # not 9 yet
    clock.now = at(2026, 7, 9, 9, 0)
    assert (await worker.run_due(clock.now)).faturas == 1
    clock.now = at(2026, 7, 9, 18, 0)
    assert (await worker.run_due(clock.now)).faturas == 0

    assert bot.messages == [(CHAT, "📅 Amanhã vence a fatura do Nubank: R$ 420,00")]


async def test_an_empty_fatura_is_not_reminded_and_an_archived_card_neither(database: Database) -> None:
    await household_with_card(database, CHAT, closing=3, due=10, purchases=[("120", 1, date(2026, 6, 15))])
    bot, clock = FakeBot(), Clock(at(2026, 8, 9, 10, 0))  # August's fatura: nothing in it

    assert (await schedule(database, bot, clock).run_due(clock.now)).faturas == 0
    assert bot.messages == []


async def test_two_workers_and_a_remind_run_at_once_send_each_fatura_reminder_once(backend: Backend) -> None:
    setup = backend.open()
    try:
        await household_with_card(setup, CHAT, closing=25, due=5, purchases=[("300", 2, date(2026, 6, 10))])
        await household_with_card(setup, OTHER_CHAT, closing=31, due=5, purchases=[("75.50", 1, date(2026, 6, 29))])
    finally:
        await setup.dispose()
    databases = [backend.open() for _ in range(3)]
    bot, clock = FakeBot(), Clock(at(2026, 7, 4, 9, 0))  # June's faturas, due on 5 July
    try:
        results = await asyncio.gather(*(schedule(db, bot, clock).run_due(clock.now) for db in databases))
    finally:
        for db in databases:
            await db.dispose()

    assert sum(r.faturas for r in results) == 2
    assert sorted(bot.messages) == sorted([(CHAT, "📅 Amanhã vence a fatura do Nubank: R$ 150,00"),
                                           (OTHER_CHAT, "📅 Amanhã vence a fatura do Nubank: R$ 75,50")])


async def test_the_monthly_closing_lists_the_fatura_each_card_closed_in_the_month(database: Database) -> None:
    await household_with_card(database, CHAT, closing=3, due=10, purchases=[
        ("120", 1, date(2026, 6, 15)), ("900", 3, date(2026, 6, 20))])
    async with database.transaction() as unit:
        await unit.connection.execute(update(chats).where(chats.c.chat_id == CHAT)
                                      .values(created_at=datetime(2026, 6, 1, tzinfo=UTC)))
    bot, clock = FakeBot(), Clock(at(2026, 8, 1, 10, 0))  # July is closed: its fatura closed on 3/7

    await schedule(database, bot, clock).run_due(clock.now)

    [(_, text)] = bot.messages
    assert "💳 Faturas que fecharam no mês\nNubank: R$ 420,00, vence 10/07/2026" in text
