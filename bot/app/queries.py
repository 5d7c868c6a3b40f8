"""What the household reads: the read commands' answers (/resumo, /metas, /extrato, … one table,
`QUERIES`), /exportar, the pending previews, and the month at a glance that /grafico and the
monthly closing draw."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date
from typing import Any, BinaryIO, Final

from bot.app.chats import ChatContext, Chats
from bot.app.outcomes import Preview, Reply, Speaker
from bot.app.ports import ChatLink, Storage
from bot.app.proposals import Proposals
from bot.commands.parsing import CommandUsageError, parse_fatura, resumo_period
from bot.texts import cards, history, messages, reports, sharing
from domain.errors import DomainError
from domain.ledger import EntryKind, LedgerEntry
from domain.money import Money, Period
from domain.reports import BudgetReport, FaturaReport, GoalReport, MonthReport
from domain.tools.budget import AdjustmentPreview
from domain.tools.cards import CardBillTool
from domain.tools.goals import goal_matching
from domain.tools.registry import read_preview
from domain.tools.sharing import BalanceTool, rule_view
from domain.tools.undo import UndoPreview


class Queries:
    def __init__(self, storage: Storage, chats: Chats, proposals: Proposals) -> None:
        self.storage = storage
        self.chats = chats
        self.proposals = proposals

    def this_month(self) -> Period:
        return Period.of(self.chats.today())

    async def answer(self, command: str, chat_id: int, speaker: Speaker, text: str) -> str:
        """A read command's answer (`QUERIES`): the household's data is for its members only."""
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return found.text
        context, _ = found
        return await QUERIES[command](self, context, text)

    def read_month(self, context: ChatContext, command: str, text: str, *,
                   whole: bool = False) -> Period | str | None:
        """The month a command names, read as every command reads months (domain.reading:
        "março", "2026-03", "03/2026", "mês passado") and within the household's window; none
        named is this month (or, with `whole`, None: every month). A str is what to answer
        instead: the month could not be read, or is out of the window."""
        try:
            period = resumo_period(text, self.chats.today())
        except CommandUsageError as usage:
            return history.usage_text(command, str(usage))
        if period is None:
            return None if whole else Period.of(self.chats.today())
        return self.chats.month_refusal(context, period) or period

    async def month_for(self, command: str, chat_id: int, speaker: Speaker, text: str, *,
                        whole: bool = False) -> tuple[ChatLink, Period | None] | str:
        """The member's household and the month a command names (`read_month`), or what to answer."""
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return found.text
        context, _ = found
        period = self.read_month(context, command, text, whole=whole)
        return period if isinstance(period, str) else (context.link, period)

    async def summary(self, context: ChatContext, period: Period) -> str:
        """/resumo: the month's expected and actual per expense, with the totals."""
        refusal = self.chats.month_refusal(context, period)
        if refusal is not None:
            return refusal
        budget = await self.storage.budgets.load(context.link.budget_id, periods=[period])
        return reports.budget_report_text(BudgetReport.of(budget, period),
                                          began=self.chats.began(context))

    async def goals(self, context: ChatContext) -> str:
        """/metas: every active goal's progress."""
        goals = await self.storage.goals.list(context.link.household_id, history=False)
        today = self.chats.today()
        return reports.goal_reports_text([GoalReport.or_why_not(g, today, self.chats.rates)
                                          for g in goals if not g.archived])

    async def statement(self, context: ChatContext, period: Period) -> str:
        """/extrato: the month's ledger entries, newest first."""
        refusal = self.chats.month_refusal(context, period)
        if refusal is not None:
            return refusal
        entries = await self.storage.ledger.month(context.link.household_id, period,
                                                  limit=history.STATEMENT_LINES + 1)
        return history.statement_text(period, entries, self.chats.timezone, began=self.chats.began(context),
                                      adjustments=await self._adjustments(context, entries))

    async def _adjustments(self, context: ChatContext,
                           entries: Sequence[LedgerEntry]) -> dict[str, tuple[Money, Money]]:
        """Each adjustment's expected amount before and after, by operation, as its confirmed
        preview showed them (an undone one the other way): the ledger keeps only the difference."""
        found: dict[str, tuple[Money, Money]] = {}
        for entry in entries:
            if entry.kind is not EntryKind.EXPECTED or entry.operation_id is None or entry.operation_id in found:
                continue
            operation = await context.operations.get(entry.operation_id)
            if operation is None or operation.receipt is None:
                continue
            shown = read_preview(operation.tool, operation.receipt.preview)
            if isinstance(shown, UndoPreview) and isinstance(shown.original, AdjustmentPreview):
                found[entry.operation_id] = (shown.original.new_expected, shown.original.old_expected)
            elif isinstance(shown, AdjustmentPreview):
                found[entry.operation_id] = (shown.old_expected, shown.new_expected)
        return found

    async def month(self, link: ChatLink, period: Period, today: date) -> MonthReport:
        """The household's `period`, with its goals as they stand `today`."""
        budget = await self.storage.budgets.load(link.budget_id, periods=[period])
        goals = await self.storage.goals.list(link.household_id, history=False)
        faturas = [FaturaReport.of(card, period, await self.storage.ledger.fatura(card.id, period), (),
                                   budget.currency) for card in budget.active_cards()]
        return MonthReport.of(budget, goals, period, today, self.chats.rates, faturas)

    async def export(self, chat_id: int, speaker: Speaker, period: Period | None, out: BinaryIO) -> str | Reply:
        """/exportar [AAAA-MM]: writes the CSV to `out` and returns its file name, for a member
        only (what to answer otherwise: the household's history is its members'). Streamed: memory
        stays flat however many entries there are."""
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return found
        context, _ = found
        await history.write_csv(self.storage.ledger.stream(context.link.household_id, period), out,
                                self.chats.timezone)
        return history.export_file_name(period)

    async def read_answer(self, context: ChatContext, name: str, arguments: Mapping[str, Any],
                          result: Mapping[str, Any]) -> str | None:
        """A question the free-text reader took (domain.agent.questions), answered as the read
        command for it answers (/resumo, /saldo, /fatura, one goal of /metas); None for a read with
        no such answer (the model's turn)."""
        try:
            if name == "budgetStatus":
                return await self.summary(context, Period.parse(str(arguments["period"])))
            if name == "balance":
                period = arguments.get("period")
                return await _saldo(self, context, str(period) if period else "")
            if name == "cardBill":
                period = arguments.get("period")
                return cards.fatura_text(await _card_tool(context).report(
                    str(arguments["card"]), Period.parse(str(period)) if period else None))
            if name == "goalStatus":
                goals = await self.storage.goals.list(context.link.household_id, history=False)
                goal = goal_matching(goals, str(arguments["name"]))
                return reports.goal_report_text(GoalReport.or_why_not(goal, self.chats.today(), self.chats.rates))
            if name == "checkFeasibility":
                return reports.feasibility_text(result)
        except DomainError as error:
            return messages.error_text(error)
        return None

    async def pending_previews(self, chat_id: int) -> list[Preview]:
        """Every preview of the chat still waiting for a decision (the console lists them)."""
        context = await self.chats.context(chat_id)
        if context is None:
            return []
        return [await self.proposals.preview(context, op) for op in await context.operations.pending()]


