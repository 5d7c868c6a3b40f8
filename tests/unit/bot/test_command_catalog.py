"""bot/commands/catalog.py is the one list of commands: what PTB answers (bot/telegram/commands.py),
Telegram's menu, the help (bot/texts/guide.py) and the usage replies all come from it, and nothing
answers a command it does not list."""

from __future__ import annotations

import re

import pytest
from pydantic import SecretStr
from telegram.ext import CommandHandler

from bot.commands import catalog
from bot.commands.calls import PARSERS, write_parser
from bot.commands.catalog import COMMANDS
from bot.commands.parsing import CommandUsageError
from bot.telegram import commands as telegram_commands
from bot.telegram.application import build_application
from bot.texts import guide
from infra.settings import Settings

EVERY_NAME = {name for command in COMMANDS for name in command.names}


def registered_commands() -> list[str]:
    """Every command an application built for Telegram answers, as PTB holds them."""
    app = build_application(Settings(telegram_bot_token=SecretStr("123:token"), database_url="sqlite://"),
                            webhook=True, model=None, periodic=False)
    return [name for handlers in app.handlers.values() for handler in handlers
            if isinstance(handler, CommandHandler) for name in handler.commands]


def test_the_application_answers_exactly_the_catalogs_commands_each_once() -> None:
    registered = registered_commands()

    assert sorted(registered) == sorted(EVERY_NAME)


def test_the_menu_is_every_command_but_start_in_the_catalogs_order() -> None:
    menu = telegram_commands.menu()

    assert [c.command for c in menu] == [c.name for c in COMMANDS if c.name != "start"]
    assert {c.command for c in menu} <= set(registered_commands())
    for entry in menu:  # what setMyCommands accepts
        assert re.fullmatch(r"[a-z0-9_]{1,32}", entry.command)
        assert 1 <= len(entry.description) <= 256


def test_the_help_names_every_command_and_gives_a_line_to_each_one_it_describes() -> None:
    text = guide.help_text()

    for command in COMMANDS:
        assert f"/{command.name}" in text
        if command.does is not None:
            assert f"• {command.form}: {command.does}" in text
    assert "/help" not in text  # an alias, not a second command


def test_the_help_reads_as_before() -> None:
    lines = guide.help_text().splitlines()
    start = lines.index("Ou use os comandos:") + 1

    assert lines[start:start + 4] == [
        # issue 23: who paid and "pessoal" join /gasto's form and line; issue 24: the card and parcelas
        "• /gasto <valor> <despesa> [AAAA-MM] [por <membro>] [pessoal] [no <cartão>] [em <N>x]: registra um "
        "gasto no mês, pago por você (ou por quem você disser), dividido pela regra da casa (pessoal: só seu); "
        "no cartão, na fatura em que a compra cai, parcelado se quiser",
        "  Ex.: /gasto 37,90 mercado",
        "• /despesa <nome> <valor> [dia <1-31>]: cadastra uma despesa mensal",
        "  Ex.: /despesa Aluguel 2.500 dia 10",
    ]
    assert "• /desfazer: propõe desfazer a última operação confirmada" in lines
    assert "• /ajuda: esta mensagem" in lines


@pytest.mark.parametrize("name", sorted(EVERY_NAME))
def test_a_command_is_found_by_any_of_its_names_in_any_case(name: str) -> None:
    command = catalog.find(name.upper())

    assert command is not None and name in command.names


def test_an_unknown_name_is_no_command() -> None:
    assert catalog.find("gastos") is None
    with pytest.raises(KeyError):
        write_parser("resumo")  # a command, but it writes nothing


def test_every_write_command_and_only_they_have_a_parser() -> None:
    for command in COMMANDS:
        if command.writes:
            assert write_parser(command.name.upper()) is PARSERS[command.name]
        else:
            with pytest.raises(KeyError):
                write_parser(command.name)
    assert set(PARSERS) == {c.name for c in COMMANDS if c.writes}


def test_a_usage_reply_shows_the_catalogs_form_and_example() -> None:
    resumo = catalog.named("resumo")

    assert str(CommandUsageError("resumo")) == "Não entendi. Use: /resumo [AAAA-MM]\nEx.: /resumo 2026-05"
    assert resumo.example == "/resumo"  # the help shows the plain form


def test_the_note_of_a_model_failure_names_the_commands_of_the_contract() -> None:
    assert guide.without_model_note() == (
        "Nada foi registrado. Enquanto isso, os comandos funcionam sem o modelo: "
        "/gasto, /despesa, /ajuste, /aporte, /meta, /resumo, /metas e /ajuda."
    )
