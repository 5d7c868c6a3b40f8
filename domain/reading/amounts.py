"""Amounts and currencies as people (and the models that copy them) write them, read exactly:
"37,90", "R$ 1.234,56", "2 mil", "1,5k", "R$1k", "50 reais", "37.90". Never a float: a JSON number
arrives as the Decimal of its literal and stays exact. Each reader returns the exact value or
raises a `DomainError` whose message is a pt-BR sentence naming what was written."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Final, NamedTuple

from babel.numbers import (
    format_decimal,
    get_currency_name,
    get_currency_symbol,
    is_currency,
    list_currencies,
)

from domain.errors import (
    AmountProblem,
    InvalidAmount,
    InvalidArgument,
    InvalidMoney,
    shown,
)
from domain.money import MAX_MAGNITUDE, minor_units
from domain.text import fold

LOCALE: Final = "pt_BR"
CENTS: Final = 2
"""Decimal places an amount may have when it names no currency: centavos."""


class Amount(NamedTuple):
    """An amount as written: `currency` is an ISO 4217 code, or None when none was written."""

    amount: Decimal
    currency: str | None


# --------------------------------------------------------------------------- currencies

_NOT_MONEY: Final = frozenset({"XXX", "XTS"})  # ISO "no currency" and "testing" codes


def _symbol_table() -> dict[str, str]:
    """pt-BR currency symbols (casefolded) -> code, from Babel: "r$" -> BRL, "€" -> EUR, ..."""
    table: dict[str, str] = {}
    for code in sorted(list_currencies()):
        symbol = get_currency_symbol(code, locale=LOCALE)
        if symbol != code and code not in _NOT_MONEY:
            table.setdefault(symbol.casefold(), code)
    table.setdefault("$", "USD")  # how Brazilians write dollars; Babel's pt-BR symbol is US$
    return table


def _word_table(codes: tuple[str, ...]) -> dict[str, str]:
    """Spoken names ("reais", "euros", "dólares", "libras") -> code, from Babel's pt-BR names."""
    table: dict[str, str] = {}
    for code in codes:
        for count in (1, 2):
            first_word = get_currency_name(code, count=count, locale=LOCALE).split()[0]
            table.setdefault(fold(first_word), code)
    return table


_SYMBOLS: Final = _symbol_table()
_WORDS: Final = _word_table(("BRL", "EUR", "USD", "GBP"))
_WELL_KNOWN: Final = frozenset(_SYMBOLS.values())
"""Codes with a symbol of their own in pt-BR ("eur", "usd"): read in lower case everywhere."""


def currency_of(text: str, *, lower_codes: bool = True) -> str | None:
    """The ISO code a symbol ("R$", "€", "US$", "$"), a code ("EUR", "brl") or a word ("reais",
    "dólares") stands for, else None.

    With `lower_codes` False (inside a command, where "/gasto 50 pen drive" has a word, not
    Peruvian soles), a code in lower case counts only for the currencies with a symbol of their own.
    """
    key = " ".join(str(text).split())
    if not key:
        return None
    if key.casefold() in _SYMBOLS:
        return _SYMBOLS[key.casefold()]
    code = key.upper()
    if (
        len(key) == 3
        and key.isascii()
        and key.isalpha()
        and code not in _NOT_MONEY
        and is_currency(code)
        and (lower_codes or key.isupper() or code in _WELL_KNOWN)
    ):
        return code
    return _WORDS.get(fold(key))


def read_currency(text: str) -> str:
    """An ISO 4217 code from a code in any case ("brl"), a symbol ("R$", "€", "US$") or a word
    ("reais", "euros", "dólares"); InvalidMoney naming anything else."""
    code = currency_of(text)
    if code is None:
        raise InvalidMoney(
            f"Moeda desconhecida: “{shown(' '.join(str(text).split()))}”. Use R$, €, US$ ou um "
            "código ISO, como BRL ou EUR.")
    return code


# --------------------------------------------------------------------------- amounts

_MULTIPLIERS: Final = {"mil": Decimal(1000), "k": Decimal(1000), "mi": Decimal(10) ** 6,
                       "milhao": Decimal(10) ** 6, "milhoes": Decimal(10) ** 6}

# symbol/code/word, a number of ASCII digits, "." and "," that starts and ends with a digit,
# then a multiplier and/or a symbol/code/word.
_SHAPE: Final = re.compile(
    r"(?P<before>[^0-9.,]*?)(?P<number>[0-9](?:[0-9.,]*[0-9])?)(?P<after>[^0-9.,]*)")
_SIGNED: Final = re.compile(r"(?P<lead>[-+−]?)\s*(?P<currency>.*?)\s*(?P<trail>[-+−]?)", re.DOTALL)
_MULTIPLIER: Final = re.compile(
    r"(?P<word>milh(?:ão|ao|ões|oes)|mil|mi|k)(?![^\W\d_])\s*(?:de\s+)?", re.IGNORECASE)
