"""How names compare: case, accents and spacing never matter."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """The comparison key of a name: "  Água  e Luz " and "agua e luz" fold alike."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())
