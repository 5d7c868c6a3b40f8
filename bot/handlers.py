"""Telegram handlers: parse the update, call the service, reply. Nothing else lives here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Update,
)
from telegram.error import BadRequest, TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import history, lifecycle, rendering
from bot.commands import resumo_period
from bot.gate import gate
from bot.parsing import CommandUsageError
from bot.sending import may_send, send_text
from bot.service import (
    CANCEL,
    CONFIRM,
    UNDO,
    Edit,
    HouseholdService,
    Outcome,
    Preview,
    Reply,
    Speaker,
    callback_data,
)
from domain.errors import DomainError

log = logging.getLogger(__name__)

SERVICE = "service"
# chat_member is only sent when asked for: it tells that a person left or was removed.
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]
PRESS_PATTERN = rf"^({CONFIRM}|{CANCEL}|{UNDO}):"


def service_of(context: ContextTypes.DEFAULT_TYPE) -> HouseholdService:
    service: HouseholdService = context.bot_data[SERVICE]
    return service


def speaker_of(update: Update) -> Speaker:
    user = update.effective_user
    assert user is not None
    return Speaker(user.id, user.first_name or "Membro")


def keyboard(key: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        InlineKeyboardButton("✅ Confirmar", callback_data=callback_data(CONFIRM, key)),
        InlineKeyboardButton("❌ Cancelar", callback_data=callback_data(CANCEL, key)),
    ]])


def undo_keyboard(key: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        InlineKeyboardButton("↩️ Desfazer", callback_data=callback_data(UNDO, key)),
    ]])


async def deliver(context: ContextTypes.DEFAULT_TYPE, chat_id: int, outcomes: list[Outcome]) -> None:
    """Sends replies and previews (remembering each preview's message) and applies edits.

    Each goes out on its own (bot/delivery.py, bot/sending.py): a reply Telegram refuses never
    keeps a preview from being posted, and a preview that cannot be posted is closed and the
    chat told. Nothing goes to a group the bot was removed from."""
    if not outcomes or not await may_send(context, chat_id):
        return
    for outcome in outcomes:
        if isinstance(outcome, Reply):
            await send_reply(context, chat_id, outcome)
        elif isinstance(outcome, Preview):
            await post_preview(context, chat_id, outcome)
        elif isinstance(outcome, Edit):
            await edit(context, chat_id, outcome)


async def send_reply(context: ContextTypes.DEFAULT_TYPE, chat_id: int, reply: Reply) -> None:
    """A reply Telegram refuses (too long, empty, still failing after retries) is logged and
    dropped: it never stops what comes after it."""
    try:
        await send_text(context, chat_id, reply.text, checked=True)
    except TelegramError as error:
        log.warning("reply to chat %s not sent: %s", chat_id, error)
        with contextlib.suppress(TelegramError):  # one try: the chat at least knows
            await context.bot.send_message(chat_id, rendering.reply_not_sent_text())


async def post_preview(context: ContextTypes.DEFAULT_TYPE, chat_id: int, preview: Preview) -> None:
    """Posts a preview and stores its message id, which makes it confirmable; or closes it."""
    service = service_of(context)
    try:
        message = await send_text(context, chat_id, preview.text, checked=True,
                                  reply_markup=keyboard(preview.key))
    except TelegramError as error:
        log.warning("preview %s not posted in chat %s: %s", preview.operation_id, chat_id, error)
        await service.preview_not_posted(chat_id, preview.operation_id)
        with contextlib.suppress(TelegramError):
            await context.bot.send_message(chat_id, rendering.preview_not_shown_text())
        return
    if message is None:  # the bot is no longer in the group: nobody saw it, nobody can confirm it
        await service.preview_not_posted(chat_id, preview.operation_id)
        return
    await service.preview_posted(message.chat_id, preview.operation_id, message.message_id)


async def edit(context: ContextTypes.DEFAULT_TYPE, chat_id: int, change: Edit) -> None:
    try:
        markup = undo_keyboard(change.undo_key) if change.undo_key is not None else None
        await context.bot.edit_message_text(change.text, chat_id=chat_id, message_id=change.message_id,
                                            reply_markup=markup)
    except BadRequest as error:
        # A redelivered press edits to the same final text: nothing to change is fine. A message
        # gone (deleted, or left behind by a supergroup migration) cannot show the outcome; the
        # operation is decided all the same and the callback answer said so.
        reason = str(error).lower()
        if "message to edit not found" in reason:
            log.info("could not edit message %s in chat %s: %s", change.message_id, chat_id, error)
        elif "message is not modified" not in reason:
            raise


def chat_id_of(update: Update) -> int:
    chat = update.effective_chat
    assert chat is not None
    return chat.id


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: sets the chat up as a household with the sender (a stranger asks to join)."""
    chat = update.effective_chat
    assert chat is not None
    outcomes = await service_of(context).start(chat.id, chat.title or chat.first_name, speaker_of(update))
    await deliver(context, chat.id, outcomes)


async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/entrar [nome]: asks to join; a member of the household confirms."""
    name = " ".join(context.args or []).strip() or None
    outcomes = await service_of(context).join(chat_id_of(update), speaker_of(update), name,
                                              operation_id=f"cmd-{update.update_id}")
    await deliver(context, chat_id_of(update), outcomes)


async def leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/sair: the sender leaves the household."""
    text = await service_of(context).leave(chat_id_of(update), speaker_of(update).user_id)
    await send_text(context, chat_id_of(update), text)


async def erase(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/apagar: a preview that, once a member confirms it, deletes every record of the household."""
    outcomes = await service_of(context).erase(chat_id_of(update), speaker_of(update),
                                               operation_id=f"cmd-{update.update_id}")
    await deliver(context, chat_id_of(update), outcomes)


def answering(text: Callable[[], str]) -> Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    """A command answered with `text()` and nothing else (/ajuda)."""

    async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await send_text(context, chat_id_of(update), text())

    return answer


async def write_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A write command (/gasto, /despesa, …; bot/command_registry.py): a preview without any model."""
    message = update.effective_message
    assert message is not None and message.text is not None
    command = message.text.split()[0].lstrip("/").split("@")[0].lower()
    text = " ".join(context.args or [])
    outcomes = await service_of(context).command(chat_id_of(update), speaker_of(update), command, text,
                                                 operation_id=f"cmd-{update.update_id}")
    await deliver(context, chat_id_of(update), outcomes)


async def summary(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/resumo [AAAA-MM]: the month's expected and actual per expense."""
    try:
        period = resumo_period(" ".join(context.args or []), service_of(context).today())
    except CommandUsageError as usage:
        await send_text(context, chat_id_of(update), str(usage))
        return
    text = await service_of(context).summary(chat_id_of(update), period)
    await send_text(context, chat_id_of(update), text)


async def goals(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/metas: every goal's progress."""
    await send_text(context, chat_id_of(update), await service_of(context).goals(chat_id_of(update)))


async def statement(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/extrato [AAAA-MM]: the month's ledger entries, newest first."""
    try:
        period = resumo_period(" ".join(context.args or []))
    except CommandUsageError as usage:
        await send_text(context, chat_id_of(update), history.usage_text("extrato", str(usage)))
        return
    await send_text(context, chat_id_of(update),
                    await service_of(context).statement(chat_id_of(update), period))


async def undo_last(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/desfazer: a preview undoing the last confirmed operation."""
    outcomes = await service_of(context).undo_last(chat_id_of(update), speaker_of(update),
                                                   operation_id=f"cmd-{update.update_id}")
    await deliver(context, chat_id_of(update), outcomes)


async def export(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/exportar [AAAA-MM]: the ledger as a CSV document, written to a temporary file and
    uploaded from it, so memory stays flat however long the history."""
    try:
        period = resumo_period(" ".join(context.args or []))
    except CommandUsageError as usage:
        await send_text(context, chat_id_of(update), history.usage_text("exportar", str(usage)))
        return
    with tempfile.TemporaryFile() as out:
        name = await service_of(context).export(chat_id_of(update), period, out)
        if name is None:
            await send_text(context, chat_id_of(update), rendering.not_started_text())
            return
        out.seek(0)
        await context.bot.send_document(
            chat_id_of(update), InputFile(out, filename=name, read_file_handle=False),
            caption=history.export_caption(period))


async def text_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A member's free text goes to the agent."""
    message = update.effective_message
    assert message is not None and message.text is not None
    replied = message.reply_to_message
    if replied is not None and await decided_by_reply(context, update, replied.message_id, message.text):
        return
    # "typing" goes out while the agent works instead of before it starts (one Bot API round
    # trip less on every turn, bench/run.py), and is settled before any reply is sent.
    typing = asyncio.create_task(context.bot.send_chat_action(chat_id_of(update), "typing"))
    try:
        outcomes = await service_of(context).talk(chat_id_of(update), speaker_of(update), message.text)
    finally:
        try:
            await typing
        except Exception as error:  # cosmetic: the replies still go out
            log.warning("typing action failed: %s", error)
    await deliver(context, chat_id_of(update), outcomes)


async def decided_by_reply(context: ContextTypes.DEFAULT_TYPE, update: Update, message_id: int,
                           text: str) -> bool:
    """A reply "confirma"/"cancela" to a preview: the press it stands for, without the model."""
    user = update.effective_user
    assert user is not None
    chat_id = chat_id_of(update)
    result = await service_of(context).reply_to_preview(chat_id, user.id, message_id, text)
    if result is None:
        return False
    if result.edit is not None:
        await edit(context, chat_id, result.edit)
    if result.alert:
        # What the button would have shown as an alert (not a member, already decided...).
        await send_text(context, chat_id, result.answer)
    return True


async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """✅ Confirmar / ❌ Cancelar, and any other callback data (refused)."""
    query = update.callback_query
    assert query is not None and query.from_user is not None
    message = query.message
    if message is None:
        await query.answer(rendering.unknown_operation_alert(), show_alert=True)
        return
    result = await service_of(context).press(message.chat.id, query.from_user.id, query.data)
    try:
        await query.answer(result.answer, show_alert=result.alert)
    except BadRequest as error:
        # "query is too old": the write (if any) is already committed; the edit below still shows it.
        log.info("callback answer failed: %s", error)
    if result.edit is not None:
        await edit(context, message.chat.id, result.edit)
    if result.undone is not None:
        await edit(context, message.chat.id, result.undone)
    if result.post is not None:
        await deliver(context, message.chat.id, [result.post])


async def refuse_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Callback data that is not ours: an alert, and nothing else."""
    query = update.callback_query
    assert query is not None
    log.warning("refused malformed callback data from user %s", query.from_user.id if query.from_user else None)
    await query.answer(rendering.unknown_operation_alert(), show_alert=True)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """One place for what escapes a handler: a pt-BR line for the person, the details in the log."""
    error = context.error
    if isinstance(error, DomainError | CommandUsageError):
        text = rendering.error_text(error)
    else:
        log.error("handler failed", exc_info=error)
        text = rendering.error_text(RuntimeError())
    if isinstance(update, Update):
        if update.callback_query is not None:
            with contextlib.suppress(BadRequest):
                await update.callback_query.answer(text[:190], show_alert=True)
        elif update.effective_chat is not None:
            await send_text(context, update.effective_chat.id, text)


async def anonymous_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A message from an anonymous admin (or as the group itself): nobody to act as."""
    message = update.effective_message
    if message is not None and message.text is not None:
        await send_text(context, chat_id_of(update), rendering.anonymous_admin_text())
    raise ApplicationHandlerStop


def register(app: Application) -> None:
    # bot/gate.py first of all: updates acknowledged and ignored, and text refused.
    app.add_handler(TypeHandler(Update, gate), group=-2)
    # Group -1 runs first: service messages of the group's life, and anonymous senders.
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, lifecycle.migrated), group=-1)
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, lifecycle.member_left_message),
                    group=-1)
    app.add_handler(MessageHandler(lifecycle.ANONYMOUS, anonymous_admin), group=-1)
    app.add_handler(ChatMemberHandler(lifecycle.bot_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(ChatMemberHandler(lifecycle.member_changed, ChatMemberHandler.CHAT_MEMBER))
    # The commands' handlers come from bot/command_registry.py.
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, text_message))
    app.add_handler(CallbackQueryHandler(press, pattern=PRESS_PATTERN))
    app.add_handler(CallbackQueryHandler(refuse_press))
    app.add_error_handler(on_error)
