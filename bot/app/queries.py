"""What the household reads: the read commands' answers (/resumo, /metas, /extrato, … one table,
`QUERIES`), /exportar, the pending previews, and the month at a glance that /grafico and the
monthly closing draw."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import date
from typing import BinaryIO, Final

from bot.app.chats import ChatContext, Chats
from bot.app.outcomes import Preview, Reply, Speaker
from bot.app.ports import ChatLink, Storage
from bot.app.proposals import Proposals
from bot.commands.parsing import CommandUsageError, resumo_period
from bot.texts import history, reports, sharing
from domain.money import Period
from domain.reports import BudgetReport, GoalReport, MonthReport
from domain.tools.sharing import BalanceTool, rule_view


class Queries:
    def __init__(self, storage: Storage, chats: Chats, proposals: Proposals) -> None:
        self.storage = storage
        self.chats = chats
        self.proposals = proposals

    async def answer(self, command: str, chat_id: int, speaker: Speaker, text: str) -> str:
        """A read command's answer (`QUERIES`): the household's data is for its members only."""
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return found.text
        context, _ = found
        return await QUERIES[command](self, context, text)

    async def summary(self, context: ChatContext, period: Period) -> str:
        """/resumo: the month's expected and actual per expense, with the totals."""
        refusal = self.chats.month_refusal(context, period)
        if refusal is not None:
            return refusal
        budget = await self.storage.budgets.load(context.link.budget_id, periods=[period])
        return reports.budget_report_text(BudgetReport.of(budget, period))

    async def goals(self, context: ChatContext) -> str:
        """/metas: every active goal's progress."""
        goals = await self.storage.goals.list(context.link.household_id, history=False)
        today = self.chats.today()
        return reports.goal_reports_text([GoalReport.or_why_not(g, today, self.chats.rates)
                                          for g in goals if not g.archived])

    async def statement(self, context: ChatContext, period: Period) -> str:
        """/extrato: the month's ledger entries, newest first."""
        entries = await self.storage.ledger.month(context.link.household_id, period,
                                                  limit=history.STATEMENT_LINES + 1)
        return history.statement_text(period, entries, self.chats.timezone)

    async def month(self, link: ChatLink, period: Period, today: date) -> MonthReport:
        """The household's `period`, with its goals as they stand `today`."""
        budget = await self.storage.budgets.load(link.budget_id, periods=[period])
        goals = await self.storage.goals.list(link.household_id, history=False)
        return MonthReport.of(budget, goals, period, today, self.chats.rates)

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


# -- the read commands: each reads its own words and answers in pt-BR ------------------------------

Query = Callable[[Queries, ChatContext, str], Awaitable[str]]


async def _resumo(queries: Queries, context: ChatContext, text: str) -> str:
    try:
        period = resumo_period(text, queries.chats.today())
    except CommandUsageError as usage:
        return str(usage)
    return await queries.summary(context, period or Period.of(queries.chats.today()))


async def _metas(queries: Queries, context: ChatContext, text: str) -> str:
    return await queries.goals(context)


async def _extrato(queries: Queries, context: ChatContext, text: str) -> str:
    try:
        period = resumo_period(text, queries.chats.today())
    except CommandUsageError as usage:
        return history.usage_text("extrato", str(usage))
    return await queries.statement(context, period or Period.of(queries.chats.today()))


async def _saldo(queries: Queries, context: ChatContext, text: str) -> str:
    try:
        period = resumo_period(text, queries.chats.today())
    except CommandUsageError as usage:
        return history.usage_text("saldo", str(usage))
    tool = context.tool(BalanceTool.name)
    assert isinstance(tool, BalanceTool)
    return sharing.balance_text(await tool.balance(period), period)


async def _divisao(queries: Queries, context: ChatContext, text: str) -> str:
    budget = await queries.storage.budgets.load(context.link.budget_id, periods=())
    return sharing.split_text(rule_view(budget.split, list(context.household.members), budget))


QUERIES: Final[Mapping[str, Query]] = {"resumo": _resumo, "metas": _metas, "extrato": _extrato,
                                       "saldo": _saldo, "divisao": _divisao}
