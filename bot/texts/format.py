"""How money, dates, months, names and progress read in pt-BR: the pieces every text is made of.

Money through Babel (``R$ 1.500,00``, ``€ 6.000,00``), rounded half-up like the domain; dates as
``01/06/2028``; months as ``junho de 2026``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final

from babel.dates import format_date
from babel.lists import format_list

from domain.errors import DomainError
from domain.money import Money, Period, pt_br
from domain.text import shorten

LOCALE: Final = "pt_BR"
BAR_CELLS: Final = 8
PERCENT_CEILING: Final = 999
FULL_CELL: Final = "▓"
EMPTY_CELL: Final = "░"
SHOWN_DESCRIPTION_CHARS: Final = 60  # a bank's description, or a file name, as shown


def money(m: Money) -> str:
    """``R$ 1.500,00``, ``€ 6.000,00``, ``US$ 50,00``: pt-BR, rounded half-up like the domain."""
    return format_money(m.amount, m.currency)


def format_money(amount: Decimal, currency: str) -> str:
    return pt_br(amount, currency)


def date_br(value: date | str) -> str:
    """``date(2028, 6, 1)`` or ``"2028-06-01"`` -> ``01/06/2028``; unreadable text as given."""
    day = value
    if isinstance(value, str):
        try:
            day = date.fromisoformat(value.strip())
        except ValueError:
            return value
    assert isinstance(day, date)
    return day.strftime("%d/%m/%Y")


def month_br(value: Period | date | str) -> str:
    """``Period(2026, 6)``, ``"2026-06"`` or a date -> ``junho de 2026``; unreadable text as given."""
    month = value
    if isinstance(value, str):
        try:
            month = Period.parse(value)
        except DomainError:
            return value
    assert isinstance(month, Period | date)
    first_day = date(month.year, month.month, 1)
    return format_date(first_day, "MMMM 'de' y", locale=LOCALE)


def names(names: Sequence[Any]) -> str:
    """``Ana e Bruno``; ``Ana, Bruno e Carla``."""
    return format_list([str(n) for n in names], locale=LOCALE) if names else ""


def percent_of(part: Decimal, whole: Decimal) -> int:
    """Whole percent, rounded down: 930 of 1500 is 62."""
    return int(part * 100 // whole)


def bar(percent: int) -> str:
    """Eight cells; full only at 100 % or more, never empty once something is there."""
    filled = int((Decimal(percent) * BAR_CELLS / 100).quantize(Decimal(1), ROUND_HALF_UP))
    if percent > 0:
        filled = max(filled, 1)
    if percent < 100:
        filled = min(filled, BAR_CELLS - 1)
    filled = max(0, min(BAR_CELLS, filled))
    return FULL_CELL * filled + EMPTY_CELL * (BAR_CELLS - filled)



def squeeze(lines: list[str]) -> list[str]:
    """No doubled or trailing blank lines."""
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out



def clip(text: Any, limit: int = SHOWN_DESCRIPTION_CHARS) -> str:
    """A text from outside (a bank's description, a file name) on one line, cut to `limit`."""
    return shorten(" ".join(str(text).split()), limit)


def done_by(name: str | None) -> str:
    """" por Ana" after what Ana did; nothing when nobody is known."""
    return f" por {name}" if name else ""
