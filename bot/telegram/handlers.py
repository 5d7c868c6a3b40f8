"""Telegram handlers for free text, button presses and errors: parse the update, call the use
case, deliver what it returns. The commands' handlers are in bot/telegram/commands.py."""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
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

from bot.app.outcomes import Reply
from bot.commands.parsing import CommandUsageError
from bot.telegram import lifecycle
from bot.telegram.delivery import answer_while_working, deliver, edit
from bot.telegram.gate import gate
from bot.telegram.keyboards import PRESS_PATTERN, read_callback
from bot.telegram.retries import with_retries
from bot.telegram.sending import send_text
from bot.telegram.updates import chat_id_of, service_of, speaker_of
from bot.texts import messages
from domain.errors import DomainError

log = logging.getLogger(__name__)

# chat_member is only sent when asked for: it tells that a person left or was removed.
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]


async def text_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A member's free text goes to the agent."""
    message = update.effective_message
    assert message is not None and message.text is not None
    replied = message.reply_to_message
    if replied is not None and await decided_by_reply(context, update, replied.message_id, message.text):
        return
    if await decided_bare(context, update, message.text):
        return
    # "typing" goes out while the agent works instead of before it starts (one Bot API round
    # trip less on every turn, bench/run.py), refreshed while it works, and "pensando…" after ~10 s.
    chat_id = chat_id_of(update)
    await answer_while_working(context, chat_id,
                               service_of(context).talk(chat_id, speaker_of(update), message.text))


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


async def decided_bare(context: ContextTypes.DEFAULT_TYPE, update: Update, text: str) -> bool:
    """A "confirma"/"cancela" that replies to no preview: the one waiting, or a question, without
    the model (bot/app/decisions.py `bare`)."""
    user = update.effective_user
    assert user is not None
    chat_id = chat_id_of(update)
    result = await service_of(context).decide_pending(chat_id, user.id, text)
    if result is None:
        return False
    if isinstance(result, Reply):
        await send_text(context, chat_id, result.text)
        return True
    for change in (result.edit, result.undone):
        if change is not None:
            await edit(context, chat_id, change)
    await send_text(context, chat_id, result.answer)  # the preview may be far up the chat
    return True


async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """✅ Confirmar / ❌ Cancelar / ↩️ Desfazer."""
    query = update.callback_query
    assert query is not None and query.from_user is not None
    message = query.message
    pressed = read_callback(query.data)
    if message is None or pressed is None:
        await refuse_press(update, context)
        return
    result = await service_of(context).press(message.chat.id, query.from_user.id, *pressed)
    try:
        await with_retries(lambda: query.answer(result.answer, show_alert=result.alert), what="callback answer")
    except TelegramError as error:
        # "query is too old", or Telegram unreachable (a timeout, a 502) after the retries: the
        # write (if any) is already committed and the edit below still shows it. Raising would
        # answer the press again, with an error alert, about a write that did happen.
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
    await query.answer(messages.unknown_operation_alert(), show_alert=True)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """One place for what escapes a handler: a pt-BR line for the person, the details in the log."""
    error = context.error
    if isinstance(error, DomainError | CommandUsageError):
        text = messages.error_text(error)
    else:
        log.error("handler failed", exc_info=error)
        text = messages.error_text(RuntimeError())
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
        await send_text(context, chat_id_of(update), messages.anonymous_admin_text())
    raise ApplicationHandlerStop


def register(app: Application) -> None:
    """Everything but the commands (bot/telegram/commands.py) and media (bot/telegram/media.py)."""
    # bot/telegram/gate.py first of all: updates acknowledged and ignored, and text refused.
    app.add_handler(TypeHandler(Update, gate), group=-2)
    # Group -1 runs first: service messages of the group's life, and anonymous senders.
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, lifecycle.migrated), group=-1)
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, lifecycle.member_left_message),
                    group=-1)
    app.add_handler(MessageHandler(lifecycle.ANONYMOUS, anonymous_admin), group=-1)
    app.add_handler(ChatMemberHandler(lifecycle.bot_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(ChatMemberHandler(lifecycle.member_changed, ChatMemberHandler.CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, text_message))
    app.add_handler(CallbackQueryHandler(press, pattern=PRESS_PATTERN))
    app.add_handler(CallbackQueryHandler(refuse_press))
    app.add_error_handler(on_error)
