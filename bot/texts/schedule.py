"""What the bot says on its own (bill reminders, the monthly closing) and about it (/lembretes,
/grafico), in Brazilian Portuguese. Money and months as the rest of the bot writes them."""

from __future__ import annotations

from typing import Final

from bot.texts.format import date_br, money, month_br
from bot.texts.reports import before_household_text
from domain.money import Money, Period
from domain.reports import GoalReport, MonthReport, UnreportableGoal

LEMBRETES_USAGE: Final = "Use /lembretes on para ligar ou /lembretes off para desligar os avisos de vencimento."
CAPTION_LIMIT: Final = 1024


def bill_reminder(expense: str, amount: Money, payment_method: str | None) -> str:
    """``📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)`` (contract §8)."""
    method = f" ({payment_method})" if payment_method else ""
    return f"📅 Amanhã vence {expense}: {money(amount)}{method}"


def reminders_switched(enabled: bool) -> str:
    if enabled:
        return ("🔔 Lembretes ligados: na véspera de cada vencimento eu aviso aqui "
                "(despesas com dia de cobrança, ex.: /despesa Aluguel 2.500 dia 10).")
    return "🔕 Lembretes desligados: não aviso mais os vencimentos. Para religar: /lembretes on."


def reminders_status(enabled: bool) -> str:
    state = "ligados 🔔" if enabled else "desligados 🔕"
    return f"Lembretes de vencimento {state}.\n{LEMBRETES_USAGE}"


def chart_file_name(period: Period | None) -> str:
    """The console's file for /grafico (`grafico-2026-06.png`; this month's when none is named)."""
    return f"grafico-{period}.png" if period is not None else "grafico.png"


def chart_caption(report: MonthReport) -> str:
    return f"📊 {month_br(report.period).capitalize()}: previsto x gasto e metas"


def empty_month(report: MonthReport, began: Period | None = None) -> str:
    """/grafico with nothing to draw; before the household was set up, it says so as /resumo does."""
    if began is not None and report.period < began:
        return before_household_text(report.period, began)
    return (f"Nada para mostrar em {month_br(report.period)}: cadastre despesas (/despesa Aluguel 2.500 dia 10) "
            "ou metas (/meta Viagem 6000 EUR até 2028-06-01).")


def closing_text(report: MonthReport) -> str:
    """The closed month: expected and spent per expense, the total, and every goal's progress
    with what it needs per month."""
    month = report.budget
    lines = [f"🗓️ Fechamento de {month_br(report.period)}", ""]
    for line in month.expenses:
        warning = " ⚠️" if line.over else ""
        lines.append(f"{line.name}: {money(line.actual)} de {money(line.expected)}{warning}")
    if month.expenses:
        left = month.expected_total.amount - month.actual_total.amount
        currency = month.expected_total.currency
        balance = (f"sobraram {money(Money(left, currency))} do previsto" if left >= 0
                   else f"⚠️ {money(Money(-left, currency))} acima do previsto")
        lines += ["", f"Total: {money(month.actual_total)} de {money(month.expected_total)} ({balance})"]
    if report.faturas:
        lines += ["", "💳 Faturas que fecharam no mês"]
        lines += [f"{f.card}: {money(f.total)}, vence {date_br(f.due)}" for f in report.faturas]
    if report.goals:
        lines += ["", "🎯 Metas"]
        lines += [goal_text(goal) for goal in report.goals]
    return "\n".join(lines)


def goal_text(goal: GoalReport | UnreportableGoal) -> str:
    if isinstance(goal, UnreportableGoal):
        return f"{goal.name}: ⚠️ {goal.problem}"
    saved, percent = goal.saved_in_target_currency, goal.progress_percent
    text = f"{goal.name}: {money(saved)} de {money(goal.target)} ({percent} %)"
    if goal.reached:
        return f"{text}, meta atingida! 🎉"
    if goal.required_monthly is not None and goal.deadline is not None:
        return f"{text}, faltam {money(goal.required_monthly)} por mês até {date_br(goal.deadline)}"
    return text
