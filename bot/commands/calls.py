"""The write commands as tool calls: each command's arguments, read by bot/commands/parsing.py,
become the very call the agent would make (`PARSERS`), so a command goes through the same tool,
preview and buttons as the model's proposal, with no model at all (contract §6)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from types import MappingProxyType
from typing import Any, Final

from bot.commands.catalog import named
from bot.commands.parsing import (
    CommandUsageError,
    parse_acerto,
    parse_ajuste,
    parse_aporte,
    parse_cartao,
    parse_despesa,
    parse_divisao,
    parse_gasto,
    parse_meta,
    parse_renda,
)
from domain.money import Period
from domain.reading import Amount
from domain.tools.budget import AdjustExpenseTool, RecordSpendTool, RegisterExpenseTool, SetIncomeTool
from domain.tools.cards import RegisterCardTool
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool
from domain.tools.housekeeping import ArchiveTool, RenameTool
from domain.tools.sharing import SetPixKeyTool, SetSplitTool, SettleUpTool

ToolCallArgs = tuple[str, dict[str, Any]]
WriteParser = Callable[[str, date, str], ToolCallArgs]



class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


SENDER: Any = _Marker("SENDER")  # filled with the sender's member name
EVERY_MEMBER: Any = _Marker("EVERY_MEMBER")  # /meta: every member of the household contributes


def _money(parsed: Amount, currency: str) -> dict[str, Any]:
    return {"amount": parsed.amount, "currency": parsed.currency or currency}


def _period(value: tuple[int, int] | None, today: date) -> str:
    return str(Period(*value)) if value else str(Period.of(today))


def gasto(text: str, today: date, currency: str) -> ToolCallArgs:
    spend = parse_gasto(text, today)
    arguments = {"expense": spend.expense, "period": _period(spend.period, today),
                 "amount": _money(spend.amount, currency), "paidBy": spend.paid_by or SENDER,
                 "shared": not spend.personal}
    if spend.card is not None:
        arguments["card"] = spend.card  # CardWords: the write path reads them against the cards
    if spend.installments is not None:
        arguments["installments"] = spend.installments
    return RecordSpendTool.name, arguments


def renda(text: str, today: date, currency: str) -> ToolCallArgs:
    return SetIncomeTool.name, {"amount": _money(parse_renda(text), currency), "member": SENDER}


def divisao(text: str, today: date, currency: str) -> ToolCallArgs:
    split = parse_divisao(text)
    return SetSplitTool.name, {"kind": split.kind, "percents": dict(split.percents) or None}


def acerto(text: str, today: date, currency: str) -> ToolCallArgs:
    """`/acerto [valor]`: the sender's acerto, of the whole debt when no amount is given."""
    arguments: dict[str, Any] = {"speaker": SENDER}
    amount = parse_acerto(text)
    if amount is not None:
        arguments["amount"] = _money(amount, currency)
    return SettleUpTool.name, arguments


def pix(text: str, today: date, currency: str) -> ToolCallArgs:
    """`/pix <chave>`: the sender's own key (validated by the tool, never echoed in an error)."""
    if not text.strip():
        raise CommandUsageError("pix")
    return SetPixKeyTool.name, {"member": SENDER, "key": text.strip()}


def despesa(text: str, today: date, currency: str) -> ToolCallArgs:
    expense = parse_despesa(text)
    return RegisterExpenseTool.name, {"name": expense.name, "expected": _money(expense.expected, currency),
                               "billingDay": expense.billing_day}


def ajuste(text: str, today: date, currency: str) -> ToolCallArgs:
    adjust = parse_ajuste(text)
    return AdjustExpenseTool.name, {"expense": adjust.expense,
                             "newExpected": _money(adjust.new_expected, currency)}


def aporte(text: str, today: date, currency: str) -> ToolCallArgs:
    contribution = parse_aporte(text)
    return ContributeToGoalTool.name, {"goal": contribution.goal, "paidBy": SENDER,
                                "amount": _money(contribution.amount, currency),
                                "date": today.isoformat()}


def meta(text: str, today: date, currency: str) -> ToolCallArgs:
    goal = parse_meta(text)
    return CreateGoalTool.name, {"name": goal.name, "target": _money(goal.target, currency),
                          "contributors": EVERY_MEMBER,
                          "deadline": goal.deadline.isoformat() if goal.deadline else None}


def renomear(text: str, today: date, currency: str) -> ToolCallArgs:
    """`/renomear mercado para Feira`: the last " para " splits the old name from the new."""
    old, separator, new = text.rpartition(" para ")
    if not separator or not old.strip() or not new.strip():
        raise CommandUsageError("renomear")
    return RenameTool.name, {"name": old.strip(), "newName": new.strip()}


def arquivar(text: str, today: date, currency: str) -> ToolCallArgs:
    if not text.strip():
        raise CommandUsageError("arquivar")
    return ArchiveTool.name, {"name": text.strip()}


def cartao(text: str, today: date, currency: str) -> ToolCallArgs:
    """`/cartao Nubank fecha 3 vence 10`."""
    card = parse_cartao(text)
    return RegisterCardTool.name, {"name": card.name, "closingDay": card.closing_day, "dueDay": card.due_day}


PARSERS: Final[Mapping[str, WriteParser]] = MappingProxyType({
    "gasto": gasto, "despesa": despesa, "ajuste": ajuste, "aporte": aporte, "meta": meta,
    "renomear": renomear, "arquivar": arquivar, "renda": renda, "divisao": divisao, "acerto": acerto,
    "pix": pix, "cartao": cartao})


def write_parser(name: str) -> WriteParser:
    """How write command `name` reads its arguments into a tool call (KeyError: no such command)."""
    return PARSERS[named(name).name]
