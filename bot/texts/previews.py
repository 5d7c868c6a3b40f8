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
from domain.tools.budget import AdjustmentPreview, ExpensePreview, IncomePreview, LimitNote, SpendPreview
from domain.tools.cards import CardPreview
from domain.tools.goals import ContributionPreview, GoalPreview
from domain.tools.housekeeping import ArchivePreview, RenamePreview
from domain.tools.membership import ErasePreview, JoinPreview, LeavePreview
from domain.tools.registry import read_preview
from domain.tools.sharing import PixKeyPreview, RuleView, SettlementPreview, SplitPreview
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
    notes: Callable[[P], list[str]] | None = None  # lines only the confirmed message shows


def _record_spend_facts(p: SpendPreview) -> list[str]:
    lines = [f"Despesa: {p.expense}", f"Mês: {month_br(p.period)}", f"Valor: {money(p.delta)}"]
    if p.card:
        lines[1:] = _card_lines(p)
    if p.paid_by:
        lines.append(f"Pago por {p.paid_by}")
    if not p.shared:
        lines.append("Pessoal: fica fora da divisão")
    elif len(p.shares) > 1:
        lines.append("Divisão: " + " · ".join(f"{part.member} {money(part.amount)}" for part in p.shares))
    month = f"em {month_br(p.period)}" if p.card else "no mês"  # a card's fatura may be next month's
    lines.append(f"Total gasto {month}: {money(p.new_actual)}")
    return lines


def _card_lines(p: SpendPreview) -> list[str]:
    """A purchase on a card: the card and its fatura (the month it counts in), and its parcelas."""
    due = f", vence {date_br(p.due)}" if p.due else ""
    lines = [f"Cartão: {p.card} (fatura de {month_br(p.period)}{due})"]
    if p.installments > 1 and p.installment is not None and p.first_installment is not None:
        first = (f" (a 1ª de {money(p.first_installment)})" if p.first_installment != p.installment else "")
        lines.append(f"Valor: {money(p.delta)} em {p.installments}x de {money(p.installment)}{first}")
        if p.last_fatura is not None:
            lines.append(f"Parcelas: de {month_br(p.period)} a {month_br(p.last_fatura)}")
    else:
        lines.append(f"Valor: {money(p.delta)}")
    if p.purchased_on:
        lines.append(f"Compra em {date_br(p.purchased_on)}")
    return lines


def limit_lines(limits: Sequence[LimitNote]) -> list[str]:
    """``⚠️ Mercado: 85 % do previsto``: a threshold of the month reached, once."""
    return [f"⚠️ {limit.expense}: {limit.percent} % do previsto" for limit in limits]


def _card_facts(p: CardPreview) -> list[str]:
    lines = [f"Cartão: {p.name}", f"Fecha todo dia {p.closing_day} e vence todo dia {p.due_day}"]
    if p.aliases:
        lines.append(f"Apelidos: {names(list(p.aliases))}")
    lines.append(f"Próxima fatura: fecha {date_br(p.next_closing)}, vence {date_br(p.next_due)}")
    return lines


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
    lines = [
        f"Nova renda{f' de {p.member}' if p.member else ''}: {money(p.income)}",
        f"Renda anterior: {money(old) if old is not None else 'não informada'}",
    ]
    if p.member and p.total is not None:
        lines.append(f"Renda da casa: {money(p.total)} (a soma da renda de cada um)")
    return lines


def _settlement_facts(p: SettlementPreview) -> list[str]:
    after = (f"{p.debtor} ainda deve {money(p.remaining)} a {p.creditor}" if p.remaining.is_positive
             else "vocês ficam quites")
    return [f"Dívida: {money(p.debt)}", f"Depois do acerto: {after}."]


RULE_NAMES: Final = {"equal": "igual", "fixed": "porcentagens fixas", "income": "pela renda de cada um"}


def rule_text(rule: RuleView) -> str:
    """``igual (Ana 50 %, Bruno 50 %)``; ``porcentagens fixas (Ana 60 %, Bruno 40 %)``."""
    parts = ", ".join(f"{part.member} {percent_br(part.percent)} %" for part in rule.parts)
    return f"{RULE_NAMES.get(rule.kind, rule.kind)}" + (f" ({parts})" if parts else "")


def percent_br(value: Any) -> str:
    return f"{value:f}".replace(".", ",")


def _split_facts(p: SplitPreview) -> list[str]:
    return [f"Nova divisão: {rule_text(p.rule)}", f"Antes: {rule_text(p.old_rule)}",
            "Vale para os gastos confirmados daqui em diante; os já registrados ficam como estão."]


def _pix_key_facts(p: PixKeyPreview) -> list[str]:
    lines = [f"Chave: {p.key} ({KEY_KINDS.get(p.kind, p.kind)})"]
    if p.old_key:
        lines.append("Substitui a chave anterior.")
    lines.append(f"Quem acertar uma dívida com {p.member} recebe o Pix copia e cola desta chave.")
    return lines


