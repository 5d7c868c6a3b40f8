"""Exchange rates: a port, and a fixed table good enough to plan savings."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Protocol

from domain.errors import MissingExchangeRate
from domain.money import Money, currency_code


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
