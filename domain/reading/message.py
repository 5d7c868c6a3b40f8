"""What a whole message says, read with the same readers as a command or a tool argument: every
amount in it (with its currency when one is written), every day and month, every currency named,
and the numbers that are neither (a "3x", a "12%", a year alone).

The free-text reader (domain/agent/reader.py) proposes a spend only when this finds exactly one
amount; the grounding of the model's arguments (domain/tools/grounding.py) checks that an amount
the model sends was written by the member, and takes the currency and the month from their words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Final

from domain.errors import DomainError
from domain.money import Period
from domain.reading.amounts import Amount, currency_of, is_multiplier, read_amount
from domain.reading.calendar import RELATIVE_MONTHS, day_named, read_date, read_period
from domain.reading.spelled import SCALES, is_number_word, spelled_at
from domain.text import fold

SLANG: Final = {"conto": "BRL", "contos": "BRL", "pila": "BRL", "pilas": "BRL", "reau": "BRL"}
"""How Brazilians also say reais ("350 conto")."""

_EDGE: Final = "\"'“”‘’()[]{}<>!?…,.;:*_~"
_TOKEN: Final = re.compile(r"\S+")
_DIGIT: Final = re.compile(r"[0-9]")
_NOT_MONEY: Final = re.compile(
    r"[0-9]+x|[0-9]+(?:[.,][0-9]+)?%|[0-9]{1,2}h(?:[0-9]{2})?|[0-9]{1,2}:[0-9]{2}|[0-9]+[ºª°]|"
    r"[0-9]+(?:a|o|os|as)", re.IGNORECASE)
# Units a number counts that are no money: time, distance, weight, volume, heat (folded).
# Plurals only: "paguei 150 dia 5", "100 mês passado" are money and a day.
_MEASURES: Final = frozenset({"anos", "meses", "semanas", "dias", "horas", "minutos", "km", "quilometros", "metros",
                              "kg", "quilos", "litros", "graus"})
_MONTH_NAMES: Final = ("janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto",
                       "setembro", "outubro", "novembro", "dezembro")
_PER: Final = re.compile(r"(?P<amount>[^/]*[0-9][^/]*)/(?P<per>[^\W\d_]+)")
# Euros as Portugal writes them, the symbol for the decimal comma: "9€99" is €9,99.
_EURO_CENTS: Final = re.compile(r"(?P<whole>[0-9]+)€(?P<cents>[0-9]{2})")
# A name and an amount typed with no space between ("spotify21,90"): two words. A name of four
# letters or more, so "C6", "ps5" or "3x" stay whole.
_GLUED: Final = re.compile(r"(?P<name>[^\W\d_]{4,})(?P<amount>[0-9]+(?:[.,][0-9]+)*)")
_LONGEST: Final = 6  # tokens of the longest day or month phrase ("segunda da semana passada")
_SPELLED_ALONE: Final = 10  # a number word alone is money from ten on ("cem"), not "um" or "dois"


@dataclass(frozen=True)
class Token:
    text: str   # without the punctuation around it
    start: int  # where it begins in the message
    end: int


@dataclass(frozen=True)
class Found:
    """An amount in the message, over tokens `first` to `last` (inclusive)."""

    amount: Amount
    first: int
    last: int
    spelled: bool = False

    @property
    def value(self) -> Decimal:
        return self.amount.amount


@dataclass(frozen=True)
class When:
    """A day or a month the message names, over tokens `first` to `last`: `day` when a day is
    named ("ontem"), otherwise only `month` ("mês passado", "em outubro")."""

    month: Period
    first: int
    last: int
    day: date | None = None


@dataclass(frozen=True)
class Scan:
    text: str
    tokens: tuple[Token, ...]
    amounts: tuple[Found, ...] = ()
    whens: tuple[When, ...] = ()
    currencies: frozenset[str] = frozenset()
    # Tokens with digits that are neither an amount nor a day or month ("3x", "12%", "2028").
    strays: tuple[int, ...] = ()
    words: tuple[str, ...] = field(default=())  # every token folded, in order

    def covered(self) -> set[int]:
        """The tokens an amount or a day or month takes."""
        taken: set[int] = set()
        for found in self.amounts:
            taken.update(range(found.first, found.last + 1))
        for when in self.whens:
            taken.update(range(when.first, when.last + 1))
        return taken

    def has_amount(self, value: Decimal) -> bool:
        return any(found.value == value for found in self.amounts)

    def approximate(self, found: Found) -> bool:
        """Whether `found` is written as a guess: "uns 80", "cerca de 80", "80 e pouco", "80 ou 90",
        "mais ou menos 80"; or a round amount in a message unsure of itself ("80, se não me engano",
        "80, não lembro direito": "37,90, se não me engano" is exact). "umas frutas, 30" and "acho
        que paguei 180" (whether, not how much) are no guess."""
        before = self.words[max(0, found.first - 3):found.first]
        if before and before[-1] in ("r$", "reais", "de"):
            before = before[:-1]  # "uns R$ 80", "cerca de 80"
        after = self.words[found.last + 1:found.last + 4]
        guessed = bool(before) and before[-1] in _GUESS_BEFORE and (before[-1] != "volta" or before[-2:-1] == ("por",))
        return guessed or tuple(before[-3:]) == ("mais", "ou", "menos") \
            or tuple(after[:2]) in _GUESS_AFTER or (tuple(after[:1]) == ("ou",) and any(
                a.first == found.last + 2 for a in self.amounts)) or (_round(found) and (
                    bool(set(self.words) & _NOT_SURE) or any(
                        tuple(self.words[i:i + len(phrase)]) == phrase and not self._states(i + len(phrase), found)
                        for phrase in _NOT_RECALLED for i in range(len(self.words)))))

    def _states(self, after: int, found: Found) -> bool:
        """Whether the words from `after` say the amount is `found`: "o valor certo é 205"."""
        return tuple(self.words[after:after + 1]) in (("e",), ("era",), ("foi",)) and found.first == after + 1

    def months(self) -> set[Period]:
        return {when.month for when in self.whens}

    def days(self) -> set[date]:
        return {when.day for when in self.whens if when.day is not None}


