"""Confirmation by reply (contract §8): a member answers a preview with "confirma", "ok", 👍 or
"cancela", "não", and the bot decides it exactly as the buttons would, with no model at all."""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

from domain.text import fold

Decision = Literal["confirm", "cancel"]

CONFIRM_WORDS: Final = frozenset({"confirma", "confirmar", "confirmado", "sim", "pode", "ok", "👍"})
CANCEL_WORDS: Final = frozenset({"cancela", "cancelar", "nao"})
# Skin tones and the emoji presentation selector: "👍🏽" and "👍️" are the same thumbs up.
_EMOJI_MODIFIERS: Final = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400)) | {"\ufe0f", "\ufe0e"}


def decision_of(text: str | None) -> Decision | None:
    """"confirm" or "cancel" when `text` says only that (case, accents and punctuation ignored)."""
    if not text or len(text) > 40:
        return None
    kept = "".join(
        c for c in fold(text)
        if c not in _EMOJI_MODIFIERS and not unicodedata.category(c).startswith(("P", "Z"))
    )
    word = "".join(kept.split())
    if word in CONFIRM_WORDS:
        return "confirm"
    if word in CANCEL_WORDS:
        return "cancel"
    return None
