"""What a person reads (bot/texts/): pt-BR text from domain data, money through Babel, never a dict."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest

from bot.commands.parsing import CommandUsageError
from bot.texts import messages
from bot.texts.format import date_br, money, month_br
from bot.texts.guide import help_text, no_model_text
from bot.texts.messages import (
    already_cancelled_alert,
    already_confirmed_alert,
    error_text,
    expired_alert,
    not_a_member_alert,
    unknown_operation_alert,
)
from bot.texts.previews import cancelled_text, confirmed_text, expired_text, preview_text
from bot.texts.reports import budget_report_text, goal_reports_text
from domain.budget import Budget
from domain.errors import UnknownExpense
from domain.goals import Goal
from domain.household import Household
from domain.in_memory import InMemoryBudgetRepository, InMemoryGoalRepository
from domain.money import FixedRates, Money, Period
from domain.operations.previews import UnreadablePreview
from domain.reports import BudgetReport, ExpenseStatus, GoalReport, UnreportableGoal
from domain.tools.budget import AdjustExpenseTool, RecordSpendTool, RegisterExpenseTool, SetIncomeTool
from domain.tools.goals import ContributeToGoalTool, CreateGoalTool


def brl(amount: str) -> dict[str, Any]:
    return {"amount": Decimal(amount), "currency": "BRL"}


def eur(amount: str) -> dict[str, Any]:
    return {"amount": Decimal(amount), "currency": "EUR"}


# One preview per write tool, shaped as the tools build them (contract §3).
PREVIEWS: dict[str, dict[str, Any]] = {
    "recordSpend": {"expense": "Mercado", "period": "2026-06", "delta": brl("200"),
                    "newActual": brl("1130")},
    "registerExpense": {"name": "Aluguel", "expected": brl("2500"), "category": "Moradia",
                        "billingDay": 10, "paymentMethod": "Pix"},
    "adjustExpense": {"expense": "mercado", "oldExpected": brl("1500"), "newExpected": brl("1800")},
    "contributeToGoal": {"goal": "Amsterdam", "paidBy": "Ana", "amount": brl("500"),
                         "date": "2026-06-15",
                         "newSavedByCurrency": {"BRL": brl("500"), "EUR": eur("100")}},
    "createGoal": {"name": "Lua de mel", "target": "EUR 6000", "deadline": "2028-06-01",
                   "contributors": ["Ana", "Bruno"], "requiredMonthly": "EUR 250.00"},
    "setIncome": {"income": brl("12000"), "oldIncome": brl("10000")},
}

KEY_FACTS: dict[str, list[str]] = {
    "recordSpend": ["Mercado", "junho de 2026", "R$ 200,00", "R$ 1.130,00"],
    "registerExpense": ["Aluguel", "R$ 2.500,00", "Moradia", "todo dia 10", "Pix"],
    "adjustExpense": ["mercado", "R$ 1.500,00", "R$ 1.800,00"],
    "contributeToGoal": ["Amsterdam", "Ana", "R$ 500,00", "15/06/2026", "€ 100,00"],
    "createGoal": ["Lua de mel", "€ 6.000,00", "01/06/2028", "Ana e Bruno", "€ 250,00"],
    "setIncome": ["R$ 12.000,00", "R$ 10.000,00"],
}

NEVER_SHOWN = ("{", "}", "Decimal", "amount", "currency", "None", "[", "'")


def assert_reads_as_prose(text: str) -> None:
    for fragment in NEVER_SHOWN:
        assert fragment not in text, f"{fragment!r} leaked into:\n{text}"


# --------------------------------------------------------------------------- money


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        ("1500", "BRL", "R$ 1.500,00"),
        ("6000", "EUR", "€ 6.000,00"),
        ("37.9", "BRL", "R$ 37,90"),
        ("0.30", "BRL", "R$ 0,30"),
        ("50", "USD", "US$ 50,00"),
        ("1234567.89", "BRL", "R$ 1.234.567,89"),
        ("0", "BRL", "R$ 0,00"),
    ],
)
def test_money_is_written_the_brazilian_way(amount: str, currency: str, expected: str) -> None:
    assert money(Money.of(amount, currency)) == expected


def test_money_uses_a_plain_space_not_a_non_breaking_one() -> None:
    assert "\xa0" not in money(Money.of("1500", "BRL"))


def test_money_rounds_half_up_to_the_currency_minor_unit() -> None:
    assert money(Money(Decimal("83.335"), "EUR")) == "€ 83,34"
    assert money(Money(Decimal("0.125"), "BRL")) == "R$ 0,13"


def test_money_without_minor_units_shows_no_decimals() -> None:
    assert money(Money.of("1000", "JPY")) == "JP¥ 1.000"


def test_money_from_a_stored_preview_accepts_int_and_string_amounts() -> None:
    text = preview_text("recordSpend", {"expense": "Mercado", "period": "2026-06",
                                        "delta": {"amount": 200, "currency": "BRL"},
                                        "newActual": {"amount": "37.90", "currency": "BRL"}})
    assert "Valor: R$ 200,00" in text and "Total gasto no mês: R$ 37,90" in text


def test_money_stored_as_create_goal_text_is_formatted() -> None:
    text = preview_text("createGoal", {"name": "Viagem", "target": "EUR 6000", "contributors": [],
                                       "requiredMonthly": "EUR 250.00"})
    assert "Valor da meta: € 6.000,00" in text and "Guardar por mês: € 250,00" in text


# --------------------------------------------------------------------------- dates and months


def test_dates_are_day_month_year() -> None:
    assert date_br(date(2028, 6, 1)) == "01/06/2028"
    assert date_br("2026-06-15") == "15/06/2026"


def test_months_are_spelled_in_portuguese() -> None:
    assert month_br(Period(2026, 6)) == "junho de 2026"
    assert month_br("2026-03") == "março de 2026"
    assert month_br(date(2027, 12, 25)) == "dezembro de 2027"


def test_an_unreadable_date_or_month_is_shown_as_given() -> None:
    assert date_br("amanhã") == "amanhã"
    assert month_br("2026-13") == "2026-13"


# --------------------------------------------------------------------------- previews


def test_a_spend_preview_reads_as_a_short_question() -> None:
    assert preview_text("recordSpend", PREVIEWS["recordSpend"]) == (
        "📝 Registrar gasto\n"
        "Despesa: Mercado\n"
        "Mês: junho de 2026\n"
        "Valor: R$ 200,00\n"
        "Total gasto no mês: R$ 1.130,00\n"
        "\n"
        "Confirma?"
    )


def test_a_goal_preview_names_target_deadline_contributors_and_monthly_need() -> None:
    assert preview_text("createGoal", PREVIEWS["createGoal"]) == (
        "🎯 Criar meta\n"
        "Nome: Lua de mel\n"
        "Valor da meta: € 6.000,00\n"
        "Prazo: 01/06/2028\n"
        "Participantes: Ana e Bruno\n"
        "Guardar por mês: € 250,00\n"
        "\n"
        "Confirma?"
    )


@pytest.mark.parametrize("tool", sorted(PREVIEWS))
def test_every_preview_shows_its_key_facts_the_brazilian_way(tool: str) -> None:
    text = preview_text(tool, PREVIEWS[tool])
    for fact in KEY_FACTS[tool]:
        assert fact in text
    assert text.endswith("Confirma?")
    assert_reads_as_prose(text)


@pytest.mark.parametrize("tool", sorted(PREVIEWS))
def test_every_outcome_message_keeps_the_facts_and_drops_the_question(tool: str) -> None:
    confirmed = confirmed_text(tool, PREVIEWS[tool], "Ana")
    assert confirmed.startswith("✅ ")
    assert "por Ana" in confirmed.splitlines()[0]
    assert "Confirma?" not in confirmed
    for fact in KEY_FACTS[tool]:
        assert fact in confirmed
    for text in (confirmed, cancelled_text(tool, PREVIEWS[tool], "Bruno"),
                 expired_text(tool, PREVIEWS[tool])):
        assert_reads_as_prose(text)
        assert "Confirma?" not in text


def test_an_expense_preview_omits_what_was_not_given() -> None:
    text = preview_text("registerExpense", {"name": "Internet", "expected": brl("120"),
                                            "category": None, "billingDay": None,
                                            "paymentMethod": None})
    assert text == "🆕 Cadastrar despesa mensal\nNome: Internet\nValor previsto por mês: R$ 120,00\n\nConfirma?"


def test_an_adjustment_shows_old_and_new_amounts() -> None:
    assert "Valor previsto: R$ 1.500,00 → R$ 1.800,00" in preview_text(
        "adjustExpense", PREVIEWS["adjustExpense"])


def test_a_contribution_shows_savings_per_currency() -> None:
    text = preview_text("contributeToGoal", PREVIEWS["contributeToGoal"])
    assert "Data: 15/06/2026" in text
    assert "Guardado até agora: R$ 500,00 e € 100,00" in text


def test_a_goal_without_deadline_says_so_and_asks_for_no_monthly_amount() -> None:
    text = preview_text("createGoal", {"name": "Reserva", "target": "BRL 10000",
                                       "contributors": ["Ana", "Bruno", "Carla"]})
    assert "Prazo: sem prazo" in text
    assert "Participantes: Ana, Bruno e Carla" in text
    assert "por mês" not in text


def test_an_income_preview_says_when_there_was_no_income_before() -> None:
    text = preview_text("setIncome", {"income": brl("12000"), "oldIncome": None})
    assert "Nova renda: R$ 12.000,00" in text
    assert "Renda anterior: não informada" in text


def test_a_preview_of_an_unknown_tool_is_a_programming_error_not_a_guess() -> None:
    with pytest.raises(UnreadablePreview, match="payBill"):
        preview_text("payBill", {"expense": "Luz", "amount": brl("180.5"), "date": "2026-06-10"})


def test_a_stored_preview_missing_a_field_is_refused_naming_the_field() -> None:
    with pytest.raises(UnreadablePreview, match="period"):
        preview_text("recordSpend", {"expense": "Mercado", "delta": brl("10")})


def test_a_stored_preview_this_version_cannot_read_still_closes_in_plain_words() -> None:
    unreadable = {"expense": "Luz", "amount": brl("180.5")}
    assert expired_text("payBill", unreadable).splitlines()[1] == "Proposta: operação"
    assert cancelled_text("recordSpend", unreadable, "Ana").startswith("❌ Cancelado por Ana.")
    assert cancelled_text("payBill", unreadable, "Ana").endswith("Proposta: operação")


# --------------------------------------------------------------------------- outcomes


def test_a_confirmed_spend_says_who_confirmed_it() -> None:
    assert confirmed_text("recordSpend", PREVIEWS["recordSpend"], "Ana") == (
        "✅ Gasto registrado por Ana\n"
        "Despesa: Mercado\n"
        "Mês: junho de 2026\n"
        "Valor: R$ 200,00\n"
        "Total gasto no mês: R$ 1.130,00"
    )


def test_a_confirmation_by_nobody_in_particular_names_no_one() -> None:
    assert confirmed_text("createGoal", PREVIEWS["createGoal"], None).splitlines()[0] == "✅ Meta criada"


def test_a_cancelled_preview_says_nothing_was_recorded() -> None:
    assert cancelled_text("recordSpend", PREVIEWS["recordSpend"], "Bruno") == (
        "❌ Cancelado por Bruno. Nada foi registrado.\n"
        "Proposta: gasto de R$ 200,00 em Mercado, junho de 2026"
    )


def test_expired_previews_say_nothing_was_recorded() -> None:
    assert "expirou" in expired_text("createGoal", PREVIEWS["createGoal"])
    assert "€ 6.000,00" in expired_text("createGoal", PREVIEWS["createGoal"])
    assert "Nada foi registrado" in expired_text("recordSpend", PREVIEWS["recordSpend"])


def test_button_alerts_fit_a_telegram_callback_alert() -> None:
    assert already_confirmed_alert() == "Essa operação já foi confirmada."
    for alert in (already_confirmed_alert(), already_cancelled_alert(), expired_alert(),
                  not_a_member_alert(), unknown_operation_alert()):
        assert 0 < len(alert) <= 200
    assert "/entrar" in not_a_member_alert()


# --------------------------------------------------------------------------- /resumo


def budget_status(expenses: list[tuple[str, str, str]], income: str | None = "12000") -> BudgetReport:
    expected = sum((Decimal(e) for _, e, _ in expenses), Decimal(0))
    actual = sum((Decimal(a) for _, _, a in expenses), Decimal(0))
    return BudgetReport(
        Period(2026, 6),
        tuple(ExpenseStatus(n, Money.of(e, "BRL"), Money.of(a, "BRL")) for n, e, a in expenses),
        Money.of(expected, "BRL"), Money.of(actual, "BRL"),
        Money.of(income, "BRL") if income is not None else None,
    )


def test_the_month_summary_shows_each_expense_with_a_bar_and_what_is_left() -> None:
    status = budget_status([("Mercado", "1500", "930"), ("Aluguel", "2500", "2500")])
    assert budget_report_text(status) == (
        "📊 Resumo de junho de 2026\n"
        "\n"
        "Mercado: R$ 930,00 de R$ 1.500,00 ▓▓▓▓▓░░░ 62 %\n"
        "Aluguel: R$ 2.500,00 de R$ 2.500,00 ▓▓▓▓▓▓▓▓ 100 %\n"
        "\n"
        "Total: R$ 3.430,00 de R$ 4.000,00 ▓▓▓▓▓▓▓░ 85 %\n"
        "\n"
        "Renda: R$ 12.000,00\n"
        "Sobra: R$ 8.570,00"
    )


def test_an_expense_over_its_budget_is_flagged() -> None:
    text = budget_report_text(budget_status([("Lazer", "500", "600")]))
    assert "Lazer: R$ 600,00 de R$ 500,00 ▓▓▓▓▓▓▓▓ 120 % ⚠️" in text


def test_percentages_round_down_and_the_bar_is_full_only_at_one_hundred() -> None:
    text = budget_report_text(budget_status(
        [("Luz", "300", "299.99"), ("Gás", "100", "0.5"), ("Água", "100", "1.5")]))
    assert "Luz: R$ 299,99 de R$ 300,00 ▓▓▓▓▓▓▓░ 99 %" in text
    assert "Gás: R$ 0,50 de R$ 100,00 ░░░░░░░░ 0 %" in text
    assert "Água: R$ 1,50 de R$ 100,00 ▓░░░░░░░ 1 %" in text


def test_spending_above_income_is_flagged_instead_of_a_negative_leftover() -> None:
    text = budget_report_text(budget_status([("Aluguel", "2500", "3000")], income="2000"))
    assert "⚠️ Gastos passaram da renda em R$ 1.000,00" in text
    assert "-R$" not in text


def test_the_month_summary_without_income_shows_no_leftover() -> None:
    text = budget_report_text(budget_status([("Mercado", "1500", "930")], income=None))
    assert "Renda" not in text
    assert "Sobra" not in text


def test_an_empty_budget_hints_how_to_register_an_expense() -> None:
    text = budget_report_text(budget_status([], income=None))
    assert text == ("📊 Resumo de junho de 2026\n\nNenhuma despesa cadastrada ainda.\n"
                    "Cadastre com /despesa Aluguel 2.500 dia 10")


# --------------------------------------------------------------------------- /metas


AMSTERDAM = GoalReport(
    name="Amsterdam Setembro/2026", target=Money.of("6000", "EUR"), deadline=date(2026, 9, 1),
    saved_by_currency={"BRL": Money.of("3000", "BRL"), "EUR": Money.of("700", "EUR")},
    saved_in_target_currency=Money.of("1183.87", "EUR"), progress_percent=19,
    required_monthly=Money.of("1605.38", "EUR"), on_track=False,
)


def test_the_goals_text_shows_saved_target_deadline_monthly_need_and_pace() -> None:
    assert goal_reports_text([AMSTERDAM]) == (
        "🎯 Metas\n"
        "\n"
        "Amsterdam Setembro/2026\n"
        "€ 1.183,87 de € 6.000,00 ▓▓░░░░░░ 19 %\n"
        "Guardado: R$ 3.000,00 e € 700,00\n"
        "Prazo: 01/09/2026\n"
        "Faltam € 1.605,38 por mês\n"
        "⚠️ atrasada"
    )


def test_a_goal_saved_in_its_own_currency_only_shows_no_currency_detail() -> None:
    report = GoalReport("Carro", Money.of("30000", "BRL"), date(2027, 6, 1), {"BRL": Money.of("9000", "BRL")},
                        Money.of("9000", "BRL"), 30, Money.of("1750", "BRL"), True)
    text = goal_reports_text([report])
    assert "Guardado:" not in text
    assert "R$ 9.000,00 de R$ 30.000,00" in text
    assert "Faltam R$ 1.750,00 por mês" in text
    assert text.endswith("✅ no ritmo")


def test_a_reached_goal_is_celebrated() -> None:
    report = replace(AMSTERDAM, saved_in_target_currency=Money.of("6000", "EUR"), progress_percent=100,
                     required_monthly=Money.of("0", "EUR"), on_track=True)
    text = goal_reports_text([report])
    assert "🎉 Meta atingida!" in text
    assert "Faltam" not in text


def test_a_goal_without_deadline_has_no_monthly_need_or_pace() -> None:
    report = GoalReport("Reserva", Money.of("10000", "BRL"), None, {}, Money.of("0", "BRL"), 0, None, None)
    text = goal_reports_text([report])
    assert "Prazo: sem prazo" in text
    assert "Faltam" not in text
    assert "ritmo" not in text and "atrasada" not in text
    assert_reads_as_prose(text)


def test_a_goal_that_cannot_be_reported_says_why_without_hiding_the_others() -> None:
    text = goal_reports_text([UnreportableGoal("Viagem", "Sem cotação para JPY."), AMSTERDAM])
    assert "Viagem\n⚠️ Sem cotação para JPY." in text
    assert "Amsterdam Setembro/2026" in text


def test_no_goals_hints_how_to_create_one() -> None:
    assert goal_reports_text([]).endswith("Crie com /meta Viagem 6000 EUR até 2028-06-01")


# --------------------------------------------------------------------------- help and errors


CONTRACT_EXAMPLES = (
    "/gasto 37,90 mercado", "/despesa Aluguel 2.500 dia 10", "/ajuste mercado 1.800",
    "/aporte 500 Amsterdam", "/meta Lua de mel 6000 EUR até 2028-06-01", "/resumo", "/metas",
    "/ajuda",
)


def test_help_lists_every_command_with_its_example_and_free_text_examples() -> None:
    text = help_text()
    for example in CONTRACT_EXAMPLES:
        assert example in text
    assert "registra R$ 200 a mais no mercado" in text
    assert "aporta R$ 500 na meta de Amsterdam, eu paguei" in text
    assert "quero uma meta de €6000 pra junho 2028, eu e Bruno" in text
    assert len(text) <= 4096


def test_without_a_model_free_text_gets_a_short_note_not_the_whole_help() -> None:
    text = no_model_text()
    assert "/gasto 37,90 mercado" in text and "/ajuda" in text
    assert "• /ajuda: esta mensagem" not in text
    assert len(text) < len(help_text()) // 3


def test_help_says_how_to_start_and_how_to_join() -> None:
    text = help_text()
    assert "/start" in text and "/entrar" in text and "/sair" in text and "/apagar" in text


def test_a_domain_error_shows_its_own_message() -> None:
    error = UnknownExpense("Academia", ["Mercado", "Aluguel"])
    assert error_text(error) == f"⚠️ {error}"
    assert "Academia" in error_text(error)


def test_a_command_the_bot_cannot_read_shows_the_right_form() -> None:
    assert error_text(CommandUsageError("gasto")).startswith("⚠️ Não entendi. Use: /gasto")


def test_an_unexpected_error_leaks_nothing() -> None:
    text = error_text(RuntimeError("connection to postgres://secret@db failed"))
    assert text == messages.GENERIC_ERROR
    assert "Algo deu errado; nada foi registrado." in text
    assert "postgres" not in text


# --------------------------------------------------------------------------- real tool output


def _clock() -> datetime:
    return datetime(2026, 6, 1, 15, tzinfo=UTC)


async def test_previews_built_by_the_real_tools_render_as_prose() -> None:
    household = Household.create("Casa", "BRL", id="h1")
    household.add_member("Ana")
    household.add_member("Bruno")
    budgets = InMemoryBudgetRepository()
    budget = Budget.create("BRL", id="b1", household_id="h1")
    budget.register("Mercado", Money.of(1500, "BRL"), aliases=["supermercado"])
    await budgets.save(budget)
    goals = InMemoryGoalRepository()
    goal = Goal.create("Amsterdam Setembro/2026", Money.of(6000, "EUR"), members=household.members,
                       created_at=date(2026, 6, 1), deadline=date(2026, 9, 1), id="g1",
                       household_id="h1")
    await goals.save(goal)
    receipts = {
        "recordSpend": await RecordSpendTool.create(budget_repo=budgets, budget_id="b1").record_spend(
            expense="supermercado", period="2026-06", amount={"amount": 200, "currency": "BRL"},
            operation_id="op1"),
        "registerExpense": await RegisterExpenseTool.create(
            budget_repo=budgets, budget_id="b1").register_expense(
            name="Aluguel", expected={"amount": 2500, "currency": "BRL"}, billing_day=10,
            operation_id="op2"),
        "adjustExpense": await AdjustExpenseTool.create(budget_repo=budgets, budget_id="b1").adjust_expense(
            expense="mercado", new_expected={"amount": 1800, "currency": "BRL"}, operation_id="op3"),
        "setIncome": await SetIncomeTool.create(budget_repo=budgets, budget_id="b1").set_income(
            amount={"amount": 12000, "currency": "BRL"}, operation_id="op4"),
        "contributeToGoal": await ContributeToGoalTool.create(
            goal_repo=goals, household_id="h1").contribute_to_goal(
            goal="Amsterdam", paid_by="Ana", amount={"amount": 500, "currency": "BRL"},
            date="2026-06-15", operation_id="op5"),
        "createGoal": await CreateGoalTool.create(
            goal_repo=goals, household=household, now=_clock).create_goal(
            name="Lua de mel", target={"amount": 6000, "currency": "EUR"},
            contributors=["Ana", "Bruno"], deadline="2028-06-01", operation_id="op6"),
    }
    expected_facts = {
        "recordSpend": ["supermercado", "junho de 2026", "R$ 200,00"],
        "registerExpense": ["Aluguel", "R$ 2.500,00", "todo dia 10"],
        "adjustExpense": ["R$ 1.500,00 → R$ 1.800,00"],
        "setIncome": ["R$ 12.000,00", "não informada"],
        "contributeToGoal": ["Amsterdam", "Ana", "R$ 500,00", "15/06/2026"],
        "createGoal": ["€ 6.000,00", "01/06/2028", "Ana e Bruno", "€ 250,00"],
    }
    for tool, receipt in receipts.items():
        text = preview_text(tool, receipt.preview)
        for fact in expected_facts[tool]:
            assert fact in text, f"{fact!r} missing from {tool}:\n{text}"
        assert_reads_as_prose(text)
        assert not text.startswith("📝 Confirmar operação"), f"{tool} fell back to the generic text"


def test_reports_of_a_real_budget_and_goal_render_as_prose() -> None:
    budget = Budget.create("BRL", id="b1")
    mercado = budget.register("Mercado", Money.of(1500, "BRL"))
    mercado.replace_actual(Period(2026, 6), Money.of("930", "BRL"))
    summary = budget_report_text(BudgetReport.of(budget, Period(2026, 6)))
    assert "Mercado: R$ 930,00 de R$ 1.500,00 ▓▓▓▓▓░░░ 62 %" in summary
    assert_reads_as_prose(summary)

    household = Household.create("Casa", "BRL")
    ana = household.add_member("Ana")
    goal = Goal.create("Lua de mel", Money.of(6000, "EUR"), members=[ana],
                       created_at=date(2026, 6, 1), deadline=date(2028, 6, 1))
    goal.contribute(ana, Money.of(620, "BRL"), date(2026, 6, 2))
    report = GoalReport.of(goal, date(2026, 6, 1), FixedRates({"EUR": "6.20"}))
    text = goal_reports_text([report])
    assert "Lua de mel" in text
    assert "Guardado: R$ 620,00" in text
    assert "Cotação usada: € 1,00 = R$ 6,20" in text
    assert "Prazo: 01/06/2028" in text
    assert_reads_as_prose(text)
