"""What the bot says on its own: bill reminders the day before they fall due, and the closed
month's summary with a chart on the 1st. Also /lembretes and /grafico, which speak about them.

The schedule is the database, not a timer: `run_due(now)` asks it what is due at `now` and
sends each message at most once across workers, restarts and `household-bot remind` (claims
in infra/db/schedule.py). The webhook and polling processes call it every minute through
`Periodic`, which runs a list of jobs (`jobs`) so housekeeping can join with one line; a
platform scheduler may run `household-bot remind` as well, or instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from telegram import Bot
from telegram.error import TelegramError

from bot import housekeeping, schedule_text
from bot.chart import render_month_chart
from bot.month import MonthReport, month_report
from bot.ports import ChatLink
from bot.sending import split_text
from domain.agent.clock import Clock, utc_now
from domain.money import Period
from domain.rates import DEFAULT_RATES, ExchangeRates
from domain.schedule import DEFAULT_REMINDER_HOUR, billing_days_due_on, local_midnight, local_moment
from infra.db.schedule import BILL, CLOSING, Claim, DueBill, DueClosing, ScheduleStore
from infra.db.storage import SqlStorage

if TYPE_CHECKING:
    from telegram.ext import Application

    from bot.application import Services
    from infra.settings import Settings

log = logging.getLogger(__name__)

SCHEDULE = "schedule"
PERIODIC = "periodic"
# How long a claimed message is its worker's to send; past it (the worker died before sending)
# another worker may send it. Longer than a send can wait for the group's window (61 s).
LEASE = timedelta(minutes=5)
SENDS_AT_ONCE = 8

Job = Callable[[datetime], Awaitable[object]]


@dataclass(frozen=True)
class Delivered:
    """What one `run_due` sent."""

    reminders: int = 0
    closings: int = 0


@dataclass(frozen=True)
class Chart:
    png: bytes
    caption: str


class Schedule:
    """Finds what is due, claims it, sends it; and answers /lembretes and /grafico."""

    def __init__(self, storage: SqlStorage, store: ScheduleStore, bot: Bot, *,
                 timezone: str, reminder_hour: int = DEFAULT_REMINDER_HOUR,
                 rates: ExchangeRates = DEFAULT_RATES, clock: Clock = utc_now, lease: timedelta = LEASE) -> None:
        self.storage = storage
        self.store = store
        self.bot = bot
        self.timezone = timezone
        self.reminder_hour = reminder_hour
        self.rates = rates
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
        closings = 0
        if moment.closing_day:
            # Only households set up before the month ended have a month to close.
            opened_before = local_midnight(moment.today, self.timezone)
            due = await self.store.due_closings(moment.today, opened_before, now)
            closed = await asyncio.gather(*(self._close(c, moment.closed_month, now) for c in due))
            closings = sum(closed)
        delivered = Delivered(sum(sent), closings)
        if delivered.reminders or delivered.closings:
            log.info("scheduled sends: %s reminders, %s closings", delivered.reminders, delivered.closings)
        return delivered

    async def _remind(self, bill: DueBill, due_on: Any, now: datetime) -> bool:
        text = schedule_text.bill_reminder(bill.name, bill.expected, bill.payment_method)

        async def send() -> None:
            await self.bot.send_message(bill.chat_id, text)

        return await self._once(Claim(BILL, bill.expense_id, due_on), bill.chat_id, now, send)

    async def _close(self, closing: DueClosing, month: Period, now: datetime) -> bool:
        async def send() -> None:
            moment = local_moment(now, self.timezone, self.reminder_hour)
            report = await month_report(self.storage, ChatLink(closing.household_id, closing.budget_id),
                                        month, moment.today, self.rates)
            # Drawn before anything is sent: a chart that fails then sends nothing, to try again.
            png = await asyncio.to_thread(render_month_chart, report)
            for part in split_text(schedule_text.closing_text(report)):
                await self.bot.send_message(closing.chat_id, part)
            try:
                await self.bot.send_photo(closing.chat_id, png, caption=schedule_text.chart_caption(report))
            except TelegramError:
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
            return schedule_text.reminders_status(await self.store.reminders_enabled(link.household_id))
        if word in ("on", "ligar", "ligado", "ligados", "sim"):
            enabled = True
        elif word in ("off", "desligar", "desligado", "desligados", "não", "nao"):
            enabled = False
        else:
            return schedule_text.LEMBRETES_USAGE
        await self.store.set_reminders(link.household_id, enabled, self.clock())
        return schedule_text.reminders_switched(enabled)

    async def chart(self, link: ChatLink, period: Period | None) -> Chart | str:
        """/grafico [AAAA-MM]: the month's chart, or a line saying there is nothing to draw."""
        today = local_moment(self.clock(), self.timezone, self.reminder_hour).today
        report: MonthReport = await month_report(self.storage, link, period or Period.of(today), today,
                                                 self.rates)
        if report.empty:
            return schedule_text.empty_month(report)
        png = await asyncio.to_thread(render_month_chart, report)
        return Chart(png, schedule_text.chart_caption(report))


