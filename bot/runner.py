"""`household-bot polling`: long polling, for local use."""

from __future__ import annotations

from bot import handlers
from bot.application import build_application
from infra.settings import Settings


def run_polling(settings: Settings) -> int:
    app = build_application(settings)
    app.run_polling(allowed_updates=handlers.ALLOWED_UPDATES, drop_pending_updates=False)
    return 0
