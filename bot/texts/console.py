"""What the terminal console says besides the chat itself (`household-bot console`)."""

from __future__ import annotations

from typing import Final

INTRO: Final = """\
household-bot no terminal. Escreva como no grupo do Telegram, por exemplo:
  /gasto 37,90 mercado     /despesa Aluguel 2.500 dia 10     /resumo     /ajuda
Trocar quem fala: /eu <nome>     Propostas pendentes: /pendentes     Fechar: /fim (ou Ctrl-D)
"""
ASK_NAME: Final = "Quem está falando? (seu nome) "
NO_MODEL: Final = "(Sem LLM_MODEL: texto livre mostra os comandos; os comandos funcionam normalmente.)\n"
NO_PENDING: Final = "Nenhuma proposta pendente."
CHOOSE_BY_NUMBER: Final = "No terminal, digite o número da opção:"


def migrated(applied: int, version: str) -> str:
    """`household-bot migrate`'s one line (scripts/run shows it before the console)."""
    if applied == 0:
        return f"Banco de dados em dia (versão {version})."
    plural = "migração aplicada" if applied == 1 else "migrações aplicadas"
    return f"Banco de dados atualizado: {applied} {plural} (versão {version})."


def speaking_now(name: str) -> str:
    return f"(agora falando: {name})"


def who_is_speaking(name: str | None) -> str:
    """/eu without a name: who is typing now, and how to change it."""
    now = f"Quem fala agora é {name}." if name else "Ninguém escolhido ainda."
    return f"{now} Para trocar: /eu <nome>, como /eu Bruno."


def no_such_choice(choice: str) -> str:
    return f"Não há opção {choice}. Veja as propostas pendentes com /pendentes."


def choices(confirm: str, cancel: str) -> str:
    return f"  [{confirm}] ✅ Confirmar   [{cancel}] ❌ Cancelar   (ou responda confirma / cancela)"


def photo_saved(path: str) -> str:
    return f"(QR code do Pix salvo em {path})"
