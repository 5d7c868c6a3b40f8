"""Matching statement lines to expenses and the import tool's rules (domain/statements.py,
domain/tools/statements.py): one preview, all or nothing, exactly once."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from domain.budget import Budget
from domain.errors import UnknownExpense
from domain.in_memory import InMemoryBudgetRepository
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.statements import (
    AlreadyImported,
    InMemoryStatementImports,
    NothingToImport,
    StatementLine,
    fingerprints,
    plan_import,
)
from domain.tools.statements import ImportStatementTool

JUNE = Period(2026, 6)
HOUSEHOLD = "h1"


def a_budget() -> Budget:
    budget = Budget.create("BRL", id="b1", household_id=HOUSEHOLD)
    budget.register("Farmácia", Money.of(300, "BRL"), aliases=["drogaria"])
    budget.register("Farmácia Popular", Money.of(50, "BRL"))
    budget.register("Mercado", Money.of(1500, "BRL"), aliases=["supermercado"])
    budget.register("Pão", Money.of(100, "BRL"), aliases=["padaria"])
    return budget


def line(description: str, amount: str, day: int = 2, bank_id: str | None = None) -> StatementLine:
    return StatementLine(date(2026, 6, day), Decimal(amount), description, bank_id)


def test_a_debit_matches_an_expense_by_name_or_alias_whatever_the_case_and_accents() -> None:
    plan = plan_import(a_budget(), [line("FARMACIA SAO JOAO", "-10"), line("Drogaria Raia", "-20"),
                                    line("SUPERMERCADO EXTRA", "-30")], set())
    assert [p.expense for p in plan.to_import] == ["Farmácia", "Farmácia", "Mercado"]


def test_the_longest_matching_name_wins_and_words_must_be_whole() -> None:
    plan = plan_import(a_budget(), [line("FARMACIA POPULAR CENTRO", "-10"), line("PAOZINHO", "-5")], set())
    assert [p.expense for p in plan.to_import] == ["Farmácia Popular"]
    assert [u.description for u in plan.unmatched] == ["PAOZINHO"]


def test_a_description_naming_two_expenses_equally_is_left_for_the_member() -> None:
    plan = plan_import(a_budget(), [line("PADARIA E MERCADO", "-10")], set())
    assert plan.to_import == [] and len(plan.unmatched) == 1


def test_credits_are_set_apart_and_lines_imported_before_are_skipped() -> None:
    lines = [line("SALARIO", "5000"), line("ESTORNO DROGARIA", "40"), line("PADARIA", "-7", bank_id="f1")]
    plan = plan_import(a_budget(), lines, set(fingerprints(lines)[2:]))
    assert [c.description for c in plan.credits] == ["SALARIO", "ESTORNO DROGARIA"]
    assert plan.to_import == [] and plan.skipped == 1


def test_fingerprints_use_the_bank_id_else_date_amount_and_folded_description_and_count_repeats() -> None:
    coffee = line("Café", "-5")
    same_text = line("  CAFE ", "-5.00")
    keys = fingerprints([coffee, coffee, same_text])
    assert len(set(keys)) == 3  # two coffees that day, then the same description folded: a third
    assert fingerprints([same_text]) == fingerprints([coffee])
    assert fingerprints([line("A", "-1", bank_id="X")]) == fingerprints([line("B", "-2", bank_id="X")])


class Setup:
    def __init__(self) -> None:
        self.budgets = InMemoryBudgetRepository()
        self.imports = InMemoryStatementImports()
        self.log = InMemoryOperationLog()

    async def tool(self) -> ImportStatementTool:
        if not self.budgets._items:
            await self.budgets.save(a_budget())
        return ImportStatementTool.create(budget_repo=self.budgets, budget_id="b1", household_id=HOUSEHOLD,
                                          imports=self.imports, operations=self.log)

    async def actual(self, name: str) -> Money:
        return (await self.budgets.load("b1")).find_by_name(name).actual_for(JUNE)


def import_args(lines: list[StatementLine], operation_id: str = "doc-1", **extra: Any) -> dict[str, Any]:
    plan = plan_import(a_budget(), lines, set())
    return {"operationId": operation_id, "file": "extrato.ofx",
            "lines": [{"date": p.line.on.isoformat(), "amount": -p.line.amount, "description": p.line.description,
                       "expense": p.expense, "fingerprint": p.fingerprint} for p in plan.to_import],
            **extra}


LINES = [line("FARMACIA", "-180.50", 2, "f1"), line("SUPERMERCADO", "-412.30", 3, "f2"),
         line("DROGARIA", "-60", 7, "f3")]


async def test_the_preview_groups_by_expense_with_totals_and_writes_nothing() -> None:
    setup = Setup()
    tool = await setup.tool()
    receipt = await tool.invoke(import_args(LINES))
    assert not receipt.confirmed and not receipt.persisted
    assert receipt.preview["count"] == 3
    assert receipt.preview["total"] == {"amount": Decimal("652.80"), "currency": "BRL"}
    assert receipt.preview["groups"] == [
        {"expense": "Farmácia", "count": 2, "total": {"amount": Decimal("240.50"), "currency": "BRL"}},
        {"expense": "Mercado", "count": 1, "total": {"amount": Decimal("412.30"), "currency": "BRL"}}]
    assert setup.budgets.saves == 1  # the set-up's own
    assert await setup.imports.already_imported(HOUSEHOLD, ["x"]) == set()


async def test_confirming_adds_every_line_to_its_month_once_and_a_repeat_writes_nothing() -> None:
    setup = Setup()
    tool = await setup.tool()
    await tool.invoke(import_args(LINES))
    first = await tool.invoke(import_args(LINES, confirm=True))
    again = await tool.invoke(import_args(LINES, confirm=True))
    assert first.persisted and again.confirmed and not again.persisted
    assert await setup.actual("Farmácia") == Money.of("240.50", "BRL")
    assert await setup.actual("Mercado") == Money.of("412.30", "BRL")
    keys = [entry["fingerprint"] for entry in import_args(LINES)["lines"]]
    assert await setup.imports.already_imported(HOUSEHOLD, keys) == set(keys)


async def test_a_second_import_of_lines_already_imported_is_refused_whole_at_its_confirmation() -> None:
    setup = Setup()
    tool = await setup.tool()
    await tool.invoke(import_args(LINES, "doc-1"))
    await tool.invoke(import_args([*LINES[1:], line("PADARIA", "-9", 9, "f9")], "doc-2"))
    await tool.invoke(import_args(LINES, "doc-1", confirm=True))
    with pytest.raises(AlreadyImported):
        await tool.invoke(import_args([*LINES[1:], line("PADARIA", "-9", 9, "f9")], "doc-2", confirm=True))
    assert await setup.actual("Pão") == Money.zero("BRL")
    assert await setup.actual("Mercado") == Money.of("412.30", "BRL")


async def test_an_expense_gone_since_the_preview_fails_the_whole_import() -> None:
    setup = Setup()
    tool = await setup.tool()
    args = import_args(LINES)
    args["lines"][1]["expense"] = "Academia"
    with pytest.raises(UnknownExpense):
        await tool.invoke(args)
    assert setup.budgets.saves == 1


async def test_an_import_with_no_line_proposes_nothing() -> None:
    tool = await Setup().tool()
    with pytest.raises(NothingToImport):
        await tool.invoke(import_args([]))


async def test_the_model_is_never_shown_the_import_tool() -> None:
    tool = await Setup().tool()
    assert not tool.offered


async def test_an_import_that_takes_a_month_past_80_percent_says_so_on_its_confirmation() -> None:
    setup = Setup()
    tool = await setup.tool()  # Farmácia: R$ 300,00 a month
    await tool.invoke(import_args(LINES))

    confirmed = await tool.invoke(import_args(LINES, confirm=True))

    assert confirmed.preview["limits"] == [{"expense": "Farmácia", "period": "2026-06", "percent": 80}]
