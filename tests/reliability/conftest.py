"""The reliability tier: faults, races, bad input and hostile clients, each recording a figure.

Short setting by default (CI); `RELIABILITY_LONG=1` for the long one. PostgreSQL cases skip
without TEST_DATABASE_URL. The figures table is printed at the end of the run and written to
`tests/reliability/report.json`.
"""

from __future__ import annotations

import faulthandler
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import (
    ANA,
    BRUNO,
    Group,
    InProcessBot,
    bot_config,
    explicit_settings,
    fixed_clock,
    fresh_postgres_database,
    llm,
    migrated_sqlite,
    sqlite_template,
    tg,
)
from tests.fakes.llm_server import FakeLLMServer
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.integration.conftest import backend, database, postgres_schema
from tests.reliability.report import FIGURES, Figures
from tests.reliability.scale import SCALE

__all__ = ["backend", "database", "llm", "postgres_schema", "sqlite_template", "tg"]

REPORT = Path(__file__).with_name("report.json")
HANG_SECONDS = 900 if SCALE.name == "long" else 300

BOT_BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@pytest.fixture(scope="session")
def figures() -> Figures:
    return FIGURES


@pytest.fixture(autouse=True)
def no_test_hangs() -> Iterator[None]:
    """A test still running after HANG_SECONDS prints every thread's stack and ends the run:
    a hung fault-injection test must fail CI, not hold it for its whole time limit."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(params=BOT_BACKENDS)
def bot_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> Iterator[str]:
    """A migrated database of this test's own for the bot: a SQLite file, or a new PostgreSQL
    database (skipped without TEST_DATABASE_URL)."""
    if request.param == "sqlite":
        yield migrated_sqlite(tmp_path / "household.db", template=sqlite_template)
        return
    with fresh_postgres_database() as url:
        yield url


def backend_name(url: str) -> str:
    return "sqlite" if url.startswith("sqlite") else "postgresql"


class Bots:
    """Starts in-process webhook servers on `url` for a test (any clock) and stops them after it."""

    def __init__(self, tg: FakeTelegramAPI, url: str) -> None:
        self.tg = tg
        self.url = url
        self.backend = backend_name(url)
        self.running: list[InProcessBot] = []

    def start(self, llm: FakeLLMServer | None = None, *, clock: Callable[[], datetime] = fixed_clock,
              **settings: Any) -> InProcessBot:
        bot = InProcessBot(explicit_settings(bot_config(self.tg, self.url, llm, **settings)), clock=clock)
        self.running.append(bot.start())
        return bot

    def stop_all(self) -> None:
        while self.running:
            self.running.pop().stop()


@pytest.fixture
def bots(tg: FakeTelegramAPI, bot_url: str) -> Iterator[Bots]:
    starter = Bots(tg, bot_url)
    try:
        yield starter
    finally:
        starter.stop_all()


def couple_with_groceries(tg: FakeTelegramAPI, bot: InProcessBot, chat_id: int, title: str = "Casa") -> Group:
    """Ana's /start, Bruno's /entrar and a confirmed "Mercado" expense of R$ 1.500,00, by webhook."""
    casa = Group(tg, bot, chat_id, title=title)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    return casa


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FIGURES.rows:
        return
    FIGURES.write(REPORT, SCALE.name)
    terminalreporter.section(f"reliability figures ({SCALE.name} setting)")
    terminalreporter.write_line(FIGURES.table())
    terminalreporter.write_line(f"written to {REPORT}")
