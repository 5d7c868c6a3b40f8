"""Reading the arguments of the commands that need no language model (contract, section 6), into
the same tool calls the agent would make (`PARSERS`, at the end).

Money is read as a Brazilian writes it: ``200``, ``37,90``, ``1.500``, ``1.500,00``,
``R$ 1.500,00``, ``€6000``, ``6.000 eur``. The number itself is read by Babel's strict pt-BR
parser; currency symbols and codes come from Babel's pt-BR data. Everything returned is plain
data (``Decimal``, ``str``, ``date`` and small frozen dataclasses): turning it into domain objects
is the caller's job. Every error's ``str()`` is a pt-BR sentence for the person who typed it and
names the bad input.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import MAXYEAR, MINYEAR, date
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final, Literal

from babel.numbers import (
    NumberFormatError,
    format_decimal,
    get_currency_name,
    get_currency_precision,
    get_currency_symbol,
    is_currency,
    list_currencies,
    parse_decimal,
)

from bot.commands.catalog import named
from domain.money import Period
from domain.tools.budget import AdjustExpenseTool, RecordSpendTool, RegisterExpenseTool
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool
from domain.tools.housekeeping import ArchiveTool, RenameTool

LOCALE: Final = "pt_BR"
MAX_AMOUNT: Final = Decimal(10) ** 12
"""Amounts must be below this (the domain refuses magnitudes of 10**12 or more)."""

_DEFAULT_DECIMALS: Final = 2
"""Decimal places allowed when no currency is written (the household's currency)."""


# --------------------------------------------------------------------------- errors


class ParseError(ValueError):
    """Something a person typed could not be read; ``str()`` is a pt-BR message for them."""


AmountProblem = Literal[
    "empty",
    "not_a_number",
    "unknown_currency",
    "malformed",
    "scientific",
    "not_positive",
    "too_many_decimals",
    "too_large",
]


class AmountError(ParseError):
    """An amount of money could not be read.

    ``problem`` says why; ``text`` is what was typed.
    """

    def __init__(self, message: str, *, text: str, problem: AmountProblem) -> None:
        super().__init__(message)
        self.text = text
        self.problem: AmountProblem = problem


class DateError(ParseError):
    """A month (``AAAA-MM``), day of the month or date could not be read."""


class CommandUsageError(ParseError):
    """A command's arguments could not be read.

    ``str()`` is the reason (or "Não entendi.") followed by the right form and an example, as
    bot/commands/catalog.py has them for ``command``.
    """

    def __init__(self, command: str, reason: str | None = None) -> None:
        self.command = command
        self.reason = reason
        usage = named(command).usage
        super().__init__(f"{reason}\n{usage}" if reason else f"Não entendi. {usage}")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class ParsedAmount:
    """An amount as typed; ``currency`` is an ISO 4217 code, or None when none was written."""

    amount: Decimal
    currency: str | None


@dataclass(frozen=True)
class SpendCommand:
    """``/gasto <valor> <despesa> [AAAA-MM]``; ``period`` is (year, month) or None."""

    amount: ParsedAmount
    expense: str
    period: tuple[int, int] | None


@dataclass(frozen=True)
class ExpenseCommand:
    """``/despesa <nome> <valor> [dia <1-31>]``."""

    name: str
    expected: ParsedAmount
    billing_day: int | None


@dataclass(frozen=True)
class AdjustCommand:
    """``/ajuste <despesa> <valor>``."""

    expense: str
    new_expected: ParsedAmount


@dataclass(frozen=True)
class ContributionCommand:
    """``/aporte <valor> <meta>``."""

    amount: ParsedAmount
    goal: str


@dataclass(frozen=True)
class GoalCommand:
    """``/meta <nome> <valor> [moeda] [até AAAA-MM-DD]``."""

    name: str
    target: ParsedAmount
    deadline: date | None


# --------------------------------------------------------------------------- currencies

_NOT_MONEY: Final = frozenset({"XXX", "XTS"})  # ISO "no currency" and "testing" codes


def _fold(text: str) -> str:
    """Case- and accent-insensitive key: "Dólares" -> "dolares"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _symbol_table() -> dict[str, str]:
    """pt-BR currency symbols (casefolded) -> code, from Babel: "r$" -> BRL, "€" -> EUR, ..."""
    table: dict[str, str] = {}
    for code in sorted(list_currencies()):
        symbol = get_currency_symbol(code, locale=LOCALE)
        if symbol != code and code not in _NOT_MONEY:
            table.setdefault(symbol.casefold(), code)
    table.setdefault("$", "USD")  # how Brazilians write dollars; Babel's pt-BR symbol is US$
    return table


def _word_table(codes: Sequence[str]) -> dict[str, str]:
    """Spoken names ("reais", "euros", "dólares") -> code, from Babel's pt-BR display names."""
    table: dict[str, str] = {}
    for code in codes:
        for count in (1, 2):
            first_word = get_currency_name(code, count=count, locale=LOCALE).split()[0]
            table.setdefault(_fold(first_word), code)
    return table


_SYMBOLS: Final = _symbol_table()
_WORDS: Final = _word_table(("BRL", "EUR", "USD"))
_WELL_KNOWN: Final = frozenset(_SYMBOLS.values())
"""Codes with a symbol of their own in pt-BR: also recognised in lower case inside commands."""


def _currency_code(text: str, *, any_case: bool) -> str | None:
    """The ISO code for a symbol ("R$"), code ("EUR", "eur") or word ("reais"), else None.

    With ``any_case`` False (inside commands, where a lower-case word is more likely part of a
    name: "/gasto 50 pen drive"), a lower-case code counts only for well-known currencies.
    """
    key = text.strip()
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
        and (any_case or key.isupper() or code in _WELL_KNOWN)
    ):
        return code
    return _WORDS.get(_fold(key))


