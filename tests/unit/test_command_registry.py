"""bot/command_registry.py is the one list of commands: what PTB answers, Telegram's menu, the help
and the usage replies all come from it, and nothing answers a command it does not list."""

from __future__ import annotations

import re

import pytest
from pydantic import SecretStr
from telegram.ext import CommandHandler

from bot import command_registry
from bot.application import build_application
from bot.command_registry import COMMANDS
from bot.commands.parsing import CommandUsageError
from infra.settings import Settings

EVERY_NAME = {name for command in COMMANDS for name in command.names}


def registered_commands() -> list[str]:
    """Every command an application built for Telegram answers, as PTB holds them."""
    app = build_application(Settings(telegram_bot_token=SecretStr("123:token"), database_url="sqlite://"),
                            webhook=True, model=None, periodic=False)
    return [name for handlers in app.handlers.values() for handler in handlers
            if isinstance(handler, CommandHandler) for name in handler.commands]


def test_the_application_answers_exactly_the_registrys_commands_each_once() -> None:
    registered = registered_commands()

    assert sorted(registered) == sorted(EVERY_NAME)


def test_the_menu_is_every_command_but_start_in_the_registrys_order() -> None:
    menu = command_registry.menu()

    assert [c.command for c in menu] == [c.name for c in COMMANDS if c.name != "start"]
    assert {c.command for c in menu} <= set(registered_commands())
    for entry in menu:  # what setMyCommands accepts
        assert re.fullmatch(r"[a-z0-9_]{1,32}", entry.command)
        assert 1 <= len(entry.description) <= 256


def test_the_help_names_every_command_and_gives_a_line_to_each_one_it_describes() -> None:
    text = command_registry.help_text()

    for command in COMMANDS:
        assert f"/{command.name}" in text
        if command.does is not None:
            assert f"• {command.form}: {command.does}" in text
    assert "/help" not in text  # an alias, not a second command


def test_the_help_reads_as_before() -> None:
    lines = command_registry.help_text().splitlines()
    start = lines.index("Ou use os comandos:") + 1

    assert lines[start:start + 4] == [
        "• /gasto <valor> <despesa> [AAAA-MM]: registra um gasto no mês",
        "  Ex.: /gasto 37,90 mercado",
        "• /despesa <nome> <valor> [dia <1-31>]: cadastra uma despesa mensal",
        "  Ex.: /despesa Aluguel 2.500 dia 10",
    ]
    assert "• /desfazer: propõe desfazer a última operação confirmada" in lines
    assert "• /ajuda: esta mensagem" in lines


@pytest.mark.parametrize("name", sorted(EVERY_NAME))
def test_a_command_is_found_by_any_of_its_names_in_any_case(name: str) -> None:
    command = command_registry.find(name.upper())

    assert command is not None and name in command.names


def test_an_unknown_name_is_no_command() -> None:
    assert command_registry.find("gastos") is None
    with pytest.raises(KeyError):
        command_registry.write_parser("resumo")  # a command, but it writes nothing


def test_a_usage_reply_shows_the_registrys_form_and_example() -> None:
    resumo = command_registry.named("resumo")

    assert str(CommandUsageError("resumo")) == "Não entendi. Use: /resumo [AAAA-MM]\nEx.: /resumo 2026-05"
    assert resumo.example == "/resumo"  # the help shows the plain form


def test_the_note_of_a_model_failure_names_the_commands_of_the_contract() -> None:
    assert command_registry.without_model_note() == (
        "Nada foi registrado. Enquanto isso, os comandos funcionam sem o modelo: "
        "/gasto, /despesa, /ajuste, /aporte, /meta, /resumo, /metas e /ajuda."
    )
