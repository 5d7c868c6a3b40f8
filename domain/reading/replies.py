"""A member's yes or no to a preview, in words: the bot's confirmation by reply (contract §8: a
member answers a preview with "confirma", "ok", 👍 or "cancela", "não", and the bot decides it
exactly as the buttons would, with no model at all), and the agent's "pode confirmar" to the one
preview waiting (domain/agent/chat.py); and a reply that opens as a correction of the last
proposal ("não, foi 250"), which the free-text reader reads against that proposal."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final, Literal

from domain.reading.message import tokens_of
from domain.reading.spelled import UNITS
from domain.text import fold, phrase_spans

Decision = Literal["confirm", "cancel"]

CONFIRM_WORDS: Final = frozenset({"confirma", "confirmar", "confirmado", "sim", "pode", "ok", "👍"})
CANCEL_WORDS: Final = frozenset({"cancela", "cancelar", "nao"})
# Skin tones and the emoji presentation selector: "👍🏽" and "👍️" are the same thumbs up.
_EMOJI_MODIFIERS: Final = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400)) | {"\ufe0f", "\ufe0e"}


def decision_of(text: str | None) -> Decision | None:
    """"confirm" or "cancel" when `text` says only that (case, accents and punctuation ignored)."""
    if not text or len(text) > 40:
        return None
    kept = "".join(
        c for c in fold(text)
        if c not in _EMOJI_MODIFIERS and not unicodedata.category(c).startswith(("P", "Z"))
    )
    word = "".join(kept.split())
    if word in CONFIRM_WORDS:
        return "confirm"
    if word in CANCEL_WORDS:
        return "cancel"
    return None


# Words that say yes to the one preview waiting on their own, in a message of nothing else: "isso",
# "fechado", "beleza", "manda", "lança aí", ✅ (folded). The bot's reply confirmation keeps to
# CONFIRM_WORDS (§8); the agent reads these only with one preview waiting and nothing said since.
_AGREES: Final = CONFIRM_WORDS | frozenset({
    "confirmo", "isso", "fechado", "fechou", "beleza", "blz", "manda", "bora", "perfeito", "certo", "certinho",
    "exato", "exatamente", "correto", "show", "joia", "positivo", "claro", "s", "yes", "uhum", "aham", "lanca",
    "registra", "anota", "grava", "salva", "top", "otimo", "✅", "👌"})
# Words that may stand beside a "sim" or a "confirma" in a message that only agrees ("pode
# confirmar", "sim, pode lançar", "confirma aí por favor"): nothing in them changes what is confirmed.
_AGREEING: Final = _AGREES | frozenset({
    "okay", "ai", "mesmo", "por", "favor", "pfv", "pf", "entao", "lancar", "registrar", "gravar", "salvar",
    "verdade", "ta", "esta", "tudo", "bom", "ser", "la", "ver", "bala", "mandar", "anotar", "confirmar",
    "confirmado", "valeu", "obrigado", "obrigada", "brigado", "brigada", "eu",
    # the spouse called ("sim amor"), and all of what one message proposed ("confirma os dois")
    "amor", "amore", "mor", "vida", "bb", "os", "as", "dois", "duas", "ambos", "ambas", "todos", "todas",
    "pros", "pras"})
_AGREEMENT_LIMIT: Final = 60
# A yes to several previews: "confirma os dois", "pode lançar ambas", "sim, todas".
_SEVERAL: Final = frozenset({"dois", "duas", "ambos", "ambas", "todos", "todas"})


def only_agrees(text: str | None) -> bool:
    """Whether `text` says only yes to a preview: a confirmation word ("confirma", "sim", "pode",
    "ok", 👍, "isso", "fechado", "beleza"), with nothing beside it but words that change nothing
    ("pode confirmar", "sim, pode lançar", "tá certo"). A number, a name or any other word means
    more than yes: not this."""
    if decision_of(text) == "confirm":
        return True
    if not text or len(text) > _AGREEMENT_LIMIT or "?" in text:  # "isso?": a question, not a yes
        return False
    words = _reply_words(text)
    return bool(words) and set(words) <= _AGREEING and bool(set(words) & _AGREES)


def _reply_words(text: str) -> list[str]:
    """A short reply's folded words, punctuation and emoji modifiers aside ("sim, os dois!")."""
    return "".join(c if not unicodedata.category(c).startswith(("P", "Z")) else " "
                   for c in fold(text) if c not in _EMOJI_MODIFIERS).split()


def agrees_to_several(text: str) -> bool:
    """Whether a yes (`only_agrees`) is to several previews ("confirma as duas"). With one
    waiting, the member expects a second the bot never made: the model asks which."""
    return bool(set(_reply_words(text)) & _SEVERAL)


# What a correction opens with (folded): "não, …", "ops …", "foi mal, …", "na verdade …".
CORRECTION_OPENERS: Final = frozenset({"nao", "ops", "opa", "oops", "opss", "errei", "corrigindo", "corrige",
                                       "desculpa", "desculpe", "perdao", "alias", "pera", "perai", "enganei",
                                       "confundi"})
