"""What never reaches a handler: updates the bot acknowledges and ignores, and text it refuses.

Runs first (handler group -2) for every update; raising ApplicationHandlerStop ends the update
there, acknowledged (the inbox marks it done), with nothing stored or proposed.

- An edited message is ignored: the original already did whatever it did (a preview is pending,
  and the member can Cancelar it and send the right one). Acting on the edit made a second,
  independent preview, and confirming both wrote twice.
- Channel posts and updates without a sender (no one a household could know) are ignored.
- A NUL byte in a text or caption is refused with a pt-BR message: PostgreSQL cannot store one,
  and no person types it.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot.texts import messages

log = logging.getLogger(__name__)


def ignored(update: Update) -> str | None:
    """Why this update is acknowledged and ignored, or None to let it through."""
    if update.edited_message is not None or update.edited_channel_post is not None:
        return "edited message"
    if update.channel_post is not None:
        return "channel post"
    if update.effective_user is None:
        return "no sender"
    return None


def has_nul(update: Update) -> bool:
    message = update.message
    if message is None:
        return False
    return any("\x00" in text for text in (message.text, message.caption) if text)


async def gate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Ends updates no handler should see (see the module docstring)."""
    reason = ignored(update)
    if reason is not None:
        log.info("update %s ignored: %s", update.update_id, reason)
        raise ApplicationHandlerStop
    if has_nul(update):
        log.warning("update %s refused: NUL byte in the text", update.update_id)
        chat = update.effective_chat
        if chat is not None:
            await context.bot.send_message(chat.id, messages.nul_byte_text())
        raise ApplicationHandlerStop
