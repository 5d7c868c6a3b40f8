"""Sending to Telegram so that a preview nobody saw can never be confirmed.

Each reply and each preview goes out on its own: a reply Telegram refuses (too long, empty, a
502) never stops the previews after it. A send is retried the way the Bot API asks: a 429
(RetryAfter) after the time it names, a timeout or a network/5xx error after a short backoff; a
400 (BadRequest) or 403 is final. A preview is only confirmable once its message id is stored
(domain.operations.log.receipt_of_decided); one that could not be posted is closed and the
chat is told in plain pt-BR.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

log = logging.getLogger(__name__)

T = TypeVar("T")

SEND_ATTEMPTS = 3
BACKOFF_SECONDS = (0.5, 1.0)
MAX_RETRY_AFTER_SECONDS = 30.0

Sleep = Callable[[float], Awaitable[None]]


def retry_delay(error: TelegramError, attempt: int) -> float | None:
    """Seconds to wait before attempt `attempt + 1`, or None when the error is final."""
    if attempt >= SEND_ATTEMPTS:
        return None
    if isinstance(error, RetryAfter):
        wait = error.retry_after
        seconds = wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)
        return seconds if seconds <= MAX_RETRY_AFTER_SECONDS else None
    if isinstance(error, BadRequest):  # a subclass of NetworkError, and final
        return None
    if isinstance(error, NetworkError):  # TimedOut, 5xx, connection errors
        return BACKOFF_SECONDS[min(attempt - 1, len(BACKOFF_SECONDS) - 1)]
    return None


async def with_retries(send: Callable[[], Awaitable[T]], *, what: str,
                       sleep: Sleep = asyncio.sleep) -> T:
    """`send()` until it succeeds or fails for good (the last error is raised)."""
    attempt = 1
    while True:
        try:
            return await send()
        except TelegramError as error:
            delay = retry_delay(error, attempt)
            if delay is None:
                raise
            log.warning("%s failed (%s), attempt %d; retrying in %.1f s", what, error, attempt, delay)
            await sleep(delay)
            attempt += 1