KEY_KINDS: Final = {"cpf": "CPF", "cnpj": "CNPJ", "email": "e-mail", "phone": "telefone",
                    "random": "chave aleatória"}


SHOWN_ASIDE_LINES: Final = 8  # unmatched or credit lines listed in an import preview; the rest counted
IMPORT_TEXT_BUDGET: Final = 3500  # characters: the preview, its buttons' message, stays under 4,096


def _import_facts(p: ImportPreview) -> list[str]:
    lines = [f"Arquivo: {clip(p.file)}", ""]
    for group in p.groups:
        suggested = group.suggested
        lines.append(f"• {clip(group.expense)}: {_count_word(group.count)}, {money(group.total)}"
                     + (f" ({suggested} sugerido{'s' if suggested > 1 else ''} pelo modelo)" if suggested else ""))
    lines.append(f"Total: {money(p.total)}")
    if p.card:
        lines.append(f"Cartão: {p.card} (cada compra na fatura em que cai)")
    if p.paid_by:
        lines.append(f"Pago por {p.paid_by}, dividido pela regra da casa")
    aside = [("Sem despesa correspondente (não serão importados)", p.unmatched),
             ("Créditos (estornos, salário; não são gastos, não serão importados)", p.credits),
             ("Parcelas que a fatura já tem (lançadas antes; não serão importadas)", p.counted)]
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


_KIND_WORDS: Final = {"expense": "Despesa", "goal": "Meta", "card": "Cartão", "household": "Casa"}


def _rename_facts(p: RenamePreview) -> list[str]:
    lines = [f"{_KIND_WORDS[p.kind]}: {p.old_name}", f"Novo nome: {p.new_name}"]
    if p.kind in ("expense", "card"):  # domain.budget.Budget.rename(_card) keeps it as an alias
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
        lambda p: (f"gasto de {money(p.delta)}{f' em {p.installments}x' if p.installments > 1 else ''} "
                   f"em {p.expense}{f' no {p.card}' if p.card else ''}, {month_br(p.period)}"),
        notes=lambda p: limit_lines(p.limits)),
    CardPreview: _ToolText[CardPreview](
        "💳 Cadastrar cartão", "✅ Cartão cadastrado", _card_facts, lambda p: f"cartão {p.name}"),
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
        lambda p: f"💵 Atualizar renda de {p.member}" if p.member else "💵 Atualizar renda mensal",
        lambda p: f"✅ Renda de {p.member} atualizada" if p.member else "✅ Renda mensal atualizada",
        _set_income_facts,
        lambda p: f"renda{f' de {p.member}' if p.member else ' mensal'} de {money(p.income)}"),
    SettlementPreview: _ToolText[SettlementPreview](
        lambda p: f"🤝 Acerto: {p.debtor} paga {money(p.amount)} a {p.creditor}",
        lambda p: f"✅ Acerto: {p.debtor} pagou {money(p.amount)} a {p.creditor}", _settlement_facts,
        lambda p: f"acerto de {money(p.amount)} de {p.debtor} para {p.creditor}"),
    SplitPreview: _ToolText[SplitPreview](
        "➗ Mudar a divisão dos gastos", "✅ Divisão dos gastos mudada", _split_facts,
        lambda p: f"divisão {rule_text(p.rule)}"),
    PixKeyPreview: _ToolText[PixKeyPreview](
        lambda p: f"🔑 Guardar a chave Pix de {p.member}", lambda p: f"✅ Chave Pix de {p.member} guardada",
        _pix_key_facts, lambda p: f"chave Pix de {p.member}"),
    ImportPreview: _ToolText[ImportPreview](
        lambda p: f"🏦 Importar {_count_word(p.count)}", lambda p: f"✅ {_count_word(p.count)} importados",
        _import_facts,
        lambda p: f"importar {_count_word(p.count)} do extrato {p.file}, {money(p.total)}",
        notes=lambda p: limit_lines(p.limits)),
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


def preview_text(tool: str, preview: Preview | Mapping[str, Any], extra: Sequence[str] = ()) -> str:
    """A write tool's preview as the message shown above the Confirmar/Cancelar buttons; `extra`
    lines after its facts (an acerto's Pix copia e cola)."""
    typed = _typed(tool, preview)
    return "\n".join([_title(typed, done=False), *preview_facts(typed), *extra, *_text(typed).asks, "",
                      CONFIRM_QUESTION])


def confirmed_text(tool: str, preview: Preview | Mapping[str, Any], by: str | None,
                   extra: Sequence[str] = ()) -> str:
    """The preview message once confirmed: what was written, who confirmed it, and what the
    confirmation brought about (a limit of the month reached)."""
    typed = _typed(tool, preview)
    notes = _text(typed).notes
    return "\n".join([f"{_title(typed, done=True)}{done_by(by)}", *preview_facts(typed), *extra,
                      *(notes(typed) if notes else [])])


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


