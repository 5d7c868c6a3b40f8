"""Every preview as people read it: one pt-BR text per preview type (domain/tools/*), above the
✅ Confirmar / ❌ Cancelar buttons, and once it is confirmed, cancelled or expired.

A stored preview is read back into its type first (domain.tools.registry.read_preview), so a shape
this module does not expect fails loudly in a test instead of showing something else quietly.
Nothing here shows a dict, JSON or a Python repr.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from bot.texts.format import clip, date_br, done_by, money, month_br, names
from domain.money import Money
from domain.operations.previews import Preview, UnreadablePreview
from domain.tools.budget import AdjustmentPreview, ExpensePreview, IncomePreview, SpendPreview
from domain.tools.goals import ContributionPreview, GoalPreview
from domain.tools.housekeeping import ArchivePreview, RenamePreview
from domain.tools.membership import ErasePreview, JoinPreview, LeavePreview
from domain.tools.registry import read_preview
from domain.tools.statements import AsideLine, ImportPreview
from domain.tools.undo import UndoPreview

CONFIRM_QUESTION: Final = "Confirma?"
log = logging.getLogger(__name__)

P = TypeVar("P", bound=Preview)


@dataclass(frozen=True)
class _ToolText(Generic[P]):
    title: str | Callable[[P], str]  # what the preview proposes: "📝 Registrar gasto"
    done: str | Callable[[P], str]  # what the confirmed message says happened: "✅ Gasto registrado"
    facts: Callable[[P], list[str]]  # the lines every message about the operation shows
    summary: Callable[[P], str]  # one line, for cancelled and expired messages
    asks: tuple[str, ...] = ()  # lines only the preview shows, above "Confirma?" (not once decided)


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
        lines.append(f"Guardado até agora: {names([money(m) for m in p.new_saved_by_currency])}")
    return lines


def _create_goal_facts(p: GoalPreview) -> list[str]:
    lines = [f"Nome: {p.name}", f"Valor da meta: {money(p.target)}"]
    lines.append(f"Prazo: {date_br(p.deadline)}" if p.deadline else "Prazo: sem prazo")
    lines.append(f"Participantes: {names(p.contributors)}")
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
IMPORT_TEXT_BUDGET: Final = 3500  # characters: the preview, its buttons' message, stays under 4,096


def _import_facts(p: ImportPreview) -> list[str]:
    lines = [f"Arquivo: {clip(p.file)}", ""]
    for group in p.groups:
        suggested = group.suggested
        lines.append(f"• {clip(group.expense)}: {_count_word(group.count)}, {money(group.total)}"
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
        lines.append(f"• {date_br(entry.date)} {clip(entry.description)}: {money(amount)}")
    if len(entries) > shown and shown:
        lines.append(f"• … e mais {len(entries) - shown}")
    return lines


def _count_word(count: int) -> str:
    return f"{count} {'lançamento' if count == 1 else 'lançamentos'}"


_KIND_WORDS: Final = {"expense": "Despesa", "goal": "Meta", "household": "Casa"}


def _rename_facts(p: RenamePreview) -> list[str]:
    lines = [f"{_KIND_WORDS[p.kind]}: {p.old_name}", f"Novo nome: {p.new_name}"]
    if p.kind == "expense":  # domain.budget.Budget.rename keeps it as an alias
        lines.append(f"“{p.old_name}” continua valendo como apelido.")
    return lines


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
        lambda p: [f"Novo membro: {p.name}"],
        lambda p: f"entrada de {p.name} na casa", asks=("Só quem já é membro da casa pode confirmar.",)),
    LeavePreview: _ToolText[LeavePreview](
        lambda p: f"👋 {p.name} quer sair da casa", lambda p: f"👋 {p.name} saiu da casa",
        lambda p: ["O histórico fica guardado; para voltar, /entrar (um membro confirma)."],
        lambda p: f"saída de {p.name} da casa"),
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
        raise TypeError(f"no pt-BR text for {type(preview).__name__}: add it to bot.texts.previews._TEXTS")
    return text


def _summary(preview: Preview) -> str:
    summary: str = _text(preview).summary(preview)
    return summary


def _title(preview: Preview, *, done: bool) -> str:
    text = _text(preview)
    title = text.done if done else text.title
    return title if isinstance(title, str) else title(preview)




def preview_facts(preview: Preview) -> list[str]:
    """The lines every message about the operation shows."""
    facts: list[str] = _text(preview).facts(preview)
    return facts


def preview_text(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """A write tool's preview as the message shown above the Confirmar/Cancelar buttons."""
    typed = _typed(tool, preview)
    return "\n".join([_title(typed, done=False), *preview_facts(typed), *_text(typed).asks, "",
                      CONFIRM_QUESTION])


def confirmed_text(tool: str, preview: Preview | Mapping[str, Any], by: str | None) -> str:
    """The preview message once confirmed: what was written and who confirmed it."""
    typed = _typed(tool, preview)
    return "\n".join([f"{_title(typed, done=True)}{done_by(by)}", *preview_facts(typed)])


def cancelled_text(tool: str, preview: Preview | Mapping[str, Any], by: str | None) -> str:
    """The preview message once cancelled; it can never be confirmed afterwards."""
    return (f"❌ Cancelado{done_by(by)}. Nada foi registrado.\n"
            f"Proposta: {_closing_summary(tool, preview)}")


def expired_text(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """The preview message once it waited too long to be confirmed."""
    return ("⌛ Esta proposta expirou. Nada foi registrado.\n"
            f"Proposta: {_closing_summary(tool, preview)}\n"
            "Se ainda quiser, peça de novo.")




def summary_line(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """The operation in one line ("gasto de R$ 37,90 em Mercado, junho de 2026")."""
    return _closing_summary(tool, preview)


def _closing_summary(tool: str, preview: Preview | Mapping[str, Any]) -> str:
    """The one line of a message that closes a preview nobody will confirm. A stored preview this
    version cannot read (a tool since renamed or removed) still closes, with a plain word: a
    cancel, an expiry sweep or a newer preview must not fail on an old row."""
    try:
        return _summary(_typed(tool, preview))
    except UnreadablePreview as error:
        log.warning("closing a preview this version cannot read: %s", error)
        return "operação"


