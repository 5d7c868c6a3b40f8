"""When bills fall due and reminders go out: the day before, in the household's timezone, and
the month's last day for a billing day the month does not have."""

from __future__ import annotations

from datetime import UTC, date, datetime

from domain.clock import billing_days_due_on, due_date, local_midnight, local_moment
from domain.money import Period

SAO_PAULO = "America/Sao_Paulo"


def test_a_billing_day_the_month_has_falls_due_that_day() -> None:
    assert due_date(10, Period(2026, 6)) == date(2026, 6, 10)
    assert due_date(31, Period(2026, 7)) == date(2026, 7, 31)


def test_a_billing_day_of_31_falls_due_on_the_last_day_of_february_and_of_april() -> None:
    assert due_date(31, Period(2027, 2)) == date(2027, 2, 28)
    assert due_date(31, Period(2028, 2)) == date(2028, 2, 29)
    assert due_date(31, Period(2026, 4)) == date(2026, 4, 30)


def test_on_a_months_last_day_every_later_billing_day_falls_due_too() -> None:
    days = billing_days_due_on(date(2027, 2, 28))
    assert [d for d in range(1, 32) if days.includes(d)] == [28, 29, 30, 31]
    leap = billing_days_due_on(date(2028, 2, 28))
    assert [d for d in range(1, 32) if leap.includes(d)] == [28]


def test_on_any_other_day_only_that_billing_day_falls_due() -> None:
    days = billing_days_due_on(date(2026, 6, 16))
    assert [d for d in range(1, 32) if days.includes(d)] == [16]


def test_the_reminder_hour_is_read_in_the_households_timezone() -> None:
    # 11:59 UTC is 08:59 in São Paulo (UTC-3): not yet 9 there.
    before = local_moment(datetime(2026, 6, 15, 11, 59, tzinfo=UTC), SAO_PAULO, 9)
    at = local_moment(datetime(2026, 6, 15, 12, 0, tzinfo=UTC), SAO_PAULO, 9)
    assert (before.today, before.hour_reached) == (date(2026, 6, 15), False)
    assert (at.today, at.hour_reached) == (date(2026, 6, 15), True)
    assert at.reminders_due_on == date(2026, 6, 16)


def test_late_at_night_utc_is_still_the_same_day_in_sao_paulo() -> None:
    moment = local_moment(datetime(2026, 7, 1, 2, 0, tzinfo=UTC), SAO_PAULO, 9)
    assert moment.today == date(2026, 6, 30) and not moment.closing_day


def test_the_first_of_the_month_closes_the_month_before() -> None:
    moment = local_moment(datetime(2027, 1, 1, 13, 0, tzinfo=UTC), SAO_PAULO, 9)
    assert moment.closing_day and moment.closed_month == Period(2026, 12)


def test_local_midnight_is_the_instant_the_day_starts_there() -> None:
    assert local_midnight(date(2026, 12, 1), SAO_PAULO) == datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
