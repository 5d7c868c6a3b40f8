"""Handlers for a group's life: a supergroup migration, people leaving, the bot removed or added.

Telegram sends these as service messages (`migrate_to_chat_id`, `migrate_from_chat_id`,
`left_chat_member`) and as `chat_member` / `my_chat_member` updates; none of them is a person
talking to the bot, so none gets a reply.
"""

from __future__ import annotations

import logging

from telegram import ChatMember, Message, Update
from telegram.ext import ContextTypes, filters

from bot.telegram.updates import service_of

log = logging.getLogger(__name__)

# Telegram's sender of an anonymous admin's messages.
GROUP_ANONYMOUS_BOT_ID = 1087968824
GONE = (ChatMember.LEFT, ChatMember.BANNED)


class _AnonymousSender(filters.MessageFilter):
    """An anonymous admin: sent by GroupAnonymousBot, or as the group itself (sender_chat)."""

    def filter(self, message: Message) -> bool:
        if message.from_user is not None and message.from_user.id == GROUP_ANONYMOUS_BOT_ID:
            return True
        return message.sender_chat is not None and message.sender_chat.id == message.chat.id


ANONYMOUS = _AnonymousSender(name="anonymous admin")


async def migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The group became a supergroup: its household follows the new chat id. Both of Telegram's
    messages arrive (one in each chat), in either order; the first one moves it."""
    message = update.effective_message
    assert message is not None
    if message.migrate_to_chat_id:
        await service_of(context).migrate(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await service_of(context).migrate(message.migrate_from_chat_id, message.chat.id)


async def member_left_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`left_chat_member`: someone left or was removed from the group."""
    message = update.effective_message
    assert message is not None and message.left_chat_member is not None
    if message.left_chat_member.id == context.bot.id:
        await service_of(context).bot_membership(message.chat.id, present=False)
        return
    await service_of(context).member_left(message.chat.id, message.left_chat_member.id)


async def member_changed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`chat_member`: a person's status in the group changed; gone means no longer a member."""
    change = update.chat_member
    assert change is not None
    if change.new_chat_member.status in GONE:
        await service_of(context).member_left(change.chat.id, change.new_chat_member.user.id)


async def bot_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`my_chat_member`: the bot was removed (nothing more is sent there) or added back."""
    change = update.my_chat_member
    assert change is not None
    present = change.new_chat_member.status not in GONE
    log.info("bot %s chat %s", "added to" if present else "removed from", change.chat.id)
    await service_of(context).bot_membership(change.chat.id, present=present)