_YEAR_WRITTEN: Final = re.compile(r"[0-9]{4}")


def _round(found: Found) -> bool:
    """Written with no cents ("80", not "80,00" or "79,90")."""
    exponent = found.value.as_tuple().exponent
    return isinstance(exponent, int) and exponent >= 0
# Words that make an amount a guess, right before it ("uns 80", "cerca de 80"), right after it
# ("80 e pouco", "80 mais ou menos"), or anywhere ("não lembro direito", "se não me engano"). Folded.
_GUESS_BEFORE: Final = frozenset({"uns", "umas", "cerca", "aproximadamente", "aprox", "quase", "tipo", "volta",
                                  "talvez", "ou"})
_GUESS_AFTER: Final = frozenset({("e", "pouco"), ("e", "poucos"), ("e", "pouquinho"), ("e", "tanto"),
                                 ("mais", "ou"), ("por", "ai")})
_NOT_SURE: Final = frozenset({"engano", "chute", "chutando", "aproximado", "aproximadamente"})
_NOT_RECALLED: Final = (("lembro", "direito"), ("lembro", "bem"), ("lembro", "exato"), ("lembro", "o", "valor"),
                        ("sei", "o", "valor"), ("valor", "certo"), ("valor", "exato"))


def deadline(said: Scan, today: date) -> date | None:
    """The day ahead a message's one day or month sets ("até 31/12/2027", "até 31/12": the next
    31/12, "pra junho de 2028" and "até março": the first of that month, as the seed's goal does);
    None when it names no such time, or several, or one that is past (a year written behind
    today), or the month it is ("até junho" in June: this one or the next?)."""
    if len(said.whens) != 1:
        return None
    when = said.whens[0]
    year_written = any(_YEAR_WRITTEN.search(token.text) for token in said.tokens[when.first:when.last + 1])
    this_month = Period.of(today)
    if when.day is not None:
        if when.day > today:
            return when.day
        if year_written:
            return None
        try:
            day = when.day.replace(year=today.year)
            return day if day > today else when.day.replace(year=today.year + 1)
        except ValueError:  # 29/02 in a year without it
            return None
    month = when.month
    if month <= this_month:
        if year_written or month == this_month:
            return None
        month = month.plus(12)  # "até março" in June: next March
    return date(month.year, month.month, 1)


