"""Money and the month it belongs to.

Money is an exact `Decimal` with an ISO 4217 code; the code list and each currency's minor
units come from Babel (CLDR), not from a hand-typed table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import total_ordering
from typing import Protocol

from babel import numbers as babel_numbers

from domain.errors import CurrencyMismatch, InvalidMoney, InvalidPeriod, MissingExchangeRate

MAX_MAGNITUDE = Decimal(10) ** 12


def currency_code(code: object) -> str:
    """The upper-case ISO 4217 code, or InvalidMoney naming what was given."""
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z]{3}", code.strip()):
        raise InvalidMoney(f"Moeda inválida: {code!r}. Use um código ISO 4217, como BRL ou EUR.")
    upper = code.strip().upper()
    if not babel_numbers.is_currency(upper):
        raise InvalidMoney(f"Moeda desconhecida: {code!r}. Use um código ISO 4217, como BRL ou EUR.")
    return upper


def minor_units(currency: str) -> int:
    """Digits after the decimal point: 2 for BRL and EUR, 0 for JPY."""
    return int(babel_numbers.get_currency_precision(currency))


def pt_br(amount: Decimal, currency: str) -> str:
    """``R$ 1.500,00``, ``€ 6.000,00``: how a Brazilian reads an amount, rounded half-up to the
    currency's minor units (the bot's texts, and the domain's refusals people read, use it)."""
    rounded = amount.quantize(_quantum(currency), ROUND_HALF_UP)
    return babel_numbers.format_currency(rounded, currency, locale="pt_BR").replace("\xa0", " ")


def _exact_decimal(amount: object) -> Decimal:
    if isinstance(amount, bool):
        raise InvalidMoney(f"Valor {amount!r} não é um número.")
    if isinstance(amount, float):
        raise InvalidMoney(
            f"Valor {amount!r} é float; dinheiro precisa ser exato (use texto ou Decimal)."
        )
    if isinstance(amount, Decimal):
        value = amount
    elif isinstance(amount, int):
        value = Decimal(amount)
    elif isinstance(amount, str):
        try:
            value = Decimal(amount.strip())
        except InvalidOperation:
            raise InvalidMoney(f"Valor {amount!r} não é um número.") from None
    else:
        raise InvalidMoney(f"Valor {amount!r} não é um número.")
    if not value.is_finite():
        raise InvalidMoney(f"Valor {amount!r} não é um número finito.")
    if abs(value) >= MAX_MAGNITUDE:
        raise InvalidMoney(f"Valor {amount!r} é grande demais (limite: menos de 10^12).")
    return value