# --------------------------------------------------------------------------- amounts

# symbol/code, number, symbol/code. The number is only ASCII digits, "." and ",", starting and
# ending with a digit; Babel does the actual reading.
_AMOUNT_SHAPE: Final = re.compile(
    r"(?P<before>[^0-9.,]*?)\s*(?P<number>[-+−]?[0-9](?:[0-9.,]*[0-9])?)\s*(?P<after>[^0-9.,]*)"
)
_SCIENTIFIC: Final = re.compile(r"[0-9][eE][-+]?[0-9]")
_POINT_AS_DECIMAL: Final = re.compile(r"[0-9]+\.[0-9]{1,2}")
_COMMA_AS_THOUSANDS: Final = re.compile(r"[0-9]{1,3},[0-9]{3}")
_MINUS_SIGNS: Final = ("-", "−")


def parse_amount(text: str) -> ParsedAmount:
    """Read money as a Brazilian writes it.

    ``"1.500,00"`` -> 1500.00 with no currency; ``"R$ 1.500"`` -> BRL; ``"€6000"``,
    ``"6.000 eur"`` -> EUR; ``"US$ 50"``, ``"$ 50"`` -> USD. Raises ``AmountError``.
    """
    return _parse_amount(text, any_case=True)


def _parse_amount(text: str, *, any_case: bool) -> ParsedAmount:
    raw = text.strip()
    if not raw:
        raise AmountError("Informe um valor, por exemplo 37,90.", text=text, problem="empty")
    match = _AMOUNT_SHAPE.fullmatch(raw)
    if match is None:
        if _SCIENTIFIC.search(raw):
            raise AmountError(
                f"“{raw}” parece notação científica; escreva o valor só com algarismos"
                f"{_as_digits(raw)}.",
                text=text,
                problem="scientific",
            )
        raise AmountError(
            f"“{raw}” não é um valor. Escreva, por exemplo, 37,90 ou R$ 1.500,00.",
            text=text,
            problem="not_a_number",
        )
    before, number, after = (match.group(name).strip() for name in ("before", "number", "after"))

    negative = number.startswith(_MINUS_SIGNS) or before.startswith(_MINUS_SIGNS)
    before = before.lstrip("".join(_MINUS_SIGNS)).strip()
    currency = _currency_of(raw, before, after, text=text, any_case=any_case)
    if negative:
        raise AmountError(
            f"O valor precisa ser positivo: “{raw}”.", text=text, problem="not_positive"
        )

    try:
        value = parse_decimal(number.lstrip("+"), locale=LOCALE, strict=True)
    except NumberFormatError as error:
        if _POINT_AS_DECIMAL.fullmatch(number):
            message = (
                f"“{raw}” não está no formato brasileiro: os centavos vêm depois da vírgula. "
                f"Quis dizer {number.replace('.', ',')}?"
            )
        else:
            message = (
                f"“{raw}” não está no formato brasileiro: use ponto para milhar e vírgula "
                "para centavos, como 1.500,00."
            )
        raise AmountError(message, text=text, problem="malformed") from error

    if value == 0:
        raise AmountError(
            f"O valor precisa ser maior que zero: “{raw}”.", text=text, problem="not_positive"
        )
    exponent = value.as_tuple().exponent
    decimals = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    allowed = _DEFAULT_DECIMALS if currency is None else get_currency_precision(currency)
    if decimals > allowed:
        raise AmountError(
            _too_many_decimals(raw, number, allowed, currency),
            text=text,
            problem="too_many_decimals",
        )
    if value >= MAX_AMOUNT:
        raise AmountError(
            f"“{raw}” é grande demais: o valor precisa ser menor que 1 trilhão.",
            text=text,
            problem="too_large",
        )
    return ParsedAmount(value, currency)