def tokens_of(text: str) -> tuple[Token, ...]:
    """The message's words, each without the punctuation around it ("hj," -> "hj"; "1.234,56" and
    "R$1k" stay whole)."""
    found: list[Token] = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        start, end = match.start(), match.end()
        while word and word[0] in _EDGE and not (word[0] in ".," and len(word) > 1 and word[1].isdigit()):
            word, start = word[1:], start + 1
        while word and (word[-1] in _EDGE or not (word[-1].isalnum() or word[-1] in "$€£%ºª°")):
            word, end = word[:-1], end - 1
        if not word:
            continue
        split = _PER.fullmatch(word)  # "380/mês": an amount, then what it is per
        glued = _GLUED.fullmatch(word)  # "continente23,45": a name, then its amount
        if split:
            cut = start + len(split["amount"])
            found.append(Token(split["amount"], start, cut))
            found.append(Token(split["per"], cut + 1, end))
        elif glued:
            cut = start + len(glued["name"])
            found.append(Token(glued["name"], start, cut))
            found.append(Token(glued["amount"], cut, end))
        elif euros := _EURO_CENTS.fullmatch(word):
            found.append(Token(f"€{euros['whole']},{euros['cents']}", start, end))
        else:
            found.append(Token(word, start, end))
    return tuple(found)


# A chat's shorthand for a word the readers look for: "foi o Zé q pagou".
_SHORTHAND: Final = {"q": "que"}


def scan(text: str, *, today: date | None = None) -> Scan:
    """Everything `text` says of money and time, with `today` the day it was written (for "ontem",
    "mês passado" and month names without a year)."""
    tokens = tokens_of(text)
    words = tuple(token.text for token in tokens)
    folded = tuple(_SHORTHAND.get(key, key) for key in (fold(word) for word in words))
    whens = _whens(words, folded, today)
    taken = {i for when in whens for i in range(when.first, when.last + 1)}
    amounts: list[Found] = []
    strays: list[int] = []
    index = 0
    while index < len(words):
        if index in taken:
            index += 1
            continue
        found = _amount_at(words, folded, index, taken)
        if found is not None and _measures(found, tokens, folded, text):
            found = None  # "faz 4 anos", "40 litros", "3 km": no money
        if found is not None:
            amounts.append(found)
            index = found.last + 1
            continue
        if _DIGIT.search(words[index]):
            strays.append(index)
        index += 1
    amounts = _spoken_cents(_with_centavos(amounts, folded), folded)
    currencies = {found.amount.currency for found in amounts if found.amount.currency}
    for word, key in zip(words, folded, strict=True):
        code = _currency(word, key)
        if code is not None:
            currencies.add(code)
    return Scan(text, tokens, tuple(amounts), tuple(whens), frozenset(currencies), tuple(strays), folded)


_UNITS: Final = frozenset({"reais", "real", "euros", "euro", "dolares", "dolar"})  # "… reais e 90 centavos"
_CENT: Final = Decimal("0.01")
_CENTAVOS: Final = frozenset({"centavos", "centavo"})


def _measures(found: Found, tokens: Sequence[Token], folded: Sequence[str], text: str) -> bool:
    """Whether `found` is a whole number with no currency right before a unit of `_MEASURES`
    ("4 anos"; "84,30. dia corrido" is money)."""
    after = found.last + 1
    return found.first == found.last and found.amount.currency is None and tokens[found.first].text.isdigit() \
        and after < len(tokens) and folded[after] in _MEASURES and not text[tokens[found.last].end:tokens[after].start].strip()


