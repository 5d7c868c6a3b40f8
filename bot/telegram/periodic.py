"""The bot's own rounds in a webhook or polling process: every SCHEDULE_CHECK_SECONDS, what the
schedule says is due (bill reminders, the monthly closing) and the housekeeping jobs.

`Periodic` runs a list of jobs (`jobs`) so a new one joins with one line; a platform scheduler may
run `household-bot remind` as well, or instead (bot/telegram/application.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from telegram.ext import Application

from bot.app import housekeeping
from bot.app.schedule import Delivered, Schedule
from bot.bootstrap import Services
from bot.telegram.sending import TelegramSender
from domain.clock import Clock, utc_now

log = logging.getLogger(__name__)

SCHEDULE = "schedule"
PERIODIC = "periodic"

Job = Callable[[datetime], Awaitable[object]]


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


def jobs(app: Application, services: Services) -> list[Job]:
    """What the webhook and polling processes run every SCHEDULE_CHECK_SECONDS, and what
    `household-bot remind` runs once. Add a job here."""

    async def due_messages(now: datetime) -> Delivered:
        return await run_due(app, now)

    sender = TelegramSender(app.bot)
    return [due_messages, *housekeeping.jobs(services.database, services.settings, sender)]


async def start_schedule(app: Application, services: Services, *,
                         clock: Clock = utc_now, periodic: bool = True) -> None:
    """In post_init: the schedule for this application and, unless `periodic` is off (or
    SCHEDULE_CHECK_SECONDS is 0), its check every SCHEDULE_CHECK_SECONDS."""
    app.bot_data[SCHEDULE] = services.schedule(TelegramSender(app.bot), clock=clock)
    interval = services.settings.schedule_check_seconds
    if periodic and interval > 0:
        runner = Periodic(jobs(app, services), clock=clock, interval=interval)
        runner.start()
        app.bot_data[PERIODIC] = runner


async def stop_schedule(app: Application) -> None:
    """In post_shutdown, before the database closes."""
    runner: Periodic | None = app.bot_data.pop(PERIODIC, None)
    if runner is not None:
        await runner.stop()