_SCIENTIFIC: Final = re.compile(r"[0-9][eE][-+]?[0-9]")
_COMMA_AS_THOUSANDS: Final = re.compile(r"[0-9]{1,3},[0-9]{3}")
_MINUS: Final = ("-", "−")


def is_multiplier(word: str) -> bool:
    """ "mil", "k", "mi", "milhão", "milhões": a word that multiplies the number before it."""
    return fold(word) in _MULTIPLIERS


def read_amount(value: object, *, positive: bool = False, decimals: int = CENTS,
                lower_codes: bool = True, what: str | None = None) -> Amount:
    """(amount, currency or None) from a JSON number (already a Decimal), an int, or a text as a
    Brazilian writes it: "37,90", "1.500", "R$ 1.234,56", "€6000", "6.000 eur", "50 reais",
    "2 mil", "1,5k", "R$1k", "25 mil euros"; also "37.90" (a point followed by one or two digits is
    the decimal mark) and "1,500.00" (American grouping, when valid). Raises `InvalidAmount`
    (`problem`: empty, not_a_number, scientific, unknown_currency, malformed, not_positive,
    too_many_decimals, too_large); floats and booleans are refused with `InvalidArgument`.

    positive: zero and negative amounts are refused (not_positive), as the commands want;
      otherwise a negative amount is returned negative ("-5" -> -5) and the domain decides.
    decimals: decimal places allowed when no currency is written (the minor units of the currency
      it will be in); a written currency's own minor units always apply ("JP¥ 100,50" is refused).
    lower_codes: see `currency_of`.
    what: the argument's name, put before a refusal ("amount: “duzentos” não é um valor…") for a
      reader that must know which argument was wrong (the model); a person's command needs none.
    """
    try:
        return _read(value, positive=positive, decimals=decimals, lower_codes=lower_codes)
    except InvalidAmount as refused:
        if what is None:
            raise
        raise InvalidAmount(f"{what}: {refused}", text=refused.text, problem=refused.problem) from None
    except InvalidArgument as refused:
        if what is None:
            raise
        raise InvalidArgument(f"{what}: {refused}") from None


def _read(value: object, *, positive: bool, decimals: int, lower_codes: bool) -> Amount:
    if isinstance(value, bool | float):
        raise InvalidArgument(
            f"O valor {value!r} chegou como {type(value).__name__}, que não é exato; envie o número "
            "como no texto, como 37,90.")
    if isinstance(value, int):
        return _checked(Decimal(value), None, raw=str(value), text=str(value), positive=positive,
                        decimals=decimals)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise _not_a_number(str(value), str(value))
        return _checked(value, None, raw=str(value), text=str(value), positive=positive,
                        decimals=decimals)
    if not isinstance(value, str):
        raise _not_a_number(repr(value), repr(value))
    return _read_text(value, positive=positive, decimals=decimals, lower_codes=lower_codes)


def _read_text(text: str, *, positive: bool, decimals: int, lower_codes: bool) -> Amount:
    raw = " ".join(text.split())
    if not raw:
        raise InvalidAmount("Informe um valor, por exemplo 37,90.", text=text, problem="empty")
    match = _SHAPE.fullmatch(raw)
    if match is None:
        if _SCIENTIFIC.search(raw):
            raise InvalidAmount(
                f"“{shown(raw)}” parece notação científica; escreva o valor só com algarismos"
                f"{_as_digits(raw)}.", text=text, problem="scientific")
        raise _not_a_number(raw, text)
    number = match["number"]
    signed = _SIGNED.fullmatch(match["before"].strip())
    assert signed is not None  # every text matches
    if signed["lead"] and signed["trail"]:
        raise _not_a_number(raw, text)
    multiplier, after = _multiplier(match["after"].strip())
    currency = _currency(raw, signed["currency"], after, text=text, lower_codes=lower_codes)
    negative = (signed["lead"] or signed["trail"]) in _MINUS
    if negative and positive:
        raise _not_positive(raw, text, negative=True)
    value = _number(number, raw, text)
    if multiplier is not None:
        value = _exact(value * multiplier)
    return _checked(-value if negative else value, currency, raw=raw, text=text, number=number,
                    positive=positive, decimals=decimals)


def _multiplier(after: str) -> tuple[Decimal | None, str]:
    """("mil" in "2 mil reais") -> (1000, "reais"); "2 milhões de reais" too."""
    found = _MULTIPLIER.match(after)
    if found is None:
        return None, after
    return _MULTIPLIERS[fold(found["word"])], after[found.end():].strip()


def _currency(raw: str, before: str, after: str, *, text: str, lower_codes: bool) -> str | None:
    written = [part for part in (before, after) if part]
    codes = [currency_of(part, lower_codes=lower_codes) for part in written]
    for part, code in zip(written, codes, strict=True):
        if code is None:
            raise InvalidAmount(
                f"Moeda desconhecida “{shown(part)}” em “{shown(raw)}”. Use R$, €, US$ ou um "
                "código como EUR.", text=text, problem="unknown_currency")
    if len(codes) == 2:
        raise InvalidAmount(f"“{shown(raw)}” tem duas moedas; escreva só uma, como R$ 50 ou 50 EUR.",
                            text=text, problem="unknown_currency")
    return codes[0] if codes else None


