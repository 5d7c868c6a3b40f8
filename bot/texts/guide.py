"""What the bot understands, for /ajuda, and what it says when it cannot read free text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.commands.catalog import COMMANDS, essentials

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


def help_text() -> str:
    """What the bot understands, for /ajuda, from the command catalog."""
    commands = [(c.form, c.does, c.example) for c in COMMANDS if c.does is not None]
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



def essentials_text() -> str:
    """"/gasto, /despesa, … e /ajuda": the commands named when the model is down."""
    listed = [f"/{c.name}" for c in essentials()]
    return f"{', '.join(listed[:-1])} e {listed[-1]}" if len(listed) > 1 else "".join(listed)


def without_model_note() -> str:
    """What a reply to a member adds when the model failed: nothing was written, and the
    commands still work."""
    return f"Nada foi registrado. Enquanto isso, os comandos funcionam sem o modelo: {essentials_text()}."
