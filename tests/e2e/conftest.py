"""E2E tier: the real bot over loopback HTTP against the fake Telegram Bot API and LLM provider."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tests.e2e.harness import llm, sqlite_template, sqlite_url, start_bot, tg  # noqa: F401


@pytest.fixture(autouse=True)
def _no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """A handler that fails still sends the members a polite line, which a loose assertion could
    take for success: any ERROR the in-process bot logs fails the test."""
    yield
    errors = [record for when in ("setup", "call") for record in caplog.get_records(when)
              if record.levelno >= logging.ERROR]
    assert not errors, "errors were logged:\n" + "\n".join(
        f"{r.name}: {r.getMessage()}" for r in errors)