def _as_digits(raw: str) -> str:
    """", como 1.000" for "1e3" when it reads as a number; else an example."""
    try:
        value = Decimal(raw.replace(",", "."))
    except ArithmeticError:
        return ", como 1.000"
    if value.is_finite() and 0 < value < MAX_AMOUNT and value == value.to_integral_value():
        return f", como {format_decimal(value, locale=LOCALE)}"
    return ", como 1.000"


def _currency_of(raw: str, before: str, after: str, *, text: str, any_case: bool) -> str | None:
    if before and after:
        raise AmountError(
            f"“{raw}” tem duas moedas; escreva só uma, como R$ 50 ou 50 EUR.",
            text=text,
            problem="unknown_currency",
        )
    written = before or after
    if not written:
        return None
    code = _currency_code(written, any_case=any_case)
    if code is None:
        raise AmountError(
            f"Moeda desconhecida “{written}” em “{raw}”. Use R$, €, US$ ou um código como EUR.",
            text=text,
            problem="unknown_currency",
        )
    return code


def _too_many_decimals(raw: str, number: str, allowed: int, currency: str | None) -> str:
    if allowed == 0:
        return f"“{raw}” tem centavos, mas {currency} não usa casas decimais."
    places = "duas" if allowed == 2 else str(allowed)
    message = f"“{raw}” tem mais de {places} casas decimais; use no máximo {places}"
    message += ", como 37,90." if allowed == 2 else "."
    if _COMMA_AS_THOUSANDS.fullmatch(number) and number.endswith("0"):
        # "1,500" is more likely one thousand five hundred written the American way
        message += f" Se quis dizer milhar, escreva {number.replace(',', '.')}."
    return message


# --------------------------------------------------------------------------- dates

_PERIOD: Final = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})")
_PERIOD_BR: Final = re.compile(r"(?P<month>[0-9]{1,2})/(?P<year>[0-9]{4})")
_ISO_DATE: Final = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})")
_BR_DATE: Final = re.compile(r"(?P<day>[0-9]{1,2})/(?P<month>[0-9]{1,2})/(?P<year>[0-9]{4})")
_DAY: Final = re.compile(r"[0-9]{1,2}")


def parse_period(text: str) -> tuple[int, int]:
    """``"2026-05"`` (also ``"05/2026"``) -> ``(2026, 5)``. Raises ``DateError``."""
    raw = text.strip()
    match = _PERIOD.fullmatch(raw) or _PERIOD_BR.fullmatch(raw)
    if match is None:
        raise DateError(f"“{raw}” não é um mês. Use AAAA-MM, como 2026-05.")
    year, month = int(match["year"]), int(match["month"])
    if not 1 <= month <= 12:
        raise DateError(f"Mês inválido em “{raw}”: o mês vai de 01 a 12, como 2026-05.")
    if not MINYEAR <= year <= MAXYEAR:
        raise DateError(f"Ano inválido em “{raw}”. Use AAAA-MM, como 2026-05.")
    return year, month


def parse_day(text: str) -> int:
    """A day of the month, ``"10"`` -> 10 (1 to 31). Raises ``DateError``."""
    raw = text.strip()
    if _DAY.fullmatch(raw) is None or not 1 <= int(raw) <= 31:
        raise DateError(f"Dia inválido: “{raw}”. Use um dia de 1 a 31.")
    return int(raw)


def parse_iso_date(text: str) -> date:
    """``"2028-06-01"`` or ``"01/06/2028"`` -> ``date(2028, 6, 1)``. Raises ``DateError``."""
    raw = text.strip()
    match = _ISO_DATE.fullmatch(raw) or _BR_DATE.fullmatch(raw)
    if match is None:
        raise DateError(f"“{raw}” não é uma data. Use AAAA-MM-DD ou DD/MM/AAAA, como 2028-06-01.")
    try:
        return date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError as error:
        raise DateError(f"“{raw}” não é uma data que existe.") from error


