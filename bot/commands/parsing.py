"""Reading the arguments of the commands that need no language model (contract, section 6); their
tool calls, the same the agent would make, are built from these in bot/commands/calls.py.

This module does only each command's token work: where the amount, the name, the month, "dia" and
"até" are. Every amount, month, day and date is read by domain.reading, the one reader the model's
tool arguments go through too, so "/gasto 1,5k mercado" and "gastei 1,5k no mercado" mean the
same: ``200``, ``37,90``, ``37.90``, ``1.500``, ``R$ 1.500,00``, ``€6000``, ``6.000 eur``,
``50 reais``, ``2 mil``, ``1,5k``, ``R$1k``. Everything returned is plain data (``Amount``, ``str``,
``date`` and small frozen dataclasses): turning it into domain objects is the caller's job. Every
error's ``str()`` is a pt-BR sentence for the person who typed it and names the bad input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Final

from bot.commands.catalog import named
from domain.errors import InvalidAmount, InvalidDate, InvalidPeriod
from domain.money import Period
from domain.reading import Amount, currency_of, is_multiplier, read_amount, read_date, read_day, read_period
from domain.text import fold

# --------------------------------------------------------------------------- errors


class ParseError(ValueError):
    """Something a person typed could not be read; ``str()`` is a pt-BR message for them."""


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
class CardWords:
    """``no Nubank``: a card as written after /gasto's expense. The words may also end the expense's
    own name ("lanche na escola"); the write path decides, knowing the household's cards."""

    preposition: str
    name: str


@dataclass(frozen=True)
class SpendCommand:
    """``/gasto <valor> <despesa> [AAAA-MM] [por <membro>] [pessoal] [no <cartão>] [em <N>x]``;
    ``period`` is (year, month) or None; ``paid_by`` the member named after "por" (None: the
    sender); ``card`` the words after "no"/"na"; ``installments`` the N of "em Nx"."""

    amount: Amount
    expense: str
    period: tuple[int, int] | None
    paid_by: str | None = None
    personal: bool = False
    card: CardWords | None = None
    installments: int | None = None


@dataclass(frozen=True)
class ExpenseCommand:
    """``/despesa <nome> <valor> [dia <1-31>]``."""

    name: str
    expected: Amount
    billing_day: int | None


@dataclass(frozen=True)
class AdjustCommand:
    """``/ajuste <despesa> <valor>``."""

    expense: str
    new_expected: Amount


@dataclass(frozen=True)
class ContributionCommand:
    """``/aporte <valor> <meta>``."""

    amount: Amount
    goal: str


@dataclass(frozen=True)
class GoalCommand:
    """``/meta <nome> <valor> [moeda] [até AAAA-MM-DD]``."""

    name: str
    target: Amount
    deadline: date | None


# --------------------------------------------------------------------------- where the amount is

_UNTIL_WORDS: Final = frozenset({"ate"})  # "até", "Até", "ate" once folded
_BY_WORD: Final = "por"  # /gasto … por Bruno
_PERSONAL_WORD: Final = "pessoal"  # /gasto … pessoal
_CARD_WORDS: Final = frozenset({"no", "na"})  # /gasto … no Nubank
_TIMES: Final = re.compile(r"([0-9]{1,3})\s*x", re.IGNORECASE)  # /gasto … em 10x
_TIMES_WORD: Final = "vezes"  # /gasto … em 10 vezes
_PERCENT: Final = re.compile(r"[0-9]+(?:[.,][0-9]+)?\s*%?")
_DAY_WORD: Final = "dia"
_MONTH_TOKEN: Final = re.compile(r"[0-9]{4}-[0-9]{1,2}|[0-9]{1,2}/[0-9]{4}")
"""A month at the end of /gasto: ``2026-05``, ``05/2026`` (domain.reading reads it)."""
_WORDS_WITH_DIGITS: Final = frozenset({"not_a_number", "unknown_currency"})
"""Why a lone token with digits is a word of a name ("24h", "4g"), not a wrong amount."""


def _has_digit(token: str) -> bool:
    return any("0" <= char <= "9" for char in token)


def _is_currency(token: str, *, lower_codes: bool = False) -> bool:
    return currency_of(token, lower_codes=lower_codes) is not None


def _is_multiplier(token: str) -> bool:
    """ "mil", "k", "milhão" written apart from the number ("2 mil"). Not "mi": apart, it is
    more likely a word of a name than millions."""
    return is_multiplier(token) and fold(token) != "mi"


