"""Reading an update: who sent it, in which chat, and the services a handler calls."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.app.media import MediaService
from bot.app.outcomes import Speaker
from bot.app.service import HouseholdService
from bot.telegram.sending import SERVICE

MEDIA = "media"


def service_of(context: ContextTypes.DEFAULT_TYPE) -> HouseholdService:
    service: HouseholdService = context.bot_data[SERVICE]
    return service


def media_of(context: ContextTypes.DEFAULT_TYPE) -> MediaService:
    media: MediaService = context.bot_data[MEDIA]
    return media


def speaker_of(update: Update) -> Speaker:
    user = update.effective_user
    assert user is not None
    return Speaker(user.id, user.first_name or "Membro")


def chat_id_of(update: Update) -> int:
    chat = update.effective_chat
    assert chat is not None
    return chat.id


def operation_id_of(update: Update, prefix: str = "cmd") -> str:
    """The id of the operation an update proposes: the same update processed again (a
    redelivery, a crash) finds its operation instead of proposing a second one."""
    return f"{prefix}-{update.update_id}"


def command_of(update: Update) -> str:
    """The command's name as typed ("/Gasto@casa_bot 10 x" -> "gasto")."""
    message = update.effective_message
    assert message is not None and message.text is not None
    return message.text.split()[0].lstrip("/").split("@")[0].lower()


def arguments_of(context: ContextTypes.DEFAULT_TYPE) -> str:
    """A command's words after its name."""
    return " ".join(context.args or [])
