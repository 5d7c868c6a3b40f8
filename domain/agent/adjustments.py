"""An expense's new expected amount, read with no model: "o aluguel vai pra 2.700", "internet foi
pra 120", "o plano de celular baixou pra 89,90", "atualiza a despesa do gás pra 120", "a academia
agora é 150".

It is the `adjustExpense` call /ajuste makes, and only on change words (issue 25: subiu, baixou,
foi pra, passa a ser, agora é, atualiza … pra): one expense it is sure of, one amount in the
household's currency right after "pra"/"para" (or "agora é", "passa a ser"), and no word beyond the
few such a sentence is made of. A percentage ("a unimed reajustou 12%") is this month's expected
amount that much up or down, to the cent. A new amount under a fifth of the current one or over
five times it ("a gasolina subiu pra 6,20": the litre's price), a change by an amount ("diminui 50 na academia"), a
month ("a partir de agosto"), a reason ("pq no inverno aumenta"), a question, or a correction are
the model's.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final

from domain.agent.questions import Subjects, goal_named, money_said, one_amount_at_home, spans_named
from domain.reading.message import Scan
from domain.reading.replies import opens_correction

ADJUST: Final = "adjustExpense"

# Words that change an expected amount (folded); without one, the reader does not take it.
_CHANGE: Final = frozenset({"subiu", "sobe", "aumentou", "aumenta", "baixou", "baixa", "diminuiu", "diminui",
                            "caiu", "foi", "vai", "passou", "passa", "mudou", "muda", "mude", "altera", "altere",
                            "atualiza", "atualize", "ajusta", "ajuste", "reajustou", "agora"})
# What may stand right before the amount: "pra 120", "para 120", "agora é 150", "passa a ser 150".
_TO: Final = frozenset({"pra", "para", "ser"})
# "é" as the message writes it (raw tokens, lower-case): folded, it is the "e" that joins two things.
IS: Final = frozenset({"é", "eh", "são", "sao"})
# Every other word the sentence may hold (folded).
_PLAIN: Final = frozenset({"o", "a", "os", "as", "do", "da", "de", "dos", "das", "e", "despesa", "valor", "previsto",
                           "prevista", "orcamento", "mensal", "tb", "tambem", "la", "ai", "pf", "pfv", "por", "favor",
                           "entao", "mes", "ao"})


# A new expected amount this far from the current one (a fifth of it, five times it) is not
# a change the reader is sure of: a price per litre, a digit too many. The model asks.
_FAR: Final = (Decimal("0.2"), Decimal("5"))

# A change by a percentage: which way (folded), and the percentage as written ("12%", "5,5%").
_UP: Final = frozenset({"subiu", "sobe", "aumentou", "aumenta", "reajustou", "reajusta", "reajuste", "reajustar"})
_DOWN: Final = frozenset({"baixou", "baixa", "diminuiu", "diminui", "caiu"})
_PERCENT: Final = re.compile(r"([0-9]{1,2}(?:[.,][0-9]{1,2})?)%")
_PERCENT_WORDS: Final = frozenset({"em", "mais", "menos", "atualiza", "atualize", "la", "ai", "lá", "teve", "um",
                                   "uma", "deu"})


def read_adjustment(said: Scan, subjects: Subjects) -> list[dict[str, Any]] | None:
    """The one adjustExpense call the message certainly means, or None (the model's)."""
    words = said.words
    if not words or not set(words) & _CHANGE or opens_correction(words):
        return None
    if not said.amounts:
        return _by_percent(said, subjects)
    if not one_amount_at_home(said, subjects.currency):
        return None
    [found] = said.amounts
    if not _changes_to(said, found.first):
        return None
    covered = said.covered()
    expenses = spans_named(words, subjects.expenses)
    if len(expenses) != 1 or goal_named(words, covered, subjects.goals) is not None:
        return None
    [(name, taken)] = expenses.items()
    rest = [word for index, word in enumerate(words) if index not in covered and index not in taken]
    if any(word not in _CHANGE | _TO | _PLAIN for word in rest):
        return None
    current = dict(subjects.expected).get(name)
    if current is not None and current.amount > 0 and not (
            _FAR[0] <= found.value / current.amount <= _FAR[1]):
        return None  # "a gasolina subiu pra 6,20" (500 a month): a unit price, or a slip of a digit
    return [{"name": ADJUST, "arguments": {"expense": name,
                                           "newExpected": money_said(said, found, subjects.currency)}}]


def _changes_to(said: Scan, first: int) -> bool:
    """The amount is what the expense becomes: "pra 120", "passa a ser 150", "agora é 150"."""
    if first == 0:
        return False
    before = said.words[first - 1]
    if before in ("pra", "para"):
        return True
    if before == "ser":
        return first >= 3 and said.words[first - 3:first - 1] == ("passa", "a")
    return said.tokens[first - 1].text.lower() in IS and first >= 2 and said.words[first - 2] == "agora"


def _by_percent(said: Scan, subjects: Subjects) -> list[dict[str, Any]] | None:
    """ "a unimed reajustou 12%", "o aluguel subiu 5,5%", "a internet baixou 10%": the expense's
    expected amount this month, that much up or down, to the cent (half up). Only one expense,
    one percentage written with its sign, a word that says which way, and nothing else."""
    words = said.words
    up, down = bool(set(words) & _UP), bool(set(words) & _DOWN)
    if up == down or said.whens or len(said.strays) != 1:
        return None
    written = _PERCENT.fullmatch(said.tokens[said.strays[0]].text)
    if written is None:
        return None
    percent = Decimal(written[1].replace(",", "."))
    expenses = spans_named(words, subjects.expenses)
    covered = {said.strays[0]}
    if len(expenses) != 1 or goal_named(words, covered, subjects.goals) is not None or not 0 < percent < 100:
        return None
    [(name, taken)] = expenses.items()
    rest = [word for index, word in enumerate(words)
            if index not in covered and index not in taken and any(c.isalnum() for c in word)]
    if any(word not in _CHANGE | _UP | _DOWN | _PLAIN | _PERCENT_WORDS for word in rest):
        return None
    current = dict(subjects.expected).get(name)
    if current is None or current.currency != subjects.currency:
        return None
    factor = 1 + (percent if up else -percent) / 100
    new = (current.amount * factor).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return [{"name": ADJUST, "arguments": {"expense": name,
                                           "newExpected": {"amount": f"{new:f}", "currency": subjects.currency}}}]
