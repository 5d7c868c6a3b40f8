"""How names compare: case, accents and spacing never matter."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """The comparison key of a name: "  Água  e Luz " and "agua e luz" fold alike."""
    if text.isascii():  # nothing to decompose: the common case, several times faster
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())
