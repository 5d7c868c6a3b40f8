"""The ledger as people read it: /extrato in the chat, /exportar as a CSV, the undo's texts.

pt-BR throughout; money through Babel in the chat (`R$ 1.234,56`) and with a decimal comma and
no thousands separator in the CSV (`1234,56`), which Excel and Google Sheets in pt-BR read as a
number.
"""

from __future__ import annotations

import codecs
import csv
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import BinaryIO, Final
from zoneinfo import ZoneInfo

from bot.texts.format import money, month_br
from bot.texts.reports import before_household_text
from domain.ledger import EntryKind, LedgerEntry
from domain.money import Money, Period, minor_units

STATEMENT_LINES: Final = 40  # a statement longer than this points to /exportar
CSV_HEADER: Final = ("data", "mês", "tipo", "descrição", "valor", "moeda", "pago por",
                     "confirmado por", "operação", "desfaz", "divisão", "parcela")
BOM: Final = codecs.BOM_UTF8
_FORMULA_STARTS: Final = frozenset("=+-@\t\r")

KIND_LABELS: Final = {
    EntryKind.SPEND: "gasto",
    EntryKind.CONTRIBUTION: "aporte",
    EntryKind.EXPENSE: "despesa cadastrada",
    EntryKind.EXPECTED: "valor previsto",
    EntryKind.INCOME: "renda",
    EntryKind.GOAL: "meta criada",
    EntryKind.ARCHIVED: "arquivada",
    EntryKind.RESTORED: "restaurada",
    EntryKind.RENAMED: "novo nome",
    EntryKind.OPENING: "saldo anterior",
    EntryKind.SETTLEMENT: "acerto",
    EntryKind.SPLIT: "divisão",
    EntryKind.PIX: "chave pix",
    EntryKind.CARD: "cartão cadastrado",
}
# Who an entry of these kinds is about is who paid it, never who confirmed it: a spend with an
# unknown payer (recorded before issue 23) names nobody rather than the member who pressed ✅.
PAID_KINDS: Final = frozenset({EntryKind.SPEND, EntryKind.SETTLEMENT})


def entry_date(entry: LedgerEntry, timezone: str) -> date | None:
    """The day an entry happened: a contribution's own date, otherwise when it was confirmed
    (in the household's time zone)."""
    if entry.on is not None:
        return entry.on
    if entry.created_at is not None:
        return entry.created_at.astimezone(_zone(timezone)).date()
    return None


@lru_cache(maxsize=8)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


@lru_cache(maxsize=64)
def _quantum(currency: str) -> Decimal:
    return Decimal(1).scaleb(-minor_units(currency))


def _who(entry: LedgerEntry) -> str:
    if entry.kind in PAID_KINDS:
        if entry.kind is EntryKind.SETTLEMENT and len(entry.shares) == 2:
            return f"{entry.paid_by} → {_receiver(entry)}"
        return entry.paid_by or ""
    return entry.paid_by or entry.confirmed_by or ""


Adjustments = Mapping[str, tuple[Money, Money]]
"""An adjustment's expected amount before and after, by operation id."""


def _receiver(entry: LedgerEntry) -> str:
    return next((s.member_name for s in entry.shares if s.member_id != entry.paid_by_id), "")


def shares_cell(entry: LedgerEntry) -> str:
    """"Ana 18,95; Bruno 18,95": what each member owes of a shared spend (an acerto: who paid and
    who was paid)."""
    if entry.kind is EntryKind.SETTLEMENT:
        return "; ".join(f"{s.member_name} {csv_amount(s.net)}" for s in entry.shares)
    return "; ".join(f"{s.member_name} {csv_amount(s.owed)}" for s in entry.shares)


def statement_line(entry: LedgerEntry, timezone: str, adjustments: Adjustments | None = None) -> str:
    day = entry_date(entry, timezone)
    parts = [day.strftime("%d/%m") if day is not None else "--/--"]
    label = KIND_LABELS.get(entry.kind) or entry.kind.value
    if entry.card_id is not None and entry.kind is EntryKind.SPEND:
        label = f"{label} no cartão"
    what = f"{' '.join(filter(None, [entry.subject, parcela(entry)]))} ({label})"
    parts.append(f"↩️ desfeito: {what}" if entry.undoes else what)
    change = (adjustments or {}).get(entry.operation_id or "") if entry.kind is EntryKind.EXPECTED else None
    if change is not None:
        parts.append(f"{money(change[0])} → {money(change[1])}")
    elif entry.amount is not None:
        parts.append(money(entry.amount))
    who = _who(entry)
    if who:
        parts.append(who)
    return " · ".join(parts)


