"""The one place the bot's messages go out to a chat.

- A text longer than Telegram's limit (4,096 UTF-16 code units) is split at line breaks into
  several messages; a preview's buttons go on its last part.
- Nothing is sent to a group the bot was removed from (until it is added back).
- A group that became a supergroup answers with ChatMigrated: the household follows the new id
  and the message goes there.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Bot, Message
from telegram.error import ChatMigrated, Forbidden
from telegram.ext import ContextTypes

from bot.telegram.retries import with_retries

log = logging.getLogger(__name__)

MAX_TEXT = 4096


def utf16_units(text: str) -> int:
    """Telegram's measure of a text: an emoji outside the BMP counts 2."""
    return len(text.encode("utf-16-le")) // 2


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """`text` in parts of at most `limit` UTF-16 code units, cut at line breaks; a single line
    longer than the limit is cut where it must (never inside a character)."""
    if utf16_units(text) <= limit:
        return [text]
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.split("\n"):
        for piece in _hard_cut(line, limit):
            extra = utf16_units(piece) + (1 if current else 0)
            if current and size + extra > limit:
                parts.append("\n".join(current))
                current, size = [], 0
                extra = utf16_units(piece)
            current.append(piece)
            size += extra
    if current:
        parts.append("\n".join(current))
    # A blank part is a 400 from Telegram: drop parts that are only line breaks or spaces.
    return [part for part in parts if part.strip()] or [text[:limit]]


def _hard_cut(line: str, limit: int) -> list[str]:
    if utf16_units(line) <= limit:
        return [line]
    pieces: list[str] = []
    piece: list[str] = []
    size = 0
    for char in line:
        width = utf16_units(char)
        if size + width > limit:
            pieces.append("".join(piece))
            piece, size = [], 0
        piece.append(char)
        size += width
    if piece:
        pieces.append("".join(piece))
    return pieces


SERVICE = "service"  # where bot_data keeps the HouseholdService (bot/telegram/application.py)


async def may_send(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> bool:
    """False for a group the bot was removed from. When that cannot be read (the database is
    what just failed, say), sending is tried: Telegram refuses it if the bot is really gone."""
    service = context.bot_data.get(SERVICE)
    if service is None:
        return True
    try:
        return bool(await service.can_send(chat_id))
    except Exception as error:
        log.warning("could not tell whether the bot is still in chat %s: %s", chat_id, error)
        return True


async def send_text(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str, *,
                    reply_markup: Any = None, checked: bool = False) -> Message | None:
    """Sends `text` (split when long) to the chat; the last message sent, or None when nothing
    could be sent. `checked=True` when the caller already asked `may_send`."""
    if not checked and not await may_send(context, chat_id):
        log.info("not sending to chat %s: the bot was removed from it", chat_id)
        return None
    parts = split_text(text)
    sent: Message | None = None
    for index, part in enumerate(parts):
        markup = reply_markup if index == len(parts) - 1 else None
        sent = await _send_one(context, chat_id, part, markup)
        if sent is None:
            return None
        chat_id = sent.chat_id  # a migration moves the rest of the parts too
    return sent


async def _send_one(context: ContextTypes.DEFAULT_TYPE, chat_id: int, text: str,
                    markup: Any) -> Message | None:
    try:
        return await with_retries(lambda: context.bot.send_message(chat_id, text, reply_markup=markup),
                                  what=f"message to chat {chat_id}")
    except ChatMigrated as migrated:
        new_chat_id = int(migrated.new_chat_id)
        service = context.bot_data.get(SERVICE)
        if service is not None:
            await service.migrate(chat_id, new_chat_id)
        return await context.bot.send_message(new_chat_id, text, reply_markup=markup)
    except Forbidden as error:
        # Removed (or blocked) before Telegram told us: stop sending there until added back.
        log.warning("chat %s refused a message (%s): not sending there any more", chat_id, error)
        service = context.bot_data.get(SERVICE)
        if service is not None:
            await service.bot_membership(chat_id, present=False)
        return None


class TelegramSender:
    """The use cases' Sender (bot/app/ports.py) over a PTB bot: what the schedule and the
    housekeeping say unasked. Whether the bot may still write to the chat is theirs to check."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def send_text(self, chat_id: int, text: str) -> None:
        for part in split_text(text):
            await self.bot.send_message(chat_id, part)

    async def send_photo(self, chat_id: int, png: bytes, caption: str) -> None:
        await self.bot.send_photo(chat_id, png, caption=caption)

    async def edit_text(self, chat_id: int, message_id: int, text: str) -> None:
        await self.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, reply_markup=None)
