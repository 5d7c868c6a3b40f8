"""Typed previews: JSON for the model and the operation log in one function, read back in one, the
same keys and values as before they were typed; and one registry every consumer reads."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from bot.texts import previews
from domain.budget import Budget
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.ledger import InMemoryLedger
from domain.money import Money, Period
from domain.operations.log import InMemoryOperationLog
from domain.operations.previews import Preview, UnreadablePreview, preview_from_json, preview_json
from domain.statements import InMemoryStatementImports
from domain.tools.base import HouseholdBinding, WriteTool, compact_json
from domain.tools.budget import (
    AdjustmentPreview,
    ExpensePreview,
    IncomePreview,
    RecordSpendTool,
    SpendPreview,
)
from domain.tools.cards import CardPreview
from domain.tools.goals import ContributionPreview, CreateGoalTool, GoalPreview
from domain.tools.housekeeping import ArchivePreview, RenamePreview
from domain.tools.membership import (
    EraseHouseholdTool,
    ErasePreview,
    JoinHouseholdTool,
    JoinPreview,
    LeaveHouseholdTool,
    LeavePreview,
)
from domain.tools.registry import BY_NAME, TOOLS, household_tools, read_preview
from domain.tools.sharing import (
    PixKeyPreview,
    RulePart,
    RuleView,
    SetPixKeyTool,
    SettlementPreview,
    SplitPreview,
)
from domain.tools.statements import AsideLine, ImportGroup, ImportPreview
from domain.tools.undo import UndoPreview
from tests.fakes.storage import InMemoryStorage


def brl(amount: str) -> Money:
    return Money(Decimal(amount), "BRL")


def brl_json(amount: str) -> dict[str, Any]:
    return {"amount": Decimal(amount), "currency": "BRL"}


SPEND = SpendPreview("mercado", Period(2026, 6), brl("200"), brl("1130"))
SPEND_JSON = {"expense": "mercado", "period": "2026-06", "delta": brl_json("200"),
              "newActual": brl_json("1130")}

# Each write tool's preview, typed, and as its JSON was stored before previews were typed.
SAMPLES: dict[str, tuple[Preview, dict[str, Any]]] = {
    "recordSpend": (SPEND, SPEND_JSON),
    "registerExpense": (
        ExpensePreview("Aluguel", brl("2500"), None, 10, None),
        {"name": "Aluguel", "expected": brl_json("2500"), "category": None, "billingDay": 10,
         "paymentMethod": None}),
    "adjustExpense": (
        AdjustmentPreview("mercado", brl("1500"), brl("1800")),
        {"expense": "mercado", "oldExpected": brl_json("1500"), "newExpected": brl_json("1800")}),
    "setIncome": (
        IncomePreview(brl("12000"), None),
        {"income": brl_json("12000"), "oldIncome": None}),
    "contributeToGoal": (
        ContributionPreview("Amsterdam", "Ana", brl("500"), date(2026, 6, 15),
                            (brl("500"), Money(Decimal("100"), "EUR"))),
        {"goal": "Amsterdam", "paidBy": "Ana", "amount": brl_json("500"), "date": "2026-06-15",
         "newSavedByCurrency": {"BRL": brl_json("500"),
                                "EUR": {"amount": Decimal("100"), "currency": "EUR"}}}),
    "createGoal": (
        GoalPreview("Lua de mel", Money(Decimal("6000"), "EUR"), date(2028, 6, 1), ("Ana", "Bruno"),
                    Money(Decimal("250.00"), "EUR")),
        {"name": "Lua de mel", "target": "EUR 6000", "deadline": "2028-06-01",
         "contributors": ["Ana", "Bruno"], "requiredMonthly": "EUR 250.00"}),
    "renameItem": (
        RenamePreview("expense", "Mercado", "Feira"),
        {"kind": "expense", "oldName": "Mercado", "newName": "Feira"}),
    "archiveItem": (
        ArchivePreview("goal", "Academia"),
        {"kind": "goal", "name": "Academia"}),
    "undoOperation": (
        UndoPreview("op-1", "recordSpend", SPEND),
        {"operation": "op-1", "tool": "recordSpend", "original": SPEND_JSON}),
    "importStatement": (
        ImportPreview("nubank.csv", 3, brl("150.90"),
                      (ImportGroup("Mercado", 2, brl("120.90")), ImportGroup("Uber", 1, brl("30"), 1)),
                      (AsideLine("2026-06-03", brl("-45.00"), "Loja X"),),
                      (AsideLine("2026-06-04", brl("-200"), "Estorno"),), 2),
        {"file": "nubank.csv", "count": 3, "total": brl_json("150.90"),
         "groups": [{"expense": "Mercado", "count": 2, "total": brl_json("120.90")},
                    {"expense": "Uber", "count": 1, "total": brl_json("30"), "suggested": 1}],
         "unmatched": [{"date": "2026-06-03", "amount": brl_json("-45.00"), "description": "Loja X"}],
         "credits": [{"date": "2026-06-04", "amount": brl_json("-200"), "description": "Estorno"}],
         "skipped": 2}),
    "settleUp": (
        SettlementPreview("Bruno", "Ana", brl("50"), brl("80"), brl("30")),
        {"debtor": "Bruno", "creditor": "Ana", "amount": brl_json("50"), "debt": brl_json("80"),
         "remaining": brl_json("30")}),
    "setSplit": (
        SplitPreview(RuleView("fixed", (RulePart("Ana", "m-ana", Decimal("60")),
                                        RulePart("Bruno", "m-bruno", Decimal("40")))), RuleView("equal")),
        {"rule": {"kind": "fixed", "parts": [{"member": "Ana", "memberId": "m-ana", "percent": Decimal("60")},
                                             {"member": "Bruno", "memberId": "m-bruno", "percent": Decimal("40")}]},
         "oldRule": {"kind": "equal", "parts": []}}),
    "setPixKey": (
        PixKeyPreview("Bruno", "email", "bruno@example.com"),
        {"member": "Bruno", "kind": "email", "key": "bruno@example.com"}),
    "joinHousehold": (JoinPreview("Carla"), {"name": "Carla"}),
    "leaveHousehold": (LeavePreview("Bruno"), {"name": "Bruno"}),
    "eraseHousehold": (ErasePreview("Casa da Ana"), {"household": "Casa da Ana"}),
    "registerCard": (
        CardPreview("Nubank", 3, 10, ("roxinho",), date(2026, 7, 3), date(2026, 7, 10)),
        {"name": "Nubank", "closingDay": 3, "dueDay": 10, "aliases": ["roxinho"], "nextClosing": "2026-07-03",
         "nextDue": "2026-07-10"}),
}


def test_every_registered_write_tool_has_a_sample_here() -> None:
    assert {tool.name for tool in TOOLS if tool.writes} == set(SAMPLES)


@pytest.mark.parametrize("tool", sorted(SAMPLES))
def test_a_preview_becomes_the_json_it_had_before_it_was_typed(tool: str) -> None:
    typed, stored = SAMPLES[tool]
    assert preview_json(typed) == stored
    assert list(preview_json(typed)) == list(stored)  # the model reads the keys in the same order


@pytest.mark.parametrize("tool", sorted(SAMPLES))
def test_a_preview_goes_to_json_and_back_unchanged(tool: str) -> None:
    typed, _ = SAMPLES[tool]
    assert read_preview(tool, preview_json(typed)) == typed
    assert type(read_preview(tool, preview_json(typed))) is BY_NAME[tool].preview_type  # type: ignore[attr-defined]


@pytest.mark.parametrize("tool", sorted(SAMPLES))
def test_a_preview_stored_before_typing_loads_as_its_type(tool: str) -> None:
    typed, stored = SAMPLES[tool]
    assert read_preview(tool, stored) == typed


def test_stored_amounts_may_come_back_as_ints_or_text() -> None:
    stored = {**SPEND_JSON, "delta": {"amount": 200, "currency": "BRL"},
              "newActual": {"amount": "1130.00", "currency": "BRL"}}
    assert read_preview("recordSpend", stored) == SPEND


def test_the_model_reads_exact_amounts_in_the_compact_json() -> None:
    assert compact_json(preview_json(SPEND)) == (
        '{"expense":"mercado","period":"2026-06","delta":{"amount":"200","currency":"BRL"},'
        '"newActual":{"amount":"1130","currency":"BRL"}}')


def test_a_goal_without_deadline_leaves_deadline_and_monthly_need_out_of_its_json() -> None:
    goal = GoalPreview("Reserva", brl("10000"), contributors=("Ana",))
    assert preview_json(goal) == {"name": "Reserva", "target": "BRL 10000", "contributors": ["Ana"]}
    assert read_preview("createGoal", preview_json(goal)) == goal


@pytest.mark.parametrize(("data", "named"), [
    ({"expense": "Mercado", "period": "2026-06", "delta": brl_json("1")}, "newActual"),
    ({**SPEND_JSON, "period": "junho"}, "period"),
    ({**SPEND_JSON, "delta": {"amount": 1.5, "currency": "BRL"}}, "delta"),
    ({**SPEND_JSON, "expense": ["Mercado"]}, "expense"),
])
def test_json_that_is_not_the_preview_is_refused_naming_the_key(data: dict[str, Any], named: str) -> None:
    with pytest.raises(UnreadablePreview, match=named):
        preview_from_json(SpendPreview, data)


def test_an_archive_of_something_neither_expense_nor_goal_is_refused() -> None:
    with pytest.raises(UnreadablePreview, match="kind"):
        read_preview("archiveItem", {"kind": "member", "name": "Ana"})


def test_a_read_tool_has_no_preview_to_read() -> None:
    with pytest.raises(UnreadablePreview, match="budgetStatus"):
        read_preview("budgetStatus", {"period": "2026-06"})


# --------------------------------------------------------------------------- the registry


def test_tool_names_are_registered_once() -> None:
    names = [entry.name for entry in TOOLS]
    assert len(names) == len(set(names))


def test_a_registered_tool_says_what_its_class_says() -> None:
    for tool in TOOLS:
        assert BY_NAME[tool.name] is tool
        assert issubclass(tool, WriteTool) == tool.writes, tool.name
        assert (getattr(tool, "preview_type", None) is not None) == tool.writes, tool.name


def test_the_bots_own_operations_are_registered_as_their_tools_say() -> None:
    for tool in (JoinHouseholdTool, LeaveHouseholdTool, EraseHouseholdTool):
        entry = BY_NAME[tool.name]
        assert entry is tool
        assert (entry.writes, entry.offered) == (True, False)


async def test_the_toolbox_builds_the_registered_tools_in_the_registrys_order() -> None:
    household = Household.create("Casa", "BRL", id="h1")
    household.add_member("Ana")
    budgets = InMemoryBudgetRepository()
    await budgets.save(Budget.create("BRL", id="b1"))
    binding = HouseholdBinding(household=household, budget_id="b1", budgets=budgets,
                               goals=InMemoryGoalRepository(), operations=InMemoryOperationLog(),
                               statement_imports=InMemoryStatementImports(), ledger=InMemoryLedger())
    # Without the bot's storage (households, member links, eraser), all but the bot's own operations.
    bots_own = {JoinHouseholdTool.name, LeaveHouseholdTool.name, EraseHouseholdTool.name, SetPixKeyTool.name}
    tools = household_tools(binding)
    assert [tool.name for tool in tools] == [t.name for t in TOOLS if t.name not in bots_own]
    for tool in tools:
        assert type(tool) is BY_NAME[tool.name]
    # With it, every registered tool.
    storage = InMemoryStorage()
    tools = household_tools(replace(binding, households=storage.households, members=storage.directory,
                                    eraser=storage, chat_id=1))
    assert [tool.name for tool in tools] == [t.name for t in TOOLS]
    for tool in tools:
        assert type(tool) is BY_NAME[tool.name]


# --------------------------------------------------------------------------- the tools' previews


def _clock() -> datetime:
    return datetime(2026, 6, 15, 15, tzinfo=UTC)


async def test_a_tools_receipt_carries_its_typed_previews_json() -> None:
    budgets = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id="b1")
    budget.register("Mercado", brl("1500"), aliases=["supermercado"])
    budget.find_by_name("Mercado").add_to_actual(Period(2026, 6), brl("930"))
    await budgets.save(budget)
    receipt = await RecordSpendTool.create(budget_repo=budgets, budget_id="b1").record_spend(
        expense="supermercado", period="2026-06", amount={"amount": 200, "currency": "BRL"},
        operation_id="op1")
    assert receipt.preview == {"expense": "supermercado", "period": "2026-06",
                               "delta": brl_json("200"), "newActual": brl_json("1130")}
    household = Household.create("Casa", "BRL", id="h1")
    household.add_member("Ana")
    goal = await CreateGoalTool.create(goal_repo=InMemoryGoalRepository(), household=household,
                                       now=_clock).create_goal(
        name="Reserva", target={"amount": "10000.50", "currency": "BRL"}, contributors=["Ana"],
        operation_id="op2")
    assert goal.preview == {"name": "Reserva", "target": "BRL 10000.5", "contributors": ["Ana"]}


# --------------------------------------------------------------------------- pt-BR for each type


def _summary(text: str) -> str:
    """The one-line summary a cancelled or expired preview carries after "Proposta: "."""
    (line,) = [line for line in text.splitlines() if line.startswith("Proposta: ")]
    return line.removeprefix("Proposta: ")


@pytest.mark.parametrize("entry", [t for t in TOOLS if t.writes], ids=lambda t: t.name)
def test_every_registered_write_tool_has_its_pt_br_text(entry: Any) -> None:
    typed, stored = SAMPLES[entry.name]
    title = previews.preview_text(entry.name, typed).splitlines()[0]  # the preview's first line
    facts = previews.preview_facts(typed)
    summary = _summary(previews.cancelled_text(entry.name, typed, None))
    assert _summary(previews.expired_text(entry.name, typed)) == summary
    assert title and facts and summary
    for text in (title, *facts, summary):
        for leaked in ("{", "}", "Decimal", "amount", "currency", "None", "Preview", "'"):
            assert leaked not in text, f"{leaked!r} leaked into {entry.name}: {text}"
    assert previews.preview_text(entry.name, stored) == previews.preview_text(entry.name, typed)
    assert _summary(previews.cancelled_text(entry.name, stored, None)) == summary


def test_a_preview_type_without_text_is_a_programming_error() -> None:
    class Unwritten(Preview):
        pass

    for text in (lambda p: previews.preview_text("unwritten", p), previews.preview_facts,
                 lambda p: previews.cancelled_text("unwritten", p, None),
                 lambda p: previews.expired_text("unwritten", p)):
        with pytest.raises(TypeError, match="Unwritten"):
            text(Unwritten())


def test_an_undo_renders_the_operation_it_reverses() -> None:
    undo, _ = SAMPLES["undoOperation"]
    summary = _summary(previews.cancelled_text("undoOperation", undo, None))
    assert summary == "desfazer gasto de R$ 200,00 em mercado, junho de 2026"
    spelled = replace(SPEND, expense="Mercado")
    assert "em Mercado" in _summary(previews.cancelled_text(
        "undoOperation", replace(undo, original=spelled), None))  # type: ignore[arg-type]
