"""Everything a person reads in the chat, in Brazilian Portuguese.

The one place that turns domain data (Money, the typed previews of domain/agent/previews.py,
the typed reports of domain/agent/reports.py, errors) into plain Telegram text: money through
Babel (``R$ 1.500,00``, ``€ 6.000,00``), dates as ``01/06/2028``, months as ``junho de 2026``.
Nothing here ever shows a dict, JSON or a Python repr, and nothing reads the JSON the model sees:
a stored preview is read back into its type first (domain/agent/tools/registry.read_preview).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final, Generic, TypeVar

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_currency

from bot.parsing import ParseError
from domain.agent.previews import (
    AdjustmentPreview,
    ArchivePreview,
    AsideLine,
    ContributionPreview,
    ErasePreview,
    ExpensePreview,
    GoalPreview,
    ImportPreview,
    IncomePreview,
    JoinPreview,
    Preview,
    RenamePreview,
    SpendPreview,
    UndoPreview,
    UnreadablePreview,
)
from domain.agent.reports import BudgetReport, GoalReport, UnreportableGoal
from domain.agent.tools.registry import read_preview
from domain.errors import DomainError
from domain.money import Money, Period, minor_units
from domain.text import shorten

__all__ = [
    "already_cancelled_alert",
    "already_confirmed_alert",
    "budget_report_text",
    "cancelled_text",
    "confirmed_text",
    "date_br",
    "error_text",
    "expired_alert",
    "expired_text",
    "goal_reports_text",
    "help_text",
    "money",
    "month_br",
    "no_model_text",
    "not_a_member_alert",
    "preview_facts",
    "preview_summary",
    "preview_text",
    "preview_title",
    "silent_model_text",
    "superseded_text",
    "unknown_operation_alert",
]

LOCALE: Final = "pt_BR"
BAR_CELLS: Final = 8
PERCENT_CEILING: Final = 999
FULL_CELL: Final = "▓"
EMPTY_CELL: Final = "░"
CONFIRM_QUESTION: Final = "Confirma?"
GENERIC_ERROR: Final = "⚠️ Algo deu errado; nada foi registrado. Tente de novo em instantes."
log = logging.getLogger(__name__)

EXPENSE_HINT: Final = "Cadastre com /despesa Aluguel 2.500 dia 10"
GOAL_HINT: Final = "Crie com /meta Viagem 6000 EUR até 2028-06-01"


# --------------------------------------------------------------------------- money and dates


def money(m: Money) -> str:
    """``R$ 1.500,00``, ``€ 6.000,00``, ``US$ 50,00``: pt-BR, rounded half-up like the domain."""
    return _format_money(m.amount, m.currency)


def _format_money(amount: Decimal, currency: str) -> str:
    quantum = Decimal(1).scaleb(-minor_units(currency))
    rounded = amount.quantize(quantum, ROUND_HALF_UP)
    return format_currency(rounded, currency, locale=LOCALE).replace("\xa0", " ")


def date_br(value: date | str) -> str:
    """``date(2028, 6, 1)`` or ``"2028-06-01"`` -> ``01/06/2028``; unreadable text as given."""
    day = value
    if isinstance(value, str):
        try:
            day = date.fromisoformat(value.strip())
        except ValueError:
            return value
    assert isinstance(day, date)
    return day.strftime("%d/%m/%Y")


def month_br(value: Period | date | str) -> str:
    """``Period(2026, 6)``, ``"2026-06"`` or a date -> ``junho de 2026``; unreadable text as given."""
    month = value
    if isinstance(value, str):
        try:
            month = Period.parse(value)
        except DomainError:
            return value
    assert isinstance(month, Period | date)
    first_day = date(month.year, month.month, 1)
    return format_date(first_day, "MMMM 'de' y", locale=LOCALE)


def _names(names: Sequence[Any]) -> str:
    """``Ana e Bruno``; ``Ana, Bruno e Carla``."""
    return format_list([str(n) for n in names], locale=LOCALE) if names else ""


def _percent(part: Decimal, whole: Decimal) -> int:
    """Whole percent, rounded down: 930 of 1500 is 62."""
    return int(part * 100 // whole)


def _bar(percent: int) -> str:
    """Eight cells; full only at 100 % or more, never empty once something is there."""
    filled = int((Decimal(percent) * BAR_CELLS / 100).quantize(Decimal(1), ROUND_HALF_UP))
    if percent > 0:
        filled = max(filled, 1)
    if percent < 100:
        filled = min(filled, BAR_CELLS - 1)
    filled = max(0, min(BAR_CELLS, filled))
    return FULL_CELL * filled + EMPTY_CELL * (BAR_CELLS - filled)


# --------------------------------------------------------------------------- previews
# One text per preview type (domain/agent/previews.py): a stored preview is read back as its
# tool's type (the registry), so a shape the renderer does not expect fails loudly in a test
# instead of showing something else quietly.

P = TypeVar("P", bound=Preview)


@dataclass(frozen=True)
class _ToolText(Generic[P]):
    title: str | Callable[[P], str]  # what the preview proposes: "📝 Registrar gasto"
    done: str | Callable[[P], str]  # what the confirmed message says happened: "✅ Gasto registrado"
    facts: Callable[[P], list[str]]  # the lines every message about the operation shows
    summary: Callable[[P], str]  # one line, for cancelled and expired messages


def _record_spend_facts(p: SpendPreview) -> list[str]:
    return [
        f"Despesa: {p.expense}",
        f"Mês: {month_br(p.period)}",
        f"Valor: {money(p.delta)}",
        f"Total gasto no mês: {money(p.new_actual)}",
    ]


def _register_expense_facts(p: ExpensePreview) -> list[str]:
    lines = [f"Nome: {p.name}", f"Valor previsto por mês: {money(p.expected)}"]
    if p.category:
        lines.append(f"Categoria: {p.category}")
    if p.billing_day:
        lines.append(f"Vencimento: todo dia {p.billing_day}")
    if p.payment_method:
        lines.append(f"Forma de pagamento: {p.payment_method}")
    return lines


def _adjust_expense_facts(p: AdjustmentPreview) -> list[str]:
    return [
        f"Despesa: {p.expense}",
        f"Valor previsto: {money(p.old_expected)} → {money(p.new_expected)}",
    ]


def _contribute_facts(p: ContributionPreview) -> list[str]:
    lines = [
        f"Meta: {p.goal}",
        f"Pago por: {p.paid_by}",
        f"Valor: {money(p.amount)}",
        f"Data: {date_br(p.date)}",
    ]
    if p.new_saved_by_currency:
        lines.append(f"Guardado até agora: {_names([money(m) for m in p.new_saved_by_currency])}")
    return lines


def _create_goal_facts(p: GoalPreview) -> list[str]:
    lines = [f"Nome: {p.name}", f"Valor da meta: {money(p.target)}"]
    lines.append(f"Prazo: {date_br(p.deadline)}" if p.deadline else "Prazo: sem prazo")
    lines.append(f"Participantes: {_names(p.contributors)}")
    if p.required_monthly is not None:
        lines.append(f"Guardar por mês: {money(p.required_monthly)}")
    return lines


def _set_income_facts(p: IncomePreview) -> list[str]:
    old = p.old_income
    return [
        f"Nova renda: {money(p.income)}",
        f"Renda anterior: {money(old) if old is not None else 'não informada'}",
    ]


SHOWN_ASIDE_LINES: Final = 8  # unmatched or credit lines listed in an import preview; the rest counted
SHOWN_DESCRIPTION_CHARS: Final = 60  # a bank's description, or a file name, as shown
IMPORT_TEXT_BUDGET: Final = 3500  # characters: the preview, its buttons' message, stays under 4,096


def _clip(text: Any, limit: int = SHOWN_DESCRIPTION_CHARS) -> str:
    return shorten(" ".join(str(text).split()), limit)


def _import_facts(p: ImportPreview) -> list[str]:
    lines = [f"Arquivo: {_clip(p.file)}", ""]
    for group in p.groups:
        suggested = group.suggested
        lines.append(f"• {_clip(group.expense)}: {_count_word(group.count)}, {money(group.total)}"
                     + (f" ({suggested} sugerido{'s' if suggested > 1 else ''} pelo modelo)" if suggested else ""))
    lines.append(f"Total: {money(p.total)}")
    aside = [("Sem despesa correspondente (não serão importados)", p.unmatched),
             ("Créditos (estornos, salário; não são gastos, não serão importados)", p.credits)]
    shown = [line for title, entries in aside for line in _aside_lines(title, entries, SHOWN_ASIDE_LINES)]
    if sum(len(line) + 1 for line in [*lines, *shown]) > IMPORT_TEXT_BUDGET:
        shown = [line for title, entries in aside for line in _aside_lines(title, entries, 0)]
    lines += shown
    if p.skipped:
        lines += ["", f"Já importados antes (ignorados): {p.skipped}"]
    return lines


def _aside_lines(title: str, entries: Sequence[AsideLine], shown: int) -> list[str]:
    if not entries:
        return []
    lines = ["", f"{title}: {len(entries)}"]
    for entry in entries[:shown]:
        amount = Money(abs(entry.amount.amount), entry.amount.currency)
        lines.append(f"• {date_br(entry.date)} {_clip(entry.description)}: {money(amount)}")
    if len(entries) > shown and shown:
        lines.append(f"• … e mais {len(entries) - shown}")
    return lines


def _count_word(count: int) -> str:
    return f"{count} {'lançamento' if count == 1 else 'lançamentos'}"


_KIND_WORDS: Final = {"expense": "Despesa", "goal": "Meta"}


def _rename_facts(p: RenamePreview) -> list[str]:
    return [f"{_KIND_WORDS[p.kind]}: {p.old_name}", f"Novo nome: {p.new_name}"]


def _archive_facts(p: ArchivePreview) -> list[str]:
    return [f"{_KIND_WORDS[p.kind]}: {p.name}",
            "Sai do resumo e das conversas; o histórico fica no extrato."]


def _undo_facts(p: UndoPreview) -> list[str]:
    return [f"Operação: {_summary(p.original)}",
            "Os totais voltam a ser como se ela não tivesse acontecido; o extrato guarda as duas."]


def _erase_facts(p: ErasePreview) -> list[str]:
    return [f"Casa: {p.household}",
            "Serão apagados: despesas, gastos, metas, aportes, membros, conversas, "
            "propostas e as mensagens guardadas desta conversa.",
            "Isso não pode ser desfeito."]


_TEXTS: Final[Mapping[type[Preview], _ToolText[Any]]] = {
    SpendPreview: _ToolText[SpendPreview](
        "📝 Registrar gasto", "✅ Gasto registrado", _record_spend_facts,
        lambda p: f"gasto de {money(p.delta)} em {p.expense}, {month_br(p.period)}"),
    ExpensePreview: _ToolText[ExpensePreview](
        "🆕 Cadastrar despesa mensal", "✅ Despesa cadastrada", _register_expense_facts,
        lambda p: f"despesa {p.name}, {money(p.expected)} por mês"),
    AdjustmentPreview: _ToolText[AdjustmentPreview](
        "✏️ Ajustar despesa", "✅ Despesa ajustada", _adjust_expense_facts,
        lambda p: f"ajuste de {p.expense} para {money(p.new_expected)}"),
    ContributionPreview: _ToolText[ContributionPreview](
        "💰 Registrar aporte", "✅ Aporte registrado", _contribute_facts,
        lambda p: f"aporte de {money(p.amount)} na meta {p.goal}, pago por {p.paid_by}"),
    GoalPreview: _ToolText[GoalPreview](
        "🎯 Criar meta", "✅ Meta criada", _create_goal_facts,
        lambda p: f"meta {p.name}, {money(p.target)}"),
    JoinPreview: _ToolText[JoinPreview](
        lambda p: f"👋 {p.name} quer entrar na casa", "✅ Entrada na casa confirmada",
        lambda p: [f"Novo membro: {p.name}", "Só quem já é membro da casa pode confirmar."],
        lambda p: f"entrada de {p.name} na casa"),
    ErasePreview: _ToolText[ErasePreview](
        "🗑️ Apagar todos os dados da casa", "🗑️ Dados da casa apagados", _erase_facts,
        lambda p: f"apagar todos os dados da casa {p.household}"),
    IncomePreview: _ToolText[IncomePreview](
        "💵 Atualizar renda mensal", "✅ Renda mensal atualizada", _set_income_facts,
        lambda p: f"renda mensal de {money(p.income)}"),
    ImportPreview: _ToolText[ImportPreview](
        lambda p: f"🏦 Importar {_count_word(p.count)}", lambda p: f"✅ {_count_word(p.count)} importados",
        _import_facts,
        lambda p: f"importar {_count_word(p.count)} do extrato {p.file}, {money(p.total)}"),
    RenamePreview: _ToolText[RenamePreview](
        "✏️ Renomear", "✅ Renomeado", _rename_facts,
        lambda p: f"renomear {p.old_name} para {p.new_name}"),
    ArchivePreview: _ToolText[ArchivePreview](
        "🗄️ Arquivar", "✅ Arquivado", _archive_facts,
        lambda p: f"arquivar {p.name}"),
    UndoPreview: _ToolText[UndoPreview](
        "↩️ Desfazer operação", "↩️ Operação desfeita", _undo_facts,
        lambda p: f"desfazer {_summary(p.original)}"),
}


def _typed(tool: str, preview: Preview | Mapping[str, Any]) -> Preview:
    """The preview as its tool's type: a stored one (the operation log's JSON) is read back."""
    if isinstance(preview, Preview):
        return preview
    return read_preview(tool, preview)


def _text(preview: Preview) -> _ToolText[Any]:
    text = _TEXTS.get(type(preview))
    if text is None:
        raise TypeError(f"no pt-BR text for {type(preview).__name__}: add it to rendering._TEXTS")
    return text


def _summary(preview: Preview) -> str:
    summary: str = _text(preview).summary(preview)
    return summary


def _title(preview: Preview, *, done: bool) -> str:
    text = _text(preview)
    title = text.done if done else text.title
    return title if isinstance(title, str) else title(preview)


def preview_title(preview: Preview) -> str:
    """What the preview proposes, in one line: its message's first line."""
    return _title(preview, done=False)


