"""How names compare and how they are made safe to show.

`fold` is the comparison key (case, accents and spacing never matter). `normalize_name` is the
one normalizer for every name that enters the domain (household, members, expenses, goals): what
a person later reads in a preview or a summary cannot carry control, format, bidi or zero-width
characters, line breaks or runs of spaces, and is bounded. `skeleton` folds look-alikes too, for
refusing a member name that only looks like another's.
"""

from __future__ import annotations

import unicodedata

from domain.confusables import LATIN_OF

# Emoji, pictographs and their joiners and variation selectors: "Água e Luz 💡" answers to
# "agua e luz", as goals with emoji already did.
_DECORATION = frozenset({"So", "Sk", "Cf", "Mn", "Me", "Cs"})
# Letters that render as nothing (Hangul fillers, the braille blank, the Mongolian vowel separator).
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
# Control, format (zero-width, bidi marks and overrides, BOM), surrogate, private use, unassigned.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
# ASCII look-alikes a skeleton also folds: "0" reads as "o", "1" as "l", "rn" as "m".
_ASCII_LOOK_ALIKES = str.maketrans({"0": "o", "1": "l", "|": "l"})


def _invisible(char: str) -> bool:
    return char in _INVISIBLE_LETTERS or (
        unicodedata.category(char) in _DROPPED_CATEGORIES and not char.isspace())


# The same rules for ASCII text, as translation tables (the fast path of `fold`).
_ASCII_INVISIBLE = str.maketrans("", "", "".join(chr(c) for c in range(128) if _invisible(chr(c))))
_ASCII_DECORATION = str.maketrans("", "", "".join(
    chr(c) for c in range(128) if unicodedata.category(chr(c)) in _DECORATION))


def fold(text: str) -> str:
    """The comparison key of a name: "  Água  e Luz 💡" and "agua e luz" fold alike; invisible
    characters never count, and neither do emoji (a name that is only emoji keeps them)."""
    if text.isascii():  # nothing to decompose: the common case, several times faster
        folded = " ".join(text.translate(_ASCII_INVISIBLE).casefold().split())
        plain = " ".join(folded.translate(_ASCII_DECORATION).split())  # "^" and "`" are Sk
        return plain or folded
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c) and not _invisible(c))
    folded = " ".join(stripped.casefold().split())
    plain = " ".join("".join(c for c in folded if unicodedata.category(c) not in _DECORATION).split())
    return plain or folded


def safe_text(text: str) -> str:
    """NFKC, without control/format/bidi/zero-width characters, whitespace collapsed to single
    spaces (a line break is a space). Never raises; may return ""."""
    normalized = unicodedata.normalize("NFKC", text)
    kept = "".join(" " if c.isspace() else c for c in normalized if not _invisible(c))
    return " ".join(kept.split())


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def skeleton(text: str) -> str:
    """`fold`, with look-alike letters of other scripts read as the Latin ones they mimic:
    "Аna" (Cyrillic А), "Ana\u200b" and "ANA" share the skeleton "ana"."""
    folded = fold(safe_text(text))
    mapped = "".join(LATIN_OF.get(c, c) for c in folded)
    # a mapped letter may itself fold further (an uppercase look-alike mapped to "A")
    return fold(mapped).translate(_ASCII_LOOK_ALIKES).replace("rn", "m")
