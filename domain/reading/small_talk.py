"""Small talk around a spend: "bom dia gente ☀️ a Sofia acordou com febre. passei na farmácia e
gastei 64,90. vc chega q horas?" A couple writes to each other in the chat, and the spend is one
sentence among others about their day.

`sentences` parts a message into its sentences; `only_chats` says whether one sentence's words
hold nothing a spend is made of or changed by: no number but a time, no word of money, of paying,
of a split, of a card, a goal or a correction, no "não"; `chats` adds the scan's view (no amount,
no day it only dates). The free-text reader drops such sentences when they also name nothing of the
household's (domain/agent/reader.py) and reads the rest; what it cannot be sure of stays the
model's, as before. The tools' grounding takes no day from them (`chatting`, domain/tools/grounding.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Final

from domain.reading.message import Scan, scan
from domain.text import matches_any

# Where a sentence ends: ".", "!", "?" or "…" before a space, a parenthesis, or an emoji (with its
# joiners, skin tones and variation selectors): "…pra nós dois 🤤 a Sofia já dormiu".
_PICTOGRAPH: Final = "\u2600-\u27bf\U0001f300-\U0001faff"
EMOJI: Final = re.compile(f"[{_PICTOGRAPH}]")
# Laughter, written: "kkk", "kkkkk", "haha", "rsrs", "hehe" (folded).
LAUGHTER: Final = re.compile(r"k{3,}|(?:ha){2,}h?|(?:rs){2,}|(?:he){2,}")
_BREAK: Final = re.compile(
    rf"(?<=[.!?…])\s+|\s*[()]\s*|\s*[{_PICTOGRAPH}][{_PICTOGRAPH}\u200d\ufe0f\U0001f3fb-\U0001f3ff]*\s*")

# Words that make a sentence part of the money it tells (folded; "*" is a prefix): paying and
# spending, recording, splitting and owning, cards and bills, goals, income and transfers, undoing
# and correcting, an expense's expected amount, a running total, a number, "não".
_MONEY_WORDS: Final = (
    "pag*", "gast*", "compr*", "custa*", "custo*", "desembols*", "abastec*", "lanc*", "registr*", "anot*", "coloc*",
    "poe", "bota", "cadastr*", "despesa*",
    "divid*", "rach*", "metade", "pessoal", "particular", "meu", "minha", "meus", "minhas", "dele", "dela", "so",
    "somente", "apenas", "dois", "duas", "ambos", "ambas", "cada",
    "pix", "cartao", "credito", "debito", "parcel*", "vezes", "fatura", "conta", "contas", "boleto", "valor", "reais",
    "real", "dinheiro", "grana", "troco", "desconto*", "cashback", "juros", "multa", "taxa*",
    "meta", "metas", "aport*", "guard*", "junt*", "poup*", "renda", "salario", "recebi", "ganhei", "transfer*",
    "mandei", "mandou", "enviei", "devo", "deve*", "devend*", "empresta*", "acert*", "reembols*", "estorn*",
    "devolv*",
    "nao", "n", "nem", "errad*", "errei", "era", "eram", "ops", "opa", "corrig*", "cancel*", "desfaz*", "apag*",
    "tira*", "remov*", "desconsider*", "troca", "muda*", "mudou",
    "subiu", "sobe", "aument*", "diminu*", "baix*", "reajust*", "atualiz*", "previst*", "orcamento", "mensal*", "mes",
    "meses", "quant*", "sobr*", "falt*", "saldo", "resumo", "total", "venc*", "ainda", "empresa",
    # a spend taken back: "mercado 300. brincadeira kkk", "deixa pra lá"
    "brincadeira", "brincando", "zoeira", "zoando", "zuera", "mentira", "ignora", "deixa", "esquece", "esqueca")
_DIGIT: Final = re.compile(r"[0-9]")
# A time of day or a while, not money: "às 7", "até as 19h", "1h", "20 min", "meia hora".
_CLOCK_WORD: Final = re.compile(r"[0-9]{1,2}(?:h[0-9]{2}|h|hs|hrs|min)")
_BEFORE_TIME: Final = frozenset({"as"})  # "às 7" (folded)
_AFTER_TIME: Final = frozenset({"h", "hs", "hr", "hrs", "hora", "horas", "min", "mins", "minuto", "minutos"})


# A voice note as transcribed has no stops: there, a word said to the spouse closes a sentence
# ("…deu setenta e quatro reais né tinha promoção de manga…").
_SPOKEN_BREAK: Final = re.compile(r"\b(?:né|ne|viu|beleza|sabe|entendeu|tá bom|ta bom)\b(\s+)", re.IGNORECASE)
_STOPS: Final = re.compile(r"[.,;:!?…]")
_SPOKEN: Final = 12  # words of a message with no stop at all from which it reads as a voice note


def sentences(text: str) -> list[tuple[int, int]]:
    """Where each of `text`'s sentences starts and ends, in order, without the spaces, emoji or
    parentheses that part them; in a voice note (a long message with no stop), also after a word
    said to the spouse ("né", "viu", "tá bom", "beleza")."""
    spans: list[tuple[int, int]] = []
    start = 0
    spoken = not _STOPS.search(text) and len(text.split()) >= _SPOKEN
    breaks = sorted([*((found.start(), found.end()) for found in _BREAK.finditer(text)),
                     *((found.start(1), found.end(1)) for found in (_SPOKEN_BREAK.finditer(text) if spoken else ()))])
    for first, last in breaks:
        if first < start:
            continue
        if first > start:
            spans.append((start, first))
        start = last
    if start < len(text):
        spans.append((start, len(text)))
    return [(first, last) for first, last in spans if text[first:last].strip(" \t.!?…,;:-—")]


def clock(words: Sequence[str]) -> set[int]:
    """The numbers among a sentence's folded words that tell a time of day or a while ("reunião
    até as 7", "chego em 20 min", "levei 1h"), with the words that say so."""
    found: set[int] = set()
    for index, word in enumerate(words):
        if _CLOCK_WORD.fullmatch(word):
            found.add(index)
        elif word.isdigit() and len(word) <= 2:
            if index > 0 and words[index - 1] in _BEFORE_TIME:
                found.update({index - 1, index})
            if index + 1 < len(words) and words[index + 1] in _AFTER_TIME:
                found.update({index, index + 1})
    return found


