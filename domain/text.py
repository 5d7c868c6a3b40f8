"""How names compare: case, accents and spacing never matter."""

from __future__ import annotations

import unicodedata

# Emoji, pictographs and their joiners and variation selectors: "Água e Luz 💡" answers to
# "agua e luz", as goals with emoji already did.
_DECORATION = frozenset({"So", "Sk", "Cf", "Mn", "Me", "Cs"})
_ASCII_DECORATION = str.maketrans("", "", "".join(
    chr(c) for c in range(128) if unicodedata.category(chr(c)) in _DECORATION))


def fold(text: str) -> str:
    """The comparison key of a name: "  Água  e Luz 💡" and "agua e luz" fold alike (a name
    that is only emoji keeps them)."""
    if text.isascii():  # nothing to decompose: the common case, several times faster
        folded = " ".join(text.casefold().split())
        plain = " ".join(folded.translate(_ASCII_DECORATION).split())  # "^" and "`" are Sk
        return plain or folded
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = " ".join(stripped.casefold().split())
    plain = " ".join("".join(c for c in folded if unicodedata.category(c) not in _DECORATION).split())
    return plain or folded
