"""Bank and card statements: their lines, which expense each debit belongs to, and what was imported.

A statement is parsed (infra/statements.py, no model) into `StatementLine`s. `plan_import` sorts
them for a household's budget: debits that match an expense by name or alias (case and accents
ignored, as `Budget.find_by_name`), debits that match nothing, credits (refunds, salary: never
spends), and lines imported before. `apply_statement_lines` is the one place an import changes a
budget, so it can be routed elsewhere (a ledger) without touching the rest.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Protocol

from domain.budget import Budget, RecurringExpense
from domain.cards import MAX_INSTALLMENTS, Card, CardRef
from domain.errors import DomainError
from domain.household import Member
from domain.money import Money, Period
from domain.text import fold, words_of

MAX_STATEMENT_BYTES = 20 * 1024 * 1024  # what getFile serves to a bot
MAX_STATEMENT_LINES = 5000


class StatementError(DomainError):
    """A statement file that cannot be read or imported; the message says why, in pt-BR."""


class NothingToImport(StatementError):
    pass


class FileKind(Enum):
    """What a file sent as a statement turned out to be instead."""

    ZIP = "ZIP"  # a .zip, or a spreadsheet (.xlsx, .ods): they are ZIPs too
    GZIP = "GZIP"
    PDF = "PDF"
    PNG = "PNG"
    JPEG = "JPEG"
    UTF16 = "UTF-16"
    UTF32 = "UTF-32"
    OVERSIZED_FIELD = "campo de mais de 128 KB"  # no bank writes a cell that long


class NotAStatement(StatementError):
    """A file no statement reader can take, and what it was found to be (`found`; `line`, the
    CSV line, for an oversized field). The person reads it in bot/texts/media.py."""

    def __init__(self, found: FileKind, *, line: int | None = None) -> None:
        where = f" (linha {line})" if line is not None else ""
        super().__init__(f"O arquivo não é um extrato: {found.value}{where}.")
        self.found = found
        self.line = line


class AlreadyImported(StatementError):
    def __init__(self, count: int) -> None:
        super().__init__(
            f"{count} destes lançamentos já foram importados por outra importação. "
            "Nada foi registrado; envie o arquivo de novo para ver o que falta.")
        self.count = count


@dataclass(frozen=True)
class StatementLine:
    """One transaction as the bank wrote it: negative amounts leave the account (debits)."""

    on: date
    amount: Decimal
    description: str
    bank_id: str | None = None

    @property
    def is_debit(self) -> bool:
        return self.amount < 0


def fingerprints(lines: Sequence[StatementLine]) -> list[str]:
    """Each line's identity across files: the bank's id (FITID) when there is one, otherwise its
    date, amount and folded description. The n-th repeat of the same identity within one file
    (two coffees on one day) gets its own, so re-reading the same file gives the same keys."""
    seen: Counter[str] = Counter()
    keys = []
    for line in lines:
        if line.bank_id:
            identity = f"id|{line.bank_id.strip()}"
        else:
            identity = f"line|{line.on.isoformat()}|{line.amount.normalize():f}|{fold(line.description)}"
        seen[identity] += 1
        if seen[identity] > 1:
            identity += f"|{seen[identity]}"
        keys.append(hashlib.sha256(identity.encode()).hexdigest())
    return keys


def expense_matcher(budget: Budget) -> ExpenseMatcher:
    return ExpenseMatcher(budget.expenses)


class ExpenseMatcher:
    """Which expense a statement description names: an expense's name or alias, folded (case,
    accents and spacing ignored, as `Budget.find_by_name`), appearing as whole words in the
    folded description ("PAG*FARMACIA SAO JOAO" names "Farmácia"; "SUPERMERCADO" does not name
    "Mercado"). The longest name wins ("Farmácia Popular" over "Farmácia"); two expenses tied on
    it match nothing (the member decides)."""

    def __init__(self, expenses: Iterable[RecurringExpense]) -> None:
        # First word -> (the key's words, its length, the expense): a description is looked up
        # word by word instead of trying every name on it.
        self._by_first: dict[str, list[tuple[tuple[str, ...], int, RecurringExpense]]] = {}
        for expense in expenses:
            for name in (expense.name, *expense.aliases):
                words = words_of(name)
                if words:
                    self._by_first.setdefault(words[0], []).append((words, len(" ".join(words)), expense))

    def match(self, description: str) -> RecurringExpense | None:
        words = words_of(description)
        best: RecurringExpense | None = None
        best_length = 0
        tied = False
        for start, word in enumerate(words):
            for key, length, expense in self._by_first.get(word, ()):
                if length < best_length or words[start:start + len(key)] != key:
                    continue
                if length > best_length:
                    best, best_length, tied = expense, length, False
                elif expense is not best:
                    tied = True
        return None if tied else best


@dataclass(frozen=True)
class PlannedLine:
    line: StatementLine
    fingerprint: str
    expense: str  # the expense's name as the budget spells it


@dataclass
class ImportPlan:
    to_import: list[PlannedLine] = field(default_factory=list)
    unmatched: list[StatementLine] = field(default_factory=list)
    unmatched_fingerprints: list[str] = field(default_factory=list)  # in step with `unmatched`
    credits: list[StatementLine] = field(default_factory=list)
    skipped: int = 0  # imported before


def plan_import(budget: Budget, lines: Sequence[StatementLine], imported: Collection[str]) -> ImportPlan:
    """Sorts a statement's lines for an import preview; nothing is changed."""
    plan = ImportPlan()
    matcher = expense_matcher(budget)
    for line, key in zip(lines, fingerprints(lines), strict=True):
        if key in imported:
            plan.skipped += 1
        elif not line.is_debit:
            plan.credits.append(line)
        elif (expense := matcher.match(line.description)) is not None:
            plan.to_import.append(PlannedLine(line, key, expense.name))
        else:
            plan.unmatched.append(line)
            plan.unmatched_fingerprints.append(key)
    return plan