def _amount_span(
    tokens: Sequence[str], start: int, stop: int, *, lower_codes: bool = False
) -> int | None:
    """Where an amount that begins at ``tokens[start]`` ends (before ``stop``), or None when
    ``tokens[start]`` cannot begin one: an optional currency written apart ("R$ 200"), the token
    with the number, an optional multiplier ("2 mil") and, when none came before, an optional
    currency after ("6000 EUR", "50 reais", "2 mil reais"). ``lower_codes`` accepts any ISO code
    in lower case after the number ("6000 chf"), where the command's form has a slot for it."""
    index = start
    currency_first = index + 1 < stop and _is_currency(tokens[index]) and _has_digit(tokens[index + 1])
    if currency_first:
        index += 1
    if index >= stop or not _has_digit(tokens[index]):
        return None
    index += 1
    if index < stop and _is_multiplier(tokens[index]):
        index += 1
    if not currency_first and index < stop and _is_currency(tokens[index], lower_codes=lower_codes):
        index += 1
    return index


def _read(tokens: Sequence[str], *, lower_codes: bool = False) -> Amount:
    return read_amount(" ".join(tokens), positive=True, lower_codes=lower_codes)


def _amount_at(
    tokens: Sequence[str], start: int, stop: int, *, lower_codes: bool = False
) -> tuple[Amount, int] | None:
    """The amount that begins at ``tokens[start]`` without reaching ``tokens[stop]``.

    Returns the amount and the index after it, or None when the token is a word ("mercado",
    "24h"). Raises ``InvalidAmount`` when the tokens are clearly meant as an amount but are wrong
    ("37,999", "R$ 0").
    """
    end = _amount_span(tokens, start, stop, lower_codes=lower_codes)
    if end is None:
        return None
    try:
        return _read(tokens[start:end], lower_codes=lower_codes), end
    except InvalidAmount as error:
        if end - start == 1 and error.problem in _WORDS_WITH_DIGITS:
            return None
        raise


def _amount_first(command: str, tokens: Sequence[str], what: str) -> tuple[Amount, str]:
    """``<valor> <nome…>``: the amount, then a name of one or more words."""
    if not tokens:
        raise CommandUsageError(command)
    try:
        found = _amount_at(tokens, 0, len(tokens))
    except InvalidAmount as error:
        raise CommandUsageError(command, str(error)) from error
    if found is None:
        raise CommandUsageError(command, f"O valor vem primeiro; “{_shown(tokens[0])}” não é um valor.")
    amount, end = found
    if end == len(tokens):
        raise CommandUsageError(command, f"Falta {what} depois do valor.")
    return amount, " ".join(tokens[end:])


def _name_then_amount(
    command: str, tokens: Sequence[str], *, lower_codes: bool = False
) -> tuple[str, Amount, Sequence[str]]:
    """``<nome…> <valor> <resto…>``: the name, the first amount after it, and what follows."""
    if not tokens:
        raise CommandUsageError(command)
    try:
        for start in range(1, len(tokens)):
            found = _amount_at(tokens, start, len(tokens), lower_codes=lower_codes)
            if found is not None:
                amount, end = found
                return " ".join(tokens[:start]), amount, tokens[end:]
        amount_first = _amount_at(tokens, 0, len(tokens))
    except InvalidAmount as error:
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
    return len(token) == 3 and token.isalpha() and token.isascii() and fold(token) not in _UNTIL_WORDS


def _year_month(period: str) -> tuple[int, int]:
    month = Period.parse(period)
    return month.year, month.month


# --------------------------------------------------------------------------- commands


def _trailing_month(tokens: Sequence[str], today: date | None) -> tuple[tuple[int, int], int] | None:
    """A month at the end of /gasto, as every command reads months (domain.reading): ``2026-05``,
    ``05/2026``, a month's full name with or without its year (``março``, ``janeiro de 2025``) or
    ``mês passado``, optionally after ``em``; with where it begins. Abbreviations ("mar", "set",
    "dez") are left to the name: at the end of a spend they are more likely words than months."""
    for size in range(min(_LONGEST_MONTH, len(tokens) - 2), 0, -1):
        words = tokens[len(tokens) - size:]
        if fold(words[0]) == "em" and size > 1:
            words = words[1:]
        written = " ".join(words)
        folded = fold(written)
        if not (_NAMED_MONTH_TEXT.fullmatch(folded) or folded in _RELATIVE_MONTHS):
            continue
        try:
            return _year_month(read_period(written, today)), len(tokens) - size
        except InvalidPeriod:
            continue
    return None