def _number(number: str, raw: str, text: str) -> Decimal:
    """Digits with "." and "," as a Brazilian writes them: "1.234,56", "37,90", "1.500",
    "1.500.000"; a point followed by one or two digits is a decimal point ("37.90", "1.5");
    with both marks, the last one is the decimal mark when the grouping before it is valid
    ("1,500.00"). A single comma is always decimal: "1,500" has three decimals (refused for
    money in centavos, with a hint)."""
    commas, points = number.count(","), number.count(".")
    if commas and points:
        mark = "," if number.rfind(",") > number.rfind(".") else "."
        grouping = "." if mark == "," else ","
        whole, _, fraction = number.rpartition(mark)
        if mark in whole or not _grouped(whole, grouping) or (mark == "." and len(fraction) > 2):
            raise _malformed(raw, text)
        plain = whole.replace(grouping, "") + "." + fraction
    elif commas == 1:
        plain = number.replace(",", ".")
    elif commas:
        if not _grouped(number, ","):  # "1,234,567": thousands, the American way
            raise _malformed(raw, text)
        plain = number.replace(",", "")
    elif points == 1 and len(number.rpartition(".")[2]) <= 2:
        plain = number  # "37.90", "1.5": a decimal point
    elif points:
        if not _grouped(number, "."):  # "1.500", "1.234.567": thousands
            raise _malformed(raw, text)
        plain = number.replace(".", "")
    else:
        plain = number
    try:
        return Decimal(plain)
    except InvalidOperation:  # pragma: no cover - the shape admits only digits and marks
        raise _malformed(raw, text) from None


def _grouped(text: str, separator: str) -> bool:
    """ "1.234.567": a first group of one to three digits (no leading zero), then groups of three."""
    first, *rest = text.split(separator)
    return (1 <= len(first) <= 3 and first.isdigit() and (first[0] != "0" or not rest)
            and all(len(group) == 3 and group.isdigit() for group in rest))


def _exact(value: Decimal) -> Decimal:
    """A multiplied amount without the multiplication's zeros: 1.5 * 1000 -> 1500, not 1500.0."""
    if value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value.normalize()


def _checked(value: Decimal, currency: str | None, *, raw: str, text: str, positive: bool,
             decimals: int, number: str = "") -> Amount:
    if positive and value <= 0:
        raise _not_positive(raw, text, negative=value < 0)
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    allowed = decimals if currency is None else minor_units(currency)
    if places > allowed:
        raise InvalidAmount(_too_many_decimals(raw, number, allowed, currency), text=text,
                            problem="too_many_decimals")
    if abs(value) >= MAX_MAGNITUDE:
        raise InvalidAmount(
            f"“{shown(raw)}” é grande demais: o valor precisa ser menor que 1 trilhão.",
            text=text, problem="too_large")
    return Amount(value, currency)


def _refusal(problem: AmountProblem, message: str, text: str) -> InvalidAmount:
    return InvalidAmount(message, text=text, problem=problem)


def _not_a_number(raw: str, text: str) -> InvalidAmount:
    return _refusal("not_a_number",
                    f"“{shown(raw)}” não é um valor. Escreva, por exemplo, 37,90 ou R$ 1.500,00.", text)


def _malformed(raw: str, text: str) -> InvalidAmount:
    return _refusal("malformed", f"“{shown(raw)}” não está no formato brasileiro: use ponto para "
                                 "milhar e vírgula para centavos, como 1.500,00.", text)


def _not_positive(raw: str, text: str, *, negative: bool) -> InvalidAmount:
    rule = "positivo" if negative else "maior que zero"
    return _refusal("not_positive", f"O valor precisa ser {rule}: “{shown(raw)}”.", text)


def _too_many_decimals(raw: str, number: str, allowed: int, currency: str | None) -> str:
    if allowed == 0:
        return f"“{shown(raw)}” tem centavos, mas {currency} não usa casas decimais."
    places = "duas" if allowed == 2 else str(allowed)
    message = f"“{shown(raw)}” tem mais de {places} casas decimais; use no máximo {places}"
    message += ", como 37,90." if allowed == 2 else "."
    if _COMMA_AS_THOUSANDS.fullmatch(number) and number.endswith("0"):
        # "1,500" is more likely one thousand five hundred written the American way
        message += f" Se quis dizer milhar, escreva {number.replace(',', '.')}."
    return message


def _as_digits(raw: str) -> str:
    """", como 1.000" for "1e3" when it reads as a number; else an example."""
    try:
        value = Decimal(raw.replace(",", "."))
    except ArithmeticError:
        return ", como 1.000"
    if value.is_finite() and 0 < value < MAX_MAGNITUDE and value == value.to_integral_value():
        return f", como {format_decimal(value, locale=LOCALE)}"
    return ", como 1.000"
