"""A new goal, read with no model: "cria uma meta Reforma do banheiro de 12 mil, eu e o Diego",
"nova meta: Mudança, R$ 8 mil até 30/09/2026, nós dois", "cria a meta Reserva, 20 mil"; and the
couple's wish to save for something new, "eu e o Bruno queremos juntar 6 mil euros pra lua de mel
até junho de 2028" (`_wish`).

It is the `createGoal` call /meta makes, and only when the message asks for a goal in so many
words (cria, abre, nova … meta), names it right after "meta", and writes one amount: its currency
as written (the household's when none is), its deadline the one day or month it writes
(`domain.reading.message.deadline`), and its contributors every member, unless it names some.
The reader does not know who writes: "eu e o Diego" is the couple only in a household of two,
and "só eu" is the model's. A goal with no name ("quero uma meta de €6000 pra junho 2028"), a
second amount, a plan or a question ("dá pra …?"), or any word it does not expect leaves the
message to the model, which can ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from domain.agent.questions import Subjects, goal_named, money_said
from domain.household import Member, member_called
from domain.reading.message import Scan, deadline
from domain.reading.replies import opens_correction

CREATE_GOAL: Final = "createGoal"

# What asks for a new goal, right before "meta" (folded): "cria uma meta", "nova meta", "abre a meta".
_ASK: Final = frozenset({"cria", "crie", "criar", "abre", "abra", "abrir", "faz", "faca", "fazer", "nova", "novo",
                         "cadastra", "cadastre", "cadastrar", "registra", "adiciona", "coloca"})
_BEFORE_META: Final = frozenset({"uma", "a", "ai", "la", "pra", "gente", "nos", "por", "favor", "ae"})
_LEADING: Final = frozenset({"amor", "bot", "oi", "ei", "entao", "ok", "bom", "quero", "queremos", "vamos",
                             "pode", "por", "favor", "pf"})
# What may stand between "meta" and its name: "meta chamada Mudança", "meta com o nome Reserva".
_NAME_INTRO: Final = (("chamada",), ("chamado",), ("com", "o", "nome"), ("com", "nome"), ("de", "nome"),
                      ("nome",), ("chama",))
# What ends a name written without punctuation before the amount: "Reforma do banheiro de 12 mil".
_BEFORE_AMOUNT: Final = frozenset({"de", "com", "no", "valor", "por"})
_BEFORE_DEADLINE: Final = frozenset({"ate", "pra", "para", "p", "em"})
# Every other word the rest of the message may hold (folded).
_PLAIN: Final = _BEFORE_AMOUNT | _BEFORE_DEADLINE | frozenset({
    "e", "o", "a", "os", "as", "do", "da", "dos", "das", "prazo", "meta", "total", "objetivo", "alvo", "juntar",
    "reais", "pf", "pfv", "favor", "ai", "la", "ta", "contribuem", "contribuimos", "contribuindo", "contribui",
    # no deadline: "sem prazo", "sem data pra acabar"
    "sem", "data", "definida", "definido", "acabar", "terminar"})
# Who saves for it: every member ("nós dois", "a gente", "meta dos dois"), or those named.
_EVERYONE: Final = frozenset({"nos", "dois", "duas", "gente", "juntos", "ambos", "todos", "casal"})
_SPEAKER: Final = frozenset({"eu", "mim", "minha", "meu"})
_ALONE: Final = frozenset({"so", "somente", "apenas", "sozinho", "sozinha"})
_PUNCTUATION: Final = frozenset(",;:-–—(")
# "queremos juntar 6 mil pra lua de mel": the couple's wish, a verb of saving, and what it is for.
_WE_WANT: Final = frozenset({"queremos", "vamos", "precisamos"})
_I_WANT: Final = frozenset({"quero", "preciso"})  # only with the couple named: "eu e a Marina"
_BEGIN: Final = (("comecar", "a"), ("comecar", "de"))
_SAVE: Final = frozenset({"juntar", "guardar", "poupar", "economizar"})
_FOR: Final = frozenset({"pra", "para", "pro", "p"})
_ARTICLES: Final = frozenset({"a", "o", "as", "os", "nossa", "nosso", "nossas", "nossos", "uma", "um"})
_INFINITIVE: Final = ("ar", "er", "ir")
MAX_NAME_WORDS: Final = 6
_NOT_A_NAME: Final = frozenset({"de", "da", "do", "pra", "para", "pro", "com", "no", "na", "e", "que",
                                "nossa", "nosso", "minha", "meu"})


def read_new_goal(text: str, said: Scan, subjects: Subjects, members: Sequence[Member]
                  ) -> list[dict[str, Any]] | None:
    """The one createGoal call the message certainly means, or None (the model's)."""
    words = said.words
    if "?" in text or not words or opens_correction(words):
        return None
    start = _name_start(words)
    if start is None:
        return _wish(text, said, subjects, members)
    for end in _name_ends(said, start):
        call = _goal(text, said, subjects, members, start, end)
        if call is not None:
            return [call]
    return None


def _wish(text: str, said: Scan, subjects: Subjects, members: Sequence[Member]) -> list[dict[str, Any]] | None:
    """"eu e o Bruno queremos juntar 6 mil euros pra lua de mel até junho de 2028": a goal the
    couple sets out to save for, named after "pra", which the household does not have yet (one it
    has makes this a plan for it: the model's). Only "queremos", "vamos" or "precisamos" (or
    "quero" with the couple named: "quero começar a juntar pro enxoval, 8,5 mil, eu e a Marina")
    with a verb of saving, right before the one amount or before "pra" and the name, the amount
    after it."""
    words = said.words
    at = next((i for i in range(len(words) - 1) if words[i] in _WE_WANT | _I_WANT), None)
    if at is None or len(said.amounts) != 1:
        return None
    verb = at + 1 + (2 if tuple(words[at + 1:at + 3]) in _BEGIN else 0)  # "queremos começar a juntar"
    if verb >= len(words) or words[verb] not in _SAVE:
        return None
    if words[at] in _I_WANT and not (set(words) & _EVERYONE or (set(words) & _SPEAKER and any(
            member_called(members, word) for word in words))):
        return None  # "quero juntar 5 mil pro notebook": the speaker's own, or the couple's? the model's
    amount = said.amounts[0]
    # "juntar 6 mil pra lua de mel", or "juntar pro enxoval, 8,5 mil": the amount before or after
    start = amount.last + 1 if amount.first == verb + 1 else verb + 1
    if start >= len(words) or words[start] not in _FOR:
        return None
    start += 1
    while start < len(words) and words[start] in _ARTICLES:
        start += 1
    if start >= len(words) or words[start].endswith(_INFINITIVE) or goal_named(
            words, said.covered(), subjects.goals) is not None:
        return None  # "pra trocar de carro": what the name is, the model asks; a goal they have: a plan
    ends = _name_ends(said, start)
    if not ends:
        ends = [len(words)]
    if amount.first > verb + 1 and amount.first < ends[0]:
        return None
    call = _goal(text, said, subjects, members, start, ends[0], before=range(0, at), skip=range(at, start))
    return [call] if call is not None else None


def _name_start(words: Sequence[str]) -> int | None:
    """Where the goal's name begins: after "cria uma meta" (or "nova meta", "meta nova: "…) and
    what may introduce a name; None when the message does not open by asking for a goal."""
    index = 0
    while index < len(words) and words[index] in _LEADING:
        index += 1
    asked = False
    while index < len(words) and (words[index] in _ASK or words[index] in _BEFORE_META):
        asked = asked or words[index] in _ASK
        index += 1
    if index >= len(words) or words[index] != "meta":
        return None
    index += 1
    if not asked and index < len(words) and words[index] in ("nova", "novo"):
        asked, index = True, index + 1  # "meta nova: …"
    if not asked:
        return None
    for intro in _NAME_INTRO:
        if tuple(words[index:index + len(intro)]) == intro:
            return index + len(intro)
    return index


def _name_ends(said: Scan, start: int) -> list[int]:
    """Where the name may end (exclusive), likeliest first: before "de 12 mil", the amount or "até
    <dia>" when no punctuation comes first; at the first punctuation ("Festa de 1 ano: R$ 5 mil")."""
    words, ends = said.words, []
    amount_at = {found.first for found in said.amounts}
    when_at = {when.first for when in said.whens}
    for index in range(start + 1, len(words) + 1):
        if index < len(words) and (index in amount_at or index in when_at):
            ends.append(index)
            break
        if index + 1 < len(words) and (
                (words[index] in _BEFORE_AMOUNT and index + 1 in amount_at)
                or (words[index] in _BEFORE_DEADLINE and index + 1 in when_at)):
            ends.append(index)
            break
        if _parted(said, index):
            break
    punctuated = next((index for index in range(start + 1, len(words)) if _parted(said, index)), None)
    if punctuated is not None and punctuated not in ends:
        ends.append(punctuated)
    return ends


def _parted(said: Scan, index: int) -> bool:
    """Whether punctuation stands between token `index - 1` and token `index`."""
    if index <= 0 or index >= len(said.tokens):
        return False
    return bool(set(said.text[said.tokens[index - 1].end:said.tokens[index].start]) & _PUNCTUATION)


def _goal(text: str, said: Scan, subjects: Subjects, members: Sequence[Member], start: int, end: int,
          before: range = range(0), skip: range = range(0)) -> dict[str, Any] | None:
    """The call for the name at words[start:end]; `before` are words ahead of the name that
    may name who saves ("eu e o Bruno queremos …"), `skip` words already read (the verbs, the
    amount and "pra")."""
    words = said.words
    if not 1 <= end - start <= MAX_NAME_WORDS:
        return None
    if words[start] in _NOT_A_NAME:
        return None  # "meta pra Europa", "meta de viagem": what the name is, the model asks
    name = text[said.tokens[start].start:said.tokens[end - 1].end].strip()
    if not any(character.isalpha() for character in name) or any(c in name for c in _PUNCTUATION | {"?", "\n"}):
        return None
    if name.split()[0] == name.split()[0].lower():
        name = name[0].upper() + name[1:]  # "reforma do banheiro", "festa do Theo": as a name is written
    rest = [*before, *range(end, len(words))]
    amounts = [found for found in said.amounts if found.first >= end or found.first in skip]
    if len(amounts) != 1 or any(found.first < end <= found.last for found in said.amounts):
        return None
    whens = [when for when in said.whens if when.first >= end]
    if len(whens) != len([when for when in said.whens if when.last >= start]) or len(whens) > 1 or (
            before and len(whens) != len(said.whens)):
        return None  # a day or month inside the name ("Natal de dezembro") is not a deadline
    if any(index >= end or index in before for index in said.strays):
        return None
    covered = {i for found in amounts for i in range(found.first, found.last + 1)} | {
        i for when in whens for i in range(when.first, when.last + 1)}
    others = [words[i] for i in rest if i not in covered]
    contributors = _contributors(others, members)
    if contributors is None:
        return None
    if any(word not in _PLAIN and word not in _EVERYONE and word not in _SPEAKER
           and member_called(members, word) is None for word in others):
        return None
    arguments: dict[str, Any] = {"name": name, "target": money_said(said, amounts[0], subjects.currency),
                                 "contributors": contributors}
    if whens:
        day = deadline(_only(said, whens[0]), subjects.today)
        if day is None:
            return None
        arguments["deadline"] = day.isoformat()
    return {"name": CREATE_GOAL, "arguments": arguments}


def _only(said: Scan, when: Any) -> Scan:
    return Scan(said.text, said.tokens, said.amounts, (when,), said.currencies, said.strays, said.words)


def _contributors(words: Sequence[str], members: Sequence[Member]) -> list[str] | None:
    """Every member when the message names none, or says "nós dois"; those it names; with "eu",
    the couple when the one named is the other of two. None when the reader cannot tell (it does
    not know who writes: "só eu", "eu" with a household of three)."""
    named = [m for m in members if any(member_called([m], word) for word in words)]
    speaker = bool(set(words) & _SPEAKER)
    if set(words) & _ALONE:
        return None
    if not named and not speaker:
        return [m.name for m in members]
    if speaker:
        if len(members) == 2 and len(named) == 1:
            return [m.name for m in members]
        return None
    if set(words) & _EVERYONE and len(named) != len(members):
        return None
    return [m.name for m in named]