# --------------------------------------------------------------------------- commands

_UNTIL_WORDS: Final = frozenset({"ate"})  # "até", "Até", "ate" once folded
_DAY_WORD: Final = "dia"


def _has_digit(token: str) -> bool:
    return any("0" <= char <= "9" for char in token)


def _is_currency_token(token: str, *, any_case: bool = False) -> bool:
    return _currency_code(token, any_case=any_case) is not None


def _two_token_amount(first: str, second: str, *, code_after_any_case: bool = False) -> bool:
    """ "R$ 200", "EUR 200", "6000 EUR", "50 reais": a currency written apart from the number."""
    return (_is_currency_token(first) and _has_digit(second)) or (
        _has_digit(first) and _is_currency_token(second, any_case=code_after_any_case)
    )


def _amount_at(
    tokens: Sequence[str], start: int, stop: int, *, code_after_any_case: bool = False
) -> tuple[ParsedAmount, int] | None:
    """The amount that begins at ``tokens[start]`` without reaching ``tokens[stop]``.

    Returns the amount and the index after it, or None when the token is a word ("mercado",
    "24h"). Raises ``AmountError`` when the tokens are clearly meant as an amount but are wrong
    ("37,999", "R$ 0"). ``code_after_any_case`` accepts any ISO code in lower case after the
    number ("6000 chf"), where the command's form has a slot for it.
    """
    if start >= stop:
        return None
    first = tokens[start]
    if start + 1 < stop and _two_token_amount(
        first, tokens[start + 1], code_after_any_case=code_after_any_case
    ):
        pair = f"{first} {tokens[start + 1]}"
        return _parse_amount(pair, any_case=code_after_any_case), start + 2
    if not _has_digit(first):
        return None
    try:
        return _parse_amount(first, any_case=False), start + 1
    except AmountError as error:
        if error.problem in ("not_a_number", "unknown_currency"):
            return None
        raise


def _amount_first(command: str, tokens: Sequence[str], what: str) -> tuple[ParsedAmount, str]:
    """``<valor> <nome…>``: the amount, then a name of one or more words."""
    if not tokens:
        raise CommandUsageError(command)
    try:
        found = _amount_at(tokens, 0, len(tokens))
    except AmountError as error:
        raise CommandUsageError(command, str(error)) from error
    if found is None:
        raise CommandUsageError(command, f"O valor vem primeiro; “{tokens[0]}” não é um valor.")
    amount, end = found
    if end == len(tokens):
        raise CommandUsageError(command, f"Falta {what} depois do valor.")
    return amount, " ".join(tokens[end:])


def _name_then_amount(
    command: str, tokens: Sequence[str], *, code_after_any_case: bool = False
) -> tuple[str, ParsedAmount, Sequence[str]]:
    """``<nome…> <valor> <resto…>``: the name, the first amount after it, and what follows."""
    if not tokens:
        raise CommandUsageError(command)
    try:
        for start in range(1, len(tokens)):
            found = _amount_at(tokens, start, len(tokens), code_after_any_case=code_after_any_case)
            if found is not None:
                amount, end = found
                return " ".join(tokens[:start]), amount, tokens[end:]
        amount_first = _amount_at(tokens, 0, len(tokens))
    except AmountError as error:
        raise CommandUsageError(command, str(error)) from error
    if amount_first is not None:
        raise CommandUsageError(command, "O nome vem antes do valor.")
    raise CommandUsageError(command, "Falta o valor.")


def _unexpected(command: str, rest: Sequence[str]) -> CommandUsageError:
    return CommandUsageError(command, f"Não entendi “{_shown(' '.join(rest))}” depois do valor.")


ECHO_LIMIT: Final = 40  # characters of what was typed that a message repeats


def _shown(text: str) -> str:
    """What was typed, as a message repeats it: long input is cut, not echoed whole."""
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT].rstrip() + "…"


def _looks_like_currency_code(token: str) -> bool:
    """ "XYZ", "Jpy": three letters right after an amount, where a currency would go."""
    return len(token) == 3 and token.isalpha() and token.isascii() and _fold(token) not in _UNTIL_WORDS


