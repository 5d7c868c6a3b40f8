"""The monthly budget: recurring expenses with what was expected and what was spent."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from domain.cards import (
    Card,
    CardRef,
    OpenInstallments,
    Parcela,
    UnknownCard,
    card_aliases,
    check_card_day,
    parcelas,
)
from domain.errors import (
    CurrencyMismatch,
    DomainError,
    DuplicateName,
    InvalidArgument,
    InvalidMoney,
    UnknownExpense,
)
from domain.household import Member, clean_name, new_id
from domain.ledger import SettlementLine, SpendLine
from domain.money import Money, Period, currency_code
from domain.sharing.rules import Share, SplitRule, settlement_shares, shares_of
from domain.text import fold

EARLIEST = Period(1, 1)  # "since always", for history kept from an adjustment on
LIMIT_THRESHOLDS = (80, 100)  # percent of the expected amount a month's spends are warned at


@dataclass(frozen=True)
class LimitReached:
    """A month's spends on an expense reached a threshold of its expected amount: `percent` of it
    (rounded down). Said once per expense, month and threshold; an undo below it re-arms it."""

    expense: str
    period: Period
    percent: int


def check_billing_day(day: object) -> int | None:
    if day is None:
        return None
    if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= 31:
        raise InvalidArgument(f"Dia de vencimento inválido: {day!r} (use 1 a 31).")
    return day


class IncomeOfMembers(DomainError):
    def __init__(self, members: Sequence[str]) -> None:
        who = ", ".join(members)
        super().__init__(f"A renda da casa é a soma da renda de cada um ({who}): cada membro informa a "
                         "sua com /renda <valor> (ou diga de quem é a renda).")


def aliases_after_rename(old: str, new: str, aliases: Iterable[str], keep_old_name: bool) -> tuple[str, ...]:
    """An expense's or card's aliases once renamed from `old` to `new`: the new name is no alias,
    and the old one becomes one (what the couple has been typing still finds it) unless
    `keep_old_name` is False (an undo: the aliases as they were)."""
    kept = [a for a in aliases if fold(a) != fold(new)]
    if keep_old_name and fold(old) != fold(new) and all(fold(a) != fold(old) for a in kept):
        kept.append(old)
    return tuple(kept)


@dataclass(eq=False)
class RecurringExpense:
    name: str
    expected: Money
    aliases: tuple[str, ...] = ()
    category: str | None = None
    billing_day: int | None = None
    payment_method: str | None = None
    actuals: dict[Period, Money] = field(default_factory=dict)
    # The months whose actuals were loaded; None means every month. A repository loads only the
    # months a use case touches, so a budget with years of history costs the same to change.
    loaded_periods: frozenset[Period] | None = None
    id: str | None = None  # given by the repository; entries of the ledger name it
    archived: bool = False  # out of the prompt and the summaries; its history stays
    # The first month an archived expense is no longer shown (the month after it was archived):
    # what was spent stays spent. None: archived before this was kept, shown only where spent.
    archived_since: Period | None = None
    # Additions made since the last save, one ledger entry each (see domain.ledger).
    lines: list[SpendLine] = field(default_factory=list)
    # The expected amount from each month on: the month it was registered, then each adjustment.
    # Empty for an expense registered before this was kept: `expected` in every month.
    expected_since: dict[Period, Money] = field(default_factory=dict)
    # The limit thresholds already said, per loaded month, and those newly reached since the load.
    alerted: dict[Period, frozenset[int]] = field(default_factory=dict)
    limits: list[LimitReached] = field(default_factory=list)

    def existed_in(self, period: Period) -> bool:
        """Whether the expense was registered by `period` (always, when that is unknown)."""
        return not self.expected_since or min(self.expected_since) <= period

    def expected_for(self, period: Period) -> Money:
        """The expected amount as it was in `period` (a later adjustment does not change it)."""
        earlier = [month for month in self.expected_since if month <= period]
        return self.expected_since[max(earlier)] if earlier else self.expected

    def answers_to(self, name: str) -> bool:
        wanted = fold(name)
        return wanted == fold(self.name) or any(wanted == fold(a) for a in self.aliases)

    def actual_for(self, period: Period) -> Money:
        """What was spent in the month; zero in the expense's currency when nothing was recorded."""
        self._require_loaded(period)
        return self.actuals.get(period, Money.zero(self.expected.currency))

    def add_to_actual(self, period: Period, amount: Money, *, paid_by: Member | None = None,
                      shares: tuple[Share, ...] = (), card: CardRef | None = None,
                      on: date | None = None) -> Money:
        """Adds a delta ("R$ 200 a mais") to the month's actual and returns the new actual.

        `paid_by` is who paid it (None: unknown); `shares` its division among the members (empty:
        personal, or an unknown payer: outside the balance). Both stay with the spend's ledger
        entry. Any spend is recorded this way, whatever paid it: a card's parcela names its card
        (`card`, with k of N) and the day of the purchase (`on`)."""
        self._check(amount)
        if shares and sum((share.paid for share in shares), Money.zero(amount.currency)) != amount:
            raise ValueError("a spend's shares must have been paid to its amount")
        new_actual = self.actual_for(period) + amount
        if new_actual.amount < 0:
            raise InvalidMoney(f"O gasto de {self.name} em {period} ficaria negativo ({new_actual}).")
        self.actuals[period] = new_actual
        self.lines.append(SpendLine(period, amount, paid_by, shares, card, on))
        self._watch_limits(period)
        return new_actual

    def _watch_limits(self, period: Period) -> None:
        """Notes a threshold the month's actual reached for the first time, and re-arms one it
        fell below (an undo)."""
        percent = self._percent_of_expected(period)
        if percent is None:
            return
        reached = frozenset(t for t in LIMIT_THRESHOLDS if percent >= t)
        said = self.alerted.get(period, frozenset())
        if reached - said:
            self.limits.append(LimitReached(self.name, period, percent))
        if reached != said:
            self.alerted[period] = reached

    def rearm_limits(self, period: Period) -> None:
        """After a new expected amount: a threshold said in a loaded month that the month's actual
        no longer reaches is said again when a spend reaches it (R$ 850 of R$ 1.000 was 80 %; of
        R$ 1.500 it is 56 %, and 80 % of R$ 1.500 deserves its own warning). A threshold the new
        amount makes reached is said by the next spend, not by the adjustment."""
        said = self.alerted.get(period)
        percent = self._percent_of_expected(period)
        if not said or percent is None:
            return
        self.alerted[period] = frozenset(t for t in said if percent >= t)

    def _percent_of_expected(self, period: Period) -> int | None:
        """The month's actual in whole percent of what it expected (rounded down); None when it
        expected nothing."""
        expected = self.expected_for(period)
        if not expected.is_positive:
            return None
        return int(self.actual_for(period).amount * 100 // expected.amount)

    def change_expected(self, new_expected: Money) -> None:
        self._check(new_expected)
        if new_expected.amount < 0:
            raise InvalidMoney(f"Valor negativo: {new_expected}.")
        self.expected = new_expected

    def archive(self, since: Period | None = None) -> None:
        """Out of the summaries from month `since` on; the months before it keep it."""
        self.archived = True
        self.archived_since = since

    def restore(self) -> None:
        self.archived = False
        self.archived_since = None

    def counted_in(self, period: Period) -> bool:
        """Whether the month counts the expense: registered by then or spent on then, and not
        archived before it. What was spent stays spent, archived or not."""
        spent = not self.actual_for(period).is_zero
        if self.archived and not spent and (self.archived_since is None or self.archived_since <= period):
            return False
        return spent or self.existed_in(period)

    def replace_actual(self, period: Period, amount: Money) -> Money:
        """Sets the month's actual to `amount` (the ledger gets the difference as one entry)."""
        self._check(amount)
        self._require_loaded(period)
        if amount.amount < 0:
            raise InvalidMoney(f"Gasto negativo: {amount}.")
        difference = amount - self.actual_for(period)
        self.actuals[period] = amount
        if not difference.is_zero:
            self.lines.append(SpendLine(period, difference))
            self._watch_limits(period)
        return amount

    def _require_loaded(self, period: Period) -> None:
        if self.loaded_periods is not None and period not in self.loaded_periods:
            # A programming error, not a person's: the caller loaded the wrong months.
            raise LookupError(f"{period} was not loaded for {self.name}")

    def _check(self, amount: Money) -> None:
        if amount.currency != self.expected.currency:
            raise CurrencyMismatch(self.expected.currency, amount.currency)


@dataclass(eq=False)
class Budget:
    id: str
    currency: str
    household_id: str | None = None
    expenses: list[RecurringExpense] = field(default_factory=list)
    # The household's monthly income: the sum of the members' own incomes when any is set.
    income: Money | None = None
    version: int = 0
    split: SplitRule = field(default_factory=SplitRule)  # how a shared spend is divided
    incomes: dict[str, Money] = field(default_factory=dict)  # each member's own income, by member id
    income_names: dict[str, str] = field(default_factory=dict)  # those members' names, for the ledger
    # Acertos made since the last save, one ledger entry each (see domain.ledger).
    settlements: list[SettlementLine] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)  # the household's credit cards (domain.cards)

    @classmethod
    def create(cls, currency: str, *, id: str | None = None,
               household_id: str | None = None) -> Budget:
        return cls(id=id or new_id(), currency=currency_code(currency), household_id=household_id)

    def register(
        self,
        name: str,
        expected: Money,
        *,
        aliases: Iterable[str] = (),
        category: str | None = None,
        billing_day: int | None = None,
        payment_method: str | None = None,
        since: Period | None = None,
    ) -> RecurringExpense:
        """Adds a recurring expense, from month `since` on when given (earlier months do not
        show it); a name or alias taken by another expense is refused."""
        cleaned = clean_name(name, "Nome da despesa")
        self._check_amount(expected)
        day = check_billing_day(billing_day)
        own = fold(cleaned)
        unique_aliases: list[str] = []
        for alias in aliases:
            alias_name = clean_name(alias, "Apelido")
            key = fold(alias_name)
            if key != own and key not in (fold(a) for a in unique_aliases):
                unique_aliases.append(alias_name)
        for wanted in [cleaned, *unique_aliases]:
            for expense in self.active_expenses():
                if expense.answers_to(wanted):
                    raise DuplicateName(wanted, f"a despesa {expense.name}", expense=expense.name)
        expense = RecurringExpense(
            id=new_id(),
            name=cleaned,
            expected=expected,
            aliases=tuple(unique_aliases),
            category=clean_name(category, "Categoria") if category else None,
            billing_day=day,
            payment_method=clean_name(payment_method, "Forma de pagamento") if payment_method else None,
            expected_since={since: expected} if since is not None else {},
        )
        self.expenses.append(expense)
        return expense

    def find_by_name(self, name: str) -> RecurringExpense:
        """By name or alias, ignoring case and accents; archived expenses answer to nothing."""
        if isinstance(name, str):
            for expense in self.active_expenses():
                if expense.answers_to(name):
                    return expense
        raise UnknownExpense(str(name), [e.name for e in self.active_expenses()])

    def active_expenses(self) -> list[RecurringExpense]:
        return [e for e in self.expenses if not e.archived]

    def expense_by_id(self, expense_id: str) -> RecurringExpense:
        for expense in self.expenses:
            if expense.id == expense_id:
                return expense
        raise UnknownExpense(expense_id)

    def rename(self, name: str, new_name: str, *, keep_old_name: bool = True) -> RecurringExpense:
        """A new name for an expense; one another active expense answers to is refused. The old
        name stays as an alias (what the couple has been typing still finds it), unless
        `keep_old_name` is False (undoing a rename: the aliases are as they were before it)."""
        expense = self.find_by_name(name)
        cleaned = clean_name(new_name, "Novo nome")
        for other in self.active_expenses():
            if other is not expense and other.answers_to(cleaned):
                raise DuplicateName(cleaned, f"a despesa {other.name}", expense=other.name)
        expense.aliases = aliases_after_rename(expense.name, cleaned, expense.aliases, keep_old_name)
        expense.name = cleaned
        return expense

    def archive(self, name: str, *, since: Period | None = None) -> RecurringExpense:
        """Takes an expense out of the summaries from month `since` on (the month after it is
        archived, as the tool has it); its history stays in the ledger."""
        expense = self.find_by_name(name)
        expense.archive(since)
        return expense

    def adjust_amount(self, name: str, new_expected: Money, *,
                      effective: Period | None = None) -> RecurringExpense:
        """The new expected amount, from month `effective` on when given: earlier months keep
        the amount they had."""
        expense = self.find_by_name(name)
        self._check_amount(new_expected)
        if effective is not None:
            if not expense.expected_since:  # registered before history was kept: always the old
                expense.expected_since[EARLIEST] = expense.expected
            expense.expected_since[effective] = new_expected
        expense.expected = new_expected
        for period in list(expense.alerted):
            if effective is None or period >= effective:
                expense.rearm_limits(period)
        return expense

    def expenses_in(self, period: Period) -> list[RecurringExpense]:
        """The expenses a month counts, in their order: each one registered by then, or spent on
        then (a month caught up on later), and not archived before it (`counted_in`). Its
        report's lines and totals are these, so a total is always the sum of the lines shown."""
        return [e for e in self.expenses if e.counted_in(period)]

    def expected_total_for(self, period: Period) -> Money:
        """What the month expected: each expense it counts, at its amount then."""
        total = Money.zero(self.currency)
        for expense in self.expenses_in(period):
            total = total + expense.expected_for(period)
        return total

    def set_income(self, income: Money, member: Member | None = None) -> None:
        """The household's monthly income, which feasibility weighs goals against; with `member`,
        that member's own income (the split by income reads it), and the household's becomes the
        sum of the members'. While members have their own, the household's is theirs to change."""
        if income.currency != self.currency:
            raise InvalidMoney(f"A renda deve estar em {self.currency}, não em {income.currency}.")
        if income.amount < 0:
            raise InvalidMoney(f"Renda negativa: {income}.")
        if member is None:
            if self.incomes:
                raise IncomeOfMembers(list(self.income_names.values()))
            self.income = income
            return
        self.incomes[member.id] = income
        self.income_names[member.id] = member.name
        self.income = self._members_income()

    def clear_income(self) -> None:
        self.income = None

    def restore_income(self, member_id: str | None, member_income: Money | None,
                       household_income: Money | None) -> None:
        """Puts an income back as it was (an undo): the member's own (None: none), and the
        household's when no member has one of their own any more."""
        if member_id is not None:
            if member_income is None:
                self.incomes.pop(member_id, None)
                self.income_names.pop(member_id, None)
            else:
                self.incomes[member_id] = member_income
        self.income = self._members_income() if self.incomes else household_income

    def income_changes(self, old_income: Money | None, old_incomes: dict[str, Money]
                       ) -> list[tuple[Money, str | None, str | None]]:
        """How the income moved since it was `old_income` with `old_incomes`, as ledger entries
        need it: (change, member id, member name) for each member whose own income changed, then
        (change, None, None) for what is left of the household's change. They add up to it."""
        currency = self.currency
        zero = Money.zero(currency)
        changes: list[tuple[Money, str | None, str | None]] = []
        for member_id in sorted(set(old_incomes) | set(self.incomes)):
            change = (self.incomes.get(member_id) or zero) - (old_incomes.get(member_id) or zero)
            if not change.is_zero:
                changes.append((change, member_id, self.income_names.get(member_id)))
        old = old_income if old_income is not None and old_income.currency == currency else zero
        rest = (self.income or zero) - old - sum((c for c, _, _ in changes), zero)
        if not rest.is_zero or (self.income is not None and old_income is None and not changes):
            changes.append((rest, None, None))
        return changes

    def income_of(self, member: Member) -> Money | None:
        return self.incomes.get(member.id)

    def _members_income(self) -> Money:
        return sum(self.incomes.values(), Money.zero(self.currency))

    # -- credit cards (domain.cards) -------------------------------------------------------------

    def register_card(self, name: str, closing_day: int, due_day: int, *,
                      aliases: Iterable[str] = ()) -> Card:
        """A new credit card; a name or alias another active card answers to is refused."""
        cleaned = clean_name(name, "Nome do cartão")
        card = Card(cleaned, check_card_day(closing_day, "fechamento"), check_card_day(due_day, "vencimento"),
                    card_aliases(cleaned, aliases))
        self._check_card_names([card.name, *card.aliases])
        self.cards.append(card)
        return card

    def active_cards(self) -> list[Card]:
        return [card for card in self.cards if not card.archived]

    def find_card(self, name: str) -> Card:
        """By name or alias, ignoring case and accents; an archived card answers to nothing."""
        if isinstance(name, str):
            for card in self.active_cards():
                if card.answers_to(name):
                    return card
        raise UnknownCard(str(name), [card.name for card in self.active_cards()])

    def card_by_id(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise UnknownCard(card_id)

    def rename_card(self, name: str, new_name: str, *, keep_old_name: bool = True) -> Card:
        """A new name for a card; its old name stays an alias unless `keep_old_name` is False."""
        card = self.find_card(name)
        cleaned = clean_name(new_name, "Novo nome")
        self._check_card_names([cleaned], besides=card)
        card.aliases = aliases_after_rename(card.name, cleaned, card.aliases, keep_old_name)
        card.name = cleaned
        return card

    def archive_card(self, name: str, *, open_installments: int = 0) -> Card:
        """Out of use; refused while parcelas still fall in faturas to come (`open_installments`,
        as the ledger counts them)."""
        card = self.find_card(name)
        if open_installments:
            raise OpenInstallments(card.name, open_installments)
        card.archived = True
        return card

    def _check_card_names(self, names: Iterable[str], besides: Card | None = None) -> None:
        for wanted in names:
            for card in self.active_cards():
                if card is not besides and card.answers_to(wanted):
                    raise DuplicateName(wanted, f"o cartão {card.name}")

    def record_purchase(self, expense: RecurringExpense, total: Money, *, card: Card, on: date,
                        installments: int = 1, paid_by: Member | None = None,
                        members: Sequence[Member] = (), shared: bool = True) -> tuple[Parcela, ...]:
        """A purchase on `card` made on `on`, in `installments` parcelas: each a spend in its
        fatura's month, paid by `paid_by` and, when shared, split by today's rule on its own (the
        cents of each adding up)."""
        self._check_amount(total)
        found = parcelas(card, total, on, installments)
        for parcela in found:
            shares = (self.shares_for(parcela.amount, paid_by, members)
                      if paid_by is not None and members and shared else ())
            expense.add_to_actual(parcela.fatura, parcela.amount, paid_by=paid_by, shares=shares,
                                  card=CardRef(card.id, card.name, parcela.installment, parcela.installments),
                                  on=on)
        return found

    # -- who pays what: the split and the acertos (domain.sharing) -------------------------------

    def set_split(self, rule: SplitRule, members: Sequence[Member]) -> None:
        """The rule for the shared spends confirmed from now on; one that could not divide a spend
        among `members` today (a missing income) is refused naming why."""
        rule.check(members, self.incomes)
        self.split = rule

    def restore_split(self, rule: SplitRule) -> None:
        """A rule as it was (an undo), without the checks a new one passes."""
        self.split = rule

    def shares_for(self, amount: Money, payer: Member, members: Sequence[Member]) -> tuple[Share, ...]:
        """A shared spend's shares under today's rule (domain.sharing.rules.shares_of)."""
        return shares_of(amount, payer, members, self.split, self.incomes)

    def settle(self, debtor: Member, creditor: Member, amount: Money, on: date) -> SettlementLine:
        """An acerto: `debtor` paid `creditor` `amount`, which moves the balance by exactly that."""
        self._check_amount(amount)
        if not amount.is_positive:
            raise InvalidMoney(f"O acerto precisa ser positivo, não {amount}.")
        if debtor == creditor:
            raise InvalidArgument(f"{debtor.name} não acerta consigo mesmo.")
        line = SettlementLine(on, amount, debtor, settlement_shares(debtor, creditor, amount))
        self.settlements.append(line)
        return line

    def reverse_settlement(self, on: date, amount: Money, paid_by: Member, shares: tuple[Share, ...]) -> None:
        """The opposite of an acerto's entry (an undo): the same shares, negated."""
        self.settlements.append(SettlementLine(on, -amount, paid_by, tuple(s.negated() for s in shares)))

    def expected_total(self) -> Money:
        total = Money.zero(self.currency)
        for expense in self.active_expenses():
            total = total + expense.expected
        return total

    def actual_total(self, period: Period) -> Money:
        """What the month spent: each expense it counts."""
        total = Money.zero(self.currency)
        for expense in self.expenses_in(period):
            total = total + expense.actual_for(period)
        return total

    def _check_amount(self, amount: Money) -> None:
        if amount.currency != self.currency:
            raise InvalidMoney(
                f"O orçamento é em {self.currency}; {amount} está em outra moeda."
            )
        if amount.amount < 0:
            raise InvalidMoney(f"Valor negativo: {amount}.")