def statement_text(period: Period, entries: Sequence[LedgerEntry], timezone: str, *,
                   began: Period | None = None, adjustments: Adjustments | None = None) -> str:
    """/extrato: the month's entries, newest first (`entries` as the ledger gives them). `began`:
    the month the household was set up, which an empty month before it names; `adjustments`:
    what an adjustment changed the expected amount from and to, shown instead of the difference."""
    title = f"🧾 Extrato de {month_br(period)}"
    if not entries and began is not None and period < began:
        return f"{title}\n\n{before_household_text(period, began)}"
    if not entries:
        return f"{title}\n\nNenhum lançamento neste mês."
    shown = entries[:STATEMENT_LINES]
    lines = [title, "", *(statement_line(e, timezone, adjustments) for e in shown)]
    spent = _spent(shown)
    if len(entries) > STATEMENT_LINES:
        lines += ["", f"Mostrando os {STATEMENT_LINES} mais recentes. O mês inteiro em planilha: "
                      f"/exportar {period}"]
    elif spent:
        lines += ["", "Gastos no mês: " + " e ".join(money(m) for m in spent.values())]
    return "\n".join(lines)


def _spent(entries: Sequence[LedgerEntry]) -> dict[str, Money]:
    totals: dict[str, Money] = {}
    for entry in entries:
        if entry.kind in (EntryKind.SPEND, EntryKind.OPENING) and entry.amount is not None:
            currency = entry.amount.currency
            totals[currency] = totals[currency] + entry.amount if currency in totals else entry.amount
    return {c: m for c, m in totals.items() if not m.is_zero}


def csv_amount(value: Money) -> str:
    """`1234,56`: the currency's minor units, a decimal comma, no thousands separator."""
    return f"{value.amount.quantize(_quantum(value.currency)):f}".replace(".", ",")


def _text_cell(value: str | None) -> str:
    """A name as a spreadsheet cell: one a member typed as "=…" (or +, -, @) is shown, not run."""
    if not value:
        return ""
    return f"'{value}" if value[0] in _FORMULA_STARTS else value


def csv_row(entry: LedgerEntry, timezone: str) -> tuple[str, ...]:
    day = entry_date(entry, timezone)
    period = entry.period or (Period.of(day) if day is not None else None)
    return (
        f"{day.day:02d}/{day.month:02d}/{day.year:04d}" if day is not None else "",
        str(period) if period is not None else "",
        KIND_LABELS.get(entry.kind) or entry.kind.value,
        _text_cell(entry.subject),
        csv_amount(entry.amount) if entry.amount is not None else "",
        entry.amount.currency if entry.amount is not None else "",
        _text_cell(entry.paid_by),
        _text_cell(entry.confirmed_by),
        _text_cell(entry.operation_id),
        _text_cell(entry.undoes),
        _text_cell(shares_cell(entry)),
        parcela(entry),
    )


def parcela(entry: LedgerEntry) -> str:
    """"2/10": which parcela of a purchase in installments an entry is ("" for any other)."""
    return f"{entry.installment}/{entry.installments}" if (entry.installments or 1) > 1 else ""


class _Sink:
    """A text-mode writer for csv.writer that encodes to `out` as it goes."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out

    def write(self, text: str) -> int:
        return self._out.write(text.encode("utf-8"))


async def write_csv(entries: AsyncIterator[LedgerEntry], out: BinaryIO, timezone: str) -> int:
    """The CSV for Excel and Google Sheets in pt-BR: UTF-8 with a BOM, `;`, a header, one row per
    entry. Rows go to `out` as the entries arrive; returns how many were written."""
    out.write(BOM)
    writer = csv.writer(_Sink(out), delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    count = 0
    async for entry in entries:
        writer.writerow(csv_row(entry, timezone))
        count += 1
    return count


def export_file_name(period: Period | None) -> str:
    return f"extrato-{period}.csv" if period is not None else "extrato-completo.csv"


def export_caption(period: Period | None) -> str:
    return (f"🧾 Lançamentos de {month_br(period)}" if period is not None
            else "🧾 Todos os lançamentos da casa")


def nothing_to_undo_text() -> str:
    return "Não há nenhuma operação confirmada para desfazer."


def undone_note() -> str:
    return "↩️ Desfeito depois: o extrato guarda as duas coisas."


def not_undoable_alert() -> str:
    return "Essa operação não se desfaz: não mudou valores que se possam voltar atrás."


def already_undone_alert() -> str:
    return "Essa operação já foi desfeita."


def undo_already_proposed_alert() -> str:
    return "O pedido para desfazer essa operação já está no chat."


def undo_proposed_answer() -> str:
    return "Confirme abaixo para desfazer."


def usage_text(command: str, problem: str) -> str:
    """A month /extrato or /exportar could not read; `problem` is /resumo's explanation."""
    return problem.replace("/resumo", f"/{command}")