def preview_facts(preview: Preview) -> list[str]:
    """The lines every message about the operation shows."""
    facts: list[str] = _text(preview).facts(preview)
    return facts


def preview_summary(preview: Preview) -> str:
    """The operation in one line, for cancelled and expired messages."""
    return _summary(preview)


def preview_text(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """A write tool's preview as the message shown above the Confirmar/Cancelar buttons."""
    typed = _typed(tool, preview)
    return "\n".join([_title(typed, done=False), *preview_facts(typed), "", CONFIRM_QUESTION])


def confirmed_text(tool: str, preview: Preview | Mapping[str, Any], by: str | None) -> str:
    """The preview message once confirmed: what was written and who confirmed it."""
    typed = _typed(tool, preview)
    return "\n".join([f"{_title(typed, done=True)}{_by(by)}", *preview_facts(typed)])


def cancelled_text(tool: str, preview: Preview | Mapping[str, Any], by: str | None) -> str:
    """The preview message once cancelled; it can never be confirmed afterwards."""
    return (f"❌ Cancelado{_by(by)}. Nada foi registrado.\n"
            f"Proposta: {_closing_summary(tool, preview)}")


def expired_text(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """The preview message once it waited too long to be confirmed."""
    return ("⌛ Esta proposta expirou. Nada foi registrado.\n"
            f"Proposta: {_closing_summary(tool, preview)}\n"
            "Se ainda quiser, peça de novo.")


def superseded_text(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """The preview message once a newer preview of the same operation replaced it."""
    return ("↩️ Substituída por uma proposta mais nova (veja abaixo). Nada foi registrado.\n"
            f"Proposta antiga: {_closing_summary(tool, preview)}")


def _closing_summary(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """The one line of a message that closes a preview nobody will confirm. A stored preview this
    version cannot read (a tool since renamed or removed) still closes, with a plain word: a
    cancel, an expiry sweep or a newer preview must not fail on an old row."""
    try:
        return _summary(_typed(tool, preview))
    except UnreadablePreview as error:
        log.warning("closing a preview this version cannot read: %s", error)
        return "operação"


def _by(name: str | None) -> str:
    return f" por {name}" if name else ""


# --------------------------------------------------------------------------- button alerts
# Telegram shows at most 200 characters in a callback query alert.


def already_confirmed_alert() -> str:
    return "Essa operação já foi confirmada."


def already_cancelled_alert() -> str:
    return "Essa operação foi cancelada e não pode mais ser confirmada."


def expired_alert() -> str:
    return "Essa proposta expirou. Peça de novo se ainda quiser."


def not_a_member_alert() -> str:
    return "Só membros da casa podem confirmar ou cancelar. Para participar, envie /entrar."


def own_join_alert() -> str:
    return "Quem já é membro da casa precisa confirmar a sua entrada."


def unknown_operation_alert() -> str:
    return "Não encontrei essa operação. Ela pode ter sido substituída por uma proposta mais nova."


# --------------------------------------------------------------------------- /resumo and /metas


def budget_report_text(report: BudgetReport) -> str:
    """/resumo: each expense with a bar, the totals, the income and what is left."""
    lines = [f"📊 Resumo de {month_br(report.period)}", ""]
    if not report.expenses:
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
            lines.append(f"⚠️ Gastos passaram da renda em {_format_money(-left, currency)}" if left < 0
                         else f"Sobra: {_format_money(left, currency)}")
    return "\n".join(_squeeze(lines))


def _money_progress(actual: Money, expected: Money) -> str:
    text = f"{money(actual)} de {money(expected)}"
    if expected.amount <= 0:
        return text
    percent = max(0, _percent(actual.amount, expected.amount))
    warning = " ⚠️" if percent > 100 else ""
    # A ceiling: R$ 0,03 planned and R$ 2 bilhões spent is "mais de 999 %", not "66666666674 %".
    shown = f"{percent} %" if percent <= PERCENT_CEILING else f"mais de {PERCENT_CEILING} %"
    return f"{text} {_bar(percent)} {shown}{warning}"


def goal_reports_text(reports: Sequence[GoalReport | UnreportableGoal]) -> str:
    """/metas: every goal, saved, target, deadline, monthly need and pace (or why it can't say)."""
    if not reports:
        return "\n".join(["🎯 Metas", "", "Nenhuma meta criada ainda.", GOAL_HINT])
    return "\n\n".join(["🎯 Metas", *("\n".join(_typed_goal_lines(r)) for r in reports)])


def _typed_goal_lines(report: GoalReport | UnreportableGoal) -> list[str]:
    if isinstance(report, UnreportableGoal):
        return [report.name, f"⚠️ {report.problem}"]
    percent = report.progress_percent
    lines = [report.name,
             f"{money(report.saved_in_target_currency)} de {money(report.target)} {_bar(percent)} {percent} %"]
    saved = report.saved_by_currency
    if len(saved) > 1 or (saved and report.target.currency not in saved):
        lines.append(f"Guardado: {_names([money(m) for m in saved.values()])}")
    if report.rates_used:
        lines.append(f"Cotação usada: {_names([f'{money(one)} = {money(other)}' for one, other in report.rates_used])}")
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


def _squeeze(lines: list[str]) -> list[str]:
    """No doubled or trailing blank lines."""
    out: list[str] = []
    for line in lines:
        if line == "" and (not out or out[-1] == ""):
            continue
        out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


# --------------------------------------------------------------------------- help

_MEMBERSHIP_LINES: Final[Sequence[str]] = (
    "Para começar num grupo novo: /start (cria a casa com quem mandou).",
    "Para entrar numa casa que já existe: /entrar [nome]; alguém da casa confirma.",
    "Para sair da casa: /sair. Para apagar todos os dados da casa: /apagar (alguém da casa confirma).",
)

_FREE_TEXT_EXAMPLES: Final[Sequence[str]] = (
    "registra R$ 200 a mais no mercado",
    "aporta R$ 500 na meta de Amsterdam, eu paguei",
    "quero uma meta de €6000 pra junho 2028, eu e Bruno",
    "quanto já gastamos no mercado este mês?",
)


def _command_lines(commands: Sequence[tuple[str, str, str]]) -> list[str]:
    lines = []
    for form, does, example in commands:
        lines.append(f"• {form}: {does}")
        if example != form:
            lines.append(f"  Ex.: {example}")
    return lines


def help_text(commands: Sequence[tuple[str, str, str]]) -> str:
    """What the bot understands, for /ajuda: `commands` are each command's form, what it does and
    an example (bot/command_registry.py)."""
    return "\n".join([
        "🤖 Eu cuido do dinheiro da casa: despesas do mês, renda e metas.",
        "",
        "Pode escrever normalmente, por exemplo:",
        *(f"• “{example}”" for example in _FREE_TEXT_EXAMPLES),
        "",
        "Ou use os comandos:",
        *_command_lines(commands),
        "",
        "Valores como 200, 37,90, 1.500,00, R$ 1.500,00 ou €6000; sem moeda, vale a moeda da casa.",
        "Nada é gravado sem que alguém da casa toque em ✅ Confirmar.",
        *_MEMBERSHIP_LINES,
    ])


def no_model_text() -> str:
    """Answer to free text when no language model is configured: a short note, not the help."""
    return ("🤖 Não entendo texto livre aqui (nenhum modelo de linguagem configurado), mas os "
            "comandos funcionam: /gasto 37,90 mercado, /resumo, /metas…\n"
            "Todos os comandos: /ajuda.")


# --------------------------------------------------------------------------- errors


def error_text(error: BaseException) -> str:
    """A domain or parse error's own pt-BR message; anything else, a generic line that leaks nothing."""
    if isinstance(error, DomainError | ParseError) and str(error).strip():
        return f"⚠️ {str(error).strip()}"
    return GENERIC_ERROR


# --------------------------------------------------------------------------- membership and answers


HOUSEHOLD_SHOWN: Final = 48  # a group title may be 128 characters; a message shows this many


def welcome_text(household: str, member: str, *, created: bool, joined: bool) -> str:
    household = shorten(household, HOUSEHOLD_SHOWN)
    if created:
        return (
            f"🏠 Casa “{household}” criada, e {member} já é membro.\n"
            "Quem mais for cuidar do dinheiro da casa: mande /entrar.\n"
            "Comece cadastrando despesas (/despesa Aluguel 2.500 dia 10) ou veja /ajuda."
        )
    if joined:
        return f"👋 {member} entrou na casa “{household}”."
    return f"A casa “{household}” já está configurada, e {member} já é membro. Veja /ajuda."


def joined_text(member: str, *, joined: bool) -> str:
    return f"👋 {member} entrou na casa." if joined else f"{member} já é membro da casa."


def left_text(member: str) -> str:
    return (f"👋 {member} saiu da casa. O histórico fica guardado; "
            "para voltar, /entrar (um membro confirma).")


def not_a_member_text() -> str:
    return "Você não é membro desta casa."


def erased_text(household: str, by: str | None) -> str:
    return (f"🗑️ Todos os dados da casa “{household}” foram apagados{_by(by)}.\n"
            "Para começar de novo: /start.")


def anonymous_admin_text() -> str:
    return ("Você está escrevendo como administrador anônimo, e assim não sei quem é da casa. "
            "Para usar o bot, escreva como você mesmo (desligue “Permanecer anônimo” nas "
            "permissões de administrador deste grupo).")


def month_out_of_range_text(month: Period, first: Period | None, last: Period) -> str:
    if first is not None and month < first:
        return (f"⚠️ {month_br(month)} é antigo demais para esta casa: use um mês de "
                f"{month_br(first)} até {month_br(last)}.")
    return (f"⚠️ {month_br(month)} está longe demais: use um mês até {month_br(last)}, "
            "no máximo um ano à frente.")


def silent_model_text() -> str:
    """The model looked things up and then said nothing: the member still gets an answer."""
    return ("🤔 Não consegui responder isso agora. Pode perguntar de outro jeito? "
            "Os números da casa estão sempre em /resumo e /metas.")


def not_started_text() -> str:
    return "Esta conversa ainda não é uma casa. Mande /start para configurar."


def join_hint_text() -> str:
    return "Oi! Para eu entender seus pedidos, entre na casa com /entrar (ou /entrar <seu nome>)."


def confirmed_answer() -> str:
    return "✅ Confirmado."


def cancelled_answer() -> str:
    return "❌ Cancelado."


# --------------------------------------------------------------------------- media (contract §8)

TRANSCRIPT_SHOWN_CHARS: Final = 3000


def transcript_text(transcript: str) -> str:
    """The voice note as the bot heard it, so a misheard amount is seen before anyone confirms."""
    shown = transcript if len(transcript) <= TRANSCRIPT_SHOWN_CHARS else transcript[:TRANSCRIPT_SHOWN_CHARS] + "…"
    return f"🎤 {shown}"


def audio_too_long_text(max_minutes: int, max_megabytes: int) -> str:
    return (f"🎤 Esse áudio passa do limite ({max_minutes} minutos ou {max_megabytes} MB); "
            "não consigo ouvi-lo. Mande um áudio mais curto ou escreva o pedido.")


def transcription_failed_text() -> str:
    return ("🎤 Não consegui transcrever o áudio agora. Nada foi registrado; "
            "tente mandar de novo ou escreva o pedido.")


def empty_transcript_text() -> str:
    return "🎤 Não entendi nenhuma palavra nesse áudio. Nada foi registrado; pode escrever o pedido?"


def download_failed_text() -> str:
    return "⚠️ Não consegui baixar o arquivo do Telegram. Nada foi registrado; tente mandar de novo."


def file_too_big_text(max_megabytes: int) -> str:
    return f"⚠️ O arquivo passa do limite de {max_megabytes} MB que o Telegram entrega a bots. Nada foi registrado."


def no_vision_text(model: str) -> str:
    return (f"📷 O modelo configurado ({model}) não lê imagens. Nada foi registrado; escreva o gasto "
            "(ex.: /gasto 37,90 mercado) ou peça a quem cuida do bot para definir VISION_MODEL.")


def unreadable_image_text() -> str:
    return "📷 Não consegui abrir essa imagem. Nada foi registrado; mande outra foto ou escreva o gasto."


def statement_unreadable_text(reason: str) -> str:
    return f"🏦 {reason}"


def nothing_new_text(file: str, skipped: int, unmatched: Sequence[str], credits: int) -> str:
    """A statement whose debits were all imported before, or match no expense: nothing proposed."""
    lines = [f"🏦 Nada novo para importar em {_clip(file)}."]
    if skipped:
        lines.append(f"Já importados antes: {skipped}.")
    if unmatched:
        lines.append(f"Sem despesa correspondente: {len(unmatched)} (cadastre a despesa ou um apelido "
                     "com o nome que aparece no extrato e mande o arquivo de novo):")
        distinct = list(dict.fromkeys(unmatched))
        lines += [f"• {_clip(text)}" for text in distinct[:SHOWN_ASIDE_LINES]]
        if len(distinct) > SHOWN_ASIDE_LINES:
            lines.append(f"• … e mais {len(distinct) - SHOWN_ASIDE_LINES}")
    if credits:
        lines.append(f"Créditos (não são gastos): {credits}.")
    return "\n".join(lines)


# --------------------------------------------------------------------------- delivery and hostile input


def preview_not_shown_text() -> str:
    """Said when a preview could not be posted: it was closed, so nobody can confirm it unseen."""
    return ("⚠️ Não consegui mostrar a prévia do pedido aqui no grupo, então ela foi cancelada e "
            "nada foi registrado. Peça de novo, por favor.")


def reply_not_sent_text() -> str:
    return ("⚠️ Não consegui enviar a resposta do assistente aqui. "
            "Se houver algo para confirmar, a prévia vem em outra mensagem.")


def nul_byte_text() -> str:
    return "⚠️ A mensagem tem um caractere inválido (byte nulo); nada foi registrado. Escreva de novo sem ele."


def text_too_long_text(limit: int) -> str:
    count = f"{limit:,}".replace(",", ".")
    return (f"⚠️ A mensagem é longa demais para eu ler ({count} caracteres no máximo); "
            "nada foi registrado. Mande um pedido mais curto.")

