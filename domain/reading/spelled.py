"""Numbers written in Portuguese words, as a member says an amount: "cem", "duzentos e cinquenta",
"mil e duzentos", "dois mil e quinhentos", "um milhão". Exact integers only (no "e meio")."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Final, NamedTuple

from domain.text import fold

UNITS: Final = {
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6,
    "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "treze": 13, "catorze": 14,
    "quatorze": 14, "quinze": 15, "dezesseis": 16, "dezasseis": 16, "dezessete": 17, "dezoito": 18,
    "dezenove": 19, "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60,
    "setenta": 70, "oitenta": 80, "noventa": 90, "cem": 100, "cento": 100, "duzentos": 200,
    "duzentas": 200, "trezentos": 300, "trezentas": 300, "quatrocentos": 400, "quatrocentas": 400,
    "quinhentos": 500, "quinhentas": 500, "seiscentos": 600, "seiscentas": 600, "setecentos": 700,
    "setecentas": 700, "oitocentos": 800, "oitocentas": 800, "novecentos": 900, "novecentas": 900,
}
SCALES: Final = {"mil": 1000, "milhao": 10**6, "milhoes": 10**6}
_AND: Final = "e"


class Spelled(NamedTuple):
    """A number read from words `start` to `end` (exclusive) of the words given."""

    value: Decimal
    start: int
    end: int


def is_number_word(word: str) -> bool:
    return fold(word) in UNITS or fold(word) in SCALES


def spelled_at(words: Sequence[str], start: int) -> Spelled | None:
    """The number spelled from `words[start]` on ("duzentos e cinquenta de gasolina" -> 250, ending
    before "de"), or None when no number word begins there. A digit may stand before a scale ("2
    mil e quinhentos"), and digits after one ("2 mil e 300"). An "e" joins only when a number word
    follows it, or such digits."""
    total = 0  # what earlier scales made ("dois mil" -> 2000)
    group = 0  # the hundreds, tens and units since the last scale
    index = start
    seen = False
    last_size = 10**9  # each part of a group is smaller than the one before ("cento e vinte e três")
    while index < len(words):
        word = fold(words[index])
        if word == _AND and seen and index + 1 < len(words) and is_number_word(words[index + 1]):
            index += 1
            continue
        if word == _AND and total and not group and index + 1 < len(words) \
                and words[index + 1].isdigit() and 0 < int(words[index + 1]) < 1000:
            group = int(words[index + 1])  # "2 mil e 300": the digits end the number
            index += 2
            break
        if word in UNITS:
            value = UNITS[word]
            size = _size(value)
            if size >= last_size and group:
                break  # "vinte trinta": two numbers, not one
            group += value
            last_size = size
        elif word in SCALES:
            scale = SCALES[word]
            total += (group or 1) * scale
            group, last_size = 0, 10**9
        elif not seen and word.isdigit() and index + 1 < len(words) and fold(words[index + 1]) in SCALES:
            group = int(word)  # "2 mil e quinhentos"
            last_size = 10**9
        else:
            break
        seen = True
        index += 1
    if not seen:
        return None
    if fold(words[index - 1]) == _AND:
        index -= 1
    return Spelled(Decimal(total + group), start, index)


def _size(value: int) -> int:
    return 3 if value >= 100 else 2 if value >= 20 else 1
