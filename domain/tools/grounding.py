"""The model's arguments, grounded in what the members wrote (issue 25).

A weak model copies the household's euro goal onto "89,90", takes "ontem" on the 1st as this
month, invents an amount nobody said, or reads "paguei o aluguel" as a new expected amount. Where
the tool can tell from the words, it decides, not the model:

- a currency nobody wrote is the household's (or the one currency the member did write);
- a month or a day comes from the member's words, read against the day they wrote
  ("ontem", "mês passado", "em outubro", "dia 5"), and is this month or today when they say none;
- an amount nobody wrote is a question for the member, not a preview;
- an expected amount changes only on words that change it ("subiu", "passa a ser", "vai pra");
- a question is answered, never turned into a write, and an income is set only when someone
  speaks of one;
- a card nobody named is no card, and parcelas nobody wrote are none (a 1.5B model copies the
  prompt's "geladeira em 10x no Nubank" onto "250 no posto").

A tool lists its grounded arguments in `grounded` and what a message must say for it in `intent`.
Only proposals are grounded: a confirmation repeats its preview's arguments as they were.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final

from pydantic.alias_generators import to_snake

from domain.errors import DomainError
from domain.money import Period
from domain.reading.amounts import read_amount
from domain.reading.message import Scan, When, deadline, scan
from domain.reading.names import loosely_written_in
from domain.reading.replies import corrects, kept_out
from domain.reading.small_talk import chatting
from domain.text import fold, words_of


class Ground(StrEnum):
    MONEY = "money"      # the amount was written by a member; its currency too, or the household's
    PAID = "paid"        # as MONEY, money that changed hands: written exactly, not as a guess ("uns 80")
    COMPUTED = "computed"  # money the model may compute ("diminui 50" -> 150): only its currency
    MONTH = "month"      # "YYYY-MM" from the member's words, this month when they say none
    DAY = "day"          # a date from the member's words, today when they say none
    DEADLINE = "deadline"  # a day ahead the member wrote ("até 31/12", "até 01/07/2027"); else the model's
    CARD = "card"        # a card the member named ("no Nubank") or said ("no cartão"); else none
    INSTALLMENTS = "installments"  # parcelas the member wrote ("em 3x", "10 vezes"); else none
    SHARED = "shared"    # out of the couple's split only when the member says so ("só meu", "não divide")


class Intent(StrEnum):
    CHANGE = "change"  # an expected amount changes: the words must say so
    SPEND = "spend"    # money was spent: not a message that only changes an expected amount
    CREATE = "create"  # a new expense: not a spend told on a name the household does not have
    INCOME = "income"  # an income: the words must speak of one (renda, salário, ganho, recebo)


def grounds(**kinds: Ground) -> Mapping[str, Ground]:
    """A tool's grounded arguments by their model-facing (camelCase) names."""
    return MappingProxyType(kinds)


class NotWritten(DomainError):
    """An argument the members never wrote (the model should ask)."""


class NotAsked(DomainError):
    """A write the message does not ask for (a question, a spend read as a change)."""


class NotNamed(DomainError):
    """A write about an expense or a goal nobody named (the model should ask which)."""


QUESTION_OPENERS: Final = frozenset({"quanto", "quanta", "quantos", "quantas", "qual", "quais", "como",
                                     "quando", "onde", "sera", "qnto", "qto", "qnt"})
_CAN_WE: Final = re.compile(r"^(?:e\s+)?(?:ai\s+)?(?:da|dá|daria|conseguimos|consigo|consegue|vamos conseguir)"
                            r"\b.*\?\s*$", re.IGNORECASE | re.DOTALL)
