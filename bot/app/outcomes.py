"""What the use cases take and give back: who is speaking, and what to show the chat.

Adapters (bot/telegram/, bot/console/) turn these into messages, buttons and edits; nothing here
knows how they are drawn or sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


@dataclass(frozen=True)
class Speaker:
    """A person writing in the chat, as the chat knows them."""

    user_id: int
    first_name: str


class Decision(StrEnum):
    """What a member does with a posted preview (a button, a reply, a console choice)."""

    CONFIRM = "ok"
    CANCEL = "no"
    UNDO = "un"  # on a confirmed message: propose undoing it


@dataclass(frozen=True)
class Reply:
    text: str


@dataclass(frozen=True)
class Photo:
    """A picture for the chat (an acerto's Pix QR code): Telegram sends it with sendPhoto, the
    console writes the PNG to a file."""

    png: bytes = field(repr=False)
    caption: str


@dataclass(frozen=True)
class Preview:
    """A preview to post with Confirmar/Cancelar; `key` names its operation in a decision;
    `photo` goes right after it (an acerto's Pix QR code)."""

    operation_id: str
    key: str
    text: str
    photo: Photo | None = None


@dataclass(frozen=True)
class Edit:
    """A posted preview whose message now shows its outcome: without buttons, or with only
    ↩️ Desfazer (for the operation `undo_key` names) once confirmed."""

    message_id: int
    text: str
    undo_key: str | None = None


Outcome = Reply | Preview | Edit | Photo


@dataclass(frozen=True)
class PressResult:
    """A decision's outcome: the answer to show the member (an alert when `alert`), the edits to
    make and, for ↩️ Desfazer, the undo preview to post."""

    answer: str
    alert: bool = False
    edit: Edit | None = None
    post: Preview | None = None  # a new preview to post (↩️ Desfazer proposes an undo)
    undone: Edit | None = None  # a confirmed undo: the undone operation's message, button gone
    decided: bool = False  # this decision confirmed or cancelled it (not a repeat, nor a refusal)
