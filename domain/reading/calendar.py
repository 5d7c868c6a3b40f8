"""Months, days and dates as people write them: "2026-05", "05/2026", "março", "dezembro de 2025",
"mês passado", "15/06/2026"; and, with the message's `today`, the words of a day: "hoje",
"ontem", "anteontem", "sexta", "segunda da semana passada", "no fim de semana", "dia 5". A refusal is a pt-BR
sentence naming what was written."""

from __future__ import annotations

import re
from datetime import MAXYEAR, MINYEAR, date, timedelta
from typing import Final

from domain.errors import InvalidDate, InvalidPeriod, shown
from domain.money import Period
from domain.text import fold

# --------------------------------------------------------------------------- months

_MONTHS: Final = {name: number for number, names in enumerate((
    ("janeiro", "jan"), ("fevereiro", "fev"), ("marco", "mar"), ("abril", "abr"), ("maio", "mai"),
    ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"), ("setembro", "set"), ("outubro", "out"),
    ("novembro", "nov"), ("dezembro", "dez")), start=1) for name in names}
RELATIVE_MONTHS: Final = {  # folded: the month each means, from this one
    **dict.fromkeys(("este mes", "esse mes", "mes atual", "neste mes", "nesse mes"), 0),
    **dict.fromkeys(("mes passado", "ultimo mes", "mes anterior", "ha um mes", "um mes atras"), -1),
    **dict.fromkeys(("mes retrasado", "penultimo mes", "ha dois meses", "dois meses atras"), -2),
    **dict.fromkeys(("ha tres meses", "tres meses atras"), -3),
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
    "mês retrasado", "há dois meses", "mês que vem", or a day's words ("ontem", "dia 5": `day_named`). A name without its year is
    the latest such month not after this one; it and the relative months need `today` (without it
    they are refused, asking for the year)."""
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
    if text in RELATIVE_MONTHS:
        return str(Period.of(_today(today, raw)).plus(RELATIVE_MONTHS[text]))
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
    named_day = day_named(raw, today) if isinstance(value, str) else None
    if named_day is not None:  # "ontem", "dia 5": the month of that day
        return str(Period.of(named_day))
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


def read_date(value: object, what: str = "Data", *, today: date | None = None) -> date:
    """A date from ISO "2026-06-15" or as in Brazil "15/06/2026" (also "1/6/2026"); with `today`
    (the day the member wrote, in the household's time zone) also the words of a day, as
    `day_named` reads them ("ontem", "sexta", "dia 5", "15/06"). `what` names it in the refusal
    ("Prazo", "Data do aporte")."""
    raw = value.strip() if isinstance(value, str) else str(value)
    label = "" if what == "Data" else f"{what}: "
    iso = _ISO_DATE.fullmatch(raw) if isinstance(value, str) else None
    brazilian = _BR_DATE.fullmatch(raw) if isinstance(value, str) else None
    if iso:
        parts = (iso[1], iso[2], iso[3])
    elif brazilian:
        parts = (brazilian[3], brazilian[2], brazilian[1])
    else:
        named = day_named(raw, today) if isinstance(value, str) and today is not None else None
        if named is not None:
            return named
        words = ", ontem, dia 5" if today is not None else ""
        raise InvalidDate(f"{label}“{shown(raw)}” não é uma data. Use AAAA-MM-DD, DD/MM/AAAA{words}, "
                          "como 2028-06-01.")
    try:
        return date(int(parts[0]), int(parts[1]), int(parts[2]))
    except ValueError:
        raise InvalidDate(f"{label}“{shown(raw)}” não é uma data que existe.") from None


# --------------------------------------------------------------------------- the words of a day

_BACK: Final = {"hoje": 0, "hj": 0, "ontem": 1, "anteontem": 2, "antes de ontem": 2,
                "semana passada": 7, "na semana passada": 7,
                **dict.fromkeys(("essa semana", "esta semana", "nessa semana", "nesta semana"), 0)}
_WEEKDAYS: Final = {"segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4, "sabado": 5,
                    "domingo": 6}
_WEEKDAY: Final = re.compile(
    r"(?:(?:n[oa]|d[oa]|em|essa|esta|nessa|nesta|ultim[oa])\s+)?"
    r"(?P<day>segunda|terca|quarta|quinta|sexta|sabado|domingo)(?:-?feira)?"
    r"(?P<last>\s+(?:passad[oa]|retrasad[oa]|d[ae] semana passada))?")
_WEEKEND: Final = re.compile(
    r"(?:(?:n[oa]|d[oa]|em|esse|este|nesse|neste|ultimo)\s+)?(?:fim|final) de semana(?P<last>\s+passado)?|"
    r"(?:n[oa]\s+)?fds(?P<last_short>\s+passado)?")
_DAY_OF: Final = re.compile(  # "dia 1º", "dia 1o": the first, written as an ordinal
    r"(?:(?:n[oa]|em)\s+)?dia\s+(?P<day>[0-9]{1,2})[º°o]?(?:\s+de\s+(?P<month>[a-z]+))?")
_DAY_MONTH: Final = re.compile(r"(?:(?:n[oa]|em)\s+)?(?:dia\s+)?(?P<day>[0-9]{1,2})/(?P<month>[0-9]{1,2})")
_LEADING: Final = re.compile(r"(?:n[oa]|em|de)\s+")


def day_named(text: str, today: date | None) -> date | None:
    """The day a member's words name, counted back from `today`, or None when they name none:
    "hoje", "ontem", "anteontem", "semana passada" (a week back), a weekday ("sexta", "na
    segunda-feira": the latest one not after today; "sexta passada": the latest one before today;
    "segunda da semana passada": that day of the week before this one), "no fim de semana" (its
    Saturday; None when the weekend spans two months), "dia 5" or "dia 5 de maio"
    (the latest such day not after today) and "15/06" (this year's, or last year's when still to
    come). Whole dates and months are `read_date`'s and `read_period`'s."""
    if today is None:
        return None
    words = " ".join(fold(text).replace("-feira", " ").split()).strip(" .,!")
    bare = _LEADING.sub("", words, count=1) if _LEADING.match(words) else words
    if bare in _BACK:
        return today - timedelta(days=_BACK[bare])
    if words in _BACK:
        return today - timedelta(days=_BACK[words])
    weekday = _WEEKDAY.fullmatch(words)
    if weekday:
        wanted = _WEEKDAYS[weekday["day"]]
        last = (weekday["last"] or "").strip()
        if "semana passada" in last:
            monday = today - timedelta(days=today.weekday() + 7)
            return monday + timedelta(days=wanted)
        back = (today.weekday() - wanted) % 7
        if last and back == 0:
            back = 7
        return today - timedelta(days=back)
    weekend = _WEEKEND.fullmatch(words)
    if weekend:
        return _weekend(today, passed=bool(weekend["last"] or weekend["last_short"]))
    found = _DAY_OF.fullmatch(words) or _DAY_MONTH.fullmatch(words)
    if found:
        month_word = found["month"]
        if month_word is None:
            return _latest_day(int(found["day"]), None, today)
        if month_word.isdigit():
            return _latest_day(int(found["day"]), int(month_word), today)
        if month_word in _MONTHS and len(month_word) > 3:
            return _latest_day(int(found["day"]), _MONTHS[month_word], today)
    return None


def _weekend(today: date, *, passed: bool) -> date | None:
    """The Saturday of the latest weekend that has begun by `today` (with `passed`, and today a
    Saturday or Sunday, the one before), or None when its two days fall in two months: which one
    the money went out on, only the member knows."""
    saturday = today - timedelta(days=(today.weekday() - 5) % 7)
    if passed and today - saturday < timedelta(days=2):
        saturday -= timedelta(days=7)
    sunday = min(saturday + timedelta(days=1), today)
    return saturday if saturday.month == sunday.month else None


def _latest_day(day: int, month: int | None, today: date) -> date | None:
    """Day `day` of `month` (None: of this month, or the last one that has it) not after today."""
    if not 1 <= day <= 31 or (month is not None and not 1 <= month <= 12):
        return None
    if month is None:
        year, month_now = today.year, today.month
        for _ in range(13):
            try:
                found = date(year, month_now, day)
            except ValueError:
                found = None
            if found is not None and found <= today:
                return found
            year, month_now = (year, month_now - 1) if month_now > 1 else (year - 1, 12)
        return None
    for year in (today.year, today.year - 1):
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found <= today:
            return found
    return None
