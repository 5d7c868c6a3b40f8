"""The household's numbers as people read them: /resumo, /metas and the closed month."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Final

from bot.texts.format import (
    PERCENT_CEILING,
    bar,
    date_br,
    format_money,
    money,
    month_br,
    names,
    percent_of,
    squeeze,
)
from domain.money import Money, Period
from domain.reports import BudgetReport, GoalReport, UnreportableGoal

EXPENSE_HINT: Final = "Cadastre com /despesa Aluguel 2.500 dia 10"
GOAL_HINT: Final = "Crie com /meta Viagem 6000 EUR até 2028-06-01"


def before_household_text(period: Period, began: Period) -> str:
    """An empty month before the household was set up (/resumo, /extrato, /grafico say it alike)."""
    return f"Nada registrado em {month_br(period)}: a casa começou em {month_br(began)}."


def budget_report_text(report: BudgetReport, *, began: Period | None = None) -> str:
    """/resumo: each expense with a bar, the totals, the income and what is left. `began`: the
    month the household was set up, which an empty month before it names."""
    lines = [f"📊 Resumo de {month_br(report.period)}", ""]
    if not report.expenses and began is not None and report.period < began:
        lines.append(before_household_text(report.period, began))
    elif not report.expenses:
        lines += ["Nenhuma despesa cadastrada ainda.", EXPENSE_HINT]
    for expense in report.expenses:
        lines.append(f"{expense.name}: {_money_progress(expense.actual, expense.expected)}")
    if report.expenses:
        lines += ["", f"Total: {_money_progress(report.actual_total, report.expected_total)}"]
    if report.income is not None:
        lines += ["", f"Renda: {money(report.income)}"]
        if report.income.currency == report.actual_total.currency:
            left = report.income.amount - report.actual_total.amount
            currency = report.income.currency
            lines.append(f"⚠️ Gastos passaram da renda em {format_money(-left, currency)}" if left < 0
                         else f"Sobra: {format_money(left, currency)}")
    return "\n".join(squeeze(lines))


def _money_progress(actual: Money, expected: Money) -> str:
    text = f"{money(actual)} de {money(expected)}"
    if expected.amount <= 0:
        return text
    percent = max(0, percent_of(actual.amount, expected.amount))
    warning = " ⚠️" if percent > 100 else ""
    # A ceiling: R$ 0,03 planned and R$ 2 bilhões spent is "mais de 999 %", not "66666666674 %".
    shown = f"{percent} %" if percent <= PERCENT_CEILING else f"mais de {PERCENT_CEILING} %"
    return f"{text} {bar(percent)} {shown}{warning}"


def goal_reports_text(reports: Sequence[GoalReport | UnreportableGoal]) -> str:
    """/metas: every goal, saved, target, deadline, monthly need and pace (or why it can't say)."""
    if not reports:
        return "\n".join(["🎯 Metas", "", "Nenhuma meta criada ainda.", GOAL_HINT])
    return "\n\n".join(["🎯 Metas", *("\n".join(_typed_goal_lines(r)) for r in reports)])


def goal_report_text(report: GoalReport | UnreportableGoal) -> str:
    """One goal as /metas shows it: the answer to "quanto falta pra Amsterdam?"."""
    return "\n".join(["🎯 Meta", "", *_typed_goal_lines(report)])


def feasibility_text(result: Mapping[str, Any]) -> str:
    """"dá pra juntar 20 mil até dezembro de 2027?": the monthly amount the goal needs against what
    is left of the income after the expenses and the other goals (`checkFeasibility`'s result)."""
    def amount(key: str) -> str:
        return money(Money(Decimal(str(result[key]["amount"])), str(result[key]["currency"])))

    subject = "a nova meta" if result["goal"] == "nova meta" else f"a meta {result['goal']}"
    verdict = "✅ Cabe no orçamento" if result["feasible"] else "⚠️ Não cabe no orçamento"
    lines = [f"{verdict}: {subject} pede {amount('requiredMonthly')} por mês.", "",
             f"Renda: {amount('income')}",
             f"Despesas previstas: {amount('expectedExpenses')}",
             f"Outras metas: {amount('otherGoalsMonthly')} por mês",
             f"Sobra por mês: {amount('monthlySurplus')}"]
    if result["requiredMonthly"]["currency"] != result["requiredMonthlyInBudgetCurrency"]["currency"]:
        lines.insert(1, f"(≈ {amount('requiredMonthlyInBudgetCurrency')} por mês)")
    return "\n".join(lines)


def _typed_goal_lines(report: GoalReport | UnreportableGoal) -> list[str]:
    if isinstance(report, UnreportableGoal):
        return [report.name, f"⚠️ {report.problem}"]
    percent = report.progress_percent
    lines = [report.name,
             f"{money(report.saved_in_target_currency)} de {money(report.target)} {bar(percent)} {percent} %"]
    saved = report.saved_by_currency
    if len(saved) > 1 or (saved and report.target.currency not in saved):
        lines.append(f"Guardado: {names([money(m) for m in saved.values()])}")
    if report.rates_used:
        lines.append(f"Cotação usada: {names([f'{money(one)} = {money(other)}' for one, other in report.rates_used])}")
    lines.append(f"Prazo: {date_br(report.deadline)}" if report.deadline else "Prazo: sem prazo")
    reached = percent >= 100
    if reached:
        lines.append("🎉 Meta atingida!")
    elif report.required_monthly is not None:
        lines.append(f"Faltam {money(report.required_monthly)} por mês")
    if report.on_track is True and not reached:
        lines.append("✅ no ritmo")
    elif report.on_track is False:
        lines.append("⚠️ atrasada")
    return lines


