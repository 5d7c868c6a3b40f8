"""The commonest questions, read with no model: which read tool a question means, and its arguments.

"quanto falta pra Amsterdam?" is `goalStatus`, "quanto já gastamos esse mês?" `budgetStatus`,
"quanto eu devo pro Bruno?" `balance`, "quanto vem a fatura do nubank?" `cardBill`, "dá pra lua de
mel?" or "dá pra juntar 20 mil até 01/12/2027?" `checkFeasibility`. A read writes nothing, but a
wrong answer still misleads: the reader takes a question only when its subject is certain (one
goal, one card, the household's own month) and nothing in it asks for a change; anything else —
a write word, an amount where a read needs none, two goals, a month it cannot place — is the
model's. Its word lists are data: a word added to `_WRITES` sends a form to the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from domain.money import Money, Period
from domain.reading.message import Found, Scan, deadline
from domain.text import matches_any, phrase_spans, words_of

# A question starts with one of these (after "e", "ei", "amor"…), or ends with "?".
_OPENERS: Final = frozenset({"quanto", "quanta", "quantos", "quantas", "qnto", "qto", "qual", "quais",
                             "como", "quem", "cade", "sera", "estamos", "conseguimos", "consigo", "ta",
                             "tem", "temos"})
_LEADING: Final = frozenset({"e", "ei", "oi", "amor", "mozao", "bom", "entao", "ai", "ah"})
# Any of these makes the message something to do, not only to know: the model's.
_WRITES: Final = ("paguei", "comprei", "lanc*", "registr*", "anot*", "aport*", "coloc*", "guardei",
                  "guarda", "cria", "criar", "crie", "cadastr*", "muda", "mudar", "mude", "mudou", "subiu",
                  "aumentou", "aumenta", "baixa", "baixou", "acerta", "acertar", "acerte", "confirm*", "cancel*",
                  "desfaz*", "apaga*", "transferi", "mandei", "paga", "pagar", "pague", "pagamos", "recebi",
                  "ganhei", "arquiv*", "renomei*", "exclu*", "remov*", "tira", "tirar",
                  "nao", "errado", "errada", "corrig*", "pix", "divisao", "dividir", "divide", "parcel*",
                  "nova")
_RESUMO: Final = frozenset({"resumo", "balanco"})
_SPENT: Final = ("gast*", "estour*", "limite", "sobrou", "sobra", "passamos", "passou", "foi", "deu",
                 "orcamento")
_OWED: Final = frozenset({"devo", "deve", "devem", "devemos", "devendo", "deves", "saldo", "quites"})
_FATURA: Final = frozenset({"fatura", "faturas"})
_AFFORD: Final = frozenset({"viavel", "bancar", "cabe", "caber", "possivel", "conseguimos", "consegue",
                            "consigo", "conseguiremos", "conseguir"})
_CAN: Final = frozenset({"da", "dá", "dar"})  # "dá pra …", "vai dar pra …"
_FOR: Final = frozenset({"pra", "para", "pro"})
_SAVE: Final = frozenset({"juntar", "guardar", "ter", "economizar", "poupar", "quiser", "quisermos"})
_STOP: Final = frozenset({"de", "do", "da", "dos", "das", "e", "a", "o", "ao", "em", "no", "na", "pra", "pro",
                          "para", "meta", "nossa", "nosso", "viagem"})
_MIN_WORD: Final = 4
MAX_QUESTION: Final = 200  # characters: a longer message is more than one question

GOAL_STATUS: Final = "goalStatus"
BUDGET_STATUS: Final = "budgetStatus"
BALANCE: Final = "balance"
CARD_BILL: Final = "cardBill"
FEASIBILITY: Final = "checkFeasibility"


@dataclass(frozen=True)
class Subjects:
    """What a question may be about: the household's expenses, goals and cards (each a name and
    every name it answers to), its currency and the day the question was asked."""

    expenses: tuple[tuple[str, tuple[str, ...]], ...]
    goals: tuple[str, ...]
    cards: tuple[tuple[str, tuple[str, ...]], ...]
    currency: str
    today: date
    # Each expense's expected amount this month, for a change by a percentage ("reajustou 12%").
    expected: tuple[tuple[str, Money], ...] = ()


def is_question(text: str, said: Scan) -> bool:
    words = _opening(said.words)
    opens = bool(words and words[0] in _OPENERS) and not _tells_who_paid(words)
    return "?" in text or opens or bool(set(said.words) & _RESUMO)


_WHO_PAID: Final = frozenset({"pagou", "pagaram", "gastou", "comprou", "compraram"})


def _tells_who_paid(words: Sequence[str]) -> bool:
    """ "quem pagou o açougue foi o Vinícius, 76,80": an answer given, not a question."""
    return len(words) > 2 and words[0] == "quem" and words[1] in _WHO_PAID and "foi" in words[2:]


def read_question(text: str, said: Scan, subjects: Subjects) -> list[dict[str, Any]] | None:
    """The one read call a message `is_question` found a question certainly means, or None (the
    model's)."""
    words = said.words
    if not words or len(text) > MAX_QUESTION:
        return None
    if any(matches_any(word, _WRITES) for word in words) or len(said.whens) > 1 or said.strays:
        return None
    goal = goal_named(words, said.covered(), subjects.goals)
    card = named_in(words, subjects.cards)
    expense = named_in(words, subjects.expenses)
    if goal is False or card is False or expense is False:
        return None
    if _affordability(words):
        return _feasibility(said, goal, card, expense, subjects)
    if said.amounts:
        return None  # a read needs no amount: "tem 50 no mercado?" is not certain
    if set(words) & _OWED:
        if goal or card or expense:
            return None
        return [_call(BALANCE, _month(said))]
    if set(words) & _FATURA or card:
        return _fatura(said, card, goal, subjects)
    if goal:
        return None if expense else [_call(GOAL_STATUS, {"name": goal})]
    if expense or set(words) & _RESUMO or any(matches_any(word, _SPENT) for word in words):
        period = said.whens[0].month if said.whens else Period.of(subjects.today)
        return [_call(BUDGET_STATUS, {"period": str(period)})]
    return None


def _feasibility(said: Scan, goal: str | bool | None, card: str | bool | None, expense: str | bool | None,
                 subjects: Subjects) -> list[dict[str, Any]] | None:
    """"dá pra lua de mel?": that goal; "dá pra juntar 20 mil até 01/12/2027?": that target by that
    day, or by the first of the month written ("até dezembro de 2027", as a new goal's deadline
    is read); "o fim do ano" is the model's."""
    if card or expense:
        return None
    if goal:  # "até o fim do ano": a deadline of the member's own, which the reader cannot read
        return None if said.amounts or said.whens or "ate" in said.words else [_call(FEASIBILITY, {"goal": goal})]
    if len(said.amounts) != 1 or not set(said.words) & _SAVE or len(said.currencies) > 1:
        return None
    by = deadline(said, subjects.today)
    if by is None:
        return None
    return [_call(FEASIBILITY, {"target": money_said(said, said.amounts[0], subjects.currency),
                                "deadline": by.isoformat()})]


def _fatura(said: Scan, card: str | bool | None, goal: str | bool | None,
            subjects: Subjects) -> list[dict[str, Any]] | None:
    """The card named, or the household's only card; the fatura of the month named (a month not
    yet come within two is the fatura ahead: "a de julho" in June), else the open one."""
    if goal:
        return None
    if card is None:
        if len(subjects.cards) != 1:
            return None
        card = subjects.cards[0][0]
    arguments: dict[str, Any] = {"card": card}
    if said.whens:
        when = said.whens[0]
        this = Period.of(subjects.today)
        month = when.month
        ahead = Period(month.year + 1, month.month)
        if not any(word.isdigit() and len(word) == 4 for word in said.words) and \
                0 < _months_between(this, ahead) <= 2:
            month = ahead
        if month != this:
            arguments["period"] = str(month)
    return [_call(CARD_BILL, arguments)]


def _affordability(words: Sequence[str]) -> bool:
    if set(words) & _AFFORD:
        return True
    return words[-1] in _CAN or any(  # "… até dezembro de 2027, dá?"
        word in _CAN and index + 1 < len(words) and words[index + 1] in _FOR for index, word in enumerate(words))


def money_said(said: Scan, found: Found, currency: str) -> dict[str, str]:
    """A money argument as the message writes it: its digits exactly, in the currency written by
    the amount or elsewhere in the message, else the household's."""
    written = found.amount.currency or next(iter(said.currencies), None) or currency
    return {"amount": f"{found.value:f}", "currency": written}


def goal_named(words: Sequence[str], covered: set[int], goals: Sequence[str]) -> str | bool | None:
    """The one goal the message names: by its whole name, or by a word of its own of four letters
    or more ("Amsterdam", "carro"; never a month the message names: "setembro" in "quanto gastamos
    em setembro?"); False when it names two ("na reserva e no casamento")."""
    present = {word for index, word in enumerate(words) if index not in covered}
    named = []
    for name in goals:
        own = words_of(name)
        if any(phrase_spans(words, own)) or any(
                len(word) >= _MIN_WORD and word not in _STOP and not word.isdigit() and word in present
                for word in own):
            named.append(name)
    if len(named) > 1:
        return False
    return named[0] if named else None


def named_in(words: Sequence[str], names: Sequence[tuple[str, tuple[str, ...]]]) -> str | bool | None:
    """The one expense (or card) whose name or alias stands in the message; False for two."""
    found = spans_named(words, names)
    if len(found) > 1:
        return False
    return next(iter(found), None)


def spans_named(words: Sequence[str], names: Sequence[tuple[str, tuple[str, ...]]]) -> dict[str, set[int]]:
    """Each expense (or card) whose name or alias stands in the message, with the words it takes."""
    found: dict[str, set[int]] = {}
    for name, spellings in names:
        for written in spellings:
            for where in phrase_spans(words, words_of(written)):
                found.setdefault(name, set()).update(where)
    return found


def one_amount_at_home(said: Scan, currency: str) -> bool:
    """One amount, in the household's currency, with no day, month or other number beside it."""
    return (len(said.amounts) == 1 and not said.whens and not said.strays
            and all(code == currency for code in said.currencies))


def _month(said: Scan) -> dict[str, Any]:
    return {"period": str(said.whens[0].month)} if said.whens else {}


def _months_between(start: Period, end: Period) -> int:
    return (end.year - start.year) * 12 + end.month - start.month


def _opening(words: Sequence[str]) -> Sequence[str]:
    index = 0
    while index < len(words) and words[index] in _LEADING:
        index += 1
    return words[index:]


def _call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}
