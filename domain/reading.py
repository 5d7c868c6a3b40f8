"""Arguments read the way people (and the models that copy them) write them, and still exactly.

The model's tool arguments are meant to be `{"amount": 37.90, "currency": "BRL"}`, `"2026-06"` and
`"2026-06-15"`, but real models pass on what the couple typed: `"37,90"`, `"R$ 1.234,56"`,
`"2 mil"`, `"1.5k"`, `"R$"` as a currency, `"novembro"` or `"11/2026"` for a month, `"15/06/2026"`
for a date. Each reader here turns one of those into the exact value, or raises a `DomainError`
naming what it could not read. Never a float: a JSON number arrives as the Decimal of its literal.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Final

from babel.numbers import get_currency_symbol, is_currency, list_currencies

from domain.errors import InvalidArgument, InvalidDate, InvalidMoney, InvalidPeriod
from domain.money import Period
from domain.text import fold

__all__ = ["read_amount", "read_currency", "read_date", "read_period"]

LOCALE: Final = "pt_BR"
_NOT_MONEY: Final = frozenset({"XXX", "XTS"})
_WORDS: Final = {"real": "BRL", "reais": "BRL", "euro": "EUR", "euros": "EUR", "dolar": "USD",
                 "dolares": "USD", "libra": "GBP", "libras": "GBP"}
_MULTIPLIERS: Final = {"mil": Decimal(1000), "k": Decimal(1000), "mi": Decimal(10) ** 6,
                       "milhao": Decimal(10) ** 6, "milhoes": Decimal(10) ** 6}
_AMOUNT: Final = re.compile(
    r"(?P<before>[^\d+\-−]*?)\s*(?P<sign>[-+−]?)\s*(?P<number>\d[\d.,\s]*?)\s*"
    r"(?P<multiplier>mil|k|mi|milhao|milhoes)?\.?\s*(?P<after>[^\d]*)",
    re.IGNORECASE,
)
_MONTHS: Final = {name: number for number, name in enumerate(
    ("janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro",
     "outubro", "novembro", "dezembro"), 1)}
_ISO_MONTH: Final = re.compile(r"(\d{4})-(\d{1,2})")
_BR_MONTH: Final = re.compile(r"(\d{1,2})/(\d{4})")
_ISO_DATE: Final = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_BR_DATE: Final = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_NAMED_MONTH: Final = re.compile(r"([a-z]+)(?:\s*(?:de|/)?\s*(\d{4}))?")


def _symbols() -> dict[str, str]:
    table: dict[str, str] = {}
    for code in sorted(list_currencies()):
        symbol = get_currency_symbol(code, locale=LOCALE)
        if symbol != code and code not in _NOT_MONEY:
            table.setdefault(symbol.casefold(), code)
    table.setdefault("$", "USD")
    table.setdefault("us$", "USD")
    return table


_SYMBOLS: Final = _symbols()


def read_currency(text: str) -> str:
    """An ISO 4217 code from a code in any case ("brl"), a symbol ("R$", "€", "US$") or a word
    ("reais", "euros", "dólares")."""
    key = " ".join(str(text).split())
    if key.casefold() in _SYMBOLS:
        return _SYMBOLS[key.casefold()]
    code = key.upper()
    if len(code) == 3 and code.isascii() and code.isalpha() and code not in _NOT_MONEY and is_currency(code):
        return code
    word = fold(key)
    if word in _WORDS:
        return _WORDS[word]
    raise InvalidMoney(f"Moeda (currency) desconhecida: {text!r}. Use um código ISO como BRL ou EUR.")


def _number(text: str, original: object) -> Decimal:
    """Digits with "." and "," as a Brazilian writes them ("1.234,56", "37,90", "1.500"), or with a
    decimal point as a model may ("37.90", "1.5")."""
    digits = "".join(text.split())
    commas, points = digits.count(","), digits.count(".")
    if commas and points:
        decimal_mark = "," if digits.rfind(",") > digits.rfind(".") else "."
        grouping = "." if decimal_mark == "," else ","
        whole, _, cents = digits.rpartition(decimal_mark)
        if whole.count(decimal_mark) or not _grouped(whole, grouping):
            raise _unreadable(original)
        plain = whole.replace(grouping, "") + "." + cents
    elif commas:
        whole, _, cents = digits.rpartition(",")
        if commas > 1:
            if not _grouped(digits, ","):
                raise _unreadable(original)
            plain = digits.replace(",", "")
        else:
            plain = whole + "." + cents
    elif points:
        whole, _, tail = digits.rpartition(".")
        if points > 1 or len(tail) == 3:
            # "1.500", "1.234.567": thousands, as in pt-BR
            if not _grouped(digits, "."):
                raise _unreadable(original)
            plain = digits.replace(".", "")
        else:
            plain = digits  # "37.90", "1.5": a decimal point
    else:
        plain = digits
    try:
        return Decimal(plain)
    except InvalidOperation:
        raise _unreadable(original) from None


def _grouped(text: str, separator: str) -> bool:
    first, *rest = text.split(separator)
    return 1 <= len(first) <= 3 and first.isdigit() and all(len(g) == 3 and g.isdigit() for g in rest)


def _unreadable(value: object) -> InvalidMoney:
    return InvalidMoney(
        f"Valor (amount) ilegível: {value!r}. Envie um número exato, como 37.90, ou um texto como "
        "\"R$ 1.234,56\".")


def _exact(value: Decimal) -> Decimal:
    """1500.0 -> 1500 (a multiplier's leftover zeros), 37.90 kept as it is."""
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent < 0 and value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value


def read_amount(value: object) -> tuple[Decimal, str | None]:
    """(amount, currency or None) from a JSON number (already a Decimal) or a text such as "37,90",
    "R$ 1.234,56", "2 mil", "1.5k", "€6000", "25 mil euros". Floats and booleans are refused."""
    if isinstance(value, bool | float):
        raise InvalidArgument(f"Valor (amount) {value!r} é float, não exato; envie o número como no texto, "
                           "como 37.90.")
    if isinstance(value, int):
        return Decimal(value), None
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise _unreadable(value)
        return value, None
    if not isinstance(value, str):
        raise _unreadable(value)
    text = unicodedata.normalize("NFKC", value).strip()
    match = _AMOUNT.fullmatch(text)
    if match is None or "e" in match["number"].lower():
        raise _unreadable(value)
    before, after = match["before"].strip(), match["after"].strip()
    if before and after:
        raise _unreadable(value)
    currency = read_currency(before or after) if (before or after) else None
    number = _number(match["number"], value)
    if match["multiplier"]:
        number = _exact(number * _MULTIPLIERS[fold(match["multiplier"])])
    if match["sign"] in ("-", "−"):
        number = -number
    return number, currency


def read_period(value: object, today: date) -> str:
    """"2026-11", "11/2026", "novembro" (the latest November not after this month), "novembro de
    2026", or a whole date ("2026-11-05") whose month is meant: always "YYYY-MM"."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidPeriod(f"Mês inválido: {value!r} (use AAAA-MM, como 2026-06).")
    text = fold(value)
    for pattern, year_at, month_at in ((_ISO_DATE, 1, 2), (_BR_DATE, 3, 2), (_ISO_MONTH, 1, 2),
                                       (_BR_MONTH, 2, 1)):
        found = pattern.fullmatch(text)
        if found:
            return _period(int(found[year_at]), int(found[month_at]), value)
    if text in ("este mes", "esse mes", "mes atual", "neste mes", "nesse mes"):
        return str(Period.of(today))
    if text in ("mes passado", "ultimo mes", "mes anterior"):
        return str(Period.of(today).previous())
    named = _NAMED_MONTH.fullmatch(text)
    if named and named[1] in _MONTHS:
        month = _MONTHS[named[1]]
        if named[2]:
            return _period(int(named[2]), month, value)
        year = today.year if month <= today.month else today.year - 1
        return _period(year, month, value)
    raise InvalidPeriod(f"Mês inválido: {value!r} (use AAAA-MM, como 2026-06).")


def _period(year: int, month: int, original: object) -> str:
    if not 1 <= month <= 12 or not 1 <= year <= 9999:
        raise InvalidPeriod(f"Mês inválido: {original!r} (use AAAA-MM, como 2026-06).")
    return f"{year:04d}-{month:02d}"


def read_date(value: object, what: str = "Data") -> date:
    """"2026-06-15" or "15/06/2026"."""
    text = value.strip() if isinstance(value, str) else ""
    found = _ISO_DATE.fullmatch(text)
    parts = (found[1], found[2], found[3]) if found else None
    if parts is None and (br := _BR_DATE.fullmatch(text)):
        parts = (br[3], br[2], br[1])
    if parts is None:
        raise InvalidDate(f"{what} inválida: {value!r} (use AAAA-MM-DD).")
    try:
        return date(int(parts[0]), int(parts[1]), int(parts[2]))
    except ValueError:
        raise InvalidDate(f"{what} inválida: {value!r} (não existe).") from None
