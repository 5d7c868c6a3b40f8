"""An acerto asked for in words, read with no model: "te mandei 100 no pix, acerta aí", "fiz o pix
de 200 pro Diego, acerta", "acerta o que eu devo pro Bruno"; or money sent to the spouse for an
expense, in a household of two: "te passei 150 do mercado, Caio", "te mandei 115 no pix da luz".

It is the `settleUp` call /acerto makes: a word asking for the acerto, at most one amount, in the
household's currency, and no member named but the one the speaker pays ("pro Diego") or settles
with ("acerta com o Bruno", in a household of two). The tool then settles the debt the speaker is
in, as /acerto does; no amount is the whole of it. A plan ("vou acertar"), a hedge, a share
("metade"), an undo, a member named any other way ("o Bruno me mandou 100", "a dívida do Bruno"),
an expense, goal or card named, or any word in `_NOT_CERTAIN` leaves it to the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from domain.agent.questions import Subjects, goal_named, money_said, named_in, spans_named
from domain.household import Member, member_called
from domain.reading.message import Scan
from domain.reading.replies import opens_correction
from domain.text import matches_any

SETTLE: Final = "settleUp"

# The words that ask for the acerto (folded); a message without one is not an acerto here.
_SETTLE: Final = frozenset({"acerta", "acertar", "acerte", "acerto", "acertamos", "quita", "quitar", "quitei"})
# Words that make it something else, or something the reader cannot be sure of (folded; "*": prefix).
_NOT_CERTAIN: Final = ("cada", "metade", "divid*", "nao", "nem", "cancel*", "desfaz*", "apag*", "tira*",
                       "vou", "vamos", "vai", "depois", "amanha", "acho", "uns", "umas", "quase", "cerca", "tipo",
                       "se", "caso", "talvez", "mais", "menos", "parte", "era", "ops", "errei", "emprest*",
                       "gastei", "gastou", "comprei", "cartao", "parcel*", "meta", "despesa", "saldo")
_TO: Final = frozenset({"pro", "pra", "para", "ao", "pros", "pras"})  # "pro Diego", "para a Ana"
_WITH: Final = frozenset({"com"})  # "acerta com o Bruno"
_ARTICLES: Final = frozenset({"o", "a"})
# Money sent to the spouse ("te passei", "te fiz um pix"): an acerto when it repays an expense.
_SENT: Final = frozenset({"passei", "mandei", "transferi", "pixei", "devolvi", "enviei"})
_OF: Final = frozenset({"do", "da", "dos", "das", "de"})  # "do mercado": what the money repays


def read_settlement(text: str, said: Scan, subjects: Subjects, members: Sequence[Member]
                    ) -> list[dict[str, Any]] | None:
    """The one settleUp call the message certainly means, or None (the model's)."""
    words = said.words
    repays = _repays(words, subjects, members)
    if "?" in text or not words or opens_correction(words) or not (set(words) & _SETTLE or repays):
        return None
    if len(said.amounts) > 1 or said.strays or len(said.currencies) > 1:
        return None
    if any(code != subjects.currency for code in said.currencies) or any(
            found.amount.currency not in (None, subjects.currency) for found in said.amounts):
        return None  # another currency: the model's to ask
    covered = said.covered()
    if goal_named(words, covered, subjects.goals) is not None \
            or (named_in(words, subjects.expenses) is not None and not repays) \
            or named_in(words, subjects.cards) is not None:
        return None
    if any(matches_any(word, _NOT_CERTAIN) for index, word in enumerate(words) if index not in covered):
        return None
    arguments: dict[str, Any] = {}
    for index, word in enumerate(words):
        member = member_called(members, word) if index not in covered else None
        if member is None:
            continue
        before = words[index - 1] if index > 0 else ""
        if before in _ARTICLES and index > 1:
            before = words[index - 2]
        if before in _TO and "paidTo" not in arguments:
            arguments["paidTo"] = member.name  # the speaker pays them
        elif repays and index in (0, len(words) - 1) and "paidTo" not in arguments:
            arguments["paidTo"] = member.name  # "te passei 150 do mercado, Caio": whom "te" is
        elif not (before in _WITH and len(members) == 2):
            return None  # "o Bruno me mandou", "a dívida do Bruno": who pays whom is the model's
    if said.amounts:
        arguments["amount"] = money_said(said, said.amounts[0], subjects.currency)
    return [{"name": SETTLE, "arguments": arguments}]


def _repays(words: Sequence[str], subjects: Subjects, members: Sequence[Member]) -> bool:
    """ "te passei 150 do mercado", "te fiz um pix de 115 da luz": money sent to the spouse ("te",
    in a household of two) that repays one expense, named after "do/da". Money sent for nothing
    named ("te mandei 100 no pix") or for something to buy ("pro mercado") is the model's."""
    if len(members) != 2:
        return False
    spans = spans_named(words, subjects.expenses) if sends_to_spouse(words) else {}
    if len(spans) != 1:
        return False
    first = min(next(iter(spans.values())))
    return first > 0 and words[first - 1] in _OF


def sends_to_spouse(words: Sequence[str]) -> bool:
    """ "te passei", "te mandei", "te fiz um pix": money sent to the member spoken to, never a
    spend (the spend reader refuses it: "te passei 150 do mercado e 30 da luz")."""
    return any(word == "te" and index + 1 < len(words)
               and (words[index + 1] in _SENT or (words[index + 1] == "fiz" and "pix" in words[index + 2:index + 4]))
               for index, word in enumerate(words))
