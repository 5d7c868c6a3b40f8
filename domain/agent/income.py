"""The household's monthly income, read with no model: "nossa renda é 12 mil", "coloca nossa renda
como 12.000", "nossa renda somada é 11.400 por mês".

It is the `setIncome` call the model would make for the household as a whole (no member), and only
when the message says whose income it is (ours: "nossa", "da casa", "da família", "somada"), has
one amount in the household's currency, and every other word is one such a sentence is made of.
A member named ("a renda do Bruno é 5 mil", "o Bruno ganha 5 mil") is that member's income, and
"minha renda é 7 mil" the speaker's (member "eu", which the chat names). A raise told as a story ("recebi
aumento!!"), a month ("a partir de julho"), a question, or "renda" where an expense answers to it
(in Portugal the rent is "a renda da casa") are the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from domain.agent.questions import Subjects, goal_named, money_said, named_in, one_amount_at_home
from domain.household import Member, member_called
from domain.reading.message import Scan
from domain.reading.replies import opens_correction

SET_INCOME: Final = "setIncome"

_INCOME: Final = frozenset({"renda", "rendimento", "rendimentos"})
# A member's income: "o salário da Ana", "o Bruno ganha".
_SALARY: Final = frozenset({"salario"})
_EARNS: Final = frozenset({"ganha", "recebe"})
_I_EARN: Final = frozenset({"ganho", "recebo"})
# Whose income (folded): the household's. Without one of these it may be the speaker's own.
_OURS: Final = frozenset({"nossa", "nosso", "nossos", "casa", "familia", "familiar", "somada", "somadas", "somado",
                          "somados", "juntos", "juntas", "conjunta", "total"})
# Every other word the sentence may hold (folded): articles, "é", "como", "agora", "por mês", the
# verbs of setting it. Any word outside these, the amount and the two lists above: the model's.
_PLAIN: Final = frozenset({"a", "o", "as", "os", "e", "da", "do", "de", "das", "dos", "como", "pra", "para", "em",
                           "agora", "mensal", "mensais", "por", "mes", "coloca", "coloque", "colocar", "bota",
                           "bote", "botar", "poe", "ponha", "registra", "registre", "anota", "anote", "salva",
                           "muda", "mude", "atualiza", "atualize", "define", "defina", "ficou", "fica", "passou",
                           "passa", "foi", "eh", "agr", "hoje", "liquida", "liquido"})  # no "vai (ser)": a plan is the model's


def read_income(said: Scan, subjects: Subjects, members: Sequence[Member] = ()) -> list[dict[str, Any]] | None:
    """The one setIncome call the message certainly means, for the household or for the one
    member it names, or None (the model's)."""
    words = said.words
    if words and not set(words) & _OURS and not opens_correction(words):
        return _members_income(said, subjects, members)
    if not words or not set(words) & _INCOME or not set(words) & _OURS or opens_correction(words):
        return None
    if not one_amount_at_home(said, subjects.currency):
        return None
    covered = said.covered()
    if _names_another(words, covered, subjects):
        return None  # "a renda da casa" is the Aluguel's name in Lisbon
    rest = [word for index, word in enumerate(words) if index not in covered]
    if any(word not in _INCOME | _OURS | _PLAIN for word in rest):
        return None
    return [{"name": SET_INCOME, "arguments": {"amount": money_said(said, said.amounts[0], subjects.currency)}}]


def _members_income(said: Scan, subjects: Subjects, members: Sequence[Member]) -> list[dict[str, Any]] | None:
    """"a renda do Bruno é 5 mil", "o salário da Ana é 7.200", "o Bruno ganha 5 mil por mês": that
    member's income. Only one member, named right after "do"/"da" an income word, or right before
    "ganha"; or the speaker's own ("minha renda é 7 mil", "eu ganho 7 mil"), written "eu" for the
    chat to name (the reader does not know who writes)."""
    words = said.words
    if not one_amount_at_home(said, subjects.currency):
        return None
    mine = _mine(words)
    if mine is not None:
        at, member_name = mine, "eu"  # the chat writes in the member speaking (Tool.self_argument)
    else:
        named = [(index, member) for index, word in enumerate(words)
                 if (member := member_called(members, word)) is not None]
        if len(named) != 1:
            return None
        [(at, found)] = named
        member_name = found.name
        before = words[at - 2:at] if at >= 2 else ()
        after = words[at + 1] if at + 1 < len(words) else ""
        if not (after in _EARNS or (len(before) == 2 and before[0] in _INCOME | _SALARY
                                    and before[1] in ("do", "da"))):
            return None
    covered = said.covered() | {at}
    if _names_another(words, covered, subjects):
        return None
    rest = [word for index, word in enumerate(words) if index not in covered]
    if any(word not in _INCOME | _SALARY | _EARNS | _I_EARN | _PLAIN for word in rest):
        return None
    if any(member_called(members, word) is not None for index, word in enumerate(words) if index != at):
        return None  # "minha renda e a do Bruno": two members
    return [{"name": SET_INCOME, "arguments": {"amount": money_said(said, said.amounts[0], subjects.currency),
                                               "member": member_name}}]


def _names_another(words: Sequence[str], covered: set[int], subjects: Subjects) -> bool:
    """Whether the message names an expense, a card or a goal: then it is about more than income."""
    return (named_in(words, subjects.expenses) is not None or named_in(words, subjects.cards) is not None
            or goal_named(words, covered, subjects.goals) is not None)


def _mine(words: Sequence[str]) -> int | None:
    """Where the speaker says the income is theirs: "minha renda", "meu salário", "eu ganho"."""
    for index in range(len(words) - 1):
        if (words[index] in ("minha", "meu") and words[index + 1] in _INCOME | _SALARY) or (
                words[index] == "eu" and words[index + 1] in _I_EARN):
            return index
    return None
