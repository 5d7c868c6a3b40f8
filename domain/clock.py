"""Time as the household sees it: "today" and "this month" are in its timezone; when a bill falls
due and when its reminder goes out, as pure calendar arithmetic.

When a bill falls due and when its reminder goes out, as pure calendar arithmetic.

An expense billed on day 31 falls due on the month's last day in a shorter month (28 or 29
February, 30 April); its reminder goes out the day before the due date, from the reminder hour
on, and only that day: a reminder missed all day is never sent a day late.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from domain.money import Period

Clock = Callable[[], datetime]

DEFAULT_TIMEZONE = "America/Sao_Paulo"
DEFAULT_REMINDER_HOUR = 9


def utc_now() -> datetime:
    return datetime.now(UTC)


def local_today(now: Clock, timezone: str = DEFAULT_TIMEZONE) -> date:
    """The date of `now()` in `timezone`; a naive datetime is taken as already local."""
    moment = now()
    if moment.tzinfo is None:
        return moment.date()
    return moment.astimezone(ZoneInfo(timezone)).date()


def last_day(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def due_date(billing_day: int, period: Period) -> date:
    """The day a bill billed on `billing_day` falls due in `period` (the last day if shorter)."""
    return date(period.year, period.month, min(billing_day, last_day(period.year, period.month)))


@dataclass(frozen=True)
class BillingDays:
    """The billing days that fall due on one date: `day` itself, and on a month's last day
    every day after it too (31 falls due on 30 April; 29, 30 and 31 on 28 February)."""

    day: int
    and_later: bool

    def includes(self, billing_day: int) -> bool:
        return billing_day == self.day or (self.and_later and billing_day > self.day)


def billing_days_due_on(due: date) -> BillingDays:
    return BillingDays(due.day, due.day == last_day(due.year, due.month))


@dataclass(frozen=True)
class LocalMoment:
    """`now` as the household sees it: its date and whether the reminder hour has come."""

    today: date
    hour_reached: bool

    @property
    def reminders_due_on(self) -> date:
        """The due date whose reminders go out today: tomorrow."""
        return self.today + timedelta(days=1)

    @property
    def closing_day(self) -> bool:
        """The 1st: the month just closed gets its summary."""
        return self.today.day == 1

    @property
    def closed_month(self) -> Period:
        return Period.of(self.today - timedelta(days=1))


def local_moment(now: datetime, timezone: str, reminder_hour: int = DEFAULT_REMINDER_HOUR) -> LocalMoment:
    """`now` (aware; a naive one is taken as already local) in `timezone`."""
    local = now if now.tzinfo is None else now.astimezone(ZoneInfo(timezone))
    return LocalMoment(local.date(), local.hour >= reminder_hour)


def local_midnight(day: date, timezone: str) -> datetime:
    """The instant `day` starts in `timezone` (aware)."""
    return datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(timezone))
