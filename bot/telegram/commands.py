"""Telegram's side of the command catalog (bot/commands/catalog.py): one handler per command,
wired here by name, and the catalog's menu for setMyCommands."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Final

from telegram import BotCommand, InputFile, Update
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

from bot.app.outcomes import Reply
from bot.commands.catalog import COMMANDS, closest
from bot.telegram.delivery import deliver
from bot.telegram.periodic import schedule_of
from bot.telegram.sending import send_text
from bot.telegram.updates import arguments_of, chat_id_of, command_of, operation_id_of, service_of, speaker_of
from bot.texts import guide, history, messages

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: sets the chat up as a household with the sender (a stranger asks to join)."""
    chat = update.effective_chat
    assert chat is not None
    outcomes = await service_of(context).start(chat.id, chat.title or chat.first_name, speaker_of(update))
    await deliver(context, chat.id, outcomes)


async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/entrar [nome]: asks to join; a member of the household confirms."""
    outcomes = await service_of(context).join(chat_id_of(update), speaker_of(update),
                                              arguments_of(context).strip() or None,
                                              operation_id=operation_id_of(update))
    await deliver(context, chat_id_of(update), outcomes)


async def leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/sair: a preview of the sender leaving the household; a member confirms."""
    outcomes = await service_of(context).leave(chat_id_of(update), speaker_of(update),
                                               operation_id=operation_id_of(update))
    await deliver(context, chat_id_of(update), outcomes)


async def erase(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/apagar: a preview that, once a member confirms it, deletes every record of the household."""
    outcomes = await service_of(context).erase(chat_id_of(update), speaker_of(update),
                                               operation_id=operation_id_of(update))
    await deliver(context, chat_id_of(update), outcomes)


async def write_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A write command (/gasto, /despesa, …): a preview without any model."""
    outcomes = await service_of(context).command(chat_id_of(update), speaker_of(update), command_of(update),
                                                 arguments_of(context), operation_id=operation_id_of(update))
    await deliver(context, chat_id_of(update), outcomes)


async def read_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A read command (/resumo, /metas, /extrato, …): its answer as a message."""
    outcome = await service_of(context).answer(command_of(update), chat_id_of(update), speaker_of(update),
                                                arguments_of(context))
    await send_text(context, chat_id_of(update), outcome)


async def undo_last(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/desfazer: a preview undoing the last confirmed operation."""
    outcomes = await service_of(context).undo_last(chat_id_of(update), speaker_of(update),
                                                   operation_id=operation_id_of(update))
    await deliver(context, chat_id_of(update), outcomes)


async def export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/exportar [AAAA-MM]: the ledger as a CSV document, written to a temporary file and
    uploaded from it, so memory stays flat however long the history."""
    found = await service_of(context).month_for("exportar", chat_id_of(update), speaker_of(update),
                                                 arguments_of(context), whole=True)
    if isinstance(found, str):
        await send_text(context, chat_id_of(update), found)
        return
    _, period = found
    with tempfile.TemporaryFile() as out:
        name = await service_of(context).export(chat_id_of(update), speaker_of(update), period, out)
        if isinstance(name, Reply):
            await send_text(context, chat_id_of(update), name.text)
            return
        out.seek(0)
        await context.bot.send_document(
            chat_id_of(update), InputFile(out, filename=name, read_file_handle=False),
            caption=history.export_caption(period))


async def reminders(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/lembretes on|off: the household's bill reminders."""
    link = await service_of(context).member_link(chat_id_of(update), speaker_of(update))
    if isinstance(link, Reply):
        text = link.text
    else:
        text = await schedule_of(context.application).switch_reminders(link, arguments_of(context))
    await send_text(context, chat_id_of(update), text)


async def chart(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/grafico [AAAA-MM]: the month's chart as a photo."""
    chat_id = chat_id_of(update)
    found = await service_of(context).month_for("grafico", chat_id, speaker_of(update), arguments_of(context))
    if isinstance(found, str):
        await send_text(context, chat_id, found)
        return
    drawn = await schedule_of(context.application).chart(*found)
    if isinstance(drawn, str):
        await send_text(context, chat_id, drawn)
    else:
        await context.bot.send_photo(chat_id, drawn.png, caption=drawn.caption)


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/ajuda: what the bot understands."""
    await send_text(context, chat_id_of(update), guide.help_text())


HANDLERS: Final[Mapping[str, Handler]] = {
    "start": start, "grafico": chart, "lembretes": reminders, "desfazer": undo_last, "exportar": export,
    "entrar": join, "sair": leave, "apagar": erase, "ajuda": help_command,
}


async def unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A command the catalog does not have: the closest one it does ("/gasot": /gasto?). One for
    another bot (/x@other_bot, or a far-off /poll, most likely another bot's) is left alone."""
    message = update.effective_message
    assert message is not None and message.text is not None
    name, _, addressed = message.text.split(maxsplit=1)[0].removeprefix("/").partition("@")
    if addressed and addressed.lower() != (context.bot.username or "").lower():
        return
    suggestion = closest(name)
    if suggestion is None and not addressed:
        return
    await send_text(context, chat_id_of(update), messages.unknown_command_text(name, suggestion))


def register(app: Application) -> None:
    """One CommandHandler per command of the catalog, with its aliases; then any other command."""
    for command in COMMANDS:
        handler = write_command if command.writes else read_command if command.reads else HANDLERS[command.name]
        app.add_handler(CommandHandler(list(command.names), handler))
    app.add_handler(MessageHandler(filters.COMMAND, unknown_command))


def menu() -> list[BotCommand]:
    """Telegram's command menu (setMyCommands), in the catalog's order."""
    return [BotCommand(c.name, c.menu) for c in COMMANDS if c.menu is not None]
