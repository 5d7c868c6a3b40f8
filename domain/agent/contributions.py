"""A contribution to a goal, read with no model: "coloquei 2k no carro novo", "aportei 500 na
Amsterdam", "guardei 700 pro casamento ontem".

It is the very `contributeToGoal` call the model would make (the speaker pays, on the day the
message names or today), and only when the verb, the one amount and the one goal are certain: a
second amount, two goals, an expense or a card named too, another member, a plan ("vou guardar"),
a withdrawal ("tirei"), a month without a day, or any word in `_NOT_CERTAIN` leaves it to the
model. "eu e o Bruno colocamos 500 cada" is one call for each of a couple (`_each_of_two`); "o Bruno
aportou 500" is Bruno's (`_member_put`). "comprei 300 euros pra viagem" is a contribution only a
reader of intentions can tell: the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from domain.agent.questions import Subjects, goal_named, money_said, named_in
from domain.household import Member, member_called
from domain.reading.message import Scan
from domain.reading.replies import opens_correction
from domain.text import fold, matches_any, words_of

CONTRIBUTE: Final = "contributeToGoal"

# The verbs of putting money in a goal (folded); a message without one is not a contribution here.
_PUT: Final = frozenset({"aportei", "aporta", "aporte", "aportar", "coloquei", "coloca", "guardei", "guarda",
                         "juntei", "depositei", "poupei", "botei", "bota", "poe", "separei", "investi", "apliquei",
                         "transferi", "mandei"})
# The same verbs with a member before them: "o Bruno aportou 500 na reserva" is Bruno's.
_MEMBER_PUT: Final = frozenset({"aportou", "colocou", "guardou", "juntou", "depositou", "poupou", "botou",
                                "separou", "investiu", "aplicou", "transferiu", "mandou"})
# Words that make it something else, or something the reader cannot be sure of (folded; "*": prefix).
_NOT_CERTAIN: Final = ("cada", "metade", "divid*", "nao", "nem", "cancel*", "desfaz*", "apag*", "tira*", "tirei",
                       "retir*", "saque*", "saquei", "resgat*", "vou", "vamos", "vai", "quero", "queremos",
                       "preciso", "precisamos", "acho", "uns", "umas", "quase", "cerca", "tipo", "todo", "toda",
                       "mensal", "mes", "meses", "cria", "criar", "nova", "novo", "gastei", "comprei", "despesa",
                       "era", "foi", "foram", "ops", "errei", "se", "caso", "talvez", "mais", "tambem", "tb",
                       "outro", "outra", "parcel*", "cartao", "emprest*", "devo", "deve", "acert*")
# "eu e o Bruno colocamos 500 cada", "nós dois guardamos 300 cada": each member of a couple.
_WE_PUT: Final = frozenset({"colocamos", "guardamos", "juntamos", "aportamos", "depositamos", "poupamos",
                            "botamos"})
_EACH: Final = frozenset({"cada"})
_BOTH: Final = frozenset({"eu", "e", "o", "a", "nos", "dois", "duas", "gente", "os", "as", "ambos"})
# "eu paguei", "fui eu", "pago por mim", "paguei eu": the speaker, as the reader assumes anyway.
_BY_SPEAKER: Final = ("eu paguei", "paguei eu", "fui eu", "pago por mim", "foi eu", "eu que paguei")


def read_contribution(text: str, said: Scan, subjects: Subjects, members: Sequence[Member]
                      ) -> list[dict[str, Any]] | None:
    """The one contributeToGoal call the message certainly means, or None (the model's)."""
    words = said.words
    each = _each_of_two(words, members)
    payer = _member_put(words, members)
    verbs = _WE_PUT if each else _PUT | (_MEMBER_PUT if payer else frozenset())
    if "?" in text or not words or opens_correction(words) or not set(words) & verbs:
        return None
    if len(said.amounts) != 1 or said.strays or len(said.whens) > 1 or len(said.currencies) > 1:
        return None
    if said.whens and said.whens[0].day is None:
        return None  # "em março": the day is the model's to ask
    covered = said.covered()
    goal = goal_named(words, covered, subjects.goals)
    if not isinstance(goal, str) or named_in(words, subjects.expenses) or named_in(words, subjects.cards):
        return None
    own = set(words_of(goal))
    if each:
        own |= _WE_PUT | _EACH | _BOTH | {fold(m.name) for m in members}
    if payer is not None:
        own |= {payer[1]}
    rest = " ".join(word for index, word in enumerate(words) if index not in covered and word not in own)
    for phrase in _BY_SPEAKER:
        rest = f" {rest} ".replace(f" {phrase} ", " ").strip()
    if any(matches_any(word, _NOT_CERTAIN) for word in rest.split()):
        return None
    if any(member_called(members, word) for word in rest.split()):
        return None  # another member, or the speaker by name: who paid is the model's to read
    arguments: dict[str, Any] = {"goal": goal, "amount": money_said(said, said.amounts[0], subjects.currency)}
    if said.whens:
        day = said.whens[0].day
        assert day is not None
        if day > subjects.today:
            return None
        arguments["date"] = day.isoformat()
    if each:
        return [{"name": CONTRIBUTE, "arguments": {**arguments, "paidBy": member.name}} for member in members]
    if payer is not None:
        arguments["paidBy"] = payer[0].name
    return [{"name": CONTRIBUTE, "arguments": arguments}]


def _member_put(words: Sequence[str], members: Sequence[Member]) -> tuple[Member, str] | None:
    """The member who put the money in, named right before the verb ("o Bruno aportou 500",
    "a Ana colocou 300"), and the word that names them; None otherwise."""
    for index, word in enumerate(words[1:], start=1):
        if word in _MEMBER_PUT:
            member = member_called(members, words[index - 1])
            return (member, words[index - 1]) if member is not None else None
    return None


def _each_of_two(words: Sequence[str], members: Sequence[Member]) -> bool:
    """ "eu e o Bruno colocamos 500 cada", "nós dois guardamos 300 cada": the same amount from each
    of a couple. The reader does not know who writes, so only in a household of two, with "cada",
    a verb of ours, and the other member named with "eu" (or "nós dois", "a gente")."""
    if len(members) != 2 or not set(words) & _EACH or not set(words) & _WE_PUT:
        return False
    named = {m.name for m in members for word in words if member_called([m], word)}
    return ("eu" in words and len(named) == 1) or (not named and bool(set(words) & {"dois", "duas", "gente",
                                                                                     "ambos"}))
