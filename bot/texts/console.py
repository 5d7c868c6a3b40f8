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


def speaking_now(name: str) -> str:
    return f"(agora falando: {name})"


def no_such_choice(choice: str) -> str:
    return f"Não há opção {choice}. Veja as propostas pendentes com /pendentes."


def unknown_command(name: str) -> str:
    return f"Comando desconhecido: /{name}. Veja /ajuda."


def choices(confirm: str, cancel: str) -> str:
    return f"  [{confirm}] ✅ Confirmar   [{cancel}] ❌ Cancelar   (ou responda confirma / cancela)"


def photo_saved(path: str) -> str:
    return f"(QR code do Pix salvo em {path})"
