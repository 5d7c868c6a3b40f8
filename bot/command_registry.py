"""Every command the bot answers, one entry each: the one table that Telegram's handlers and menu,
the help text, the console and the usage replies are built from.

Adding a command: its handler (and, for the console, its action), its line here, its tests.

Modules below the handlers (bot/parsing.py, bot/service.py) read this table at call time, not at
import: the table names the handlers, and the handlers import them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from telegram import BotCommand, Update
from telegram.ext import Application, CommandHandler, ContextTypes

from bot import commands, console_commands, handlers, rendering, schedule_handlers

if TYPE_CHECKING:
    from bot.console import Console

TelegramHandler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]
ConsoleAction = Callable[["Console", str, str], Awaitable[None]]  # (console, command, rest)
WriteParser = Callable[[str, date, str], commands.ToolCallArgs]


@dataclass(frozen=True)
class Command:
    """One command: `name` and `aliases` without the slash.

    `does` is its line in the help (None: the help tells of it in prose, as it does of joining and
    leaving); `example` is the help's example, and `usage_example` the one a reply to a command
    that could not be read shows (the help's when None). `menu` is its description in Telegram's
    command menu (None: not in the menu). `parse` reads a write command's arguments into the tool
    call the agent would make. `essential`: one of the commands a short line names when the model
    is down (contract §6)."""

    name: str
    form: str
    does: str | None
    example: str
    telegram: TelegramHandler
    console: ConsoleAction
    menu: str | None = None
    aliases: tuple[str, ...] = ()
    usage_example: str | None = None
    parse: WriteParser | None = None
    essential: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def usage(self) -> str:
        """How the command is written, for a reply to one that could not be read."""
        return f"Use: {self.form}\nEx.: {self.usage_example or self.example}"


def _write(name: str, form: str, does: str, example: str, menu: str, parse: WriteParser, *,
           essential: bool = False) -> Command:
    """A write command: a preview through the same tool as the agent's, without any model."""
    return Command(name, form, does, example, handlers.write_command, console_commands.propose,
                   menu=menu, parse=parse, essential=essential)


def help_text() -> str:
    """What the bot understands, for /ajuda."""
    return rendering.help_text([(c.form, c.does, c.example) for c in COMMANDS if c.does is not None])


COMMANDS: Final[Sequence[Command]] = (
    Command("start", "/start", None, "/start", handlers.start, console_commands.start),
    _write("gasto", "/gasto <valor> <despesa> [AAAA-MM]", "registra um gasto no mês", "/gasto 37,90 mercado",
           "Registrar um gasto: /gasto 37,90 mercado", commands.gasto, essential=True),
    _write("despesa", "/despesa <nome> <valor> [dia <1-31>]", "cadastra uma despesa mensal",
           "/despesa Aluguel 2.500 dia 10", "Cadastrar despesa: /despesa Aluguel 2.500 dia 10",
           commands.despesa, essential=True),
    _write("ajuste", "/ajuste <despesa> <valor>", "muda o valor previsto de uma despesa", "/ajuste mercado 1.800",
           "Mudar o valor esperado: /ajuste mercado 1.800", commands.ajuste, essential=True),
    _write("aporte", "/aporte <valor> <meta>", "guarda dinheiro numa meta, pago por você, com a data de hoje",
           "/aporte 500 Amsterdam", "Aportar numa meta: /aporte 500 Amsterdam", commands.aporte, essential=True),
    _write("meta", "/meta <nome> <valor> [moeda] [até AAAA-MM-DD]", "cria uma meta com todos da casa",
           "/meta Lua de mel 6000 EUR até 2028-06-01", "Criar meta: /meta Viagem 6000 EUR até 2028-06-01",
           commands.meta, essential=True),
    Command("resumo", "/resumo [AAAA-MM]", "previsto e gasto por despesa no mês", "/resumo",
            handlers.summary, console_commands.summary, menu="Resumo do mês", usage_example="/resumo 2026-05",
            essential=True),
    Command("metas", "/metas", "quanto cada meta já tem e quanto falta por mês", "/metas",
            handlers.goals, console_commands.goals, menu="Como estão as metas", essential=True),
    Command("grafico", "/grafico [AAAA-MM]", "o gráfico do mês: previsto x gasto e as metas", "/grafico",
            schedule_handlers.grafico, console_commands.chart, menu="Gráfico do mês: /grafico 2026-06"),
    Command("lembretes", "/lembretes on|off", "liga ou desliga os avisos na véspera de cada vencimento",
            "/lembretes off", schedule_handlers.lembretes, console_commands.reminders,
            menu="Avisos de vencimento: /lembretes on|off"),
    Command("extrato", "/extrato [AAAA-MM]", "cada lançamento do mês: quando, o quê, quanto e quem", "/extrato",
            handlers.statement, console_commands.statement, menu="Lançamentos do mês"),
    Command("desfazer", "/desfazer", "propõe desfazer a última operação confirmada", "/desfazer",
            handlers.undo_last, console_commands.undo_last, menu="Desfazer a última operação"),
    _write("renomear", "/renomear <nome> para <novo nome>", "renomeia uma despesa ou meta",
           "/renomear mercado para Feira", "Renomear: /renomear mercado para Feira", commands.renomear),
    _write("arquivar", "/arquivar <despesa ou meta>", "tira do resumo o que não se usa mais; o histórico fica",
           "/arquivar Academia", "Arquivar despesa ou meta", commands.arquivar),
    Command("exportar", "/exportar [AAAA-MM]", "planilha (CSV) com os lançamentos do mês ou de tudo",
            "/exportar 2026-06", handlers.export, console_commands.export, menu="Planilha dos lançamentos"),
    Command("entrar", "/entrar [nome]", None, "/entrar", handlers.join, console_commands.join,
            menu="Pedir para entrar na casa"),
    Command("sair", "/sair", None, "/sair", handlers.leave, console_commands.leave, menu="Sair da casa"),
    Command("apagar", "/apagar", None, "/apagar", handlers.erase, console_commands.erase,
            menu="Apagar todos os dados da casa"),
    Command("ajuda", "/ajuda", "esta mensagem", "/ajuda", handlers.answering(help_text),
            console_commands.writing(help_text), menu="O que o bot entende", aliases=("help",), essential=True),
)

_BY_NAME: Final[Mapping[str, Command]] = MappingProxyType(
    {name: command for command in COMMANDS for name in command.names})


def find(name: str) -> Command | None:
    """The command answering to `name` (without the slash, any case), or None."""
    return _BY_NAME.get(name.lower())


def named(name: str) -> Command:
    command = find(name)
    if command is None:
        raise KeyError(name)
    return command


def write_parser(name: str) -> WriteParser:
    """How write command `name` reads its arguments into a tool call (KeyError: no such command)."""
    parse = named(name).parse
    if parse is None:
        raise KeyError(name)
    return parse


def menu() -> list[BotCommand]:
    """Telegram's command menu (setMyCommands), in the table's order."""
    return [BotCommand(c.name, c.menu) for c in COMMANDS if c.menu is not None]


def essentials_text() -> str:
    """"/gasto, /despesa, … e /ajuda": the commands named when the model is down."""
    names = [f"/{c.name}" for c in COMMANDS if c.essential]
    return f"{', '.join(names[:-1])} e {names[-1]}" if len(names) > 1 else "".join(names)


def without_model_note() -> str:
    """What a reply to a member adds when the model failed: nothing was written, and the
    commands still work."""
    return f"Nada foi registrado. Enquanto isso, os comandos funcionam sem o modelo: {essentials_text()}."


def register(app: Application) -> None:
    """One CommandHandler per command, with its aliases."""
    for command in COMMANDS:
        app.add_handler(CommandHandler(list(command.names), command.telegram))