def parse_gasto(text: str) -> SpendCommand:
    """``"37,90 mercado"``, ``"R$ 1.500,00 aluguel 2026-05"``, ``"37,90 feira da semana"``."""
    tokens = text.split()
    period: tuple[int, int] | None = None
    if len(tokens) >= 2 and (_PERIOD.fullmatch(tokens[-1]) or _PERIOD_BR.fullmatch(tokens[-1])):
        try:
            period = parse_period(tokens[-1])
        except DateError as error:
            raise CommandUsageError("gasto", str(error)) from error
        tokens = tokens[:-1]
    amount, expense = _amount_first("gasto", tokens, "a despesa")
    return SpendCommand(amount=amount, expense=expense, period=period)


def parse_despesa(text: str) -> ExpenseCommand:
    """``"Aluguel 2.500 dia 10"``, ``"Conta de luz 180 dia 5"``, ``"Netflix R$ 55,90"``."""
    name, expected, rest = _name_then_amount("despesa", text.split())
    billing_day: int | None = None
    if rest:
        if _fold(rest[0]) != _DAY_WORD:
            raise _unexpected("despesa", rest)
        if len(rest) != 2:
            raise CommandUsageError("despesa", "Depois de “dia”, informe só o dia, de 1 a 31.")
        try:
            billing_day = parse_day(rest[1])
        except DateError as error:
            raise CommandUsageError("despesa", str(error)) from error
    return ExpenseCommand(name=name, expected=expected, billing_day=billing_day)


def parse_ajuste(text: str) -> AdjustCommand:
    """``"mercado 1.800"``, ``"conta de luz R$ 200"``: the name, then the amount last."""
    tokens = text.split()
    if len(tokens) < 2:
        if not tokens:
            raise CommandUsageError("ajuste")
        missing = "o nome da despesa antes do valor" if _has_digit(tokens[0]) else "o valor"
        raise CommandUsageError("ajuste", f"Falta {missing}.")
    written_apart = len(tokens) >= 3 and _two_token_amount(tokens[-2], tokens[-1])
    amount_tokens = tokens[-2:] if written_apart else tokens[-1:]
    name = " ".join(tokens[: len(tokens) - len(amount_tokens)])
    try:
        amount = _parse_amount(" ".join(amount_tokens), any_case=False)
    except AmountError as error:
        reason = str(error) if _has_digit(amount_tokens[-1]) else (
            f"“{_shown(amount_tokens[-1])}” não é um valor. O novo valor vem por último, "
            "como /ajuste mercado 1.800.")
        raise CommandUsageError("ajuste", reason) from error
    return AdjustCommand(expense=name, new_expected=amount)


def parse_aporte(text: str) -> ContributionCommand:
    """``"500 Amsterdam"``, ``"R$ 500 Lua de mel"``, ``"€200 viagem"``."""
    amount, goal = _amount_first("aporte", text.split(), "a meta")
    return ContributionCommand(amount=amount, goal=goal)


def parse_meta(text: str) -> GoalCommand:
    """``"Lua de mel 6000 EUR até 2028-06-01"``, ``"Reserva 20.000"``, ``"Viagem €6000"``."""
    name, target, rest = _name_then_amount("meta", text.split(), code_after_any_case=True)
    deadline: date | None = None
    if rest:
        if _looks_like_currency_code(rest[0]) and (
                rest[0].isupper() or len(rest) == 1 or _fold(rest[1]) in _UNTIL_WORDS):
            raise CommandUsageError(
                "meta", f"“{_shown(rest[0])}” não é uma moeda que eu conheça. Use um código ISO, "
                "como BRL, EUR ou USD.")
        if _fold(rest[0]) not in _UNTIL_WORDS:
            raise _unexpected("meta", rest)
        if len(rest) != 2:
            raise CommandUsageError("meta", "Depois de “até”, informe só a data, como 2028-06-01.")
        try:
            deadline = parse_iso_date(rest[1])
        except DateError as error:
            raise CommandUsageError("meta", str(error)) from error
    return GoalCommand(name=name, target=target, deadline=deadline)


_MONTH_NAMES: Final = MappingProxyType({
    name: number for number, names in enumerate((
        ("janeiro", "jan"), ("fevereiro", "fev"), ("marco", "mar"), ("abril", "abr"),
        ("maio", "mai"), ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"),
        ("setembro", "set"), ("outubro", "out"), ("novembro", "nov"), ("dezembro", "dez")), start=1)
    for name in names})