_CHANGE: Final = re.compile(
    r"\b(?:subiu|sobe|subir|suba|aument\w*|diminu\w*|baix\w*|reajust\w*|atualiz\w*|mud\w*|passa\s+a|"
    r"agora(?!\s+(?:h[aá]\s+pouco|mesmo|pouco))|"
    r"cobra\w*|custa\w*|"
    r"passou\s+a|passa\s+pra|agora\s+[eé]|(?:vai|foi|vai\s+ser|fica|ficou|ficar)\s+(?:pra|para)|"
    r"pode\s+ser|previst\w*|orcamento|orçamento|limite|ajust\w*|corrig\w*|(?:pra|para)\s+(?:r\$\s*)?[0-9])",
    re.IGNORECASE)
# Words that ask for a new expense ("cria a despesa", "cadastra", "nova", "por mês", "todo dia 5").
_CREATE: Final = re.compile(
    r"\b(?:cri[ae]\w*|nov[ao]s?|adicion\w*|cadastr\w*|despesas?|fix[ao]s?|mensa\w*|inclu\w*|assinatura|"
    r"(?:por|ao|todo|cada)\s+m[eê]s|todo\s+dia)\b", re.IGNORECASE)
_SPENT: Final = re.compile(
    r"\b(?:gast\w*|pagu?\w*|compr\w*|lanc\w*|lanç\w*|anot\w*|registr\w*|renov\w*|abastec\w*|veio|vieram|deu|custou|saiu|"
    r"foi\s+de|foram)\b", re.IGNORECASE)