def _with_centavos(amounts: list[Found], folded: Sequence[str]) -> list[Found]:
    """ "89 reais e 90 centavos", "trezentos e quarenta e dois reais e dezoito centavos" (as a voice
    note is transcribed): one amount with its cents; "50 centavos" alone is 0,50 in the currency
    the message or the household has."""
    merged: list[Found] = []
    for found in amounts:
        after = found.last + 1
        if after >= len(folded) or folded[after] not in _CENTAVOS or found.value != found.value.to_integral_value() \
                or not 1 <= found.value < 100 or found.amount.currency is not None:
            merged.append(found)
            continue
        cents = found.value / 100
        before = merged[-1] if merged else None
        if before is not None and before.last + 2 == found.first and folded[before.last + 1] == "e" \
                and (folded[before.last] in _UNITS or before.amount.currency is not None) and before.value == before.value.to_integral_value():
            merged[-1] = Found(Amount((before.value + cents).quantize(_CENT), before.amount.currency),
                               before.first, after, spelled=before.spelled or found.spelled)
        else:
            merged.append(Found(Amount(cents.quantize(_CENT), None), found.first, after, spelled=found.spelled))
    return merged


_AFTER_AN_AMOUNT: Final = frozenset({"de", "da", "do", "no", "na", "em", "pra", "pro", "para", "e", "mais"})


def _spoken_cents(amounts: list[Found], folded: Sequence[str]) -> list[Found]:
    """ "quarenta e três e noventa", as a price is said: two numbers in words joined by "e", the
    second of two digits that cannot go on the first, are reais and cents (43,90). Not when the
    second goes on to something of its own ("… e trinta de uber")."""
    merged: list[Found] = []
    for found in amounts:
        before = merged[-1] if merged else None
        after = found.last + 1
        if before is not None and before.spelled and found.spelled \
                and before.last + 2 == found.first and folded[before.last + 1] == "e" \
                and before.amount.currency is None and found.amount.currency is None \
                and before.value == before.value.to_integral_value() and 10 <= found.value < 100 \
                and (after >= len(folded) or folded[after] not in _AFTER_AN_AMOUNT):
            merged[-1] = Found(Amount((before.value + found.value / 100).quantize(_CENT), None),
                               before.first, found.last, spelled=True)
        else:
            merged.append(found)
    return merged


def _currency(word: str, key: str) -> str | None:
    """The currency a word or symbol names on its own ("euros", "R$", "EUR", "conto"); a code only
    in capitals or among the well-known (lower-case "eur", "usd"), never a word like "par"."""
    if key in SLANG:
        return SLANG[key]
    code = currency_of(word, lower_codes=False)
    if code is not None:
        return code
    # "R$200", "€6000": a symbol stuck to the number
    for symbol in ("R$", "US$", "€", "£"):
        if word.startswith(symbol) and len(word) > len(symbol) and word[len(symbol)].isdigit():
            return currency_of(symbol)
    return None


def _amount_at(words: Sequence[str], folded: Sequence[str], start: int, taken: set[int]) -> Found | None:
    """The amount that begins at `words[start]`, or None."""
    spelled = _spelled(words, folded, start, taken)
    written = _written(words, folded, start, taken)
    if spelled is not None and (written is None or spelled.last > written.last):
        return spelled
    return written


def _free(index: int, words: Sequence[str], taken: set[int]) -> bool:
    return index < len(words) and index not in taken


def _written(words: Sequence[str], folded: Sequence[str], start: int, taken: set[int]) -> Found | None:
    """Digits, with a currency before or after them, a multiplier ("2 mil", "1,5k"), or both."""
    index = start
    before = None
    if _currency(words[index], folded[index]) is not None and _free(index + 1, words, taken) \
            and _DIGIT.search(words[index + 1]) and not _DIGIT.search(words[index]):
        before = words[index]
        index += 1
    if not _DIGIT.search(words[index]) or _NOT_MONEY.fullmatch(words[index]):
        return None
    parts = [words[index]]
    end = index
    if _free(end + 1, words, taken) and is_multiplier(words[end + 1]) and folded[end + 1] != "mi":
        end += 1
        parts.append(words[end])
    currency: str | None = None
    if before is None and _free(end + 1, words, taken):
        currency = _currency(words[end + 1], folded[end + 1])
        if currency is not None:
            end += 1
    text = " ".join(([before] if before else []) + parts)
    try:
        amount = read_amount(text, lower_codes=False)
    except DomainError:
        return None
    if amount.currency is None and currency is not None:
        amount = Amount(amount.amount, currency)
    if amount.amount <= 0:
        return None
    return Found(amount, start, end)