# How a card statement marks a parcela: "Netshoes - Parcela 3/10" (Nubank), "LOJA X 03/10" at the
# end of the description (most banks' faturas), "parcela 3 de 10".
_PARCELA = re.compile(r"\bparcela\s*(\d{1,2})\s*(?:/|de)\s*(\d{1,2})\b|(?:^|\s)(\d{1,2})/(\d{1,2})\s*$")


def parcela_of(description: str) -> tuple[int, int] | None:
    """The k of N a card statement writes on a parcela's line; None for a plain purchase (or a
    pair that cannot be one: k above N, N of 1 or above 48)."""
    found = _PARCELA.search(fold(description))
    if found is None:
        return None
    k, n = (int(group) for group in found.groups() if group is not None)
    return (k, n) if 1 <= k <= n and 2 <= n <= MAX_INSTALLMENTS else None


def statement_faturas(card: Card, lines: Sequence[tuple[date, str]]) -> list[tuple[Period, tuple[int, int] | None]]:
    """The fatura each line of `card`'s statement counts in (its budget month), and its parcela.

    A purchase falls in the fatura of its day. A parcela k/N that the bank dated on the day of the
    purchase, months ago (Nubank does), is charged k-1 faturas after that one; a bank that dates it
    on the charge instead is told apart by the statement's own fatura (the latest its plain
    purchases fall in): a parcela is never moved past it."""
    parcelas = [parcela_of(description) for _, description in lines]
    plain = [card.fatura_of(on) for (on, _), parcela in zip(lines, parcelas, strict=True) if parcela is None]
    statement = max(plain) if plain else None
    found = []
    for (on, _), parcela in zip(lines, parcelas, strict=True):
        fatura = card.fatura_of(on)
        if parcela is not None:
            charged = fatura.plus(parcela[0] - 1)
            if statement is None or charged <= statement:
                fatura = charged
        found.append((fatura, parcela))
    return found


def counted_before(lines: Sequence[tuple[Period, tuple[int, int] | None, Decimal]],
                   recorded: Mapping[Period, Sequence[tuple[int, int, Decimal]]]) -> set[int]:
    """Which of a card statement's lines (fatura, parcela, amount) the budget already counts: a
    parcela k/N of the same amount the card's fatura holds (a purchase in N x registered in the
    bot, or a parcela another file imported). Each recorded parcela answers for one line."""
    left = {fatura: list(parcelas) for fatura, parcelas in recorded.items()}
    counted = set()
    for index, (fatura, parcela, amount) in enumerate(lines):
        if parcela is None:
            continue
        wanted = (*parcela, amount)
        if wanted in left.get(fatura, ()):
            left[fatura].remove(wanted)
            counted.add(index)
    return counted


@dataclass(frozen=True)
class Spend:
    """One imported line as it lands in the budget: a positive amount for an expense's month."""

    expense: str
    period: Period
    amount: Money
    card: CardRef | None = None  # a card statement's line: on that card, in its fatura's month
    on: date | None = None


def apply_statement_lines(budget: Budget, spends: Iterable[Spend], paid_by: Member | None = None,
                          members: Sequence[Member] = ()) -> None:
    """Adds each imported line to its expense's actual for its month: the only write an import
    makes to the budget (the budget must have been loaded with those months). Every line is paid
    by `paid_by` (who sent the file) and shared among `members` by the budget's rule."""
    expenses: dict[str, RecurringExpense] = {}  # thousands of lines name a few dozen expenses
    for spend in spends:
        expense = expenses.get(spend.expense)
        if expense is None:
            expense = expenses[spend.expense] = budget.find_by_name(spend.expense)
        shares = budget.shares_for(spend.amount, paid_by, members) if paid_by is not None and members else ()
        expense.add_to_actual(spend.period, spend.amount, paid_by=paid_by, shares=shares, card=spend.card,
                              on=spend.on)


class StatementImports(Protocol):
    """Which statement lines a household has imported, by fingerprint (unique per household).

    `record` joins the confirmation's transaction, so the lines are marked imported in the same
    commit that writes them; a line recorded twice is refused by the store (all or nothing).
    `release` joins an undo's confirmation the same way: the undone import's lines may then be
    imported again, once."""

    async def already_imported(self, household_id: str, fingerprints: Collection[str]) -> set[str]:
        ...

    async def record(self, household_id: str, operation_id: str, fingerprints: Sequence[str]) -> None:
        ...

    async def release(self, household_id: str, operation_id: str) -> int:
        """Forgets the lines the import `operation_id` recorded; returns how many."""
        ...


class InMemoryStatementImports:
    def __init__(self) -> None:
        self._imported: dict[str, dict[str, str]] = {}

    async def already_imported(self, household_id: str, fingerprints: Collection[str]) -> set[str]:
        known = self._imported.get(household_id, {})
        return {key for key in fingerprints if key in known}

    async def record(self, household_id: str, operation_id: str, fingerprints: Sequence[str]) -> None:
        known = self._imported.setdefault(household_id, {})
        repeated = [key for key in fingerprints if key in known]
        if repeated or len(set(fingerprints)) != len(fingerprints):
            raise AlreadyImported(len(repeated) or 1)
        for key in fingerprints:
            known[key] = operation_id

    async def release(self, household_id: str, operation_id: str) -> int:
        known = self._imported.get(household_id, {})
        released = [key for key, by in known.items() if by == operation_id]
        for key in released:
            del known[key]
        return len(released)