_SAVING: Final = re.compile(r"\b(?:junt\w*|guard\w*|poup\w*|economiz\w*|metas?)\b", re.IGNORECASE)
_AN_EXPENSE: Final = re.compile(r"\bdespesas?\b", re.IGNORECASE)  # "cria a despesa Poupança": they said it
_INCOME: Final = re.compile(r"\b(?:renda|rendimento\w*|sal[aá]rio\w*|ganh\w*|receb\w*|entra\w*)\b", re.IGNORECASE)
# What may follow a question's mark and leave it a question ("quanto sobrou? 😅").
_AFTER_QUESTION: Final = " .!,)😅🤔"
_SPEAKER: Final = re.compile(r"^\[[^\]]{1,80}\]\s*")
_ON_CARD: Final = frozenset({"cartao", "credito", "fatura", "parcelei", "parcelado", "parcelada", "parcelas"})
_INSTALLMENTS: Final = re.compile(r"\b(\d{1,2})\s*(?:x|vezes|parcelas)\b", re.IGNORECASE)
_SAYS_PARCELAS: Final = re.compile(r"\b(?:parcel\w*|vezes|em\s+\d{1,2}\s*x)\b", re.IGNORECASE)
_SAYS_INSTALLMENTS: Final = re.compile(r"\b(?:parcel\w*|vezes|\d{1,2}\s*x)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Said:
    """What the members wrote: this message, then their earlier ones, newest first; the day it was
    written and the household's currency (None: no currency is grounded)."""

    text: str
    today: date
    currency: str | None = None
    earlier: tuple[str, ...] = ()
    # Every name of what the tool's arguments name, as the tool finds it: the card's name and
    # aliases, so "no roxinho" names the Nubank (Tool.known_as).
    known_as: tuple[str, ...] = ()
    _scans: dict[int, Scan] = field(default_factory=dict, compare=False, repr=False)
    _chats: dict[int, list[tuple[int, int]]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, text: str, today: date, currency: str | None, history: Sequence[Mapping[str, Any]] = (),
           *, earlier_turns: int = 3, known_as: Sequence[str] = ()) -> Said:
        """From the conversation's messages: the members' ones (role "user"), without the
        "[Ana] " the chat puts before each."""
        earlier = [_SPEAKER.sub("", str(m.get("content") or "")) for m in reversed(history)
                   if m.get("role") == "user" and isinstance(m.get("content"), str)]
        return cls(text, today, currency, tuple(earlier[:earlier_turns]), tuple(known_as))

    def scanned(self, index: int) -> Scan:
        """Message `index`: 0 is this one, 1 the one before, …"""
        if index not in self._scans:
            self._scans[index] = scan(self.messages[index], today=self.today)
        return self._scans[index]

    def chatting(self, index: int) -> list[tuple[int, int]]:
        """Where message `index`'s sentences of small talk stand (`small_talk.chatting`)."""
        if index not in self._chats:
            self._chats[index] = chatting(self.messages[index], self.today)
        return self._chats[index]

    @cached_property
    def messages(self) -> tuple[str, ...]:
        return (self.text, *self.earlier)

    def corrects_a_spend(self) -> bool:
        """Whether this message opens as a correction ("corrige pra 98", "não, foi 250") of a
        message that changed no expected amount: a spend's, so still a spend."""
        return corrects(self.scanned(0).words) and len(self.messages) > 1 and not _CHANGE.search(self.messages[1])

    def names_any(self, names: Sequence[str]) -> bool:
        """Whether the members wrote a word of any of `names` (an expense's name or an alias; a
        word of a goal's), in this message or the earlier ones, loosely: a typo, a plural, a
        diminutive. A refusal needs nobody to have written it any way at all."""
        return any(loosely_written_in(text, names) for text in self.messages)

    def where(self, value: Decimal) -> int | None:
        """The newest message that writes `value`, or several amounts that add up to it ("eu ganho
        7 mil e o Rafa 5.500": 12.500), or None."""
        for index in range(len(self.messages)):
            found = self.scanned(index)
            if found.has_amount(value) or (len(found.amounts) > 1 and sum(a.value for a in found.amounts) == value):
                return index
        return None

    def guessed(self, index: int, value: Decimal) -> bool:
        """Whether message `index` writes `value` only as a guess ("uns 80 ou 90", "100 e pouco")."""
        found = [f for f in self.scanned(index).amounts if f.value == value]
        return bool(found) and all(self.scanned(index).approximate(f) for f in found)

    def is_question(self) -> bool:
        """Whether the whole message asks ("quanto falta pra Amsterdam?", "dá pra juntar 5 mil até
        dezembro?"); one that asks and then tells ("quanto sobrou? e gastei 200") is not."""
        return whole_question(self.text)


def asks_a_change(text: str) -> bool:
    """Whether `text` has words that change an expected amount ("subiu", "passa a ser", "vai pra")
    and none that tell a spend ("paguei agora", "passei no mercado agora e deu 112")."""
    return _CHANGE.search(text) is not None and _SPENT.search(text) is None


def whole_question(text: str) -> bool:
    """`Said.is_question` for any text (`domain.agent.questions.is_question` is looser: a "?"
    anywhere, or a word asking for the summary)."""
    text = text.strip()
    if "?" in text and text.rsplit("?", 1)[1].strip(_AFTER_QUESTION):
        return False
    words = fold(text).split()
    return bool(words) and (words[0].strip("?,.!") in QUESTION_OPENERS or bool(_CAN_WE.match(text)))


def asks(text: str) -> bool:
    """Whether the message only asks: a whole question, or one ending on its question mark ("e a
    luz?", "tá sobrando algo esse mês?"). A read the model makes for it needs no words of the
    model's: the bot words the read's result as its read commands do."""
    text = text.strip()
    return whole_question(text) or text.rstrip(_AFTER_QUESTION).endswith("?")


@dataclass(frozen=True)
class Grounded:
    """The arguments with the grounded ones taken from the words, and why the words do not support
    the call (None: they do). The caller runs the tool's own checks first, so an unknown name is
    named before the amount is asked about."""

    arguments: dict[str, Any]
    refusal: DomainError | None = None


def ground(grounded: Mapping[str, Ground], intent: Intent | None, arguments: dict[str, Any], said: Said,
           *, writes: bool) -> Grounded:
    """`arguments` (as the model sent them, camelCase) grounded in `said`; with NotWritten or
    NotAsked as the refusal when the words do not support the call."""
    try:
        if writes:
            _check_intent(intent, said)
        return Grounded(_grounded(grounded, arguments, said, writes=writes))
    except (NotWritten, NotAsked) as refusal:
        try:
            return Grounded(_grounded(grounded, arguments, said, writes=False), refusal)
        except DomainError:
            return Grounded(arguments, refusal)


def _grounded(grounded: Mapping[str, Ground], arguments: dict[str, Any], said: Said, *,
              writes: bool) -> dict[str, Any]:
    grounded_arguments = dict(arguments)
    money_at: int | None = None
    for name, kind in grounded.items():
        key = _key(arguments, name)
        if kind in (Ground.MONEY, Ground.PAID, Ground.COMPUTED) and _given(arguments, key):
            grounded_arguments[key], found_at = _money(arguments[key], kind, said, writes=writes, key=name)
            money_at = found_at if money_at is None else money_at
    for name, kind in grounded.items():
        key = _key(arguments, name)
        if kind is Ground.MONTH:
            grounded_arguments[key] = _month(arguments.get(key), said, money_at)
        elif kind is Ground.DAY:
            grounded_arguments[key] = _day(arguments.get(key), said, money_at)
        elif kind is Ground.DEADLINE:
            grounded_arguments[key] = _deadline(arguments.get(key), said)
        elif kind is Ground.SHARED:
            grounded_arguments[key] = not any(kept_out(said.scanned(index).words) for index in _where_time_is(money_at))
        elif kind is Ground.CARD and _given(arguments, key):
            grounded_arguments[key] = _card(arguments[key], said, money_at)
        elif kind is Ground.INSTALLMENTS and _given(arguments, key):
            on_card = any(kind is Ground.CARD and _given(grounded_arguments, _key(arguments, name))
                          for name, kind in grounded.items())
            grounded_arguments[key] = _installments(arguments[key], said, money_at, on_card=on_card)
    return grounded_arguments


def _key(arguments: Mapping[str, Any], name: str) -> str:
    """The key the model used: camelCase ("newExpected") or the snake_case it may also send."""
    snake = to_snake(name)
    return snake if snake in arguments and name not in arguments else name


def _given(arguments: Mapping[str, Any], key: str) -> bool:
    value = arguments.get(key)
    return value is not None and not (isinstance(value, str) and not value.strip())


def _check_intent(intent: Intent | None, said: Said) -> None:
    if said.is_question():
        raise NotAsked("A mensagem é uma pergunta: responda com uma ferramenta de consulta "
                       "(budgetStatus, goalStatus, balance, checkFeasibility); nada foi proposto.")
    if intent is Intent.CHANGE and not any(_CHANGE.search(text) for text in said.messages[:2]):
        raise NotAsked("Nada na mensagem pede mudar o valor previsto (subiu, aumentou, passa a ser, "
                       "agora é, vai pra). Um gasto ou uma conta paga é recordSpend.")
    if intent is Intent.SPEND and _CHANGE.search(_told(said)) and not _SPENT.search(said.text) \
            and len(said.scanned(0).amounts) <= 1 and not said.corrects_a_spend():
        raise NotAsked("A mensagem muda um valor previsto (adjustExpense), não registra um gasto.")
    if intent is Intent.INCOME and not any(_INCOME.search(text) for text in said.messages[:2]):
        raise NotAsked("Ninguém falou de renda (renda, salário, ganho, recebo): nada foi proposto.")
    if intent is Intent.CREATE and _SAVING.search(said.text) and not _AN_EXPENSE.search(said.text):
        raise NotAsked("A mensagem fala em juntar ou guardar dinheiro para algo: é uma meta (createGoal) "
                       "ou um aporte (contributeToGoal), não uma despesa nova.")
    if intent is Intent.CREATE and _SPENT.search(said.text) \
            and not any(_CREATE.search(text) for text in said.messages[:2]):
        raise NotAsked("A mensagem conta um gasto, não pede uma despesa nova: pergunte se é para criar "
                       "essa despesa, ou em qual das existentes lançar, antes de propor.")


def _told(said: Said) -> str:
    """This message without its sentences that only chat ("deixei o entregador subir": no change
    of an expected amount)."""
    text = said.text
    for first, last in reversed(said.chatting(0)):
        text = f"{text[:first]} {text[last:]}"
    return text


def _money(value: Any, kind: Ground, said: Said, *, writes: bool, key: str) -> tuple[Any, int | None]:
    """The money argument with its currency grounded, and the message that wrote its amount."""
    raw = value.get("amount") if isinstance(value, dict) else value
    given = value.get("currency") if isinstance(value, dict) else None
    try:
        amount, written = read_amount(raw)
    except DomainError:
        return value, None  # the tool names what is wrong with it
    at = said.where(abs(amount))
    if at is None and kind is Ground.PAID and writes and (only := _the_one_amount(said)) is not None:
        # A spend's amount misread ("cento e doze reais e cinquenta centavos" as 121.5) or made up
        # (the prompt's example): the one amount the message writes, exactly, is what was paid.
        amount, at = only, 0
    if at is None and kind in (Ground.MONEY, Ground.PAID) and writes:
        written_here = ", ".join(f"{found.value:f}" for found in said.scanned(0).amounts)
        hint = f" (a mensagem escreve {written_here}: use o valor dela)" if written_here else ""
        raise NotWritten(f"{key}: {amount:f} não está no que o membro escreveu{hint}; pergunte o valor "
                         "antes de propor, se não for esse.")
    if at is not None and kind is Ground.PAID and writes and said.guessed(at, abs(amount)):
        raise NotWritten(f"{key}: {amount:f} foi escrito como aproximado (uns, e pouco, ou, não lembro); "
                         "pergunte o valor exato antes de propor.")
    if at is None and kind is Ground.COMPUTED and writes and not _numbers_written(said):
        # A computed amount ("reajustou 12%", "diminui 50") needs a number to compute from.
        raise NotWritten(f"{key}: nenhum valor nem percentual foi escrito; pergunte o valor antes de propor.")
    if said.currency is None:
        return value, at
    codes = said.scanned(at if at is not None else 0).currencies
    model_code = written or (given.strip().upper() if isinstance(given, str) and given.strip() else None)
    if model_code is not None and (model_code in codes or _written_as_is(model_code, said, at)):
        currency = model_code  # the tool checks it (an unknown code is refused naming it)
    elif len(codes) == 1:
        currency = next(iter(codes))
    else:
        currency = said.currency if not codes or said.currency in codes else model_code or said.currency
    return {"amount": f"{amount:f}", "currency": currency}, at


def _the_one_amount(said: Said) -> Decimal | None:
    """The amount this message writes when it writes one only, and not as a guess ("uns 80")."""
    found = said.scanned(0).amounts
    if len(found) != 1 or said.scanned(0).approximate(found[0]):
        return None
    return found[0].value


def _numbers_written(said: Said) -> bool:
    """Whether the members wrote any amount or other number ("12%", "2028") in what is read."""
    return any(said.scanned(i).amounts or said.scanned(i).strays for i in range(len(said.messages)))


def _written_as_is(code: str, said: Said, at: int | None) -> bool:
    """A currency the member wrote as the model sends it, even one no reader knows ("10 XYZ")."""
    return code.casefold() in said.scanned(at if at is not None else 0).words


def _month(value: Any, said: Said, money_at: int | None) -> Any:
    """The month the words point back to ("ontem", "mês passado", "em outubro"); the model's (or
    the tool's default, this month) when they say none, or only "now" ("hoje", "esse mês")."""
    for index in _where_time_is(money_at):
        months = {when.month for when in _back(said, index)}
        if len(months) == 1:
            return str(next(iter(months)))
        if months:
            return value  # several months written: the model's pick (the tool reads it)
    return value


def _day(value: Any, said: Said, money_at: int | None) -> Any:
    """The day the words point back to ("ontem", "sexta", "dia 5"), or a day of the month they
    name ("em março": the model's day when it is in March, else the 1st); else the model's."""
    for index in _where_time_is(money_at):
        whens = _back(said, index)
        days = {when.day for when in whens if when.day is not None}
        months = {when.month for when in whens}
        if len(days) == 1:
            return next(iter(days)).isoformat()
        if len(months) == 1 and not days:
            month = next(iter(months))
            chosen = _as_date(value)
            if chosen is not None and Period.of(chosen) == month:
                return value
            return (said.today if month == Period.of(said.today) else date(month.year, month.month, 1)).isoformat()
        if whens:
            return value
    return value


def _deadline(value: Any, said: Said) -> Any:
    """The day ahead this message's one day or month sets ("até 31/12", "até 01/07/2027", "pra
    junho de 2028": its first day; domain.reading.message.deadline); the model's when the words
    name none, or more than one, or a time past."""
    day = deadline(said.scanned(0), said.today)
    return day.isoformat() if day is not None else value


def _card(value: Any, said: Said, money_at: int | None) -> Any:
    """The model's card when the member named one of the household's (any word of its name or of
    an alias, "no Nubank", "no C6", "no roxinho") or said a card ("no cartão", "no crédito"): the
    tool finds it or names the household's; else none."""
    named = {word for name in (str(value), *said.known_as) for word in words_of(name)
             if len(word) >= 3 or any(c.isdigit() for c in word) or len(words_of(name)) == 1}  # "no XP"
    for index in _where_time_is(money_at):
        words = set(said.scanned(index).words)
        # A name no card of the household has counts only beside a card's words: "paguei a Vivo
        # Fibra" names the internet's company, not a card; "no cartão Inter" is asked about.
        if (said.known_as and words & named) or words & _ON_CARD:
            return value
    return None


def _installments(value: Any, said: Said, money_at: int | None, *, on_card: bool) -> Any:
    """The parcelas the member wrote ("em 3x", "10 vezes", "3 parcelas"): that number when they
    wrote one, the model's when they only said "parcelado"; else none. Off a card only words of
    parcelas count ("o Pedro acordou 3x de madrugada" is no purchase in 3x)."""
    for index in _where_time_is(money_at):
        text = said.messages[index]
        if not on_card and not _SAYS_PARCELAS.search(text):
            continue
        counts = {int(count) for count in _INSTALLMENTS.findall(text)}
        if len(counts) == 1:
            return next(iter(counts))
        if counts or _SAYS_INSTALLMENTS.search(text):
            return value
    return None


def _back(said: Said, index: int) -> list[When]:
    """The days and months message `index` names, except those that only mean now: "hoje", "essa
    semana", "esse mês" are what a model already takes, and a test's scripted one may not; and
    those of a sentence that only chats ("disse que vem domingo", "quer jantar sexta?": the
    spend's day is not there)."""
    today = Period.of(said.today)
    scanned = said.scanned(index)
    chat = said.chatting(index) if scanned.whens else []  # "…, 23,50. a mãe vem domingo": not the spend's day
    return [when for when in scanned.whens
            if not (when.day == said.today or (when.day is None and when.month == today)
                    or (when.day is not None and when.month == today and _is_now(said, index, when))
                    or any(first <= scanned.tokens[when.first].start < last for first, last in chat))]


def _is_now(said: Said, index: int, when: When) -> bool:
    words = said.scanned(index).words[when.first:when.last + 1]
    return "semana" in words and "passada" not in words


def _where_time_is(money_at: int | None) -> list[int]:
    """This message first; then the one that wrote the amount, when it is an earlier one."""
    return [0] if not money_at else [0, money_at]


def _as_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None