def _spelled(words: Sequence[str], folded: Sequence[str], start: int, taken: set[int]) -> Found | None:
    """A number in words ("cem reais", "duzentos e cinquenta", "2 mil e quinhentos"): money when
    a currency goes with it or when it is ten or more and not a day ("dia quinze")."""
    if not (is_number_word(words[start]) or (folded[start].isdigit() and start + 1 < len(words)
                                             and folded[start + 1] in SCALES)):
        return None
    read = spelled_at(words, start)
    if read is None or any(i in taken for i in range(read.start, read.end)):
        return None
    last = read.end - 1
    if last == start and folded[start].isdigit():
        return None
    before = _currency(words[start - 1], folded[start - 1]) if start > 0 else None
    after = _currency(words[read.end], folded[read.end]) if _free(read.end, words, taken) else None
    if after is not None:
        last = read.end
    currency = before or after
    if currency is None and (read.value < _SPELLED_ALONE or (start > 0 and folded[start - 1] == "dia")):
        return None
    if read.end < len(words) and folded[read.end] == "e" and read.end + 1 < len(words) \
            and folded[read.end + 1] == "meio":
        return None  # "um milhão e meio": not an exact reading
    first = start - 1 if before is not None else start
    return Found(Amount(read.value, currency), first, last, spelled=True)


def _whens(words: Sequence[str], folded: Sequence[str], today: date | None) -> list[When]:
    """Every day or month phrase, the longest first at each place."""
    found: list[When] = []
    index = 0
    while index < len(words):
        when = None
        for size in range(min(_LONGEST, len(words) - index), 0, -1):
            when = _when(words[index:index + size], folded[index:index + size], index, today)
            if when is not None:
                break
        if when is None:
            index += 1
            continue
        found.append(when)
        index = when.last + 1
    return found


def _when(words: Sequence[str], folded: Sequence[str], first: int, today: date | None) -> When | None:
    phrase = " ".join(folded)
    last = first + len(words) - 1
    head = folded[0]
    if head in ("de", "em", "no", "na", "do", "da") and len(words) == 1:
        return None
    raw = " ".join(words)
    if _DIGIT.search(phrase):
        if re.fullmatch(r"(?:(?:em|de|no|na|ate)\s+)?(?:dia\s+)?[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}|"
                        r"(?:(?:em|de|no|na|ate)\s+)?[0-9]{4}-[0-9]{2}-[0-9]{2}", phrase):
            try:
                day = read_date(_strip_leading(raw))
            except DomainError:
                return None
            return When(Period.of(day), first, last, day)
        if re.fullmatch(r"(?:(?:em|de|no)\s+)?(?:[0-9]{4}-[0-9]{1,2}|[0-9]{1,2}/[0-9]{4})", phrase):
            try:
                return When(Period.parse(read_period(_strip_leading(raw))), first, last)
            except DomainError:
                return None
    named_day = day_named(raw, today)
    if named_day is not None:
        return When(Period.of(named_day), first, last, named_day)
    stripped = _strip_leading(phrase)
    if today is not None and (stripped in RELATIVE_MONTHS or phrase in RELATIVE_MONTHS):
        return When(Period.parse(read_period(stripped.removeprefix("no "), today)), first, last)
    named = re.fullmatch(r"(?P<month>[a-z]+)(?:\s+(?:de\s+)?(?P<year>[0-9]{4}))?", stripped)
    if named and named["month"] in _MONTH_NAMES:
        # "março" folds to "marco" (also a name): only with its cedilla, a leading word or a year
        if named["month"] == "marco" and "março" not in raw.lower() and stripped == phrase \
                and named["year"] is None:
            return None
        if named["year"] is None and today is None:
            return None
        try:
            return When(Period.parse(read_period(stripped, today)), first, last)
        except DomainError:
            return None
    return None


def _strip_leading(phrase: str) -> str:
    return re.sub(r"^(?:em|de|no|na|do|da|ate|até)\s+", "", phrase, flags=re.IGNORECASE)
