"""Credit cards as people read them: /cartoes, /fatura and the fatura's reminder."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Final

from bot.texts.format import date_br, money, month_br
from domain.money import Money, Period
from domain.reports import CardSummary, FaturaItem, FaturaReport

SHOWN_UPCOMING: Final = 6  # later faturas named after a fatura's total; the rest as "…"
FATURA_LINES: Final = 40  # items a fatura lists (the latest); the rest are counted, and /exportar has them
_MONTHS: Final = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
NO_CARDS: Final = "Nenhum cartão cadastrado. Cadastre com /cartao Nubank fecha 3 vence 10."


def cards_text(cards: Sequence[CardSummary]) -> str:
    """/cartoes: each card's days and the fatura open today."""
    if not cards:
        return NO_CARDS
    lines = ["💳 Cartões"]
    for card in cards:
        lines.append(f"• {card.name}: fecha dia {card.closing_day}, vence dia {card.due_day} · "
                     f"fatura de {month_br(card.open_fatura)}: {money(card.open_total)}")
    lines.append("")
    lines.append("Detalhes: /fatura <cartão>")
    return "\n".join(lines)


def fatura_text(report: FaturaReport) -> str:
    """/fatura: each purchase and parcela with who paid, the total, the dates, each member's part
    and the later faturas that already hold parcelas."""
    title = f"💳 Fatura do {report.card} de {month_br(report.fatura)}"
    dates = f"Fecha {date_br(report.closing)} · vence {date_br(report.due)}"
    if report.empty:
        lines = [title, dates, "", "Nada lançado nesta fatura."]
    else:
        items = sorted(report.items, key=lambda i: (i.on or report.closing, i.installment or 1))
        shown, earlier = items[-FATURA_LINES:], items[:-FATURA_LINES]
        lines = [title, dates, ""]
        if earlier:
            before = sum((i.amount for i in earlier[1:]), earlier[0].amount)
            lines.append(f"… {len(earlier)} itens anteriores, {money(before)} (todos: /exportar {report.fatura})")
        lines += [*(_item(item) for item in shown), "", f"Total: {money(report.total)}"]
        if len(report.owed) > 1:
            lines.append("Parte de cada um: " + " · ".join(f"{name} {money(part)}" for name, part in report.owed))
    if report.upcoming:
        later = [f"{short_month(f.fatura)} {money(f.total)}" for f in report.upcoming[:SHOWN_UPCOMING]]
        more = " …" if len(report.upcoming) > SHOWN_UPCOMING else ""
        lines += ["", "Próximas faturas: " + ", ".join(later) + more]
    return "\n".join(lines)


def _item(item: FaturaItem) -> str:
    when = f"{item.on.strftime('%d/%m')} " if isinstance(item.on, date) else ""
    part = f" {item.installment}/{item.installments}" if (item.installments or 1) > 1 else ""
    who = f" ({item.paid_by})" if item.paid_by else ""
    return f"• {when}{item.expense}{part}: {money(item.amount)}{who}"


def short_month(period: Period) -> str:
    """``jan/27``: a fatura's month in a list."""
    return f"{_MONTHS[period.month - 1]}/{period.year % 100:02d}"


def fatura_reminder(card: str, total: Money) -> str:
    """The day before a fatura falls due (contract §9)."""
    return f"📅 Amanhã vence a fatura do {card}: {money(total)}"
