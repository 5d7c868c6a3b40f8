"""Delivering what a use case returns: replies, previews with their buttons, and edits.

Each goes out on its own (bot/telegram/sending.py): a reply Telegram refuses never keeps a preview
from being posted, and a preview that cannot be posted is closed and the chat told, so a preview
nobody saw can never be confirmed. Nothing goes to a group the bot was removed from.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot.app.outcomes import Edit, Outcome, Photo, Preview, Reply
from bot.telegram.keyboards import preview_keyboard, undo_keyboard
from bot.telegram.sending import may_send, send_text, split_text
from bot.telegram.updates import service_of
from bot.texts import messages

log = logging.getLogger(__name__)


TYPING_AFTER = 1.0  # seconds before the first "typing": answers without a model are out by then
TYPING_EVERY = 4.0  # seconds: Telegram shows "typing" for about 5 s after each sendChatAction
THINKING_AFTER = 10.0  # seconds the agent may work before the chat is told it is still thinking
SLEEP = "delivery-sleep"  # bot_data key of an injected sleep (tests drive the clock with it)

Sleep = Callable[[float], Awaitable[object]]


class Thinking:
    """While the agent works: "typing" from TYPING_AFTER seconds on, refreshed before it lapses
    and, after THINKING_AFTER seconds, one short "pensando…" message (`message_id`), which the answer then replaces.
    `sleep` is injectable, so a test moves the clock instead of waiting."""

    def __init__(self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, *, sleep: Sleep) -> None:
        self.context = context
        self.chat_id = chat_id
        self.sleep = sleep
        self.message_id: int | None = None
        self._task: asyncio.Task[None] | None = None
        self._posting: asyncio.Future[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"thinking-{self.chat_id}")

    async def stop(self) -> int | None:
        """Stops refreshing; the "pensando…" message, if one went out (one being sent is waited for)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._posting is not None:
            with contextlib.suppress(Exception):
                await self._posting
        return self.message_id

    async def _run(self) -> None:
        # A grace before the first "typing": an answer that needs no model (a command-like spend
        # the reader takes, a bare "confirma") is out before it, and spares a Bot API round trip.
        await self.sleep(TYPING_AFTER)
        elapsed = TYPING_AFTER
        while True:
            try:
                await self.context.bot.send_chat_action(self.chat_id, "typing")
            except TelegramError as error:  # cosmetic: the answer still goes out
                log.warning("typing action failed: %s", error)
            step = TYPING_EVERY
            if self._posting is None:
                if elapsed >= THINKING_AFTER:
                    # Shielded: a stop while it is being sent still learns its message id.
                    self._posting = asyncio.ensure_future(self._post())
                    await asyncio.shield(self._posting)
                else:
                    step = min(step, THINKING_AFTER - elapsed)
            await self.sleep(step)
            elapsed += step

    async def _post(self) -> None:
        try:
            sent = await send_text(self.context, self.chat_id, messages.thinking_text(), checked=True)
        except TelegramError as error:
            log.warning("thinking note not sent to chat %s: %s", self.chat_id, error)
            return
        self.message_id = sent.message_id if sent is not None else None


async def answer_while_working(context: ContextTypes.DEFAULT_TYPE, chat_id: int,
                               work: Awaitable[list[Outcome]], *, sleep: Sleep | None = None) -> None:
    """Runs `work` (the agent reading a member's message) with the chat kept informed
    (`Thinking`), then delivers what it returns: the first reply in place of "pensando…"."""
    thinking = Thinking(context, chat_id, sleep=sleep or context.bot_data.get(SLEEP, asyncio.sleep))
    thinking.start()
    try:
        outcomes = await work
    finally:
        posted = await thinking.stop()
    if posted is not None:
        outcomes = await _in_place_of(context, chat_id, posted, outcomes)
    await deliver(context, chat_id, outcomes)


async def _in_place_of(context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int,
                       outcomes: list[Outcome]) -> list[Outcome]:
    """The "pensando…" message becomes the first reply (what is left to deliver is returned);
    when the answer does not start with a reply that fits in it, it is deleted."""
    first = outcomes[0] if outcomes else None
    if isinstance(first, Reply) and first.text.strip() and len(split_text(first.text)) == 1:
        try:
            await context.bot.edit_message_text(first.text, chat_id=chat_id, message_id=message_id)
            return outcomes[1:]
        except TelegramError as error:
            log.info("could not turn the thinking note into the answer in chat %s: %s", chat_id, error)
    try:
        await context.bot.delete_message(chat_id, message_id)
    except TelegramError as error:
        log.info("could not delete the thinking note in chat %s: %s", chat_id, error)
    return outcomes


async def deliver(context: ContextTypes.DEFAULT_TYPE, chat_id: int, outcomes: list[Outcome]) -> None:
    """Sends replies and previews (remembering each preview's message) and applies edits."""
    if not outcomes or not await may_send(context, chat_id):
        return
    for outcome in outcomes:
        if isinstance(outcome, Reply):
            await send_reply(context, chat_id, outcome)
        elif isinstance(outcome, Preview):
            await post_preview(context, chat_id, outcome)
        elif isinstance(outcome, Edit):
            await edit(context, chat_id, outcome)
        elif isinstance(outcome, Photo):
            await send_photo(context, chat_id, outcome)


async def send_photo(context: ContextTypes.DEFAULT_TYPE, chat_id: int, photo: Photo) -> None:
    """A picture after a message (an acerto's Pix QR code): one that fails is logged and dropped,
    the message before it already carries the same copia e cola."""
    try:
        await context.bot.send_photo(chat_id, photo.png, caption=photo.caption)
    except TelegramError as error:
        log.warning("photo to chat %s not sent: %s", chat_id, type(error).__name__)


async def send_reply(context: ContextTypes.DEFAULT_TYPE, chat_id: int, reply: Reply) -> None:
    """A reply Telegram refuses (too long, empty, still failing after retries) is logged and
    dropped: it never stops what comes after it."""
    try:
        await send_text(context, chat_id, reply.text, checked=True)
    except TelegramError as error:
        log.warning("reply to chat %s not sent: %s", chat_id, error)
        with contextlib.suppress(TelegramError):  # one try: the chat at least knows
            await context.bot.send_message(chat_id, messages.reply_not_sent_text())


async def post_preview(context: ContextTypes.DEFAULT_TYPE, chat_id: int, preview: Preview) -> None:
    """Posts a preview and stores its message id, which makes it confirmable; or closes it."""
    service = service_of(context)
    try:
        message = await send_text(context, chat_id, preview.text, checked=True,
                                  reply_markup=preview_keyboard(preview.key))
    except TelegramError as error:
        log.warning("preview %s not posted in chat %s: %s", preview.operation_id, chat_id, error)
        await service.preview_not_posted(chat_id, preview.operation_id)
        with contextlib.suppress(TelegramError):
            await context.bot.send_message(chat_id, messages.preview_not_shown_text())
        return
    if message is None:  # the bot is no longer in the group: nobody saw it, nobody can confirm it
        await service.preview_not_posted(chat_id, preview.operation_id)
        return
    await service.preview_posted(message.chat_id, preview.operation_id, message.message_id)
    if preview.photo is not None:
        await send_photo(context, chat_id, preview.photo)


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