@total_ordering
@dataclass(frozen=True, slots=True)
class Money:
    amount: Decimal
    currency: str

    @classmethod
    def of(cls, amount: int | str | Decimal, currency: str) -> Money:
        """Exact money; refuses floats, NaN, infinities, 10**12 or more and unknown codes.

        An amount may not carry more decimals than the currency has minor units
        (R$ 1,234 is a typo, not a price).
        """
        code = currency_code(currency)
        value = _exact_decimal(amount)
        exponent = value.as_tuple().exponent
        assert isinstance(exponent, int)  # finite, checked above
        if -exponent > minor_units(code) and value != value.quantize(_quantum(code)):
            raise InvalidMoney(
                f"Valor {amount!s} tem casas decimais demais para {code} "
                f"(no máximo {minor_units(code)})."
            )
        return cls(value, code)

    @classmethod
    def zero(cls, currency: str) -> Money:
        return cls(Decimal(0), currency_code(currency))

    def _same_currency(self, other: Money) -> None:
        if not isinstance(other, Money):
            raise TypeError(f"Money only combines with Money, not {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatch(self.currency, other.currency)

    def __add__(self, other: Money) -> Money:
        self._same_currency(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        self._same_currency(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.amount, self.currency)

    def __lt__(self, other: Money) -> bool:
        self._same_currency(other)
        return self.amount < other.amount

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Money):
            return NotImplemented
        return self.currency == other.currency and self.amount == other.amount

    def __hash__(self) -> int:
        return hash((self.amount, self.currency))

    @property
    def is_positive(self) -> bool:
        return self.amount > 0

    @property
    def is_zero(self) -> bool:
        return self.amount == 0

    def rounded(self) -> Money:
        """Half-up to the currency's minor unit (EUR 83.335 -> EUR 83.34)."""
        return Money(self.amount.quantize(_quantum(self.currency), ROUND_HALF_UP), self.currency)

    def divided_by(self, parts: int) -> Money:
        if parts <= 0:
            raise ValueError("parts must be positive")
        return Money(self.amount / parts, self.currency).rounded()

    def times(self, factor: Decimal) -> Money:
        return Money(self.amount * factor, self.currency).rounded()

    def to_minor_units(self) -> int:
        """Integer minor units for storage (R$ 37,90 -> 3790); refuses sub-cent values."""
        scaled = self.amount.scaleb(minor_units(self.currency))
        if scaled != scaled.to_integral_value():
            raise InvalidMoney(f"{self} tem frações de centavo.")
        return int(scaled)

    @classmethod
    def from_minor_units(cls, units: int, currency: str) -> Money:
        code = currency_code(currency)
        return cls(Decimal(units).scaleb(-minor_units(code)), code)

    def plain(self) -> str:
        """The amount as given, without trailing zeros or exponent: "EUR 6000", "BRL 37.9"."""
        normalized = self.amount.normalize()
        return f"{self.currency} {normalized:f}"

    def fixed(self) -> str:
        """The amount with the currency's minor units: "EUR 250.00"."""
        return f"{self.currency} {self.amount.quantize(_quantum(self.currency), ROUND_HALF_UP):f}"

    def __str__(self) -> str:
        return self.fixed()


def _quantum(currency: str) -> Decimal:
    return Decimal(1).scaleb(-minor_units(currency))


_PERIOD = re.compile(r"(\d{4})-(\d{2})")


@total_ordering
@dataclass(frozen=True, slots=True)
class Period:
    """A calendar month, "2026-06"."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12:
            raise InvalidPeriod(f"Mês inválido: {self.month} (use 01 a 12).")
        if not 1 <= self.year <= 9999:
            raise InvalidPeriod(f"Ano inválido: {self.year}.")

    @classmethod
    def parse(cls, text: str) -> Period:
        match = _PERIOD.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise InvalidPeriod(f"Período inválido: {text!r} (use AAAA-MM, como 2026-06).")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def of(cls, day: date) -> Period:
        return cls(day.year, day.month)

    def __lt__(self, other: Period) -> bool:
        if not isinstance(other, Period):
            return NotImplemented
        return (self.year, self.month) < (other.year, other.month)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    def previous(self) -> Period:
        return Period(self.year - 1, 12) if self.month == 1 else Period(self.year, self.month - 1)

    def plus(self, months: int) -> Period:
        """The month `months` later (earlier when negative): 2026-11 plus 3 is 2027-02."""
        index = self.year * 12 + self.month - 1 + months
        return Period(index // 12, index % 12 + 1)


# --------------------------------------------------------------------------- exchange rates

class ExchangeRates(Protocol):
    def convert(self, money: Money, currency: str) -> Money:
        """`money` in `currency`, rounded to its minor unit."""
        ...


class FixedRates:
    """Rates given as units of `base` per unit of each currency; cross rates go through `base`."""

    def __init__(self, per_unit_in_base: Mapping[str, Decimal | str | int], base: str = "BRL") -> None:
        self.base = currency_code(base)
        self._rates = {currency_code(code): Decimal(str(rate)) for code, rate in per_unit_in_base.items()}
        for code, rate in self._rates.items():
            if not rate.is_finite() or rate <= 0:
                raise ValueError(f"exchange rate for {code} must be positive, not {rate}")
        self._rates[self.base] = Decimal(1)

    def convert(self, money: Money, currency: str) -> Money:
        target = currency_code(currency)
        if money.currency == target:
            return money
        try:
            in_base = money.amount * self._rates[money.currency]
            return Money(in_base / self._rates[target], target).rounded()
        except KeyError:
            raise MissingExchangeRate(money.currency, target) from None


# Reference rates for planning (BRL per unit), overridable through the EXCHANGE_RATES setting.
DEFAULT_RATES = FixedRates({"EUR": "6.20", "USD": "5.40", "GBP": "7.20"})