# Openings of more than one word: "foi mal, …", "digitei errado, é 128,20", "o valor certo é 205".
_CORRECTION_PHRASES: Final = (("foi", "mal"), ("na", "verdade"), ("na", "vdd"), ("na", "real"),
                              ("digitei", "errado"), ("escrevi", "errado"), ("lancei", "errado"),
                              ("coloquei", "errado"), ("botei", "errado"), ("o", "valor", "certo"),
                              ("o", "valor", "correto"), ("valor", "certo"), ("o", "certo"), ("o", "correto"),
                              ("valor", "errado"), ("o", "valor", "ta", "errado"), ("o", "valor", "esta", "errado"),
                              ("me", "enganei"), ("me", "confundi"), ("errei", "o", "valor"))


# What may stand before that opening: the spouse, called ("amor, não, era 40").
TERMS_OF_ENDEARMENT: Final = frozenset({"amor", "amore", "mor", "vida", "bb", "bebe", "mozao", "querida", "querido"})
_VOCATIVES: Final = TERMS_OF_ENDEARMENT | {"ah", "eita", "ih", "xi", "putz"}  # and an interjection first: "ah não, foi 180"
# A reply that says the value again, right after a preview ("foi 25", "põe 15 mil"): a correction
# when it holds nothing but that value; otherwise the message is read as any other.
RESTATING: Final = frozenset({"foi", "era", "eram", "foram", "poe", "coloca", "bota", "muda", "troca",
                             "passei"})  # "passei no cartão da XP, esqueci de falar"
# What a restated value may follow: "essa foi em julho", "isso era 45".
_THAT: Final = frozenset({"isso", "essa", "esse", "esta", "este"})
# A spend's verb, said again with no amount: "paguei ontem, esqueci de lançar" (its day); "quem
# pagou foi a Larissa", "fui eu que paguei" (who paid).
_PAID_AGAIN: Final = frozenset({"paguei", "pagou", "pago", "paga", "gastei", "comprei", "abasteci"})
# Parcelas said on their own, after a card purchase's preview: "em 3x", "parcelei em 2 vezes".
_PARCELAS_TOLD: Final = re.compile(r"\d{1,2}x")
_COUNT: Final = re.compile(r"\d{1,2}")
_TIMES_TOLD: Final = frozenset({"x", "vezes", "parcelas"})
# Parcelas said by the verb, with the count alone after "em": "parcelado em 2", "parcelei em 3"
# ("dividi em 2" may be the bill split between the two: the model's).
PARCELED: Final = frozenset({"parcelado", "parcelada", "parcelei", "parcelamos", "parcelou"})
_OPENING_WORDS: Final = 5


# What a correction may close with instead: "é 81 na verdade", "foi ontem na real", "lança 178 de
# carne, tinha digitado errado".
_CLOSING_PHRASES: Final = (("na", "verdade"), ("na", "vdd"), ("na", "real"),
                            *((slip, "errado") for slip in ("digitei", "digitado", "escrevi", "escrito", "lancei",
                                                            "lancado", "coloquei", "botei")))


def opens_correction(words: Sequence[str]) -> bool:
    """Whether a message's folded words open as a correction ("não, …", "amor, foi mal, …", an
    amount denied: "200 não, 220"), or close as one ("é 81 na verdade")."""
    words = _after_vocatives(words)
    return bool(words) and (words[0] in CORRECTION_OPENERS
                            or any(tuple(words[:len(phrase)]) == phrase for phrase in _CORRECTION_PHRASES)
                            or (len(words) > 1 and words[1] == "nao" and any(c.isdigit() for c in words[0]))
                            or any(len(words) > len(phrase) and tuple(words[-len(phrase):]) == phrase
                                   for phrase in _CLOSING_PHRASES))


def restates(words: Sequence[str]) -> bool:
    """Whether a message's folded words open by saying a value again ("foi 25", "amor, era 40",
    "essa foi em julho")."""
    words = _after_vocatives(words)
    if len(words) > 1 and words[0] in _THAT:
        words = words[1:]
    return bool(words) and words[0] in RESTATING


# A first clause that cancels or redoes the last preview before the value is said again: "cancela,
# era 230", "cancela esse, é 230", "esquece, era 12", "apaga e lança 1.250", "lança de novo, 1.150"
# (after ❌).
CANCELS: Final = frozenset({"cancela", "cancelar", "esquece", "esqueca", "apaga", "anula", "desconsidera",
                            "ignora"})
AGAIN: Final = ("de", "novo")


def leads_to_a_value(words: Sequence[str]) -> bool:
    """Whether a message's folded words open by cancelling or redoing ("cancela, era 230", "lança
    de novo, 1.150"): the reader then reads the rest as a correction."""
    words = _after_vocatives(words)
    return bool(words) and (words[0] in CANCELS or any(tuple(words[i:i + 2]) == AGAIN for i in range(3)))


def corrects(words: Sequence[str]) -> bool:
    """Whether a message's folded words open as a correction or say a value again ("não, foi
    250", "foi 25"): a correction of the last proposal, whichever tool made it."""
    return opens_correction(words) or restates(words[:_OPENING_WORDS])


