"""Column types and value conversions between rows and the domain (money, months, exact JSON)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from domain.money import Money, Period, minor_units


class UtcDateTime(TypeDecorator[datetime]):
    """An instant, always read back as an aware UTC datetime.

    PostgreSQL keeps it as timestamptz; SQLite has no time zones, so it stores naive UTC text
    (which still sorts and compares correctly). A naive value given to it is taken as UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        aware = (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
        return aware if dialect.name == "postgresql" else aware.replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


@lru_cache(maxsize=64)
def _exponent(currency: str) -> int:
    return minor_units(currency)


def money_from_minor(units: int, currency: str) -> Money:
    """Money.from_minor_units without revalidating the stored currency on every row."""
    return Money(Decimal(units).scaleb(-_exponent(currency)), currency)


@lru_cache(maxsize=4096)
def period_of(text: str) -> Period:
    return Period.parse(text)


# JSON that keeps Decimals exact: {"$decimal": "37.90"} is read back as Decimal("37.90").
_DECIMAL = "$decimal"
_DATE = "$date"
_DATETIME = "$datetime"


def _encode(value: Any) -> Any:
    if isinstance(value, Decimal):
        return {_DECIMAL: str(value)}
    if isinstance(value, datetime):
        return {_DATETIME: value.isoformat()}
    if isinstance(value, date):
        return {_DATE: value.isoformat()}
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


def _decode(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        (tag, text), = obj.items()
        if isinstance(text, str):
            if tag == _DECIMAL:
                return Decimal(text)
            if tag == _DATE:
                return date.fromisoformat(text)
            if tag == _DATETIME:
                return datetime.fromisoformat(text)
    return obj


def dumps(value: Any) -> str:
    return json.dumps(value, default=_encode, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> Any:
    return json.loads(text, object_hook=_decode)
