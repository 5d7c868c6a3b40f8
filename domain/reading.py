"""The one reader of amounts, months, days and dates, as people (and the models that copy them)
write them, and still exactly.

The commands (bot/commands/parsing.py keeps only their token work), the model's tool arguments
(domain/tools) and any later reader of free text all read through here, so "37,90",
"R$ 1.234,56", "2 mil", "1,5k", "R$1k", "50 reais", "37.90", "novembro", "mês passado",
"05/2026" or "15/06/2026" mean the same wherever they are written. Each reader returns the exact
value or raises a `DomainError` whose message is a pt-BR sentence naming what was written: a
person reads it in the chat, the model reads it back as a tool result. Never a float: a JSON
number arrives as the Decimal of its literal and stays exact.
"""

from __future__ import annotations

import re
from datetime import MAXYEAR, MINYEAR, date
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
    InvalidDate,
    InvalidMoney,
    InvalidPeriod,
    shown,
)
from domain.money import MAX_MAGNITUDE, Period, minor_units
from domain.text import fold

__all__ = [
    "CENTS",
    "Amount",
    "currency_of",
    "is_multiplier",
    "read_amount",
    "read_currency",
    "read_date",
    "read_day",
    "read_period",
]

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


# --------------------------------------------------------------------------- months

_MONTHS: Final = {name: number for number, names in enumerate((
    ("janeiro", "jan"), ("fevereiro", "fev"), ("marco", "mar"), ("abril", "abr"), ("maio", "mai"),
    ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"), ("setembro", "set"), ("outubro", "out"),
    ("novembro", "nov"), ("dezembro", "dez")), start=1) for name in names}
_RELATIVE: Final = {
    **dict.fromkeys(("este mes", "esse mes", "mes atual", "neste mes", "nesse mes"), 0),
    **dict.fromkeys(("mes passado", "ultimo mes", "mes anterior"), -1),
    **dict.fromkeys(("mes que vem", "proximo mes"), 1)}
_ISO_MONTH: Final = re.compile(r"([0-9]{4})-([0-9]{1,2})")
_BR_MONTH: Final = re.compile(r"([0-9]{1,2})/([0-9]{4})")
_ISO_DATE: Final = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_BR_DATE: Final = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})")
_NAMED_MONTH: Final = re.compile(r"([a-z]+)\.?(?:(?:\s+de\s+|\s*/\s*|\s+)(.+))?")
_YEAR: Final = re.compile(r"[0-9]{4}")


def read_period(value: object, today: date | None = None) -> str:
    """A month, always "YYYY-MM", from "2026-05", "2026-5", "05/2026", a whole date whose month is
    meant ("2026-05-03", "03/05/2026"), a month's name or abbreviation with or without its year
    ("março", "mar", "dezembro de 2025", "Março 2026", "mar/2026") or "este mês", "mês passado",
    "mês que vem". A name without its year is the latest such month not after this one; it and
    the relative months need `today` (without it they are refused, asking for the year)."""
    raw = " ".join(value.split()) if isinstance(value, str) else str(value)
    text = fold(raw) if isinstance(value, str) else ""
    for pattern, year_at, month_at in ((_ISO_MONTH, 1, 2), (_BR_MONTH, 2, 1)):
        found = pattern.fullmatch(text)
        if found:
            return _month(int(found[year_at]), int(found[month_at]), raw)
    if _ISO_DATE.fullmatch(text) or _BR_DATE.fullmatch(text):
        try:
            day = read_date(text)
        except InvalidDate:
            raise InvalidPeriod(f"Mês inválido: “{shown(raw)}” não é uma data que existe.") from None
        return str(Period.of(day))
    if text in _RELATIVE:
        return str(Period.of(_today(today, raw)).plus(_RELATIVE[text]))
    named = _NAMED_MONTH.fullmatch(text)
    if named and named[1] in _MONTHS:
        month = _MONTHS[named[1]]
        if named[2] is None:
            now = _today(today, raw)
            return _month(now.year if month <= now.month else now.year - 1, month, raw)
        if _YEAR.fullmatch(named[2]):
            return _month(int(named[2]), month, raw)
        raise InvalidPeriod(f"Não entendi o ano em “{shown(raw)}”; escreva, por exemplo, dezembro "
                            "de 2025 ou 2025-12.")
    raise InvalidPeriod(f"Mês inválido: “{shown(raw)}”. Use AAAA-MM, como 2026-05, ou o nome do "
                        "mês, como maio de 2026.")


def _today(today: date | None, raw: str) -> date:
    if today is None:
        raise InvalidPeriod(f"Mês inválido: “{shown(raw)}”: diga o mês com o ano, como maio de 2026, "
                            "ou AAAA-MM, como 2026-05.")
    return today


def _month(year: int, month: int, raw: str) -> str:
    if not 1 <= month <= 12:
        raise InvalidPeriod(f"Mês inválido: “{shown(raw)}”: o mês vai de 01 a 12, como 2026-05.")
    if not MINYEAR <= year <= MAXYEAR:
        raise InvalidPeriod(f"Ano inválido em “{shown(raw)}”. Use AAAA-MM, como 2026-05.")
    return str(Period(year, month))


# --------------------------------------------------------------------------- days and dates

_DAY: Final = re.compile(r"[0-9]{1,2}")


def read_day(value: object) -> int:
    """A day of the month, 1 to 31, from "10", "05" or 10; InvalidDate naming anything else."""
    raw = value.strip() if isinstance(value, str) else str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        day = value
    elif isinstance(value, str) and _DAY.fullmatch(raw):
        day = int(raw)
    else:
        day = 0
    if not 1 <= day <= 31:
        raise InvalidDate(f"Dia inválido: “{shown(raw)}”. Use um dia de 1 a 31.")
    return day


def read_date(value: object, what: str = "Data") -> date:
    """A date from ISO "2026-06-15" or as in Brazil "15/06/2026" (also "1/6/2026"). `what` names it
    in the refusal ("Prazo", "Data do aporte")."""
    raw = value.strip() if isinstance(value, str) else str(value)
    label = "" if what == "Data" else f"{what}: "
    iso = _ISO_DATE.fullmatch(raw) if isinstance(value, str) else None
    brazilian = _BR_DATE.fullmatch(raw) if isinstance(value, str) else None
    if iso:
        parts = (iso[1], iso[2], iso[3])
    elif brazilian:
        parts = (brazilian[3], brazilian[2], brazilian[1])
    else:
        raise InvalidDate(f"{label}“{shown(raw)}” não é uma data. Use AAAA-MM-DD ou DD/MM/AAAA, "
                          "como 2028-06-01.")
    try:
        return date(int(parts[0]), int(parts[1]), int(parts[2]))
    except ValueError:
        raise InvalidDate(f"{label}“{shown(raw)}” não é uma data que existe.") from None