def parse_resumo(text: str, today: date | None = None) -> tuple[int, int] | None:
    """``""`` -> None (the current month); ``"2026-05"`` -> ``(2026, 5)``; with `today`, also a
    month's name: ``"dezembro"`` (the last December up to this month), ``"dezembro de 2025"``."""
    tokens = text.split()
    if not tokens:
        return None
    named = _named_month(tokens, today) if today is not None else None
    if named is not None:
        return named
    if len(tokens) > 1:
        raise CommandUsageError("resumo")
    try:
        return parse_period(tokens[0])
    except DateError as error:
        raise CommandUsageError("resumo", str(error)) from error


def _named_month(tokens: Sequence[str], today: date) -> tuple[int, int] | None:
    month = _MONTH_NAMES.get(_fold(tokens[0]).rstrip("."))
    if month is None:
        return None
    rest = [t for t in tokens[1:] if _fold(t) != "de"]
    if not rest:
        return (today.year, month) if month <= today.month else (today.year - 1, month)
    if len(rest) == 1 and re.fullmatch(r"[0-9]{4}", rest[0]) and MINYEAR <= int(rest[0]) <= MAXYEAR:
        return int(rest[0]), month
    raise CommandUsageError("resumo", f"Não entendi o ano em “{_shown(' '.join(tokens))}”; "
                                      "escreva, por exemplo, dezembro de 2025 ou 2025-12.")

# --------------------------------------------------------------------------- tool calls

ToolCallArgs = tuple[str, dict[str, Any]]
WriteParser = Callable[[str, date, str], ToolCallArgs]



class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


SENDER: Any = _Marker("SENDER")  # filled with the sender's member name
EVERY_MEMBER: Any = _Marker("EVERY_MEMBER")  # /meta: every member of the household contributes


def _money(parsed: ParsedAmount, currency: str) -> dict[str, Any]:
    return {"amount": parsed.amount, "currency": parsed.currency or currency}


def _period(value: tuple[int, int] | None, today: date) -> str:
    return str(Period(*value)) if value else str(Period.of(today))


def gasto(text: str, today: date, currency: str) -> ToolCallArgs:
    spend = parse_gasto(text)
    return RecordSpendTool.name, {"expense": spend.expense, "period": _period(spend.period, today),
                           "amount": _money(spend.amount, currency)}


def despesa(text: str, today: date, currency: str) -> ToolCallArgs:
    expense = parse_despesa(text)
    return RegisterExpenseTool.name, {"name": expense.name, "expected": _money(expense.expected, currency),
                               "billingDay": expense.billing_day}


def ajuste(text: str, today: date, currency: str) -> ToolCallArgs:
    adjust = parse_ajuste(text)
    return AdjustExpenseTool.name, {"expense": adjust.expense,
                             "newExpected": _money(adjust.new_expected, currency)}


def aporte(text: str, today: date, currency: str) -> ToolCallArgs:
    contribution = parse_aporte(text)
    return ContributeToGoalTool.name, {"goal": contribution.goal, "paidBy": SENDER,
                                "amount": _money(contribution.amount, currency),
                                "date": today.isoformat()}


def meta(text: str, today: date, currency: str) -> ToolCallArgs:
    goal = parse_meta(text)
    return CreateGoalTool.name, {"name": goal.name, "target": _money(goal.target, currency),
                          "contributors": EVERY_MEMBER,
                          "deadline": goal.deadline.isoformat() if goal.deadline else None}


def renomear(text: str, today: date, currency: str) -> ToolCallArgs:
    """`/renomear mercado para Feira`: the last " para " splits the old name from the new."""
    old, separator, new = text.rpartition(" para ")
    if not separator or not old.strip() or not new.strip():
        raise CommandUsageError("renomear")
    return RenameTool.name, {"name": old.strip(), "newName": new.strip()}


def arquivar(text: str, today: date, currency: str) -> ToolCallArgs:
    if not text.strip():
        raise CommandUsageError("arquivar")
    return ArchiveTool.name, {"name": text.strip()}


def resumo_period(text: str, today: date | None = None) -> Period | None:
    """`/resumo`'s month: none (this month), AAAA-MM, or a month's name given `today`."""
    value = parse_resumo(text, today)
    return Period(*value) if value else None


PARSERS: Final[Mapping[str, WriteParser]] = MappingProxyType({
    "gasto": gasto, "despesa": despesa, "ajuste": ajuste, "aporte": aporte, "meta": meta,
    "renomear": renomear, "arquivar": arquivar})


def write_parser(name: str) -> WriteParser:
    """How write command `name` reads its arguments into a tool call (KeyError: no such command)."""
    return PARSERS[named(name).name]
