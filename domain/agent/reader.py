"""The free-text reader: the commonest spend messages understood with no model at all.

"gastei 37,90 no mercado", "paguei 120 de luz ontem", "mercado 25", "uber 23,50 pro aeroporto",
"o Bruno pagou 80 de farmácia", "gastei 50 no mercado e 30 na farmácia": when the amount and
exactly one expense (by name or alias) are certain, the reader makes the very `recordSpend` call
the model would make, and `AgentChat` runs it as one, before and instead of any model request
(contract §9). Anything it is not sure of — a question, a change of an expected amount, a goal, a
correction, a second number, an unknown name, another currency — it leaves to the model, or to the
usual hint when there is none. It never guesses: a wrong preview is worse than a model request.
A plain question ("quanto falta pra Amsterdam?") it hands to `domain.agent.questions`, which names
the one read it means, or none; a plain contribution to a goal ("coloquei 2k no carro novo") to
`domain.agent.contributions`, which makes /aporte's call, or none; a goal asked for by name ("cria
uma meta Reforma de 12 mil, eu e o Diego") to `domain.agent.new_goals`, which makes /meta's, or
none; the household's income told
plainly ("nossa renda é 12 mil") to `domain.agent.income`, which makes setIncome's, or none; an
expense's new expected amount on change words ("o aluguel vai pra 2.700") to
`domain.agent.adjustments`, which makes /ajuste's, or none; an acerto asked for ("te mandei 100 no
pix, acerta aí") to `domain.agent.settlements`, which makes /acerto's, or none. Sentences of small
talk around a spend ("bom dia ☀️ a Sofia acordou com febre. passei na farmácia, 64,90") it leaves
out first (`domain.reading.small_talk`), and takes what is left only when it is spends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any, Final, Literal

from pydantic.alias_generators import to_snake

from domain.agent.adjustments import IS, read_adjustment
from domain.agent.contributions import CONTRIBUTE, read_contribution
from domain.agent.income import read_income
from domain.agent.new_goals import CREATE_GOAL, read_new_goal
from domain.agent.questions import Subjects, is_question, read_question
from domain.agent.settlements import read_settlement, sends_to_spouse
from domain.budget import Budget
from domain.cards import MAX_INSTALLMENTS
from domain.goals import Goal
from domain.household import MIN_NICKNAME, Household, Member, member_called
from domain.money import Money, Period
from domain.reading.message import Found, Scan, When, scan
from domain.reading.names import FUELLING, implied, loosely_written_in, respelled, singular, spellings
from domain.reading.names import keys as _keys
from domain.reading.names import words as _words
from domain.reading.replies import (
    AGAIN,
    BACK_TO_A_GOAL,
    CANCELS,
    CORRECTION_OPENERS,
    PARCELED,
    RESTATING,
    TERMS_OF_ENDEARMENT,
    kept_out,
    leads_to_a_value,
    opens_correction,
    refers_back,
    restates,
    starred,
    tells_late,
    without_tag_question,
)
from domain.reading.small_talk import EMOJI, LAUGHTER, chats, sentences
from domain.reading.spelled import spelled_at
from domain.text import fold, matches_any, phrase_spans

RECORD_SPEND: Final = "recordSpend"

# Words that make a message something other than a plain spend, or a spend the reader cannot be
# sure of: each sends the message to the model. Folded (no accents); a word ending in "*" is a prefix.
_NOT_A_PLAIN_SPEND: Final = tuple(["subiu", "sobe", "subir", "aumentou", "aumenta", "aumentar", "aumento", "diminui", "diminuiu", "diminuir", "baixou", "baixa", "baixar", "reajust*", "atualiz*", "mudou", "muda", "mudar", "mude", "passa", "passou", "agora", "previsto", "prevista", "orcamento", "mensal", "mensalidade", "todo", "toda", "cadastr*", "cria", "criar", "crie", "nova", "despesa", "despesas", "meta", "metas", "aport*", "guardei", "guardar", "guardamos", "juntei", "juntar", "juntamos", "poupei", "poupar", "poupanca", "acert*", "pix", "devo", "deve", "devem", "devendo", "transferi", "mandei", "empresta*", "emprestei", "renda", "salario", "recebi", "ganhei", "rendimento", "divid*", "metade", "cada", "nao", "nem", "errado", "errada", "era", "ops", "corrig*", "cancel*", "desfaz*", "desfazer", "apaga*", "apagar", "tira", "tirar", "tirei", "tiramos", "tirou", "remove*", "estorn*", "reembols*", "devolv*", "volta", "voltou", "cartao", "credito", "parcel*", "vezes", "fatura", "vai", "vamos", "vou", "vai", "iremos", "quero", "queria", "queremos", "preciso", "precisamos", "devemos", "planej*", "prever", "se", "caso", "talvez", "acho", "estimo", "deveria", "seria", "uns", "umas", "aproximadamente", "tipo", "cerca", "quase", "total", "sem", "quanto", "quanta", "quantos", "quantas", "qual", "quais", "como", "quando", "onde", "porque", "pq", "sera",
    # a running total, a saving, money set aside, a due date, a plan, a unit price: not a spend
    "ja", "ta", "tah", "esta", "estamos", "acumulad*", "menos", "economiz*", "desconto*", "cashback",
    "deixa", "deixar", "separa*", "reserv*", "venc*", "amanha", "depois", "litro*", "kg", "quilo*",
    "unidade*",
    # a bill still to pay: "semana que vem tem que pagar a escola, 1100", "falta pagar a luz"
    "vem", "tem", "proxim*", "falta*", "precisa*",
    # a weekend across two months, or a month's end: a day the reader cannot date; time counted
    # back in a way it does not read ("duas semanas atrás", "há uns dias")
    "fim", "final", "fds", "atras", "retrasad*", "dias", "semanas", "meses",
    # a spend taken back as it is told: "mercado 300. brincadeira kkk"
    "brincadeira", "brincando", "zoeira", "zoando", "zuera", "mentira",
    # a part of the amount beside it ("230 no mercado, sendo 30 de farmácia"), not a spend of its own
    "sendo", "incluindo", "incluso", "inclusive", "dentro"])
_QUESTION_OPENERS: Final = frozenset({"quanto", "quanta", "quantos", "quantas", "qual", "quais",
                                      "como", "quando", "onde", "porque", "pq", "sera", "da", "dá"})
_PAID: Final = frozenset({"pagou", "paga", "pagaram", "gastou", "gastaram", "comprou", "compraram", "abasteceu"})
_ONE_PAID: Final = frozenset({"pagou", "gastou", "comprou", "abasteceu"})  # one person paid
_PAID_BY: Final = re.compile(r"^pag[oa]\s+(?:pel[oa]|por)$")
_SELF: Final = frozenset({"eu", "mim", "me", "meu", "minha"})
_WE: Final = frozenset({"gente", "nos"})  # "a gente pagou": the speaker, as when no one is named
# The speaker in the first person: beside a member who paid, the message tells two payers.
_SPEAKER_SPENT: Final = frozenset({"gastei", "gastamos", "paguei", "pagamos", "comprei", "compramos"})
_SPEAKER: Final = _SELF | _SPEAKER_SPENT | frozenset({"comigo", "fui"})
_JOINERS: Final = frozenset({"e", "mais", "tambem", "tb", "+"})
_CHANGE_TO: Final = frozenset({"pra", "para", "em"})
_PER: Final = frozenset({"por", "ao"})  # "por mês", "ao mês"
_COSTS: Final = frozenset({"custa", "custam"})
_BY_PIX: Final = frozenset({"no", "pelo", "via", "por", "com"})  # "no pix": how it was paid
_ON_CARD: Final = frozenset({"no", "na"})  # "no Nubank", "na Visa"
_CARD_WORDS: Final = ("cartao", "credito")  # "no cartão do Itaú", "no crédito do Nubank"
_PARCELAS: Final = re.compile(r"^([0-9]{1,2})x$")  # "10x"
_TIMES: Final = frozenset({"vezes", "parcelas"})  # "em 2 vezes", "3 parcelas" ("2 x 50" is a product)
_PARCELADO: Final = frozenset({"em", "parcelado", "parcelada", "parcelei", "dividido", "dividi"})
_PAID_NOW: Final = frozenset({"paguei", "pagamos", "pago", "paga"})  # after "já": paid, not a running total
# Beside parcelas the reader found: words that say them again, or that the amount is the whole price.
_NO_INTEREST: Final = ("sem", "juros")
_SAYS_PARCELAS: Final = frozenset({"parcelei", "parcelamos", "parcelou", "parcelado", "parcelada", "total"})
# "mensalidade" tells a standing price ("a mensalidade é 1.100") unless the bill was paid or came.
_BILL: Final = "mensalidade"
_INVOICE: Final = "fatura"  # a card's bill, or, right before an expense's name, that expense's ("fatura da Claro")
_BILL_PAID: Final = frozenset({"paguei", "pagamos", "pagou", "pagaram", "deu", "veio", "custou", "custaram"})
# "tá pago", "está paga": a bill paid ("tá em 500" is a running total)
_IS_NOW: Final = frozenset({"ta", "tah", "esta"})
_PAID_STATE: Final = frozenset({"pago", "paga", "pagos", "pagas", "paguinho", "paguinha", "quitado", "quitada"})
_MIN_GOAL_WORD: Final = 5
# A spend told in words: beside one, or an amount in digits, the reader takes a typo for an expense's name.
_SPENT: Final = frozenset({"gastei", "gastamos", "gastou", "gastaram", "paguei", "pagamos", "pagou", "pagaram",
                           "comprei", "compramos", "comprou", "compraram", "lanca", "registra", "anota",
                           "deu", "veio", "foi"})
# Brands that begin with an expense's usual name but are something else: Mercado Livre is a web
# shop, Uber Eats and 99Food deliver meals. Unless the household calls an expense so, the model's.
_OTHER_BRANDS: Final = (("mercado", "livre"), ("mercadolivre",), ("mercado", "pago"), ("uber", "eats"),
                        ("99", "food"), ("99food",), ("99", "pay"), ("99pay",))
_RECORD: Final = frozenset({"lanca", "registra", "anota", "coloca", "poe", "bota", "lancar", "registrar"})
MAX_SPENDS: Final = 5
_DIGIT_IN: Final = re.compile(r"[0-9]")
MAX_TEXT: Final = 300  # characters: a longer message is more than a spend


@dataclass(frozen=True)
class _Match:
    expense: str  # its name
    first: int
    last: int


@dataclass(frozen=True)
class SpendReader:
    """What the reader knows of the household when a message arrives: its currency, members,
    active expenses (names and aliases), goals (whose names send a message to the model) and the
    day the message was written, in the household's time zone."""

    currency: str
    members: tuple[Member, ...]
    expenses: tuple[tuple[str, tuple[str, ...]], ...]
    goal_words: frozenset[str]
    today: date
    cards: tuple[tuple[str, tuple[str, ...]], ...] = ()  # active cards: name, and every name they answer to
    goals: tuple[str, ...] = ()  # the active goals' names, for the questions it reads
    known: frozenset[str] = frozenset()  # every word of the household's names: never taken for a typo
    expected: tuple[tuple[str, Money], ...] = ()  # each active expense's expected amount this month
    # The words of the cards' names that name nothing else (no expense, no member), three letters
    # or more: one left over ("no visa" for "Itaú Visa") is a card the reader did not take whole.
    card_words: frozenset[str] = frozenset()

    @classmethod
    def of(cls, household: Household, budget: Budget | None, goals: Iterable[Goal], today: date) -> SpendReader:
        expenses = tuple((e.name, (e.name, *e.aliases)) for e in budget.active_expenses()) if budget else ()
        expenses = _with_implied(expenses)
        expense_words = {word for _, names in expenses for name in names for word in _words(name)}
        goal_words = frozenset(
            word for goal in goals if not goal.archived for word in _words(goal.name)
            if len(word) >= _MIN_GOAL_WORD and not word.isdigit() and word not in expense_words)
        cards = tuple((c.name, (c.name, *c.aliases)) for c in budget.active_cards()) if budget else ()
        goal_names = tuple(goal.name for goal in goals if not goal.archived)
        known = frozenset(word for name in (*goal_names, *(n for _, names in cards for n in names),
                                            *(m.name for m in household.members)) for word in _keys(name))
        expected = tuple((e.name, e.expected_for(Period.of(today))) for e in budget.active_expenses()) \
            if budget else ()
        ordinary = expense_words | {word for member in household.members for word in _words(member.name)}
        card_words = frozenset(word for _, names in cards for name in names for word in _words(name)
                               if len(word) >= 3 and word not in ordinary)
        return cls(household.currency, tuple(household.members), expenses, goal_words, today, cards,
                   goal_names, known, expected, card_words)

    def read(self, text: str, last: Mapping[str, Any] | None = None) -> list[dict[str, Any]] | None:
        """The calls `text` certainly means: one recordSpend per spend it tells, or, when it only
        corrects the write call the conversation proposed `last` ("não, foi 250", "ops, isso foi
        mês passado"), that call with the one thing it corrects; or the one read a plain question
        means ("quanto falta pra Amsterdam?"), or the contribution a plain message to a goal makes
        ("coloquei 2k no carro novo"); None when unsure."""
        if not _readable(text):
            return None
        text = without_tag_question(text)  # "lança 50 no mercado, blz?": the statement
        chat = self._without_small_talk(text)
        if chat is not None:  # "bom dia ☀️ a Sofia acordou com febre. passei na farmácia, 64,90": the spend
            calls = self.read(chat[0], last)
            if calls and all(call["name"] == RECORD_SPEND and "corrects" not in call
                             and not (chat[1] and "card" in call["arguments"]) for call in calls):
                return calls  # else read whole, as ever: a question, a goal or a correction among the chat
        said = scan(text, today=self.today)
        if last is not None and starred(text):  # "*213": the value of the message before, put right
            return self._corrected(scan(text.replace("*", " "), today=self.today), last)
        if last is not None and "?" not in text and leads_to_a_value(said.words):
            value_at = _after_lead(said)  # "cancela, era 230", "lança de novo, 1.150"
            if value_at is not None:
                return self._corrected(scan(text[value_at:], today=self.today), last)
        if last is not None and said.words and opens_correction(said.words):
            return None if "?" in text else self._corrected(said, last)
        if last is not None and "?" not in text and restates(said.words):
            corrected = self._corrected(said, last)  # "foi 25, vc trocou os números"
            if corrected is not None:
                return corrected  # else "foi 250 de luz": a spend, read as any other
        if last is not None and "?" not in text and last.get("name") == RECORD_SPEND and tells_late(said.words):
            told = self._told_late(said, last)  # "quem pagou fui eu", "em 3x", "paguei ontem", "é só meu"
            if told is not None:
                return told
        subjects = Subjects(self.expenses, self.goals, self.cards, self.currency, self.today, self.expected)
        if last is not None and refers_back(text):
            return self._to_last_goal(text, last, subjects)
        if is_question(text, said):
            return read_question(text, said, subjects)
        contribution = read_contribution(text, said, subjects, self.members)
        if contribution is not None:
            return contribution
        goal = read_new_goal(text, said, subjects, self.members)
        if goal is not None:
            return goal
        income = read_income(said, subjects, self.members)
        if income is not None:
            return income
        adjustment = read_adjustment(said, subjects)
        if adjustment is not None:
            return adjustment
        settlement = read_settlement(text, said, subjects, self.members)
        if settlement is not None:
            return settlement
        words = said.words
        if not words or words[0] in _QUESTION_OPENERS or sends_to_spouse(words):
            return None
        matches = self._expenses_in(words)
        if not matches or _another_brand(words, matches):
            return None
        named = self._named(words)
        parcelas = _parcelas(words, said)
        card = self._card_in(words, named, bool(parcelas))
        if parcelas is False or card is False:
            return None
        # An expense's or a card's name with digits ("99", "Celular 2", "no C6") is a name, not an
        # amount; "em 2 vezes" neither.
        taken = named | (set(parcelas[1]) if parcelas else set()) | (set(card[1]) if card else set())
        amounts = [a for a in said.amounts if not taken & set(range(a.first, a.last + 1))]
        difference = _difference(words, amounts)
        if difference is not None:  # "o wifi veio 139,90, lança a diferença de 19,90": the 19,90
            taken |= {i for a in amounts if a is not difference for i in range(a.first, a.last + 1)}
            taken |= {difference.first - 2, difference.first - 1}
            amounts = [difference]
        if len(amounts) != len(matches) or len(amounts) > MAX_SPENDS:
            return None
        if any(i not in taken for i in said.strays) or any(not self._home(found) for found in amounts):
            return None
        if any(a.first > 0 and words[a.first - 1] in _CHANGE_TO for a in amounts):
            return None  # "foi pra 120", "subiu pra 2.750", "coloca o mercado em 1800": a new expected amount
        if _pays_later(said):
            return None  # "chegou a conta da EDP, 79,12, pago na sexta": a bill still to pay
        if any(_states_a_price(said, a.first) for a in amounts) or _per_month(said):
            return None  # "o aluguel é 3.200", "mercado 1.500 por mês": what it costs, not a spend
        if any(code != self.currency for code in said.currencies):
            return None
        period = self._period(said)
        if period is None and (card is not None or len(amounts) < 2):
            return None  # two days for one spend; several spends each on its day are read below
        if parcelas and (card is None or len(amounts) != 1):
            return None  # parcelas go on a card: the one named, for the one purchase
        covered = taken | {i for a in amounts for i in range(a.first, a.last + 1)} | {
            i for when in said.whens for i in range(when.first, when.last + 1)}
        if parcelas:  # "parcelei o sofá em 3x no Nubank, 630 no total": the same parcelas, the whole price
            covered |= {i for i, word in enumerate(words) if word in _SAYS_PARCELAS}
            # "em 3 vezes sem juros": how the parcelas are, right after them
            covered |= {i for where in phrase_spans(words, _NO_INTEREST) if where.start == parcelas[1].stop
                        for i in where}
        covered |= _paid_by_pix(words, matches) | _asides(said, self.members) | _bill_named(words)
        if card is None and not parcelas:  # "parcela do IPTU 161,37": one of a bill's, paid; "fatura da Claro 109,90"
            covered |= {i for i, word in enumerate(words[:-2]) if word in _ONE_PARCELA | {_INVOICE}
                        and words[i + 1] in ("do", "da", "de") and any(m.first == i + 2 for m in matches)}
        # a clause that names the one expense again ("…, era o remédio da febre") still only remarks
        covered |= self._remarks(said, (covered - named) | (named if len(matches) > 1 else set()))
        own = kept_out(words)  # "é pessoal", "só meu", "não divide", "por minha conta": kept out of the split
        covered |= own
        # "geladeira nova", right after the expense's name: the thing bought, no new expense
        covered |= {m.last + 1 for m in matches if m.last + 1 < len(words) and words[m.last + 1] in _NEW}
        payer = self._payer(words, covered)
        if payer is False or payer is True:
            return None
        rest = [word for i, word in enumerate(words) if i not in covered]
        if any(_refused(word) for word in rest) or self._names_a_goal(rest) or self._names_a_card(rest):
            return None
        shared = not own
        if not own and _for_me(words, covered):
            return None
        pairs = _pairs(amounts, matches, said)
        if pairs is None:
            return None
        periods = [period] * len(pairs) if period is not None else _each_on_its_day(pairs, said)
        if periods is None:
            return None
        calls = []
        for (found, match), month in zip(pairs, periods, strict=True):
            arguments: dict[str, Any] = {
                "expense": match.expense, "period": str(month),
                "amount": {"amount": f"{found.value:f}", "currency": self.currency}}
            if payer is not None:
                arguments["paidBy"] = payer.name
            if not shared:
                arguments["shared"] = False
            if card is not None:
                arguments["card"] = card[0]
                if said.days():  # the purchase's day decides its fatura: "no Nubank ontem"
                    arguments["date"] = next(iter(said.days())).isoformat()
            if parcelas:
                arguments["installments"] = parcelas[0]
            calls.append({"name": RECORD_SPEND, "arguments": arguments})
        return calls

    def focus(self, text: str) -> str:
        """What of `text` a model reads when the reader leaves it: the message without its
        sentences that only chat ("bom dia ☀️ a Sofia acordou com febre. passei na Pague Menos e
        gastei 64,90" → "passei na Pague Menos e gastei 64,90."), or all of it. A small model
        lost the spend among them; the tools still check its call against the whole message."""
        if not _readable(text):
            return text
        chat = self._without_small_talk(text)
        return chat[0] if chat is not None else text

    def _without_small_talk(self, text: str) -> tuple[str, bool] | None:
        """`text` without its sentences that only chat (`_chats`), and whether one of those named
        a day (a card purchase's day decides its fatura: such a spend stays whole); None when it
        has no such sentence, or nothing else."""
        parts = sentences(text)
        if len(parts) < 2:
            return None
        scans = [scan(text[first:last], today=self.today) for first, last in parts]
        chat = [self._chats(said) for said in scans]
        kept = [(first, last) for (first, last), talk in zip(parts, chat, strict=True) if not talk]
        if not kept or len(kept) == len(parts):
            return None
        dated = any(talk and said.whens for said, talk in zip(scans, chat, strict=True))
        pieces = (text[first:last].rstrip() for first, last in kept)
        return " ".join(piece if piece[-1] in ".!?…" else f"{piece}." for piece in pieces), dated

    def _chats(self, said: Scan) -> bool:
        """Whether a sentence, scanned, only chats (`chats`: no number but a time, no word of money,
        no day it only dates), with no expense, goal or card, and no member but one called first
        ("dani vc viu…", "Zé, …")."""
        words = said.words
        if not chats(said) or self._named(words) or self._names_a_goal(words) or self._names_a_card(words):
            return False
        return not any(member_called(self.members, word) and not (
            index == 0 and len(words) > 2 and (words[1] in _YOU or _comma_after(said, 0)))
            for index, word in enumerate(words))

    def _home(self, found: Found) -> bool:
        return found.amount.currency in (None, self.currency)

    def _expenses_in(self, words: Sequence[str]) -> list[_Match] | None:
        """Each place an expense's name or alias stands (the longest where they overlap), in order;
        None when one expense stands in two places, or two expenses in one."""
        found: list[_Match] = []
        keys = self._keys_in(words)
        for name, names in self.expenses:
            for written in names:
                found.extend(_Match(name, where.start, where.stop - 1)
                             for where in phrase_spans(keys, _keys(written)))
        found.sort(key=lambda m: (m.first, -(m.last - m.first)))
        kept: list[_Match] = []
        for match in found:
            if kept and match.first <= kept[-1].last:
                if match.expense != kept[-1].expense and match.last >= kept[-1].last:
                    return None  # two expenses over the same words
                continue
            kept.append(match)
        distinct: list[_Match] = []
        for match in kept:  # "o gás acabou, comprei botijão": one expense, named twice
            if all(match.expense != other.expense for other in distinct):
                distinct.append(match)
        if len(distinct) != len(kept) and len(distinct) > 1:
            return None  # one expense twice among others: which amount is whose is unclear
        return distinct

    def _keys_in(self, words: Sequence[str]) -> tuple[str, ...]:
        """The message's words as the expenses' names are compared with them: singular, and, in a
        message that tells a spend ("paguei 45 na acdemia") or writes an amount ("gasolna 200"), a
        word one typo away from exactly one word of an expense's name taken for that word. A word of
        any of the household's names, or one the reader refuses, stays as written."""
        keys = singular(words)
        if not _SPENT & set(words) and not any(_DIGIT_IN.search(word) for word in words):
            return keys
        known = spellings(tuple(name for _, names in self.expenses for name in names))
        return tuple(key if _refused(key) else respelled(key, known, self.known) for key in keys)

    def _corrected(self, said: Scan, last: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """`last` with the amount, or the month or day, the correction says: exactly one of them,
        with nothing else in the message (no name of an expense, goal, card or member) but the
        words of a correction, and, in a clause of its own, a reason that changes nothing else
        ("não, 2.750, esqueci o reajuste"; "foi 25, vc trocou os números")."""
        name, arguments = str(last.get("name")), dict(last.get("arguments") or {})
        restated: set[int] = set()  # "errei, era 39,90 do Globoplay": the spend's own expense, named again
        if name == RECORD_SPEND and self._named(said.words):
            restated = self._same_expense(said, arguments)
            if not restated:
                return self._expense_corrected(said, last)
        if name == RECORD_SPEND and not restated and not said.whens:
            told = self._card_or_payer_corrected(said, last)  # "foi no Inter", "ops, foi em 3x"
            if told is not None:
                return told
        if self._named(said.words) - restated or self._names_a_goal(said.words) or said.strays:
            return None
        said, denied = _without_denied(said, arguments.get(_MONEY_ARGUMENT.get(name, "")))
        restated |= denied  # "foi 120, não 210", "não foi hoje, foi sábado": the old value, denied
        if any(member_called(self.members, word) or self._knows(word)
               for index, word in enumerate(said.words) if index not in restated):
            return None
        covered = said.covered() | restated
        for clause in _clauses(said):
            loose = [i for i in clause if i not in covered and said.words[i] not in _CORRECTING]
            if loose and (covered & set(clause) or any(_changes_more(said.words, i) for i in clause)):
                return None  # a word beside the new value, or a reason that changes something else
        amounts, whens = said.amounts, _one_when(said.whens)  # "foi dia 31, mês passado": one day
        money = len(amounts) == 1 and name in _MONEY_ARGUMENT
        moved = len(whens) == 1 and name in _WHEN_ARGUMENT
        # one of them, or, for a spend, both ("ah não, foi 180 e foi na terça") in the spend's currency
        both = money and moved and name == RECORD_SPEND and not said.currencies
        if not (both or (money and not whens) or (moved and not amounts)):
            return None
        corrected = _proposed(arguments)
        if money:
            key = _MONEY_ARGUMENT[name]
            old = arguments.get(key) or arguments.get(to_snake(key))
            old_currency = old.get("currency") if isinstance(old, Mapping) else None
            written = amounts[0].amount.currency or (next(iter(said.currencies)) if len(said.currencies) == 1 else None)
            currency = written or old_currency or self.currency
            corrected.pop(to_snake(key), None)
            corrected[key] = {"amount": f"{amounts[0].value:f}", "currency": currency}
        if moved:
            key, kind = _WHEN_ARGUMENT[name]
            when = whens[0]
            if kind == "day" and when.day is None:
                return None
            corrected[key] = str(when.month) if kind == "month" else when.day.isoformat()  # type: ignore[union-attr]
            if name == RECORD_SPEND and "date" in corrected:  # a card purchase's day goes with its month
                corrected.pop("date")
                if when.day is not None:  # "não, foi ontem": that day's fatura
                    corrected["date"] = when.day.isoformat()
        return _correction(name, corrected, last)

    def _told_late(self, said: Scan, last: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """What a spend's preview left out, told with no correction word: its day ("paguei ontem,
        esqueci de lançar"), who paid ("o Vinícius que pagou", "quem pagou fui eu") or its
        parcelas ("em 3x", "parcelei em 2 vezes"); None when the message says anything more."""
        if said.whens:
            return self._corrected(said, last) if not said.amounts and not said.strays else None
        return self._card_or_payer_corrected(said, last)

    def _card_or_payer_corrected(self, said: Scan, last: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """The spend `last` proposed, on the one card the correction names ("foi no Inter", "não,
        foi no cartão XP", "passei no cartão da XP, esqueci de falar"), in the parcelas it writes
        when the spend is on a card ("em 3x", "foi no cartão do banri, em 3x"), paid by the one
        member it names as the payer ("foi o Felipe que pagou", "quem pagou fui eu": the member
        speaking), or kept out of the split ("ah, essa é só minha, não divide"), with nothing else
        in it; None otherwise."""
        arguments = _proposed(dict(last.get("arguments") or {}))
        covered = _just_recording(said)  # "na real foi a Natália que pagou, eu só tô lançando"
        covered |= _vocatives(said, self.members)  # "essa fui eu que paguei, Zé"
        covered |= self._card_denied(said, arguments.get("card"))  # "foi no Santander, não no Nubank"
        words = tuple("" if index in covered else word for index, word in enumerate(said.words))
        parcelas = _parcelas(words, said)
        if parcelas is False:
            return None
        taken = set(parcelas[1]) if parcelas else set()
        if said.whens or any(not set(range(a.first, a.last + 1)) <= taken for a in said.amounts) \
                or any(index not in taken for index in said.strays):
            return None  # a value beside it: a correction of the amount or day, or a new spend
        told = dict(arguments)
        own = kept_out(words)  # "ah, essa é só minha, não divide"
        if own:
            told["shared"] = False
            covered |= own
            words = tuple("" if index in own else word for index, word in enumerate(words))
        if parcelas:
            told["installments"] = parcelas[0]
            covered |= taken
        card = self._card_in(words, set(), parcelas=bool(parcelas))
        if card is False:
            return None
        if card:
            told["card"] = card[0]
            covered |= set(card[1])
        elif not parcelas:
            speaker = _speaker_paid(words)
            payer = self._payer(words, covered) if speaker is None else None
            if speaker is not None:
                told.pop("paidBy", None)  # the member speaking, as the chat fills it in
                covered |= speaker
            elif isinstance(payer, Member):
                told["paidBy"] = payer.name
            elif not (own and payer is None):
                return None
        if parcelas and not told.get("card"):
            return None  # parcelas of a spend on no card: the model's
        if not covered or told == arguments:
            return None
        rest = [word for index, word in enumerate(words) if index not in covered and word]
        if any(word not in _CORRECTING | _TOLD_LATE or word in _CHANGES_TO_NAMES for word in rest):
            return None
        return _correction(RECORD_SPEND, told, last)

    def _to_last_goal(self, text: str, last: Mapping[str, Any], subjects: Subjects) -> list[dict[str, Any]] | None:
        """A contribution to the goal the last write call was about, named "nela" ("cria a meta
        Reserva" → "já coloca 1.000 meu nela"): read as if the message named it; None when that
        call was about no goal the household has (yet: a goal not confirmed is the model's)."""
        arguments = last.get("arguments") or {}
        goal = arguments.get("name") if last.get("name") == CREATE_GOAL else \
            arguments.get("goal") if last.get("name") == CONTRIBUTE else None
        if not isinstance(goal, str) or goal not in self.goals or "?" in text:
            return None
        def naming(found: re.Match[str]) -> str:  # "nela" → "na meta Reserva", "pra ela" → "pra meta Reserva"
            return f"{'pra' if found.group(0).lower().endswith(' ela') else 'na'} meta {goal}"

        named = BACK_TO_A_GOAL.sub(naming, text)
        return read_contribution(named, scan(named, today=self.today), subjects, self.members)

    def _same_expense(self, said: Scan, arguments: Mapping[str, Any]) -> set[int]:
        """The words of the one expense a correction names when it is the spend's own (by any of its
        names); empty when it names another, or more than one."""
        matches = self._expenses_in(said.words)
        if not matches or len(matches) != 1 or self._named(said.words) != set(range(matches[0].first,
                                                                                    matches[0].last + 1)):
            return set()
        before = fold(str(arguments.get("expense", "")))
        names = next(names for name, names in self.expenses if name == matches[0].expense)
        return set(range(matches[0].first, matches[0].last + 1)) if before in {fold(n) for n in names} else set()

    def _expense_corrected(self, said: Scan, last: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """The spend `last` proposed, on the one other expense the correction names and nothing
        else ("não, foi na farmácia", "ops, era luz"); None when it says anything more."""
        matches = self._expenses_in(said.words)
        if not matches or said.amounts or said.whens or said.strays:
            return None
        arguments = _proposed(dict(last.get("arguments") or {}))
        before = fold(str(arguments.get("expense", "")))
        old_names = next((names for _, names in self.expenses if before in {fold(n) for n in names}), (before,))
        denied = _denied(said, old_names)  # "não era mercado, era farmácia": the old one, denied
        matches = [m for m in matches if not set(range(m.first, m.last + 1)) <= denied]
        if len(matches) != 1:
            return None
        match = matches[0]
        if any(before in {fold(n) for n in names} for name, names in self.expenses if name == match.expense):
            return None  # the same expense: nothing corrected, or something the reader cannot see
        rest = [w for i, w in enumerate(said.words) if not match.first <= i <= match.last and i not in denied]
        if any(w not in _CORRECTING or w in _CHANGES_TO_NAMES for w in rest):
            return None
        if any(member_called(self.members, w) or self._knows(w) for w in rest):
            return None
        return _correction(RECORD_SPEND, {**arguments, "expense": match.expense}, last)

    def _card_in(self, words: Sequence[str], named: set[int], parcelas: bool = False
                 ) -> tuple[str, range] | Literal[False] | None:
        """The card a message names after "no"/"na" ("gastei 50 no mercado no Nubank"): its name
        and the words it takes; None when it names none; False when it names one otherwise, or two,
        or with an expense's words: a card the reader is unsure of is the model's.

        A card may also be named by one word of its name that no other card, expense or member
        has ("no cartão do itaú" for "Itaú Click"), after the word "cartão", or in parcelas ("no
        itaú em 3x": only a card takes parcelas); "no itaú" alone may be the bank's debit, so the
        model's."""
        found: list[tuple[str, range]] = []
        for name, names in self.cards:
            for written in names:
                found.extend((name, where) for where in phrase_spans(words, _words(written)))
        whole = bool(found)
        if not found:
            found = [(name, range(index, index + 1)) for index, word in enumerate(words)
                     for name in self._cards_with_word(word)]
        if not found:
            return None
        cards = {name for name, _ in found}
        name, where = max(found, key=lambda item: len(item[1]))
        if len(cards) > 1 or named & set(where):
            return False
        # "no Nubank", "no cartão Itaú", "no cartão do Nubank"
        before = [words[i] for i in range(max(0, where.start - 5), where.start)]
        for lead in (*([word, "do"] for word in _CARD_WORDS), *([word, "da"] for word in _CARD_WORDS),
                     *([word] for word in _CARD_WORDS), ["cartao", "de", "credito", "do"], []):
            if not (whole or parcelas or lead):
                continue
            if len(before) >= len(lead) + 1 and before[len(before) - len(lead):] == lead \
                    and before[len(before) - len(lead) - 1] in _ON_CARD:
                return name, range(where.start - len(lead) - 1, where.stop)
        return False

    def _card_denied(self, said: Scan, card: Any) -> set[int]:
        """The words of a clause that denies the card `card` ("não no Nubank", "e não no cartão do
        Nubank") by one of its names, written whole to the clause's end; empty otherwise."""
        names = next((names for name, names in self.cards if name == card), ())
        words = said.words
        for clause in _clauses(said):
            at = next((i for i in clause if words[i] == "nao"), None)
            if at is None:
                continue
            index = at + 1
            while index <= clause[-1] and words[index] in ("foi", "era", *_ON_CARD, *_CARD_WORDS, "de", "do", "da"):
                index += 1
            rest = tuple(words[index:clause[-1] + 1])
            if rest and any(rest == _words(name) for name in names) and set(clause[:clause.index(at)]) <= {
                    i for i in clause if words[i] == "e"}:
                return set(range(at, clause[-1] + 1)) | set(clause[:clause.index(at)])
        return set()

    def _cards_with_word(self, word: str) -> list[str]:
        """The one card whose names hold `word`, when it is a word of `card_words` (no expense's or
        member's); none when no card, or two, hold it."""
        if word not in self.card_words:
            return []
        holding = [name for name, names in self.cards if any(word in _words(n) for n in names)]
        return holding if len(holding) == 1 else []

    def _named(self, words: Sequence[str]) -> set[int]:
        """Every word an expense's name or alias takes, wherever it stands."""
        taken: set[int] = set()
        keys = self._keys_in(words)
        for _, names in self.expenses:
            for written in names:
                for where in phrase_spans(keys, _keys(written)):
                    taken.update(where)
        return taken

    def _period(self, said: Scan) -> Period | None:
        months = said.months()
        if len(months) > 1 or len(said.days()) > 1:
            return None
        return next(iter(months)) if months else Period.of(self.today)

    def _payer(self, words: Sequence[str], covered: set[int]) -> Member | bool | None:
        """Who paid when the message names a member ("o Bruno pagou", "pago pela Ana"): that
        member; None when it names nobody (the speaker paid); False when it names a member in any
        other way, or someone who is not one ("o Pedro pagou"), or a member beside the speaker's own
        spend ("paguei 230 de luz e o Diego pagou 98 de água", "o Diego pagou a água e eu a luz":
        whose is which is the model's)."""
        named: Member | None = None
        for index, word in enumerate(words):
            if index in covered:
                continue
            member = member_called(self.members, word) or self._nickname_paying(words, index)  # "o Rafa pagou"
            if member is None:
                if word in _PAID and index > 0 and words[index - 1] not in _SELF | _WE | {"quem"} \
                        and index - 1 not in covered and not _paid_by_speaker(words, index):
                    return False  # "o Pedro pagou": not a member the reader knows
                continue
            after = words[index + 1] if index + 1 < len(words) else ""
            if after == "que" and index + 2 < len(words):  # "foi a Ana que pagou"
                after = words[index + 2] if words[index + 2] in _PAID else after
            before = " ".join(words[max(0, index - 2):index])
            asked = _who_paid(words, index)
            if after in _PAID or _PAID_BY.match(before) or asked:
                if named is not None and named != member:
                    return False
                named = member
                covered.update(asked or ({index, index + 1, index + 2} if tuple(words[index + 1:index + 2]) == ("que",)
                               else {index, index + 1} if after in _PAID else {index, index - 1, index - 2}))
            else:
                return False
        if named is not None and _SPEAKER & set(words):
            return False
        if any(word == "quem" and index not in covered for index, word in enumerate(words)):
            return False  # "quem pagou o açougue foi o Pedro": someone the reader does not know
        return named

    def _nickname_paying(self, words: Sequence[str], index: int) -> Member | None:
        """A nickname that tells a member nowhere else, where it can only be a person: one too short
        ("Gu", "Fê", "Rê") that begins exactly one member's name, or one of four letters or more that
        ends it ("Mila" for Camila, "Rique" for Henrique; "Ana" is a name of its own, not Luana's),
        and is no word of the household's. Its
        places: first, or after "o"/"a", right before "pagou" or "que pagou" ("a Fê pagou o Condor",
        "Mila pagou a farmácia"), or after "quem pagou foi o" ("quem pagou foi o Rique")."""
        word = words[index]
        if len(word) < 2 or not word.isalpha() or word in self.known:
            return None
        article = index > 0 and words[index - 1] in ("o", "a")
        after = words[index + 1:index + 3]
        paying = bool(after[:1] and after[0] in _ONE_PAID) \
            or (len(after) == 2 and after[0] == "que" and after[1] in _ONE_PAID)
        if not ((paying and (article or index == 0)) or (article and _who_paid(words, index))):
            return None  # "a Bru e o An pagaram": two people, one of them not read
        if any(word in _words(name) for _, names in self.expenses for name in names):
            return None
        called = [member for member in self.members
                  if (len(word) < MIN_NICKNAME and fold(member.name).startswith(word))
                  or (len(word) >= MIN_NICKNAME and fold(member.name).endswith(word) and fold(member.name) != word)]
        return called[0] if len(called) == 1 else None

    def _remarks(self, said: Scan, covered: set[int]) -> set[int]:
        """The `_REMARKING` words of a clause that only remarks on the spend: after the first
        clause, with nothing of it in `covered` (an amount, a day or month, a card, a payer), no
        digit, no member's or known name, and no other word the reader refuses."""
        words, remarks = said.words, set()
        for clause in _clauses(said)[1:]:
            if covered & set(clause) or any(_DIGIT_IN.search(words[i]) for i in clause):
                continue
            if any(member_called(self.members, words[i]) or words[i] in self.known for i in clause):
                continue
            refused = [i for i in clause if _refused(words[i])]
            if refused and all(words[i] in _REMARKING for i in refused):
                remarks.update(refused)
        return remarks

    def _knows(self, word: str) -> bool:
        """Whether `word` is of a goal's, a card's or a member's name, and not a word every
        correction may hold ("pra" of the goal "Viagem pra Porto Seguro": "troca pra 98")."""
        return word in self.known and word not in _CORRECTING

    def _names_a_goal(self, rest: Sequence[str]) -> bool:
        return any(word in self.goal_words for word in rest)

    def _names_a_card(self, rest: Sequence[str]) -> bool:
        """A word of a card's name left over ("farmácia 45 no visa" with the card "Itaú Visa"):
        a card the reader did not take whole, so it is the model's, never a spend off the card."""
        return any(word in self.card_words for word in rest)


# The only words a correction may hold besides the amount, month or day it corrects (folded).
_CORRECTING: Final = CORRECTION_OPENERS | RESTATING | frozenset({"pra", "para", "pro",
    "foi", "mal", "na", "verdade", "real", "era", "eram", "foram", "e", "isso", "o", "a", "os", "as", "valor",
    "sao", "de", "do", "da", "no", "nesse", "gasto", "aporte", "certo", "correto", "pera", "espera",
    "quis", "dizer", "digo", "ne", "amor", "kkk", "kkkk", "desculpa", "mes", "dia", "vdd", "ah", "eita",
    "ih", "xi", "putz", "essa", "esse", "digitei", "escrevi", "errado", "errada",
    "reais", "paguei", "gastei", "comprei", "abasteci", "em", "me", "lanca", "registra", "anota", "ainda",
    "digitado", "escrito", "lancado", "tinha", "numero", "numeros"})
# Who paid, said as the member speaking: "quem pagou fui eu", "fui eu que paguei", "eu que paguei".
_SPEAKER_PAID: Final = (("quem", "pagou", "fui", "eu"), ("fui", "eu", "que", "paguei"), ("fui", "eu", "quem", "pagou"),
                        ("eu", "que", "paguei"), ("eu", "quem", "pagou"), ("quem", "pagou", "foi", "eu"),
                        ("eu", "paguei"), ("paguei", "eu"))
# A clause that says only the speaker is writing it down: "eu só tô lançando", "só to anotando".
_JUST_RECORDING: Final = frozenset({"eu", "so", "to", "tou", "estou", "ta", "lancando", "anotando", "registrando",
                                    "avisando", "aqui", "pq", "porque"})
_RECORDING: Final = frozenset({"lancando", "anotando", "registrando", "avisando"})
# Words that, in a correction's reason, would change more than its one value: who paid, whose it
# is, the card or the place, parcelas, a split, an undo ("não, 250, mas é pessoal", "não, 40, foi
# no débito"). Folded; "*" is a prefix.
_CHANGES_MORE: Final = ("nao", "nem", "mas", "so", "somente", "apenas", "pessoal", "particular", "meu", "minha",
                        "meus", "minhas", "dele", "dela", "ele", "ela", "eu", "cada", "metade", "divid*",
                        "cartao", "credito", "debito", "parcel*", "vezes", "cancel*", "desfaz*", "apaga*",
                        "tira*", "remov*", "pag*", "dois", "duas", "ambos", "juntos", "gente", "total",
                        "no", "na", "pelo", "pela", "via")  # where, or by what means: a card, a store
# A card or a payer said after the preview: "passei no cartão da XP, esqueci de falar".
_TOLD_LATE: Final = frozenset({"passei", "esqueci", "falar", "dizer", "avisar", "quem", "que"})
# Correction words that, beside an expense's name, say something other than "it was that one".
_CHANGES_TO_NAMES: Final = frozenset({"pra", "para", "pro", "valor", "gasto", "aporte", "mes", "dia"})
_MORE_OR_LESS: Final = frozenset({"mais", "menos"})  # "a mais", "de menos": by an amount, not to it
_CLAUSE_BREAKS: Final = frozenset({"pq", "porque"})
# The argument a correction of each tool changes: its money, or its month or day.
_MONEY_ARGUMENT: Final = {"recordSpend": "amount", "contributeToGoal": "amount", "adjustExpense": "newExpected",
                          "createGoal": "target", "registerExpense": "expected", "setIncome": "amount",
                          "settleUp": "amount"}
_WHEN_ARGUMENT: Final = {"recordSpend": ("period", "month"), "contributeToGoal": ("date", "day")}


def _readable(text: str) -> bool:
    """Whether the reader reads `text` at all: one line, not too long."""
    return bool(text) and len(text) <= MAX_TEXT and "\n" not in text.strip()


def _with_implied(expenses: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The expenses with the verbs that name one by what it is for ("abasteci": the fuel) as more
    of its names, where exactly one expense answers to them; as they are otherwise."""
    meant = [(name, verbs) for name, names in expenses if (verbs := implied(names))]
    if len(meant) != 1:
        return expenses
    return tuple((name, (*names, *meant[0][1]) if name == meant[0][0] else names) for name, names in expenses)


def _parcelas(words: Sequence[str], said: Scan) -> tuple[int, range] | Literal[False] | None:
    """The parcelas a message writes ("em 10x", "em 2 vezes", "parcelado em 3x", "parcelado em 3") and the words they
    take, with the "em"/"parcelado" before them; None when it writes none; False when it writes
    two, or a number of them no card takes."""
    found: list[tuple[int, int, int]] = []  # count, first word, last word
    for index, word in enumerate(words):
        written = _PARCELAS.match(word)
        if written:
            found.append((int(written.group(1)), index, index))
    for index, word in enumerate(words[1:], 1):  # "em três vezes": a small number in words is no amount
        spelled = spelled_at(words, index - 1) if word in _TIMES else None
        if spelled is not None and spelled.end == index and not any(a.last == index - 1 for a in said.amounts):
            found.append((int(spelled.value), index - 1, index))
    for amount in said.amounts:
        after = amount.last + 1
        if amount.first == amount.last and amount.first >= 2 and words[amount.first - 1] == "em" \
                and words[amount.first - 2] in PARCELED and not (after < len(words) and words[after] in _TIMES):
            value = amount.value  # "parcelado em 2", "parcelei em 3": the count, by the verb
            if value != value.to_integral_value():
                return False
            found.append((int(value), amount.first - 2, amount.last))
            continue
        if after < len(words) and words[after] in _TIMES and amount.first == amount.last:
            value = amount.value
            if value != value.to_integral_value():
                return False
            found.append((int(value), amount.first, after))
    if not found:
        return None
    if len(found) > 1:
        return False
    count, first, last = found[0]
    after = last + 1
    if not 2 <= count <= MAX_INSTALLMENTS or (after < len(words) and (
            words[after] in ("de", "da") or any(amount.first == after for amount in said.amounts))):
        return False  # "10x de 300", "2x 50": the purchase, each parcela, or a product? the model's
    while first > 0 and words[first - 1] in _PARCELADO:
        first -= 1
    return count, range(first, last + 1)


def _clauses(said: Scan) -> list[list[int]]:
    """The message's words by clause: parted by punctuation or an emoji, before "pq"/"porque",
    and around a laugh ("errei o número kkk foi 45", "foram 37,90 😅 olhei a corrida errada")."""
    clauses: list[list[int]] = [[]]
    for index, token in enumerate(said.tokens):
        gap = said.text[said.tokens[index - 1].end:token.start] if index else ""
        if index and (set(gap) & set(",;.!:-—") or EMOJI.search(gap) or said.words[index] in _CLAUSE_BREAKS
                      or LAUGHTER.fullmatch(said.words[index]) or LAUGHTER.fullmatch(said.words[index - 1])):
            clauses.append([])
        clauses[-1].append(index)
    return [clause for clause in clauses if clause]


def _without_denied(said: Scan, old: Any) -> tuple[Scan, set[int]]:
    """`said` without the value it denies, when it writes two of a kind and one right after "não"
    ("foi 120, não 210", "é 45 e não 54", "não foi hoje, foi sábado") or, an amount, right before it
    ("36,20 não, 63,20"): an amount denied only when it is the old one. With the words the denied
    value and its "não" take."""
    words = said.words
    def denied(first: int) -> set[int]:
        for back in (1, 2):  # "não 210", "não foi hoje"
            at = first - back
            if at >= 0 and words[at] == "nao" and all(w in ("foi", "era", "e") for w in words[at + 1:first]):
                return set(range(at, first))
        return set()
    old_amount = old.get("amount") if isinstance(old, Mapping) else None
    if len(said.amounts) == 2 and not said.whens:
        first, second = said.amounts
        if second.first == first.last + 2 and words[first.last + 1] == "nao":
            tokens = said.tokens
            before, after = (said.text[tokens[i].end:tokens[i + 1].start] for i in (first.last, first.last + 1))
            if "," in before and "," not in after:
                pass  # "foi 120, não 210": the second denied, as below
            elif "," in after and "," not in before and old_amount is not None \
                    and Decimal(str(old_amount)) == first.value:  # "36,20 não, 63,20": the first, the old one
                return replace(said, amounts=(second,)), set(range(first.first, first.last + 2))
            else:
                return said, set()  # "63,20 não 36,20": which one is denied is not written
        for index, found in enumerate(said.amounts):
            took = denied(found.first)
            if took and old_amount is not None and Decimal(str(old_amount)) == found.value:
                return replace(said, amounts=(said.amounts[1 - index],)), took | set(range(found.first, found.last + 1))
    if len(said.whens) == 2 and not said.amounts:
        for index, when in enumerate(said.whens):
            took = denied(when.first)
            if took and not denied(said.whens[1 - index].first):
                return replace(said, whens=(said.whens[1 - index],)), took | set(range(when.first, when.last + 1))
    return said, set()


# What a first clause that cancels or redoes may hold: "cancela esse", "lança de novo então".
_LEAD_WORDS: Final = CANCELS | frozenset({"lanca", "registra", "anota", "faz", "manda", "de", "novo", "esse", "essa",
                                         "isso", "ai", "entao", "amor", "por", "favor"})


def _after_lead(said: Scan) -> int | None:
    """Where the value starts after a first clause that only cancels or redoes the last preview
    ("cancela, era 230", "lança de novo, 1.150"): the rest must say the value again ("era 230", "é
    230", "o certo é 98"), or, after "de novo", be the amount alone; or after a cancel joined to a redo ("apaga e
    lança 1.250", "cancela esse, lança 89"), the amount alone. None otherwise."""
    words, clauses = said.words, _clauses(said)
    if len(clauses) >= 2:
        lead_end = value_at = clauses[1][0]
    else:
        joins = [i for i in range(1, len(words) - 2) if words[i] == "e" and words[i + 1] in _RECORD]
        if len(joins) != 1:
            return None
        lead_end, value_at = joins[0], joins[0] + 2
    lead = words[:lead_end]
    again = any(tuple(lead[i:i + 2]) == AGAIN for i in range(len(lead) - 1))
    if not set(lead) <= _LEAD_WORDS or not (lead[0] in CANCELS or again):
        return None
    rest = words[value_at:]
    start = said.tokens[value_at].start
    if len(clauses) >= 2 and (restates(rest) or opens_correction(rest) or (len(rest) == 2 and rest[0] == "e"
                                                 and any(a.first == value_at + 1 for a in said.amounts))):
        return start
    redone = len(clauses) < 2 or (len(rest) > 1 and rest[0] in _RECORD)  # "cancela esse, lança 89"
    if redone and len(clauses) >= 2:
        value_at += 1
    alone = len(said.amounts) == 1 and said.amounts[0].first == value_at and said.amounts[0].last == len(words) - 1
    return said.tokens[value_at].start if (again or redone) and alone else None


def _speaker_paid(words: Sequence[str]) -> set[int] | None:
    """The words that say the member speaking paid ("quem pagou fui eu"), or None."""
    for phrase in _SPEAKER_PAID:
        for where in phrase_spans(words, phrase):
            return set(where)
    return None


def _just_recording(said: Scan) -> set[int]:
    """A clause that only says the speaker is writing the spend down ("eu só tô lançando")."""
    for clause in _clauses(said)[1:]:
        words = {said.words[i] for i in clause}
        if words <= _JUST_RECORDING and words & _RECORDING:
            return set(clause)
    return set()


def _changes_more(words: Sequence[str], index: int) -> bool:
    word = words[index]
    return matches_any(word, _CHANGES_MORE) or (
        word in _MORE_OR_LESS and index > 0 and words[index - 1] in ("a", "de"))


_FOR_ME: Final = (("pra", "mim"), ("para", "mim"))


def _for_me(words: Sequence[str], covered: set[int]) -> bool:
    """ "comprei remédio pra mim": the speaker's own, or only bought for them? Whether to split it
    is the model's to ask ("só pra mim" is the speaker's own: `_only_mine`)."""
    return any(tuple(words[index:index + 2]) in _FOR_ME and index + 1 not in covered for index in range(len(words)))


def _paid_by_pix(words: Sequence[str], matches: Sequence[_Match]) -> set[int]:
    """ "paguei 120 de luz no pix", "pelo pix", "via pix", "fiz o pix do aluguel": how a spend was
    paid, not an acerto (one, "te mandei 100 no pix", has other words the reader refuses:
    `mandei`, `acerta`)."""
    how = {i for index, word in enumerate(words) if word == "pix" and index > 0
           and words[index - 1] in _BY_PIX for i in (index - 1, index)}
    starts = {match.first for match in matches}
    if "te" in words:  # "te fiz o pix da luz": money sent to the spouse, an acerto
        return how
    for phrase in _PIX_DONE:  # "coloca o condomínio, 590, já fiz o pix": the bill paid, by pix
        for where in phrase_spans(words, phrase):
            if where.stop == len(words) or words[where.stop] not in _TO:
                how.update(where)
    return how | {index for index, word in enumerate(words)
                  if word == "pix" and index + 2 in starts and words[index + 1] in ("do", "da", "de")}


# "fiz o pix" with nobody it went to: how the bill was paid ("fiz o pix pro Bruno" is an acerto).
_PIX_DONE: Final = (("ja", "fiz", "o", "pix"), ("ja", "fiz", "pix"), ("fiz", "o", "pix"), ("fiz", "pix"))
_TO: Final = frozenset({"pra", "pro", "para", "pras", "pros"})
_ASK_TO_RECORD: Final = frozenset({"registrar", "registra", "registre", "lancar", "lanca", "lance", "anotar", "anota",
                                    "anote", "salvar", "salva"})
_NOW: Final = "agora"


def _asides(said: Scan, members: Sequence[Member]) -> set[int]:
    """Words beside a spend that change nothing in it: the spouse called first ("Ana, gastei 50 no
    mercado"), or last ("…, Zé", "…, mozão"), "pode registrar" at the end, "agora" closing a clause
    after a spend told in the past ("paguei a Vivo agora, 119,90"; "agora é 150" is a new expected
    amount, not this), "já" before "paguei" ("já gastamos 1500" is a running total, not this), "tá"
    before "pago", whom a thing was for ("remédio pro Bruno"), what was fuelled ("abasteci o
    carro"), "ida e volta" and "não lancei"."""
    words, aside = said.words, _vocatives(said, members)
    for index in range(len(words) - 1):
        if words[index] == "pode" and words[index + 1] in _ASK_TO_RECORD and index + 2 >= len(words) - 1:
            aside.update({index, index + 1} | ({index + 2} if index + 2 < len(words) and words[index + 2] == "ai"
                                               else set()))
    if (_SPEAKER_SPENT | _PAID) & set(words):  # "paguei a Vivo agora, 119,90"; "agora é 150" is not this
        aside.update(i for i, word in enumerate(words) if word == _NOW and (i == len(words) - 1 or _comma_after(said, i)))
    for index, word in enumerate(words):  # "paguei agora a conta…", "abasteci o carro agora no posto": just now
        if word == _NOW and index > 0 and (words[index - 1] in _I_DID or (
                index >= 3 and words[index - 3] in FUELLING and tuple(words[index - 2:index]) in _FUELLED)):
            aside.add(index)
    for index, word in enumerate(words):  # "amor tipo acabei de abastecer": a filler ("tipo 50" is a guess)
        if word == "tipo" and not any(a.first == index + 1 for a in said.amounts):
            aside.add(index)
    for phrase in _CLOSERS:  # "…, tá bom", "… viu": said to the spouse at the end
        if len(words) > len(phrase) + 1 and tuple(words[-len(phrase):]) == phrase:
            aside.update(range(len(words) - len(phrase), len(words)))
            break
    for index in range(len(words) - 1):
        if words[index] == "ja" and words[index + 1] in _PAID_NOW:  # "já paguei": a bill paid, no total
            aside.add(index)
        if words[index] in _IS_NOW and words[index + 1] in _PAID_STATE:  # "DMAE tá pago, 118,34"
            aside.add(index)
    for index, word in enumerate(words[:-1]):  # "remédio pro Bruno, 38": whom it was for, still the couple's
        if word in ("pro", "pra", "para") and index > 0 and member_called(members, words[index + 1]) is not None \
                and not set(words) & _TO_SOMEONE and not any(a.last == index - 1 for a in said.amounts):
            aside.update({index, index + 1})
    for index, word in enumerate(words[:-2]):  # "abasteci o carro, 200": what was fuelled, not the goal "Carro novo"
        if word in FUELLING and tuple(words[index + 1:index + 3]) in _FUELLED:
            aside.update({index + 1, index + 2})
    for phrase in _ASIDE_PHRASES:  # "uber ida e volta": one ride there and back; "agora há pouco"
        for where in phrase_spans(words, phrase):
            aside.update(where)
    for index in range(1, len(words) - 1):  # "gastei 38,90 na farmácia, e depois no mercado mais 156,20"
        if words[index] == "depois" and words[index + 1] in _THEN_AT:
            aside.add(index)
    if set(words) & _ASK_TO_RECORD:  # "Registre, por favor, uma despesa de R$ 230,00 com combustível."
        for where in phrase_spans(words, ("uma", "despesa", "de")):
            if any(a.first == where.stop for a in said.amounts):
                aside.update(where)
    for index in range(len(words) - 2):  # "fui no Atacadão depois do trabalho": when in the day
        if words[index] == "depois" and words[index + 1] in ("do", "da") and words[index + 2] not in _NOT_AFTER:
            aside.update({index, index + 1})
    for index, word in enumerate(words):  # "comprei umas frutas": "uns 50" is an amount not sure of
        if word in _SOME and not any(a.first == index + 1 for a in said.amounts):
            aside.add(index)
    for index, word in enumerate(words):  # "deu 1.210 com o desconto": the amount paid, discount taken
        lead = 2 if tuple(words[max(0, index - 2):index]) in (("com", "o"), ("com", "um")) else 1
        if word in _DISCOUNT and index >= lead and words[index - lead] == "com" and not _amount_or_of_after(said, index):
            aside.update(range(index - lead, index + 1))
    return aside


# The speaker telling what they did, right after the spouse's name or before "agora": "dani passei
# no atack…", "paguei agora a conta da luz".
_I_DID: Final = _SPEAKER_SPENT | frozenset({"abasteci", "fui", "passei", "peguei", "pedi", "fiz"})
_NEW: Final = frozenset({"novo", "nova", "novos", "novas"})
_CLOSERS: Final[tuple[tuple[str, ...], ...]] = (("ta", "bom"), ("ta",), ("viu",), ("ne",), ("ok",), ("blz",), ("beleza",))
_YOU: Final = frozenset({"vc", "voce", "tu", "ce"})  # "dani vc viu o jogo?": the spouse called, then asked
_ASIDE_PHRASES: Final = (("ida", "e", "volta"), ("na", "volta"), ("agora", "ha", "pouco"), ("ha", "pouco"), ("agorinha",),
                         ("tipo", "assim"), ("valeu", "cada", "centavo"),
                         # recorded late: "mês passado paguei 119,99 da Vivo e não lancei"
                         *(("nao", late) for late in ("lancei", "lancamos", "anotei", "anotamos", "registrei")))


def _vocatives(said: Scan, members: Sequence[Member]) -> set[int]:
    """The spouse called by name first or last, apart by a comma: "Ana, gastei 50 no mercado",
    "essa fui eu que paguei, Zé", or there by a nickname that begins exactly one member's name
    ("…, Ju", "Pá, …")."""
    words, called = said.words, set()
    if len(words) > 1 and _calls(members, words[0]) and (_comma_after(said, 0) or words[1] in _I_DID):
        called.add(0)  # "Ana, gastei…", or as a voice note writes it, "dani passei no atack…"
    if len(words) > 1 and _calls(members, words[-1]) and _comma_after(said, len(words) - 2):
        called.add(len(words) - 1)
    return called


def _calls(members: Sequence[Member], word: str) -> bool:
    """Whether `word`, alone in its clause, calls a member: by name, by a nickname of two letters
    or more that begins exactly one member's name, or fondly ("amor", "mozão")."""
    if member_called(members, word) is not None or word in TERMS_OF_ENDEARMENT:
        return True
    return len(word) >= 2 and word.isalpha() and sum(fold(m.name).startswith(word) for m in members) == 1


def _comma_after(said: Scan, index: int) -> bool:
    """Whether a comma ends the clause at word `index` ("Zé, paguei…", "…agora, 119,90")."""
    end = said.tokens[index].end
    following = said.tokens[index + 1].start if index + 1 < len(said.tokens) else len(said.text)
    return said.text[end:following].strip().startswith(",")


_ONE_PARCELA: Final = frozenset({"parcela", "prestacao"})
_FUELLED: Final = (("o", "carro"), ("a", "moto"), ("o", "tanque"))
# Beside "pro Bruno", words that make him whom money went to ("passei 150 do mercado pro Bruno"),
# not whom a thing was for ("remédio pro Bruno, 38").
_TO_SOMEONE: Final = frozenset({"mandei", "transferi", "passei", "dei", "devolvi", "pix", "emprestei", "enviei",
                                "te", "acerto", "acertei", "metade", "parte"})
_THEN_AT: Final = frozenset({"no", "na", "fui", "passei", "paguei", "gastei", "comprei"})
_NOT_AFTER: Final = frozenset({"amanha", "dia", "mes", "vencimento", "fechamento"})  # "depois do dia 10": a plan
# Refused words that, in a clause of their own with no amount, no day and no name, only remark on
# a spend ("…, 159,90, tá tudo caro demais", "…, era o remédio da febre do pequeno", "…, agora vai 💪").
_REMARKING: Final = frozenset({"ta", "tah", "esta", "ja", "era", "tipo", "agora", "vai", "sem",  # "…, sem multa ufa"
                               "pq", "porque"})  # "…, 27,80 pq o carro ficou na oficina": why, not what
_DISCOUNT: Final = frozenset({"desconto", "descontinho"})
_SOME: Final = frozenset({"uns", "umas"})


def _amount_or_of_after(said: Scan, index: int) -> bool:
    """Whether the word after `index` is an amount or "de": "com desconto de 100" names the discount."""
    after = index + 1
    return after < len(said.words) and (said.words[after] == "de" or any(a.first == after for a in said.amounts))


def _bill_named(words: Sequence[str]) -> set[int]:
    """ "paguei a mensalidade da escola, 1.100", "a mensalidade do colégio deu 1.210": a month's
    bill paid, so a spend; "mensalidade" with no word that it was paid or came stays the model's."""
    if not _BILL_PAID & set(words):
        return set()
    return {index for index, word in enumerate(words) if word == _BILL}


_DENYING: Final = frozenset({"era", "foi", "no", "na", "do", "da", "de", "o", "a", "e"})


def _denied(said: Scan, names: Sequence[str]) -> set[int]:
    """The words of `names` (an expense's) that follow a "não" ("não era mercado", "não na
    Extrafarma"), with the "não" and the small words between; not after "não," (that "não" opens
    the correction: "não, foi no mercado e na farmácia")."""
    words, tokens = said.words, said.tokens
    denied: set[int] = set()
    for index, word in enumerate(words):
        if word != "nao" or index + 1 >= len(words) or said.text[tokens[index].end:tokens[index + 1].start].strip():
            continue
        after = index + 1
        while after < len(words) and words[after] in _DENYING:
            after += 1
        end = after
        while end < len(words) and loosely_written_in(words[end], names):
            end += 1
        if end > after:
            denied.update(range(index, end))
    return denied


def _who_paid(words: Sequence[str], index: int) -> set[int]:
    """ "quem pagou o açougue foi o Vinícius": the words that tell the member at `index` paid
    ("quem pagou", "foi o"); empty when the message does not say it so."""
    lead = 2 if index >= 2 and words[index - 1] in ("o", "a") else 1
    if index < lead or words[index - lead] != "foi":
        return set()
    asked = [i for i in range(index - lead - 1) if words[i] == "quem" and words[i + 1] in _PAID]
    return {asked[0], asked[0] + 1, *range(index - lead, index + 1)} if len(asked) == 1 else set()


def _paid_by_speaker(words: Sequence[str], index: int) -> bool:
    return index > 0 and words[index - 1] in _SELF


def _states_a_price(said: Scan, first: int) -> bool:
    """The amount at `first` follows "é" ("o aluguel é 3.200", "é de 3.200"): a standing price.
    Read in the raw tokens: folded, "é" is the "e" that joins two spends."""
    before = [token.text.lower() for token in said.tokens[max(0, first - 2):first]]
    if before and before[-1] == "de":
        before.pop()
    if not before or before[-1] not in IS:
        return False
    at = first - (len(before) == 2 and said.tokens[first - 1].text.lower() == "de") - 1
    after = said.text[said.tokens[at].end:said.tokens[at + 1].start]
    return not ("..." in after or "…" in after)  # "é... novecentos reais": a pause, not "it costs"


def _one_when(whens: Sequence[When]) -> Sequence[When]:
    """Two words of time that say one day ("dia 31, mês passado"): the day alone; as they are
    otherwise."""
    if len(whens) == 2 and len({when.month for when in whens}) == 1 and sum(w.day is not None for w in whens) <= 1:
        return [next((when for when in whens if when.day is not None), whens[0])]
    return whens


def _pays_later(said: Scan) -> bool:
    """ "pago na sexta", "pago dia 10" opening a clause: the speaker will pay ("aluguel pago na
    sexta", after its bill, is paid)."""
    return any(word == "pago" and (index == 0 or _comma_after(said, index - 1))
               and any(when.first in (index + 1, index + 2) for when in said.whens)
               for index, word in enumerate(said.words))


def _per_month(said: Scan) -> bool:
    """"por mês", "ao mês", "custa": the expense's monthly amount ("a compra do mês" is a spend)."""
    words = said.words
    return bool(set(words) & _COSTS) or any(
        word == "mes" and index > 0 and words[index - 1] in _PER for index, word in enumerate(words))


def _difference(words: Sequence[str], amounts: Sequence[Found]) -> Found | None:
    """The amount after "lança a diferença de" ("o wifi veio 139,90, lança a diferença de 19,90"):
    the spend, the other amounts its story. Only with a word asking to record it and two amounts
    at most; None otherwise."""
    if len(amounts) > 2 or not set(words) & _RECORD:
        return None
    found = [a for a in amounts if a.first >= 2 and tuple(words[a.first - 2:a.first]) == ("diferenca", "de")]
    return found[0] if len(found) == 1 else None


def _another_brand(words: Sequence[str], matches: Sequence[_Match]) -> bool:
    """Whether a brand of `_OTHER_BRANDS` stands in the message outside a name the household
    gave an expense ("gastei 150 no mercado livre" is no Mercado spend)."""
    return any(not any(m.first <= where.start and where.stop - 1 <= m.last for m in matches)
               for brand in _OTHER_BRANDS for where in phrase_spans(words, brand))


def _proposed(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """A call's arguments as a new proposal carries them: no operation id, no confirmation."""
    return {k: v for k, v in arguments.items() if k not in ("operationId", "operation_id", "confirm")}


def _correction(name: str, arguments: dict[str, Any], last: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The corrected call, naming the operation it corrects (its preview is cancelled for it)."""
    operation_id = last.get("operationId")
    return [{"name": name, "arguments": arguments,
             **({"corrects": operation_id} if isinstance(operation_id, str) else {})}]


def _refused(word: str) -> bool:
    return matches_any(word, _NOT_A_PLAIN_SPEND)


def _each_on_its_day(pairs: Sequence[tuple[Found, _Match]], said: Scan) -> list[Period] | None:
    """Each spend's month when each names its own day ("farmácia ontem deu 45, e a feira anteontem
    52"): the words up to a spend's last, after the spend before it, hold exactly one day or month
    (and none is left over); None otherwise."""
    ends = [max(found.last, match.last) for found, match in pairs]
    months: list[Period] = []
    for index, end in enumerate(ends):
        start = ends[index - 1] + 1 if index else 0
        inside = [when for when in said.whens if start <= when.first and when.last <= end]
        if len(inside) != 1:
            return None
        months.append(inside[0].month)
    return months if len(said.whens) == len(pairs) else None


def _pairs(amounts: Sequence[Found], matches: Sequence[_Match], said: Scan
           ) -> list[tuple[Found, _Match]] | None:
    """Each amount with its expense, when they alternate the same way throughout ("50 no mercado e
    30 na farmácia", "mercado 50, farmácia 30") and a comma or a joining word ("e", "mais") parts
    each pair from the next; None otherwise."""
    if len(amounts) == 1:
        return [(amounts[0], matches[0])]
    items: list[tuple[int, int, Found | _Match]] = sorted(
        [(a.first, a.last, a) for a in amounts] + [(m.first, m.last, m) for m in matches],
        key=lambda item: item[0])
    amount_first = isinstance(items[0][2], Found)
    pairs: list[tuple[Found, _Match]] = []
    for position in range(0, len(items), 2):
        first, second = items[position][2], items[position + 1][2]
        if isinstance(first, Found) != amount_first or isinstance(second, Found) == amount_first:
            return None
        found, match = (first, second) if isinstance(first, Found) else (second, first)
        if not isinstance(found, Found) or not isinstance(match, _Match):
            return None
        pairs.append((found, match))
        if position + 2 < len(items):
            between = said.text[said.tokens[items[position + 1][1]].end:said.tokens[items[position + 2][0]].start]
            if not (set(between) & set(",;+") or set(_words(between)) & _JOINERS):
                return None
    return pairs
