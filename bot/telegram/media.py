"""Handlers for voice notes, audio, photos and statement files (contract §8, "Media")."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Awaitable, Callable
from datetime import timedelta

from telegram import Update
from telegram.ext import Application, ContextTypes, MessageHandler, filters
from telegram.warnings import PTBDeprecationWarning

from bot.app.media import MAX_FILE_BYTES, Incoming
from bot.telegram.delivery import answer_while_working, deliver
from bot.telegram.updates import chat_id_of, media_of, operation_id_of, speaker_of

log = logging.getLogger(__name__)

STATEMENTS = filters.Document.FileExtension("ofx") | filters.Document.FileExtension("csv")
AUDIO_NAMES = {"audio/mpeg": "audio.mp3", "audio/mp4": "audio.m4a", "audio/x-m4a": "audio.m4a",
               "audio/ogg": "audio.ogg", "audio/wav": "audio.wav", "audio/x-wav": "audio.wav",
               "audio/webm": "audio.webm", "audio/flac": "audio.flac"}


def fetcher(context: ContextTypes.DEFAULT_TYPE, file_id: str) -> Callable[[], Awaitable[bytes]]:
    """getFile, then the download from {base}/file/bot{token}/{file_path}."""
    async def fetch() -> bytes:
        file = await context.bot.get_file(file_id)
        return bytes(await file.download_as_bytearray())
    return fetch


async def voice_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A voice note or an audio file: transcribed, shown as 🎤 …, and read by the agent."""
    message = update.effective_message
    assert message is not None
    audio = message.voice or message.audio
    assert audio is not None
    if message.voice is not None:
        name = "voice.ogg"  # Telegram voice notes are OGG/Opus
    else:
        name = getattr(audio, "file_name", None) or AUDIO_NAMES.get(audio.mime_type or "", "audio.mp3")
    incoming = Incoming(fetcher(context, audio.file_id), name, audio.file_size)
    with warnings.catch_warnings():  # PTB 22.2+ warns that this becomes a timedelta
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        duration = audio.duration
    seconds = int(duration.total_seconds()) if isinstance(duration, timedelta) else duration
    chat_id = chat_id_of(update)
    await answer_while_working(context, chat_id, media_of(context).voice(
        chat_id, speaker_of(update), incoming, seconds))


async def photo_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A photo (a receipt, a Pix receipt) with or without a caption: read by a vision model."""
    message = update.effective_message
    assert message is not None and message.photo
    # The largest size Telegram will hand over (sizes come smallest first).
    fitting = [p for p in message.photo if (p.file_size or 0) <= MAX_FILE_BYTES] or [message.photo[0]]
    photo = max(fitting, key=lambda p: p.width * p.height)
    incoming = Incoming(fetcher(context, photo.file_id), "photo.jpg", photo.file_size)
    chat_id = chat_id_of(update)
    await answer_while_working(context, chat_id, media_of(context).photo(
        chat_id, speaker_of(update), incoming, message.caption))


async def statement_file(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A .ofx or .csv statement: parsed with no model into one import preview."""
    message = update.effective_message
    assert message is not None and message.document is not None
    document = message.document
    incoming = Incoming(fetcher(context, document.file_id), document.file_name or "extrato",
                        document.file_size)
    outcomes = await media_of(context).statement(chat_id_of(update), speaker_of(update), incoming,
                                                 operation_id=operation_id_of(update, "doc"), caption=message.caption)
    await deliver(context, chat_id_of(update), outcomes)


def register(app: Application) -> None:
    app.add_handler(MessageHandler(filters.VOICE | filters.AUDIO, voice_message))
    app.add_handler(MessageHandler(filters.PHOTO, photo_message))
    app.add_handler(MessageHandler(STATEMENTS, statement_file))