_LONGEST_MONTH: Final = 4  # "em janeiro de 2025"
_NAMED_MONTH_TEXT: Final = re.compile(
    r"(janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro)"
    r"(\s+(de\s+)?[0-9]{4})?")
_RELATIVE_MONTHS: Final = frozenset({"mes passado", "este mes", "esse mes", "mes que vem", "proximo mes",
                                     "ultimo mes", "mes anterior"})


def parse_gasto(text: str, today: date | None = None) -> SpendCommand:
    """``"37,90 mercado"``, ``"R$ 1.500,00 aluguel 2026-05"``, ``"2 mil aluguel"``, ``"R$1k mercado"``,
    ``"120 luz por Bruno"``, ``"80 farmácia pessoal"``, ``"50 mercado 2026-05 pessoal por Ana"``,
    ``"1.000 geladeira no Nubank em 10x"``, ``"300 farmácia em 3x na Visa"``: after the expense, in
    any order, a month, "por <membro>", "pessoal", "no|na <cartão>" and "em <N>x"; with `today`,
    the month may also be a month's full name (``"120 luz março"``) or ``"mês passado"``."""
    tokens = text.split()
    period: tuple[int, int] | None = None
    paid_by: str | None = None
    personal = False
    card: CardWords | None = None
    installments: int | None = None
    if len(tokens) == 2 and _MONTH_TOKEN.fullmatch(tokens[-1]):
        tokens = tokens[:-1]  # "/gasto 10 2026-05": the expense is what is missing
    while len(tokens) > 2:
        last = fold(tokens[-1])
        by = _last_phrase(tokens, {_BY_WORD})
        on_card = _last_phrase(tokens, _CARD_WORDS)
        times = _trailing_times(tokens)
        if last == _PERSONAL_WORD and not personal:
            personal, tokens = True, tokens[:-1]
        elif installments is None and times is not None:
            installments, tokens = times[0], tokens[:times[1]]
        elif period is None and _MONTH_TOKEN.fullmatch(tokens[-1]):
            try:
                period = _year_month(read_period(tokens[-1]))
            except InvalidPeriod as error:
                raise CommandUsageError("gasto", str(error)) from error
            tokens = tokens[:-1]
        elif period is None and (named := _trailing_month(tokens, today)) is not None:
            period, end = named
            tokens = tokens[:end]
        elif by is not None and paid_by is None:
            paid_by, tokens = " ".join(tokens[by + 1:]), tokens[:by]
        elif on_card is not None and card is None:
            card, tokens = CardWords(fold(tokens[on_card]), " ".join(tokens[on_card + 1:])), tokens[:on_card]
        else:
            break
    amount, expense = _amount_first("gasto", tokens, "a despesa")
    return SpendCommand(amount=amount, expense=expense, period=period, paid_by=paid_by, personal=personal,
                        card=card, installments=installments)


def _trailing_times(tokens: Sequence[str]) -> tuple[int, int] | None:
    """``em 10x``, ``10x``, ``em 10 vezes`` at the end: the N, and where the words begin."""
    count: str | None = None
    start = len(tokens) - 1
    if (match := _TIMES.fullmatch(tokens[-1])) is not None:
        count = match.group(1)
    elif fold(tokens[-1]) == _TIMES_WORD and len(tokens) > 3 and tokens[-2].isdigit():
        count, start = tokens[-2], len(tokens) - 2
    if count is None:
        return None
    if start > 2 and fold(tokens[start - 1]) == "em":
        start -= 1
    if start < 2:
        return None  # the amount and the expense come first
    return int(count), start


def _last_phrase(tokens: Sequence[str], words: frozenset[str] | set[str]) -> int | None:
    """Where the last of `words` ("por", "no"/"na") is that leaves an amount and an expense before
    it and a name after it, with nothing after the name another rule peels off first."""
    for index in range(len(tokens) - 2, 1, -1):
        if fold(tokens[index]) in words:
            rest = tokens[index + 1:]
            folded = [fold(t) for t in rest]
            if (_PERSONAL_WORD in folded or _BY_WORD in folded or _CARD_WORDS & set(folded)
                    or any(_MONTH_TOKEN.fullmatch(t) for t in rest) or _trailing_times(tokens) is not None):
                return None  # peel those off first
            return index
    return None