# The speaker's own spend, kept out of the couple's split (folded).
_ONLY: Final = ("so", "somente", "apenas")
_KEPT_OUT: Final = (("pessoal",), ("particular",), ("por", "minha", "conta"),
                    *((only, mine) for only in _ONLY for mine in ("meu", "minha", "meus", "minhas")),
                    *((only, to, "mim") for only in _ONLY for to in ("pra", "para")),
                    *((no, divide) for no in ("nao", "n") for divide in ("divide", "dividir", "divida", "dividimos")),
                    *(("nao", "precisa", split) for split in ("dividir", "rachar")),
                    ("nao", "e", "pra", "dividir"), ("nao", "e", "para", "dividir"), ("sem", "dividir"),
                    ("nao", "racha"), ("nao", "rachar"))


def kept_out(words: Sequence[str]) -> set[int]:
    """Where a message's folded words keep a spend out of the couple's split ("é só meu", "só pra
    mim", "não divide", "n divide essa", "por minha conta", "é pessoal"); empty when nowhere.
    "pessoal" opening a message, or after a greeting, calls the group ("pessoal, paguei a luz",
    "oi pessoal, …", "bom dia pessoal, …"): not this."""
    return {i for phrase in _KEPT_OUT for where in phrase_spans(words, phrase)
            if not (phrase == ("pessoal",) and _calls_the_group(words, where.start)) for i in where}


_GREETINGS: Final = frozenset({"oi", "ola", "opa", "ei", "eai", "ae", "alo", "dia", "tarde", "noite", "salve"})


def _calls_the_group(words: Sequence[str], index: int) -> bool:
    """"pessoal" as people: calling the group, or after an article ("pro pessoal do futebol")."""
    return (index == 0 or words[index - 1] in _GREETINGS or words[index - 1] in _BEFORE_PEOPLE
            or (index >= 2 and tuple(words[index - 2:index]) == ("e", "ai")))


_BEFORE_PEOPLE: Final = frozenset({"o", "pro", "pra", "do", "da", "no", "com", "ao", "todo"})


def tells_late(words: Sequence[str]) -> bool:
    """Whether a message's folded words may tell what a spend's preview left out, with no amount:
    who paid ("quem pagou fui eu", "o Vinícius que pagou"), its day ("paguei ontem"), its
    parcelas ("em 3x", "em 3 vezes", "em três vezes", "parcelado em 2"), or that it is the
    speaker's own ("ah, essa é só minha, não divide")."""
    if kept_out(words) and not any(c.isdigit() for word in words for c in word):
        return True
    if any(_PARCELAS_TOLD.fullmatch(word) or ((_COUNT.fullmatch(word) or word in UNITS) and following in _TIMES_TOLD)
           for word, following in zip(words, (*words[1:], ""), strict=True)):
        return True
    if any(word in PARCELED and tuple(words[i + 1:i + 2]) == ("em",) and i + 2 < len(words)
           and (_COUNT.fullmatch(words[i + 2]) or words[i + 2] in UNITS) for i, word in enumerate(words)):
        return True
    return not any(c.isdigit() for word in words for c in word) and bool(set(words) & _PAID_AGAIN)


# A goal named by the turn before ("cria a meta Reserva" → "já coloca 1.000 meu nela").
BACK_TO_A_GOAL: Final = re.compile(r"\b(?:nela|n[ea]ss?a meta|n[ea]sta meta|pra ela|para ela)\b", re.IGNORECASE)


def refers_back(text: str) -> bool:
    """Whether `text` names a goal only as "nela", "nessa meta": the one the conversation's last
    write call was about, which the reader then needs."""
    return bool(BACK_TO_A_GOAL.search(text))


# A tag question after a statement ("lança 50 no mercado, blz?", "era 40, né?"): it asks for
# nothing; the statement is what the member says.
_TAG_QUESTION: Final = re.compile(
    r"[,\s]+(?:blz|beleza|ok|okay|pode ser|pode|t[aá]|n[eé]|certo|combinado|fechado)\s*\?+\s*$", re.IGNORECASE)


def without_tag_question(text: str) -> str:
    """`text` without a tag question at its end ("…, blz?", "…, né?"), or as it is."""
    return _TAG_QUESTION.sub("", text) if "?" not in _TAG_QUESTION.sub("", text) else text


def starred(text: str) -> bool:
    """Whether `text` is a chat's correction by asterisk: the right value with one "*" before or
    after it ("*213", "213*"), as a member fixes the message before."""
    stripped = text.strip()
    return len(stripped) > 1 and stripped.count("*") == 1 and (stripped[0] == "*" or stripped[-1] == "*")


def may_correct(text: str) -> bool:
    """Whether `text` opens as a correction, or restates a value, so the free-text reader needs
    the call it corrects: the conversation is read only then."""
    words = tuple(fold(token.text) for token in tokens_of(text))
    return corrects(words) or leads_to_a_value(words[:_OPENING_WORDS]) or tells_late(words) or starred(text)


def _after_vocatives(words: Sequence[str]) -> Sequence[str]:
    index = 0
    while index < len(words) - 1 and words[index] in _VOCATIVES:
        index += 1
    return words[index:]
