"""Time as the household sees it: "today" and "this month" are in its timezone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

Clock = Callable[[], datetime]

DEFAULT_TIMEZONE = "America/Sao_Paulo"


def utc_now() -> datetime:
    return datetime.now(UTC)


def local_today(now: Clock, timezone: str = DEFAULT_TIMEZONE) -> date:
    """The date of `now()` in `timezone`; a naive datetime is taken as already local."""
    moment = now()
    if moment.tzinfo is None:
        return moment.date()
    return moment.astimezone(ZoneInfo(timezone)).date()