# -- running it ----------------------------------------------------------------------------------


class Periodic:
    """Runs `jobs` now and then every `interval` seconds, each with the clock's `now`, until
    stopped. A job that fails is logged and tried again at the next round; the others still run.
    `sleep` is injectable, so tests drive the rounds."""

    def __init__(self, jobs: Sequence[Job], *, clock: Clock = utc_now, interval: float = 60.0,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.jobs = list(jobs)
        self.clock = clock
        self.interval = interval
        self._sleep = sleep
        self._task: asyncio.Task[None] | None = None

    async def tick(self) -> None:
        now = self.clock()
        for job in self.jobs:
            try:
                await job(now)
            except Exception:
                log.exception("periodic job %s failed", getattr(job, "__name__", job))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="periodic-jobs")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await self.tick()
            await self._sleep(self.interval)


def schedule_of(app: Application) -> Schedule:
    schedule: Schedule = app.bot_data[SCHEDULE]
    return schedule


async def run_due(app: Application, now: datetime) -> Delivered:
    """The one entry point: sends what is due at `now` (the periodic check and `remind` call it)."""
    return await schedule_of(app).run_due(now)


def jobs(app: Application, services: Services, settings: Settings) -> list[Job]:
    """What the webhook and polling processes run every SCHEDULE_CHECK_SECONDS, and what
    `household-bot remind` runs once. Add a job here."""

    async def due_messages(now: datetime) -> Delivered:
        return await run_due(app, now)

    return [due_messages, *housekeeping.jobs(services.database, settings, app.bot)]


async def start_schedule(app: Application, services: Services, settings: Settings, *,
                         clock: Clock = utc_now, periodic: bool = True) -> None:
    """In post_init: the schedule for this application and, unless `periodic` is off (or
    SCHEDULE_CHECK_SECONDS is 0), its check every SCHEDULE_CHECK_SECONDS."""
    app.bot_data[SCHEDULE] = Schedule(
        services.storage, ScheduleStore(services.database), app.bot, timezone=settings.household_timezone,
        reminder_hour=settings.reminder_hour, rates=services.service.rates, clock=clock)
    if periodic and settings.schedule_check_seconds > 0:
        runner = Periodic(jobs(app, services, settings), clock=clock, interval=settings.schedule_check_seconds)
        runner.start()
        app.bot_data[PERIODIC] = runner


async def stop_schedule(app: Application) -> None:
    """In post_shutdown, before the database closes."""
    runner: Periodic | None = app.bot_data.pop(PERIODIC, None)
    if runner is not None:
        await runner.stop()


async def remind(settings: Settings, *, now: datetime | None = None, clock: Clock = utc_now) -> Delivered:
    """`household-bot remind`: sends what is due now, through the same sends and window as the
    bot (bot/rate_limit.py), and returns."""
    from bot.application import SERVICES, build_application

    app = build_application(settings, clock=clock, periodic=False, model=None)
    await app.initialize()
    try:
        await app.post_init(app)  # type: ignore[misc]
        try:
            moment = now or clock()
            delivered = await run_due(app, moment)
            services: Services = app.bot_data[SERVICES]
            for job in jobs(app, services, settings)[1:]:
                await job(moment)
            return delivered
        finally:
            await app.post_shutdown(app)  # type: ignore[misc]
    finally:
        await app.shutdown()
