"""What the bot says on its own: bill reminders the day before they fall due, and the closed
month's summary with a chart on the 1st. Also /lembretes and /grafico, which speak about them.

The schedule is the database, not a timer: `run_due(now)` asks it what is due at `now` and
sends each message at most once across workers, restarts and `household-bot remind` (claims
in infra/db/stores/schedule.py). Who calls it, and how often, is the adapter's (bot/telegram/periodic.py);
how a message goes out is the `Sender`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from bot.app.chats import began
from bot.app.ports import ChatLink, Sender, Storage
from bot.texts import cards as cards_texts
from bot.texts import schedule as texts
from bot.texts.chart import render_month_chart
from domain.cards import Card
from domain.clock import (
    DEFAULT_REMINDER_HOUR,
    Clock,
    billing_days_due_on,
    local_midnight,
    local_moment,
    utc_now,
)
from domain.money import Period
from domain.reports import MonthReport
from infra.db.stores.schedule import BILL, CLOSING, FATURA, Claim, DueBill, DueCard, DueClosing, ScheduleStore

log = logging.getLogger(__name__)

# How long a claimed message is its worker's to send; past it (the worker died before sending)
# another worker may send it. Longer than a send can wait for the group's window (61 s).
LEASE = timedelta(minutes=5)
SENDS_AT_ONCE = 8

MonthReader = Callable[[ChatLink, Period, date], Awaitable[MonthReport]]


@dataclass(frozen=True)
class Delivered:
    """What one `run_due` sent."""

    reminders: int = 0
    closings: int = 0
    faturas: int = 0


@dataclass(frozen=True)
class Chart:
    png: bytes
    caption: str


class Schedule:
    """Finds what is due, claims it, sends it; and answers /lembretes and /grafico."""

    def __init__(self, storage: Storage, store: ScheduleStore, sender: Sender, month: MonthReader, *,
                 timezone: str, reminder_hour: int = DEFAULT_REMINDER_HOUR, clock: Clock = utc_now,
                 lease: timedelta = LEASE) -> None:
        """`month` is the one month report (HouseholdService.month), as /resumo counts it."""
        self.storage = storage
        self.store = store
        self.sender = sender
        self.month = month
        self.timezone = timezone
        self.reminder_hour = reminder_hour
        self.clock = clock
        self.lease = lease
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._sends = asyncio.Semaphore(SENDS_AT_ONCE)

    # -- what is due ---------------------------------------------------------------------------

    async def run_due(self, now: datetime) -> Delivered:
        """Sends what is due at `now` and not sent yet: tomorrow's bills once the reminder hour
        has come (never a day late: only tomorrow's), and on the 1st the closed month."""
        moment = local_moment(now, self.timezone, self.reminder_hour)
        if not moment.hour_reached:
            return Delivered()
        due_on = moment.reminders_due_on
        bills = await self.store.due_bills(due_on, billing_days_due_on(due_on), now)
        sent = await asyncio.gather(*(self._remind(bill, due_on, now) for bill in bills))
        cards = await self.store.due_cards(due_on, billing_days_due_on(due_on), now)
        faturas = await asyncio.gather(*(self._remind_fatura(card, due_on, now) for card in cards))
        closings = 0
        if moment.closing_day:
            # Only households set up before the month ended have a month to close.
            opened_before = local_midnight(moment.today, self.timezone)
            due = await self.store.due_closings(moment.today, opened_before, now)
            closed = await asyncio.gather(*(self._close(c, moment.closed_month, now) for c in due))
            closings = sum(closed)
        delivered = Delivered(sum(sent), closings, sum(faturas))
        if delivered.reminders or delivered.closings or delivered.faturas:
            log.info("scheduled sends: %s reminders, %s faturas, %s closings", delivered.reminders,
                     delivered.faturas, delivered.closings)
        return delivered

    async def _remind_fatura(self, due: DueCard, due_on: date, now: datetime) -> bool:
        """The card's fatura falling due on `due_on`, with its total; none when it holds nothing."""
        card = Card(due.name, due.closing_day, due.due_day, id=due.card_id)
        faturas = card.faturas_due_on(due_on)
        if not faturas:
            return False
        totals = [f.total for f in await self.storage.ledger.faturas(card.id, faturas[0]) if f.fatura in faturas]
        total = sum(totals[1:], totals[0]) if totals else None
        if total is None or not total.is_positive:
            return False
        text = cards_texts.fatura_reminder(card.name, total)

        async def send() -> None:
            await self.sender.send_text(due.chat_id, text)

        return await self._once(Claim(FATURA, card.id, due_on), due.chat_id, now, send)

    async def _remind(self, bill: DueBill, due_on: Any, now: datetime) -> bool:
        text = texts.bill_reminder(bill.name, bill.expected, bill.payment_method)

        async def send() -> None:
            await self.sender.send_text(bill.chat_id, text)

        return await self._once(Claim(BILL, bill.expense_id, due_on), bill.chat_id, now, send)

    async def _close(self, closing: DueClosing, month: Period, now: datetime) -> bool:
        async def send() -> None:
            today = local_moment(now, self.timezone, self.reminder_hour).today
            report = await self.month(ChatLink(closing.household_id, closing.budget_id), month, today)
            # Drawn before anything is sent: a chart that fails then sends nothing, to try again.
            png = await asyncio.to_thread(render_month_chart, report)
            await self.sender.send_text(closing.chat_id, texts.closing_text(report))
            try:
                await self.sender.send_photo(closing.chat_id, png, texts.chart_caption(report))
            except Exception:
                # The summary went out: sending it again for a lost picture would repeat it.
                log.warning("closing chart not delivered to chat %s", closing.chat_id, exc_info=True)

        first_day = local_moment(now, self.timezone, self.reminder_hour).today
        return await self._once(Claim(CLOSING, closing.household_id, first_day), closing.chat_id, now, send)

    async def _once(self, claim: Claim, chat_id: int, now: datetime, send: Callable[[], Awaitable[None]]) -> bool:
        """Claims the message, sends it, marks it sent. A failed send gives the claim back, to
        be tried again at the next check. A crash between the send and the mark would let it go
        out twice once the lease lapses: the window is one UPDATE wide."""
        async with self._sends:
            if await self.storage.is_departed(chat_id):
                return False  # the bot was removed from the group: nothing is owed there
            if not await self.store.claim(claim, chat_id, self.owner, now, self.lease):
                return False
            try:
                await send()
            except Exception:
                log.warning("scheduled %s for chat %s not sent; will try again", claim.kind, chat_id,
                            exc_info=True)
                with contextlib.suppress(Exception):
                    await self.store.release(claim, self.owner)
                return False
            if not await self.store.sent(claim, self.owner, self.clock()):
                log.warning("scheduled %s for chat %s was sent after its lease lapsed", claim.kind, chat_id)
            return True

    # -- /lembretes and /grafico ---------------------------------------------------------------

    async def switch_reminders(self, link: ChatLink, setting: str) -> str:
        """/lembretes on|off (also ligar/desligar, sim/não); nothing else changes anything."""
        word = setting.strip().lower()
        if not word:
            return texts.reminders_status(await self.store.reminders_enabled(link.household_id))
        if word in ("on", "ligar", "ligado", "ligados", "sim"):
            enabled = True
        elif word in ("off", "desligar", "desligado", "desligados", "não", "nao"):
            enabled = False
        else:
            return texts.LEMBRETES_USAGE
        await self.store.set_reminders(link.household_id, enabled, self.clock())
        return texts.reminders_switched(enabled)

    async def chart(self, link: ChatLink, period: Period | None) -> Chart | str:
        """/grafico [AAAA-MM]: the month's chart, or a line saying there is nothing to draw."""
        today = local_moment(self.clock(), self.timezone, self.reminder_hour).today
        report = await self.month(link, period or Period.of(today), today)
        if report.empty:
            return texts.empty_month(report, began(link, self.timezone))
        png = await asyncio.to_thread(render_month_chart, report)
        return Chart(png, texts.chart_caption(report))
