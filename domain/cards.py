"""Credit cards, their faturas and parcelas.

A card closes its fatura on its closing day and the fatura falls due on the first due day after
that. A purchase made before the closing day falls in the fatura that closes that month; on or
after it, in the next month's. Days beyond a short month's end fall on its last day (a card
closing on the 31st closes on 28 or 29 February).

A purchase in N parcelas is N spend lines, the first in the purchase's fatura and each next one a
fatura later; the total is split in cents with the remainder on the first (R$ 1.000,00 em 3x is
333,34 + 333,33 + 333,33).

The budget month a card spend counts in is its fatura's month (the month the fatura closes): a
purchase and each of its parcelas count in the month their fatura closes, when the money
actually leaves the household. So a card line's `period` in the ledger is its fatura.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from domain.clock import last_day
from domain.errors import InvalidArgument, InvalidMoney, UnknownName
from domain.household import clean_name, new_id
from domain.money import Money, Period
from domain.text import fold

MAX_INSTALLMENTS = 48


class UnknownCard(UnknownName):
    label = "Cartão"
    known_label = "Conhecidos"
    hint = " Cadastre com /cartao <nome> fecha <dia> vence <dia>."


class OpenInstallments(InvalidArgument):
    """A card still holding parcelas in faturas to come cannot be archived."""

    def __init__(self, card: str, count: int) -> None:
        self.count = count
        word = "parcela" if count == 1 else "parcelas"
        super().__init__(f"O cartão {card} ainda tem {count} {word} em faturas futuras; "
                         "ele só pode ser arquivado depois delas.")


def check_card_day(day: object, what: str) -> int:
    if isinstance(day, bool) or not isinstance(day, int) or not 1 <= day <= 31:
        raise InvalidArgument(f"Dia de {what} inválido: {day!r} (use 1 a 31).")
    return day


def on_day(period: Period, day: int) -> date:
    """`day` of `period`, or the month's last day when it is shorter."""
    return date(period.year, period.month, min(day, last_day(period.year, period.month)))


@dataclass(frozen=True)
class CardRef:
    """What a spend line keeps of its card: the card, and its parcela (k of N)."""

    card_id: str
    name: str
    installment: int = 1
    installments: int = 1


@dataclass(eq=False)
class Card:
    name: str
    closing_day: int
    due_day: int
    aliases: tuple[str, ...] = ()
    id: str = field(default_factory=new_id)
    archived: bool = False

    def archive(self) -> None:
        self.archived = True

    def restore(self) -> None:
        self.archived = False

    def answers_to(self, name: str) -> bool:
        wanted = fold(name)
        return wanted == fold(self.name) or any(wanted == fold(alias) for alias in self.aliases)

    def closing_date(self, fatura: Period) -> date:
        """The day the fatura of month `fatura` closes."""
        return on_day(fatura, self.closing_day)

    def due_date(self, fatura: Period) -> date:
        """The first due day after the fatura closes."""
        closing = self.closing_date(fatura)
        same_month = on_day(fatura, self.due_day)
        return same_month if same_month > closing else on_day(fatura.plus(1), self.due_day)

    def fatura_of(self, purchase: date) -> Period:
        """The fatura a purchase made on `purchase` falls in (by the month it closes)."""
        month = Period.of(purchase)
        return month if purchase < self.closing_date(month) else month.plus(1)

    def faturas_due_on(self, day: date) -> tuple[Period, ...]:
        """The faturas that fall due on `day`: usually none or one; two when a short February
        pushes one fatura's due day past the next closing (closes 28, due 29)."""
        month = Period.of(day)
        return tuple(fatura for fatura in (month.previous(), month) if self.due_date(fatura) == day)


def installments_of(total: Money, count: int) -> tuple[Money, ...]:
    """`total` in `count` parcelas, the cents left over on the first."""
    check_installments(count)
    units = total.to_minor_units()
    base, rest = divmod(units, count)
    if base <= 0:
        raise InvalidMoney(f"{total} em {count}x daria parcelas de menos de um centavo.")
    first = Money.from_minor_units(base + rest, total.currency)
    return (first, *(Money.from_minor_units(base, total.currency) for _ in range(count - 1)))


def check_installments(count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_INSTALLMENTS:
        raise InvalidArgument(f"Número de parcelas inválido: {count!r} (use 1 a {MAX_INSTALLMENTS}; "
                              "1 é à vista).")
    return count


@dataclass(frozen=True)
class Parcela:
    """One parcela of a purchase: which (k of N), the fatura it falls in, and how much."""

    installment: int
    installments: int
    fatura: Period
    amount: Money


def parcelas(card: Card, total: Money, purchase: date, count: int = 1) -> tuple[Parcela, ...]:
    """The parcelas of a purchase on `card`: parcela k falls k-1 faturas after the purchase's."""
    first = card.fatura_of(purchase)
    return tuple(Parcela(k, count, first.plus(k - 1), amount)
                 for k, amount in enumerate(installments_of(total, count), start=1))


def card_aliases(name: str, aliases: Iterable[str]) -> tuple[str, ...]:
    """The aliases kept for a card named `name`: cleaned, without repeats or its own name."""
    own = fold(name)
    kept: list[str] = []
    for alias in aliases:
        cleaned = clean_name(alias, "Apelido")
        if fold(cleaned) != own and fold(cleaned) not in (fold(k) for k in kept):
            kept.append(cleaned)
    return tuple(kept)
