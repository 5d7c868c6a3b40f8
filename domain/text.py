"""How names compare and how they are made safe to show.

`fold` is the comparison key (case, accents and spacing never matter). `normalize_name` is the
one normalizer for every name that enters the domain (household, members, expenses, goals): what
a person later reads in a preview or a summary cannot carry control, format, bidi or zero-width
characters, line breaks or runs of spaces, and is bounded. `skeleton` folds look-alikes too, for
refusing a member name that only looks like another's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence

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


_WORD = re.compile(r"[0-9a-z]+")


def words_of(text: str) -> tuple[str, ...]:
    """The folded runs of letters and digits of `text`: "PAG*FARMACIA São João" -> pag, farmacia,
    sao, joao."""
    return tuple(_WORD.findall(fold(text)))


def phrase_spans(words: Sequence[str], phrase: Sequence[str]) -> Iterator[range]:
    """Each place the words of `phrase` stand together, in order, among `words` (none for an empty
    phrase): where a name or an alias stands in a message's folded words."""
    size = len(phrase)
    for start in range(len(words) - size + 1) if size else ():
        if tuple(words[start:start + size]) == tuple(phrase):
            yield range(start, start + size)


def matches_any(word: str, patterns: Iterable[str]) -> bool:
    """Whether a folded word is one of `patterns`, where a pattern ending in "*" is a prefix
    ("cancel*": cancela, cancelar): the word lists of the free-text reader."""
    return any(word.startswith(p[:-1]) if p.endswith("*") else word == p for p in patterns)


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


# --------------------------------------------------------------------------- look-alike letters
# Look-alike letters: characters of other scripts that read as a Latin letter or digit.
#
# Generated once from the Unicode confusables data (confusables.txt, as packaged by
# confusable_homoglyphs 3.3.1): every Cyrillic, Greek, Latin-extension, Armenian, Cherokee or
# Coptic character whose confusable is a single ASCII letter or digit, and that accents and case
# alone would not fold to it. Enough for the names of a household's members, who write in Latin
# script: "Аna" (Cyrillic А) and "Ana" are one name to a reader, so they are one name here.

_LOOK_ALIKES = {
    "2": "\u01a7\u03e8\ua644\ua75a",
    "3": "\u01b7\u021c\u0417\u04e0\u2ccc\ua76a\ua7ab\U0001d206",
    "4": "\u13ce",
    "5": "\u01bc",
    "6": "\u0431\u13ee\u2cd2",
    "7": "\U0001d212",
    "8": "\u0222\u0223",
    "9": "\u2cca\ua76e",
    "a": "\u0251\u0391\u03b1\u0410\u0430\u13aa",
    "b": "\u0184\u0392\u0412\u042c\u13cf\u13f4\ua7b4",
    "c": "\u03f2\u03f9\u0421\u0441\u13df\u1d04\u2ca4\u2ca5\uabaf",
    "d": "\u0501\u13a0\u13e7",
    "e": "\u0395\u0415\u0435\u04bd\u13ac\uab32",
    "f": "\u017f\u03dc\u0584\u1e9d\ua798\ua799\uab35\U0001d213",
    "g": "\u018d\u0261\u050c\u0581\u13c0\u13f3\u1d83",
    "h": "\u0397\u041d\u04bb\u0570\u13bb\u13c2\u2c8e",
    "i": "\u0131\u0269\u026a\u037a\u03b9\u0456\u04cf\u13a5\u1fbe\ua647\uab75",
    "j": "\u037f\u03f3\u0408\u0458\u13ab\ua7b2",
    "k": "\u039a\u041a\u13e6\u2c94",
    "l": "\u0196\u01c0\u0399\u0406\u04c0\u13de\u2c92\u2cd0\uff29\U0001d22a",
    "m": "\u039c\u03fa\u041c\u13b7\u2c98",
    "n": "\u039d\u0578\u057c\u2c9a",
    "o": "\u039f\u03bf\u03c3\u041e\u043e\u0555\u0585\u1d0f\u1d11\u2c9e\u2c9f\uab3d",
    "p": "\u03a1\u03c1\u03f1\u0420\u0440\u13e2\u2ca2\u2ca3",
    "q": "\u051b\u0563\u0566",
    "r": "\u01a6\u0433\u13a1\u13d2\u1d26\u2c85\uab47\uab48\uab81\U0001d216",
    "s": "\u01bd\u0405\u0455\u054f\u13d5\u13da\ua731\uabaa",
    "t": "\u03a4\u0422\u13a2\u2ca6",
    "u": "\u028b\u03c5\u054d\u057d\u1d1c\ua79f\uab4e\uab52",
    "v": "\u03bd\u0474\u0475\u13d9\u1d20\uaba9\U0001d20d",
    "w": "\u026f\u0461\u051c\u051d\u0561\u13b3\u13d4\u1d21\uab83",
    "x": "\u03a7\u0425\u0445\u2cac\ua7b3",
    "y": "\u0263\u028f\u03a5\u03b3\u03d2\u0423\u0443\u04ae\u04af\u13a9\u13bd\u1d8c\u1eff\u2ca8\uab5a",
    "z": "\u0396\u13c3\u1d22\uab93\U000102f5",}

LATIN_OF: dict[str, str] = {char: latin for latin, chars in _LOOK_ALIKES.items() for char in chars}
