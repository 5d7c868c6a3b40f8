"""The reminder's exact words, the closing's summary, the chart's PNG, and matplotlib's cost
paid only by a worker that draws."""

from __future__ import annotations

import struct
import subprocess
import sys
from datetime import date
from pathlib import Path

from bot.telegram.sending import split_text as split_message
from bot.texts.chart import DPI, WIDTH_IN, render_month_chart
from bot.texts.schedule import bill_reminder, closing_text
from domain.money import Money, Period
from domain.reports import BudgetReport, ExpenseStatus, GoalReport, MonthReport, percent_saved

ROOT = Path(__file__).resolve().parents[3]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def brl(amount: str) -> Money:
    return Money.of(amount, "BRL")


def report(expenses: int = 3, goals: bool = True) -> MonthReport:
    lines = tuple(ExpenseStatus(f"Despesa {n}", brl("1500"), brl("1730.45") if n == 1 else brl("930"))
                  for n in range(expenses))
    saved, target = Money.of("1850", "EUR"), Money.of("6000", "EUR")
    goal_reports = (GoalReport("Amsterdam Setembro/2026", target, date(2026, 9, 1), {"EUR": saved}, saved,
                               percent_saved(saved, target), Money.of("1383.33", "EUR"), False),
                    ) if goals else ()
    expected = Money.of(1500 * expenses, "BRL")
    spent = brl("0")
    for line in lines:
        spent = spent + line.actual
    return MonthReport(BudgetReport(Period(2026, 11), lines, expected, spent, None), goal_reports)


def png_size(png: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_a_reminder_names_the_bill_its_amount_and_how_it_is_paid() -> None:
    assert bill_reminder("Aluguel", brl("3200"), "Pix") == "📅 Amanhã vence Aluguel: R$ 3.200,00 (Pix)"


def test_a_reminder_without_a_payment_method_says_nothing_about_it() -> None:
    assert bill_reminder("Luz", brl("187.3"), None) == "📅 Amanhã vence Luz: R$ 187,30"


def test_the_closing_shows_each_expense_the_total_and_what_each_goal_needs_per_month() -> None:
    text = closing_text(report())
    assert text.startswith("🗓️ Fechamento de novembro de 2026")
    assert "Despesa 1: R$ 1.730,45 de R$ 1.500,00 ⚠️" in text
    assert "Total: R$ 3.590,45 de R$ 4.500,00 (sobraram R$ 909,55 do previsto)" in text
    assert ("Amsterdam Setembro/2026: € 1.850,00 de € 6.000,00 (30 %), faltam € 1.383,33 por mês "
            "até 01/09/2026") in text


def test_a_long_text_is_split_at_line_breaks_under_telegrams_limit() -> None:
    text = "\n".join(f"linha {n} " + "x" * 90 for n in range(100))
    parts = split_message(text)
    assert len(parts) > 1 and all(len(part) <= 4096 for part in parts)
    assert "\n".join(parts) == text


def test_the_chart_is_a_png_a_phone_wide_that_grows_with_the_rows() -> None:
    small, large = render_month_chart(report(3)), render_month_chart(report(12))
    assert small.startswith(PNG_SIGNATURE) and large.startswith(PNG_SIGNATURE)
    width, height = png_size(small)
    assert width == int(WIDTH_IN * DPI) == 1080
    assert 600 < height < png_size(large)[1] <= 4000
    assert 10_000 < len(small) < 1_000_000


def test_a_month_without_expenses_still_draws_its_goals() -> None:
    png = render_month_chart(report(0))
    assert png.startswith(PNG_SIGNATURE) and png_size(png)[0] == 1080


def test_a_worker_imports_no_matplotlib_until_it_draws_a_chart() -> None:
    probe = ("import sys, bot.bootstrap, bot.telegram.application, bot.telegram.webhook, bot.app.schedule, "
             "bot.telegram.periodic, bot.texts.chart; "
             "print(any(m == 'matplotlib' or m.startswith('matplotlib.') for m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                            check=True, env={"PYTHONPATH": str(ROOT), "LITELLM_OFFLINE_MODE": "true"})
    assert result.stdout.strip() == "False", result.stderr
