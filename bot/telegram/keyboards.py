"""The buttons under a preview, and their callback data: "<decision>:<operation key>".

Callback data comes from any client and is hostile: it is read here into a decision and a key,
and the key is checked again by the use case before anything is looked up (bot/app/decisions.py).
At most 64 bytes: a decision is 2 characters and a key 16.
"""

from __future__ import annotations

from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.outcomes import Decision

SEPARATOR: Final = ":"
PRESS_PATTERN: Final = rf"^({'|'.join(d.value for d in Decision)}){SEPARATOR}"


def callback_data(decision: Decision, key: str) -> str:
    return f"{decision.value}{SEPARATOR}{key}"


def read_callback(data: str | None) -> tuple[Decision, str] | None:
    """The decision and key a button's data names, or None for data that is not ours."""
    value, separator, key = (data or "").partition(SEPARATOR)
    if not separator:
        return None
    try:
        return Decision(value), key
    except ValueError:
        return None


def preview_keyboard(key: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        InlineKeyboardButton("✅ Confirmar", callback_data=callback_data(Decision.CONFIRM, key)),
        InlineKeyboardButton("❌ Cancelar", callback_data=callback_data(Decision.CANCEL, key)),
    ]])


def undo_keyboard(key: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        InlineKeyboardButton("↩️ Desfazer", callback_data=callback_data(Decision.UNDO, key)),
    ]])
