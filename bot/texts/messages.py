"""The bot's short answers in pt-BR: button alerts, errors, membership, hints, delivery."""

from __future__ import annotations

from typing import Final

from bot.commands.parsing import ParseError
from bot.texts.format import done_by, money, month_br
from domain.errors import DomainError
from domain.money import Period
from domain.text import shorten
from domain.tools.sharing import MoreThanOwed

GENERIC_ERROR: Final = "⚠️ Algo deu errado; nada foi registrado. Tente de novo em instantes."


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



# --------------------------------------------------------------------------- errors


def error_text(error: BaseException) -> str:
    """A domain or parse error's own pt-BR message; anything else, a generic line that leaks nothing."""
    if isinstance(error, MoreThanOwed):  # the amounts as people read them
        debt = error.transfer
        return (f"⚠️ O acerto de {money(error.amount)} é maior que a dívida: {debt.debtor} deve "
                f"{money(debt.amount)} a {debt.creditor}.")
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


def not_a_member_text() -> str:
    return "Você não é membro desta casa."


def erased_text(household: str, by: str | None) -> str:
    return (f"🗑️ Todos os dados da casa “{household}” foram apagados{done_by(by)}.\n"
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


def nothing_pending_text(*, confirming: bool) -> str:
    return f"Nada pendente para {'confirmar' if confirming else 'cancelar'}."


def which_pending_text(count: int, *, confirming: bool) -> str:
    """A bare "confirma" with several previews waiting: which one is up to the member."""
    button = "✅ Confirmar" if confirming else "❌ Cancelar"
    word = "confirma" if confirming else "cancela"
    return (f"Há {count} propostas esperando. Qual delas? Toque em {button} na que você quer, "
            f"ou responda “{word}” a ela.")


def erase_needs_its_button_text() -> str:
    return ("A proposta que está esperando é a de apagar todos os dados da casa. Para apagar, "
            "toque em ✅ Confirmar nela (ou responda “confirma” a ela); nada foi apagado.")


def decided_text(summary: str, *, confirmed: bool) -> str:
    """A bare "confirma" decided the one preview waiting: which one, so nobody has to scroll."""
    return f"{'✅ Confirmado' if confirmed else '❌ Cancelado'}: {summary}."


def unknown_command_text(name: str, closest: str | None) -> str:
    """A command the bot does not know: the closest one it does, or the help."""
    hint = f"Você quis dizer /{closest}?" if closest else "Veja /ajuda."
    return f"Comando desconhecido: /{shorten(name, 32)}. {hint}"


def thinking_text() -> str:
    """Said once when the model takes long (~10 s): the answer replaces it."""
    return "🤔 pensando…"


def confirmed_answer() -> str:
    return "✅ Confirmado."


def cancelled_answer() -> str:
    return "❌ Cancelado."


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