def only_chats(words: Sequence[str]) -> bool:
    """Whether a sentence's folded words only chat: no word of `_MONEY_WORDS`, and no digit but
    in a time (`clock`). Whether they name a member, an expense, a card or a goal, or a day, is the
    reader's to see."""
    return _no_money(words, clock(words))


def _no_money(words: Sequence[str], times: set[int]) -> bool:
    return bool(words) and not any((_DIGIT.search(word) and index not in times) or matches_any(word, _MONEY_WORDS)
                                   for index, word in enumerate(words))


# A sentence that names a day with at most this many other words dates the spend beside it ("foi
# ontem", "isso foi sábado"); one that says more about the day chats ("vc viu o jogo ontem?").
_DATING: Final = 2


def chats(said: Scan) -> bool:
    """Whether one sentence, scanned, only chats: `only_chats`, no amount but a time ("até as 7"),
    and no day or month unless the sentence says more than it ("vc viu o jogo ontem?", "a entrega é
    sexta"; "foi ontem" dates the spend). Whether it names anything of the household's is the
    reader's to see."""
    words, times = said.words, clock(said.words)
    if not _no_money(words, times) or any(not set(range(found.first, found.last + 1)) <= times for found in said.amounts):
        return False
    dated = {i for when in said.whens for i in range(when.first, when.last + 1)}
    return not dated or len(words) - len(dated) > _DATING


def chatting(text: str, today: date) -> list[tuple[int, int]]:
    """Where `text`'s sentences that only chat (`chats`) start and end: a day named there is not
    the spend's ("disse que vem domingo", "quer jantar sexta?")."""
    return [(first, last) for first, last in sentences(text) if chats(scan(text[first:last], today=today))]
