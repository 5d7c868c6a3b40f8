"""Tools over credit cards: register one (/cartao), and read a fatura (/fatura, the model's cardBill)
or every card with its open fatura (/cartoes). The rules are domain.cards'; a purchase on a card
is recordSpend's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import Field

from domain.budget import Budget
from domain.cards import Card
from domain.ledger import Ledger
from domain.money import Money, Period
from domain.operations.previews import Preview
from domain.operations.receipts import ToolReceipt
from domain.ports import BudgetRepository
from domain.reading import read_period
from domain.reports import CardSummary, FaturaReport, report_json
from domain.tools.base import HouseholdBinding, ReadTool, Staged, ToolArgs, WriteArgs, missing
from domain.tools.budget import BillingDay, _BudgetWriteTool, find_card


@dataclass(frozen=True)
class CardPreview(Preview):
    """registerCard: a new credit card, its closing and due days, and when its first fatura
    (the one open today) closes and falls due."""

    name: str
    closing_day: int
    due_day: int
    aliases: tuple[str, ...]
    next_closing: date
    next_due: date


class RegisterCardArgs(WriteArgs):
    name: str
    closing_day: BillingDay = Field(description="Day the fatura closes, 1-31.")
    due_day: BillingDay = Field(description="Day the fatura is due, 1-31.")
    aliases: list[str] | None = None


class RegisterCardTool(_BudgetWriteTool):
    """/cartao <nome> fecha <dia> vence <dia>. Not offered to the model: a card is registered once,
    and its schema would cost every message's prompt."""

    preview_type = CardPreview
    name = "registerCard"
    description = "Register a credit card with its closing and due days."
    args_model = RegisterCardArgs
    offered = False

    async def register_card(self, *, name: str, closing_day: int, due_day: int, operation_id: str,
                            aliases: list[str] | None = None, confirm: bool = False) -> ToolReceipt:
        return await self.run(self.parse({"name": name, "closing_day": closing_day, "due_day": due_day,
                                          "aliases": aliases, "operation_id": operation_id,
                                          "confirm": confirm}))

    async def _stage(self, args: RegisterCardArgs) -> Staged:
        budget = await self.budget_repo.load(self.budget_id, periods=())
        card = budget.register_card(args.name, args.closing_day, args.due_day, aliases=args.aliases or ())
        open_fatura = card.fatura_of(self.reading.today())
        preview = CardPreview(card.name, card.closing_day, card.due_day, card.aliases,
                              card.closing_date(open_fatura), card.due_date(open_fatura))
        return Staged(preview, lambda: self.budget_repo.save(budget))


class CardBillArgs(ToolArgs):
    card: str
    period: str | None = Field(default=None, description="YYYY-MM the fatura closes; omit: the open one.")


class CardBillTool(ReadTool[CardBillArgs]):
    name = "cardBill"
    description = "A credit card's fatura: items, total, due date, next faturas."
    args_model = CardBillArgs

    def __init__(self, ledger: Ledger, budget_repo: BudgetRepository, budget_id: str, currency: str) -> None:
        self.ledger = ledger
        self.budget_repo = budget_repo
        self.budget_id = budget_id
        self.currency = currency

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> CardBillTool | None:
        if binding.ledger is None:
            return None
        return cls(binding.ledger, binding.budgets, binding.budget_id, binding.household.currency)

    def prepare(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if missing(arguments, "period"):
            return {**arguments, "period": None}
        return {**arguments, "period": read_period(arguments["period"], self.reading.today())}

    async def read(self, args: CardBillArgs) -> dict[str, Any]:
        return report_json(await self.report(args.card, Period.parse(args.period) if args.period else None))

    async def _budget(self) -> Budget:
        return await self.budget_repo.load(self.budget_id, periods=())

    async def report(self, card_name: str, fatura: Period | None = None) -> FaturaReport:
        """The card's fatura closing in `fatura` (None: the one open today): what /fatura shows."""
        card = find_card(await self._budget(), card_name)
        return await self.fatura_of(card, fatura or card.fatura_of(self.reading.today()))

    async def fatura_of(self, card: Card, fatura: Period) -> FaturaReport:
        entries = await self.ledger.fatura(card.id, fatura)
        upcoming = await self.ledger.faturas(card.id, fatura.plus(1))
        return FaturaReport.of(card, fatura, entries, upcoming, self.currency)

    async def cards(self) -> list[CardSummary]:
        """Every active card with the fatura open today: what /cartoes lists."""
        today = self.reading.today()
        summaries = []
        for card in (await self._budget()).active_cards():
            open_fatura = card.fatura_of(today)
            totals = {f.fatura: f.total for f in await self.ledger.faturas(card.id, open_fatura)}
            summaries.append(CardSummary(card.name, card.closing_day, card.due_day, open_fatura,
                                         totals.get(open_fatura) or Money.zero(self.currency)))
        return summaries

    async def open_parcelas(self, card: Card) -> int:
        """Parcelas of purchases in installments still to fall in faturas not yet closed."""
        faturas = await self.ledger.faturas(card.id, card.fatura_of(self.reading.today()))
        return sum(f.parcelas for f in faturas)
