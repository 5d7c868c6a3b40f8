"""The household's names in a member's words: an expense, a goal or a card as a message writes
it, accents and case aside, in the singular or the plural ("remédio" for the alias "remédios"),
and through one typo ("acdemia" for "Academia"). The free-text reader finds what a message names
with it (domain/agent/reader.py), and the tools check with it that a proposal is about something
the members named (domain/tools/grounding.py)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Final

from rapidfuzz import process
from rapidfuzz.distance import OSA

from domain.reading.message import tokens_of
from domain.text import fold

MIN_PLURAL: Final = 5  # letters of the shortest word whose final s is a plural's
MIN_TYPO: Final = 6  # letters of the shortest word of a name known through a typo
MIN_WORD: Final = 4  # letters of the shortest word of a longer name that names it alone ("Fort")
MIN_NEAR: Final = 5  # letters of the shortest word a mention may misspell ("fiera"; "caso" is no "casa")
# Letters of the shortest word a mention may misspell twice ("supermecrado"); a shorter one once:
# a letter left out, added, changed, or two swapped ("acdemia", "fiera"), never "cadeira" for "academia".
MIN_TWO_SLIPS: Final = 9


@functools.lru_cache(maxsize=1024)
def words(text: str) -> tuple[str, ...]:
    """A text's words, folded. The household's names are read against every message: each is
    split and folded once."""
    return tuple(fold(token.text) for token in tokens_of(text))


# Verbs that name a spend with no name of its own: "abasteci 200" is the household's fuel (folded).
FUELLING: Final = ("abasteci", "abasteceu", "abastecemos", "abasteceram")
_IMPLIED: Final = ((FUELLING, frozenset({"combustivel", "gasolina", "etanol", "alcool", "diesel", "posto"})),)


def implied(names: Sequence[str]) -> tuple[str, ...]:
    """The verbs that name the expense called `names` (its name and aliases) by what it is for
    ("abasteci" for an expense named or aliased "gasolina", "posto", "combustível"); none for others."""
    return tuple(verb for verbs, meaning in _IMPLIED if any(set(words(name)) & meaning for name in names)
                 for verb in verbs)


def singular(folded: Sequence[str]) -> tuple[str, ...]:
    """Folded words as a name is compared with them: a plural in -s is its singular ("remédio"
    for the alias "remédios", "restaurante" for "Restaurantes"). Short words keep their s ("gás",
    "mais"); two names that differ only by it meet on the same words."""
    return tuple(word[:-1] if len(word) >= MIN_PLURAL and word.endswith("s") else word for word in folded)


@functools.lru_cache(maxsize=1024)
def keys(text: str) -> tuple[str, ...]:
    """A name's words as compared: folded, singular."""
    return singular(words(text))


@functools.lru_cache(maxsize=64)
def spellings(names: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The words of `names` (as compared): those long enough to be known through a typo, and all."""
    every = frozenset(key for name in names for key in keys(name))
    return frozenset(key for key in every if len(key) >= MIN_TYPO and key.isalpha()), every


@functools.lru_cache(maxsize=4096)
def respelled(key: str, known: tuple[frozenset[str], frozenset[str]], others: frozenset[str] = frozenset()) -> str:
    """The one word of `known` that `key` is a typo of (one letter left out, added, changed, or two
    swapped: rapidfuzz's OSA distance), or `key` itself: when it is a word of `known` or of
    `others` (the household's other names), too short, or near none or two."""
    typo_prone, every = known
    if len(key) < MIN_TYPO - 1 or not key.isalpha() or key in every or key in others:
        return key
    near = process.extract(key, typo_prone, scorer=OSA.distance, score_cutoff=1, limit=2)
    return str(near[0][0]) if len(near) == 1 else key


def mentioned_in(message: Sequence[str], names: Iterable[str]) -> bool:
    """Whether a message's folded words hold one of `names` as whole words, or a word spelt nearly
    as one of a name's ("acdemia", "fiera"; rapidfuzz's OSA distance): what the model is told
    about in full (the working memory). Closer than `loosely_written_in`, which only says nobody
    named a thing."""
    for name in names:
        phrase = words(name)
        if _holds(message, phrase) or any(_near(message, word) for word in phrase):
            return True
    return False


def named_in(message: Sequence[str], names: Iterable[str]) -> bool:
    """As `mentioned_in`, but a name of several words only whole ("Pague Menos", never the "menos"
    of "pelo menos"): the one expense a proposal may go to when the model named another."""
    for name in names:
        phrase = words(name)
        if _holds(message, phrase) or (len(phrase) == 1 and _near(message, phrase[0])):
            return True
    return False


def _holds(message: Sequence[str], phrase: Sequence[str]) -> bool:
    return bool(phrase) and any(tuple(message[start:start + len(phrase)]) == tuple(phrase)
                                for start in range(len(message) - len(phrase) + 1))


def _near(message: Sequence[str], word: str) -> bool:
    """Whether the message writes `word` (of four letters or more: the "Fort" of "Fort Atacadista"),
    or a letter or two off (five letters or more; two in a long word)."""
    if len(word) < MIN_WORD or word.isdigit():
        return False
    if len(word) < MIN_NEAR:
        return word in message
    slips = 1 if len(word) < MIN_TWO_SLIPS else 2
    return any(len(said) >= MIN_NEAR and OSA.distance(said, word, score_cutoff=slips) <= slips for said in message)


# The verbs a spend is told with ("paguei", "gastou", "comprei"): written as they are, never a
# name written loosely, whatever name they look like.
_TELLS_A_SPEND: Final = re.compile(r"(?:pag|gast|compr)(?:uei|ou|amos|aram|o|a|ar|ei|ue|ava|ando)")


def loosely_written_in(text: str, names: Iterable[str]) -> bool:
    """Whether `text` writes a word of `names` at all, loosely: in the singular or the plural, a
    few letters off (one in a short word, one in four in a long one), by its first five letters
    ("mercadinho" for "Mercado") or inside a longer word ("supermercado"); a name of one short word
    or a number ("XP", "99") as that word. What a check that nobody named the thing needs: a name written
    any way at all is named."""
    wanted = {key for name in names for key in keys(name) if len(key) >= 3 and not key.isdigit()}
    # a name of one short word, or a number: that word ("99", a ride app; "XP", a card)
    wanted |= {key for name in names if len(keys(name)) == 1 for key in keys(name) if len(key) >= 2}
    for said in set(singular(words(text))):
        if said in wanted:
            return True
        if _TELLS_A_SPEND.fullmatch(said):  # "paguei" is no misspelt "Pague" of "Pague Menos"
            continue
        for key in wanted:
            if len(said) < 4 or len(key) < 4:
                continue
            if OSA.distance(said, key, score_cutoff=max(1, len(key) // 4)) <= max(1, len(key) // 4) \
                    or (len(key) >= 5 and len(said) >= 5 and (said[:5] == key[:5] or key in said)):
                return True
    return False