def parse_despesa(text: str) -> ExpenseCommand:
    """``"Aluguel 2.500 dia 10"``, ``"Conta de luz 180 dia 5"``, ``"Academia R$1k dia 10"``."""
    name, expected, rest = _name_then_amount("despesa", text.split())
    billing_day: int | None = None
    if rest:
        if fold(rest[0]) != _DAY_WORD:
            raise _unexpected("despesa", rest)
        if len(rest) != 2:
            raise CommandUsageError("despesa", "Depois de “dia”, informe só o dia, de 1 a 31.")
        try:
            billing_day = read_day(rest[1])
        except InvalidDate as error:
            raise CommandUsageError("despesa", str(error)) from error
    return ExpenseCommand(name=name, expected=expected, billing_day=billing_day)


def parse_ajuste(text: str) -> AdjustCommand:
    """``"mercado 1.800"``, ``"conta de luz R$ 200"``, ``"mercado 2 mil"``: the name, then the
    amount last."""
    tokens = text.split()
    if len(tokens) < 2:
        if not tokens:
            raise CommandUsageError("ajuste")
        missing = "o nome da despesa antes do valor" if _has_digit(tokens[0]) else "o valor"
        raise CommandUsageError("ajuste", f"Falta {missing}.")
    count = len(tokens)
    if _amount_span(tokens, 0, count) == count:
        raise CommandUsageError("ajuste", "Falta o nome da despesa antes do valor.")
    # the longest amount that ends the text, leaving a name before it
    start = next((s for s in range(max(1, count - 3), count) if _amount_span(tokens, s, count) == count),
                 None)
    if start is None:
        raise CommandUsageError("ajuste", f"“{_shown(tokens[-1])}” não é um valor. O novo valor vem "
                                          "por último, como /ajuste mercado 1.800.")
    try:
        amount = _read(tokens[start:])
    except InvalidAmount as error:
        raise CommandUsageError("ajuste", str(error)) from error
    return AdjustCommand(expense=" ".join(tokens[:start]), new_expected=amount)


def parse_aporte(text: str) -> ContributionCommand:
    """``"500 Amsterdam"``, ``"R$ 500 Lua de mel"``, ``"€200 viagem"``, ``"1k viagem"``."""
    amount, goal = _amount_first("aporte", text.split(), "a meta")
    return ContributionCommand(amount=amount, goal=goal)


def parse_meta(text: str) -> GoalCommand:
    """``"Lua de mel 6000 EUR até 2028-06-01"``, ``"Reserva 20.000"``, ``"Viagem 25 mil euros"``."""
    name, target, rest = _name_then_amount("meta", text.split(), lower_codes=True)
    deadline: date | None = None
    if rest:
        if _looks_like_currency_code(rest[0]) and (
                rest[0].isupper() or len(rest) == 1 or fold(rest[1]) in _UNTIL_WORDS):
            raise CommandUsageError(
                "meta", f"“{_shown(rest[0])}” não é uma moeda que eu conheça. Use um código ISO, "
                "como BRL, EUR ou USD.")
        if fold(rest[0]) not in _UNTIL_WORDS:
            raise _unexpected("meta", rest)
        if len(rest) != 2:
            raise CommandUsageError("meta", "Depois de “até”, informe só a data, como 2028-06-01.")
        try:
            deadline = read_date(rest[1], "Prazo")
        except InvalidDate as error:
            raise CommandUsageError("meta", str(error)) from error
    return GoalCommand(name=name, target=target, deadline=deadline)


def parse_renda(text: str) -> Amount:
    """``"7.000"``, ``"R$ 7 mil"``: the sender's own monthly income."""
    tokens = text.split()
    if not tokens:
        raise CommandUsageError("renda")
    try:
        return _read(tokens)
    except InvalidAmount as error:
        raise CommandUsageError("renda", str(error)) from error


@dataclass(frozen=True)
class SplitCommand:
    """``/divisao igual | renda | <membro> <p> <membro> <p>``: the kind, and the percentages by name."""

    kind: str
    percents: tuple[tuple[str, str], ...] = ()