# -- the read commands: each reads its own words and answers in pt-BR ------------------------------

Query = Callable[[Queries, ChatContext, str], Awaitable[str]]


async def _resumo(queries: Queries, context: ChatContext, text: str) -> str:
    period = queries.read_month(context, "resumo", text)
    return period if isinstance(period, str) else await queries.summary(context, period or queries.this_month())


async def _metas(queries: Queries, context: ChatContext, text: str) -> str:
    return await queries.goals(context)


async def _extrato(queries: Queries, context: ChatContext, text: str) -> str:
    period = queries.read_month(context, "extrato", text)
    return period if isinstance(period, str) else await queries.statement(context, period or queries.this_month())


async def _saldo(queries: Queries, context: ChatContext, text: str) -> str:
    period = queries.read_month(context, "saldo", text, whole=True)  # none named: all time
    if isinstance(period, str):
        return period
    tool = context.tool(BalanceTool.name)
    assert isinstance(tool, BalanceTool)
    return sharing.balance_text(await tool.balance(period), period)


async def _cartoes(queries: Queries, context: ChatContext, text: str) -> str:
    return cards.cards_text(await _card_tool(context).cards())


async def _fatura(queries: Queries, context: ChatContext, text: str) -> str:
    try:
        name, fatura = parse_fatura(text, queries.chats.today())
        return cards.fatura_text(await _card_tool(context).report(name, fatura))
    except CommandUsageError as usage:
        return str(usage)
    except DomainError as error:
        return messages.error_text(error)


def _card_tool(context: ChatContext) -> CardBillTool:
    tool = context.tool(CardBillTool.name)
    assert isinstance(tool, CardBillTool)
    return tool


async def _divisao(queries: Queries, context: ChatContext, text: str) -> str:
    budget = await queries.storage.budgets.load(context.link.budget_id, periods=())
    return sharing.split_text(rule_view(budget.split, list(context.household.members), budget))


QUERIES: Final[Mapping[str, Query]] = {"resumo": _resumo, "metas": _metas, "extrato": _extrato,
                                       "saldo": _saldo, "divisao": _divisao, "cartoes": _cartoes,
                                       "fatura": _fatura}
