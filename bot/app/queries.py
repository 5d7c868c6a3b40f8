"""What the household reads: /resumo, /metas, /extrato, /exportar, the pending previews, and the
month at a glance that /grafico and the monthly closing draw."""

from __future__ import annotations

from datetime import date
from typing import BinaryIO

from bot.app.chats import Chats
from bot.app.outcomes import Preview
from bot.app.ports import ChatLink, Storage
from bot.app.proposals import Proposals
from bot.texts import history, messages, reports
from domain.money import Period
from domain.reports import BudgetReport, GoalReport, MonthReport


class Queries:
    def __init__(self, storage: Storage, chats: Chats, proposals: Proposals) -> None:
        self.storage = storage
        self.chats = chats
        self.proposals = proposals

    async def summary(self, chat_id: int, period: Period | None) -> str:
        """/resumo [AAAA-MM]: the month's expected and actual per expense, with the totals."""
        context = await self.chats.context(chat_id)
        if context is None:
            return messages.not_started_text()
        period = period or Period.of(self.chats.today())
        refusal = self.chats.month_refusal(context, period)
        if refusal is not None:
            return refusal
        budget = await self.storage.budgets.load(context.link.budget_id, periods=[period])
        return reports.budget_report_text(BudgetReport.of(budget, period))

    async def goals(self, chat_id: int) -> str:
        """/metas: every active goal's progress."""
        context = await self.chats.context(chat_id)
        if context is None:
            return messages.not_started_text()
        goals = await self.storage.goals.list(context.link.household_id, history=False)
        today = self.chats.today()
        return reports.goal_reports_text([GoalReport.or_why_not(g, today, self.chats.rates)
                                          for g in goals if not g.archived])

    async def month(self, link: ChatLink, period: Period, today: date) -> MonthReport:
        """The household's `period`, with its goals as they stand `today`."""
        budget = await self.storage.budgets.load(link.budget_id, periods=[period])
        goals = await self.storage.goals.list(link.household_id, history=False)
        return MonthReport.of(budget, goals, period, today, self.chats.rates)

    async def statement(self, chat_id: int, period: Period | None) -> str:
        """/extrato [AAAA-MM]: the month's ledger entries, newest first."""
        context = await self.chats.context(chat_id)
        if context is None:
            return messages.not_started_text()
        period = period or Period.of(self.chats.today())
        entries = await self.storage.ledger.month(context.link.household_id, period,
                                                  limit=history.STATEMENT_LINES + 1)
        return history.statement_text(period, entries, self.chats.timezone)

    async def export(self, chat_id: int, period: Period | None, out: BinaryIO) -> str | None:
        """/exportar [AAAA-MM]: writes the CSV to `out` and returns its file name (None when the
        chat is no household). Streamed: memory stays flat however many entries there are."""
        context = await self.chats.context(chat_id)
        if context is None:
            return None
        await history.write_csv(self.storage.ledger.stream(context.link.household_id, period), out,
                                self.chats.timezone)
        return history.export_file_name(period)

    async def pending_previews(self, chat_id: int) -> list[Preview]:
        """Every preview of the chat still waiting for a decision (the console lists them)."""
        context = await self.chats.context(chat_id)
        if context is None:
            return []
        return [await self.proposals.preview(context, op) for op in await context.operations.pending()]