def parse_divisao(text: str) -> SplitCommand:
    """``"igual"``, ``"renda"``, ``"Ana 60 Bruno 40"``, ``"Ana Paula 55,5% Bruno 44,5%"``."""
    words = fold(text)
    if words in ("igual", "iguais", "meio a meio"):
        return SplitCommand("equal")
    if words in ("renda", "pela renda", "proporcional"):
        return SplitCommand("income")
    percents: list[tuple[str, str]] = []
    name: list[str] = []
    for token in text.split():
        if _PERCENT.fullmatch(token) and name:
            percents.append((" ".join(name), token.rstrip("%").strip().replace(",", ".")))
            name = []
        elif token == "%" and percents and not name:
            continue
        else:
            name.append(token)
    if name or len(percents) < 1:
        raise CommandUsageError("divisao", "Diga cada membro seguido da sua porcentagem, ou igual, ou renda.")
    return SplitCommand("fixed", tuple(percents))


def parse_resumo(text: str, today: date | None = None) -> tuple[int, int] | None:
    """``""`` -> None (the current month); ``"2026-05"``, ``"05/2026"``, ``"maio de 2026"`` ->
    ``(2026, 5)``; with `today`, also ``"dezembro"`` (the last December up to this month) and
    ``"mês passado"`` (domain.reading.read_period)."""
    if not text.split():
        return None
    try:
        return _year_month(read_period(text, today))
    except InvalidPeriod as error:
        raise CommandUsageError("resumo", str(error)) from error


@dataclass(frozen=True)
class CardCommand:
    """``/cartao <nome> fecha <dia> vence <dia>``."""

    name: str
    closing_day: int
    due_day: int


def parse_cartao(text: str) -> CardCommand:
    """``"Nubank fecha 3 vence 10"``, ``"Itaú Visa vence 5 fecha 28"``: the name, then both days."""
    tokens = text.split()
    pairs = [(fold(tokens[i]), tokens[i + 1]) for i in range(max(0, len(tokens) - 4), len(tokens) - 1, 2)]
    days: dict[str, int] = {}
    for word, day in pairs if len(tokens) >= 5 else ():
        if word not in _CARD_DAYS or word in days:
            break
        try:
            days[word] = read_day(day)
        except InvalidDate as error:
            raise CommandUsageError("cartao", str(error)) from error
    if len(days) < 2:
        missing = [wanted for word, wanted in _CARD_DAYS.items() if word not in days]
        raise CommandUsageError("cartao", f"Falta {' e '.join(missing)}, depois do nome.")
    return CardCommand(" ".join(tokens[:-4]), days["fecha"], days["vence"])


_CARD_DAYS: Final = {"fecha": "o dia em que fecha (fecha <dia>)", "vence": "o dia em que vence (vence <dia>)"}


def parse_acerto(text: str) -> Amount | None:
    """``""`` (the whole debt) or ``"50"``, ``"R$ 50,00"``: the amount of an acerto."""
    if not text.split():
        return None
    try:
        return _read(text.split())
    except InvalidAmount as error:
        raise CommandUsageError("acerto", str(error)) from error


FATURA_MONTHS_BACK: Final = 5  # a month named without a year is the nearest one: 5 back to 6 ahead
_YEAR: Final = re.compile(r"[0-9]{4}")


def parse_fatura(text: str, today: date | None = None) -> tuple[str, Period | None]:
    """``"Nubank"``, ``"Nubank 2026-07"``, ``"cartão da Ana julho"``: the card, and the month its
    fatura closes (None: the one open today)."""
    tokens = text.split()
    if not tokens:
        raise CommandUsageError("fatura", "Diga de qual cartão.")
    if len(tokens) > 1 and _MONTH_TOKEN.fullmatch(tokens[-1]):
        try:
            return " ".join(tokens[:-1]), Period(*_year_month(read_period(tokens[-1])))
        except InvalidPeriod as error:
            raise CommandUsageError("fatura", str(error)) from error
    # _trailing_month leaves two words before a month (/gasto's amount and expense); here one.
    named = _trailing_month(["", *tokens], today)
    if named is not None:
        month = Period(*named[0])
        if today is not None and not _YEAR.search(" ".join(tokens[named[1] - 1:])) \
                and month < Period.of(today).plus(-FATURA_MONTHS_BACK):
            month = month.plus(12)  # "julho" in June is the coming July's fatura, not last year's
        return " ".join(tokens[:named[1] - 1]), month
    return " ".join(tokens), None


def resumo_period(text: str, today: date | None = None) -> Period | None:
    """`/resumo`'s month: none (this month), or any month domain.reading.read_period reads."""
    value = parse_resumo(text, today)
    return Period(*value) if value else None
