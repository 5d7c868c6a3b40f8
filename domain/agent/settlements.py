"""An acerto asked for in words, read with no model: "te mandei 100 no pix, acerta aí", "fiz o pix
de 200 pro Diego, acerta", "acerta o que eu devo pro Bruno".

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

from domain.agent.questions import Subjects, goal_named, money_said, named_in
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


def read_settlement(text: str, said: Scan, subjects: Subjects, members: Sequence[Member]
                    ) -> list[dict[str, Any]] | None:
    """The one settleUp call the message certainly means, or None (the model's)."""
    words = said.words
    if "?" in text or not words or opens_correction(words) or not set(words) & _SETTLE:
        return None
    if len(said.amounts) > 1 or said.strays or len(said.currencies) > 1:
        return None
    if any(code != subjects.currency for code in said.currencies) or any(
            found.amount.currency not in (None, subjects.currency) for found in said.amounts):
        return None  # another currency: the model's to ask
    covered = said.covered()
    if goal_named(words, covered, subjects.goals) is not None or named_in(words, subjects.expenses) is not None \
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
        elif not (before in _WITH and len(members) == 2):
            return None  # "o Bruno me mandou", "a dívida do Bruno": who pays whom is the model's
    if said.amounts:
        arguments["amount"] = money_said(said, said.amounts[0], subjects.currency)
    return [{"name": SETTLE, "arguments": arguments}]
