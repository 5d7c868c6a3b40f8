"""`household-bot doctor` (contract §9 "Operations"): one line per part of a deployment, against
the fake Bot API and the fake model over loopback HTTP; healthy, and with each part broken
(wrong token, unreachable database, model down, a part that never answers): the broken part is
named, the exit code is 1, and no secret is ever printed."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.doctor import PART_TIMEOUT, Check, Status, diagnose, run
from infra.db.engine import Database
from infra.db.stores.inbox import UpdateInbox
from infra.settings import Settings
from tests.e2e.harness import (
    LLM_KEY,
    REPO,
    TOKEN,
    bot_config,
    explicit_settings,
    fresh_postgres_database,
    migrated_sqlite,
)
from tests.fakes.llm_server import FakeLLMServer, error, text
from tests.fakes.telegram_api import BOT_USERNAME, FakeTelegramAPI

SECRETS = {"webhook_secret": "doctor-webhook-secret-123", "llm_api_key": LLM_KEY + "-doctor-key-456"}
DB_PASSWORD = "doctor-db-password-789"
NOW = datetime(2026, 6, 15, 15, tzinfo=UTC)


def settings_for(tg: FakeTelegramAPI, database_url: str, llm: FakeLLMServer | None = None,
                 **extra: Any) -> Settings:
    return explicit_settings(bot_config(tg, database_url, llm, **{**SECRETS, **extra}))


def checked(settings: Settings, **options: Any) -> tuple[dict[str, Check], int, str]:
    """The doctor's checks by part, its exit code and everything it printed."""
    printed: list[str] = []
    code = run(settings, write=printed.append, clock=lambda: NOW, **options)
    checks = {c.part: c for c in asyncio.run(diagnose(settings, clock=lambda: NOW, **options))}
    return checks, code, "\n".join(printed)


def no_secret_in(output: str, settings: Settings) -> None:
    for secret in [*SECRETS.values(), DB_PASSWORD, TOKEN, "123:ABC"]:
        assert secret not in output, secret


def healthy_model(llm: FakeLLMServer, times: int = 2) -> None:
    llm.script([text("ok")] * times)
    llm.transcripts.extend(["ok"] * times)


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return migrated_sqlite(tmp_path / "household.db")


def test_a_healthy_deployment_prints_one_ok_line_per_part_and_exits_0(
        tg: FakeTelegramAPI, llm: FakeLLMServer, database_url: str) -> None:
    healthy_model(llm)

    checks, code, output = checked(settings_for(tg, database_url, llm))

    assert code == 0, output
    assert {part: c.status for part, c in checks.items()} == {
        "database": Status.OK, "telegram": Status.OK, "webhook": Status.NOTE, "model": Status.OK,
        "transcription": Status.OK, "inbox": Status.OK}
    assert f"@{BOT_USERNAME}" in checks["telegram"].detail
    assert "migrations at head" in checks["database"].detail
    assert "not set" in checks["webhook"].detail and "polling" in checks["webhook"].detail
    assert "0 updates" in checks["inbox"].detail and "0 operations" in checks["inbox"].detail
    assert len(output.splitlines()) == len(checks) + 1  # a line per part and the verdict
    assert llm.audio and llm.requests
    no_secret_in(output, settings_for(tg, database_url, llm))


def test_a_registered_webhook_shows_its_url_and_pending_updates(
        tg: FakeTelegramAPI, database_url: str) -> None:
    url = "https://casa.example.com/telegram/webhook"
    httpx.post(f"{tg.bot_base_url}{TOKEN}/setWebhook", json={"url": url, "secret_token": "x"}, timeout=5)

    checks, code, _ = checked(settings_for(tg, database_url, webhook_url=url))

    assert code == 0
    assert checks["webhook"].status is Status.OK and url in checks["webhook"].detail
    assert "0 pending updates" in checks["webhook"].detail
    assert checks["model"].status is Status.SKIPPED and "LLM_MODEL" in checks["model"].detail


def test_a_webhook_url_telegram_does_not_have_fails(tg: FakeTelegramAPI, database_url: str) -> None:
    checks, code, output = checked(settings_for(tg, database_url,
                                                webhook_url="https://casa.example.com/telegram/webhook"))

    assert code == 1
    assert checks["webhook"].status is Status.FAILED and "household-bot webhook" in checks["webhook"].detail
    assert output.splitlines()[-1] == "1 part failed: webhook."


def test_a_wrong_token_is_named_and_exits_1(tg: FakeTelegramAPI, database_url: str) -> None:
    wrong = "999:WRONG-doctor-token"

    checks, code, output = checked(settings_for(tg, database_url, telegram_bot_token=wrong))

    assert code == 1
    assert checks["telegram"].status is Status.FAILED
    assert "refused" in checks["telegram"].detail and "TELEGRAM_BOT_TOKEN" in checks["telegram"].detail
    assert checks["webhook"].status is Status.SKIPPED
    assert "telegram" in output.splitlines()[-1] and wrong not in output and "WRONG" not in output


def test_an_unreachable_database_is_named_and_exits_1(tg: FakeTelegramAPI) -> None:
    url = f"postgresql://household:{DB_PASSWORD}@127.0.0.1:{closed_port()}/household"

    checks, code, output = checked(settings_for(tg, url))

    assert code == 1
    assert checks["database"].status is Status.FAILED and "unreachable" in checks["database"].detail
    assert "household:***@127.0.0.1" in checks["database"].detail
    assert checks["inbox"].status is Status.SKIPPED
    assert checks["telegram"].status is Status.OK  # the other parts are still checked
    no_secret_in(output, settings_for(tg, url))


def test_a_database_not_migrated_says_to_migrate(tg: FakeTelegramAPI, tmp_path: Path) -> None:
    checks, code, _ = checked(settings_for(tg, f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"))

    assert code == 1
    assert checks["database"].status is Status.FAILED and "household-bot migrate" in checks["database"].detail


def test_a_model_that_is_down_is_named_and_exits_1(
        tg: FakeTelegramAPI, llm: FakeLLMServer, database_url: str) -> None:
    llm.script([error(503)] * 4)
    llm.transcripts.extend([503] * 4)

    checks, code, output = checked(settings_for(tg, database_url, llm))

    assert code == 1
    assert checks["model"].status is Status.FAILED and "server_error" in checks["model"].detail
    assert checks["transcription"].status is Status.FAILED
    assert output.splitlines()[-1] == "2 parts failed: model, transcription."
    no_secret_in(output, settings_for(tg, database_url, llm))


def test_a_part_that_never_answers_times_out_within_its_limit(
        tg: FakeTelegramAPI, database_url: str) -> None:
    with SilentServer() as base:
        settings = settings_for(tg, database_url, llm_model="openai/fake-model", llm_api_base=f"{base}/v1",
                                llm_timeout=30.0)

        checks, code, _ = checked(settings, timeout=0.5)

    assert PART_TIMEOUT <= 10
    assert code == 1
    assert checks["model"].status is Status.FAILED and "no answer within 0.5 s" in checks["model"].detail


def test_a_stuck_update_in_the_inbox_fails_and_its_age_is_shown(
        tg: FakeTelegramAPI, database_url: str) -> None:
    asyncio.run(an_update_received(database_url, NOW - timedelta(minutes=42)))

    checks, code, _ = checked(settings_for(tg, database_url))

    assert code == 1
    assert checks["inbox"].status is Status.FAILED
    assert "1 updates (1 unfinished" in checks["inbox"].detail and "42 min" in checks["inbox"].detail


def test_household_bot_doctor_runs_from_the_command_line(tmp_path: Path) -> None:
    url = migrated_sqlite(tmp_path / "household.db")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "DATABASE_URL": url, "HOME": str(tmp_path),
           "LITELLM_OFFLINE_MODE": "true", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}

    good = subprocess.run([sys.executable, "-m", "bot", "doctor"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    bad = subprocess.run([sys.executable, "-m", "bot", "doctor"], cwd=tmp_path,
                         env={**env, "DATABASE_URL": f"postgresql://u:{DB_PASSWORD}@127.0.0.1:{closed_port()}/x"},
                         capture_output=True, text=True, timeout=60, check=False)

    assert good.returncode == 0, good.stdout + good.stderr
    assert "database" in good.stdout and "TELEGRAM_BOT_TOKEN is not set" in good.stdout
    assert bad.returncode == 1 and DB_PASSWORD not in bad.stdout + bad.stderr


# --------------------------------------------------------------------------- helpers


def closed_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SilentServer:
    """Accepts connections and never answers: a provider that hangs."""

    def __enter__(self) -> str:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def __exit__(self, *exc_info: object) -> None:
        self.sock.close()


async def an_update_received(url: str, at: datetime) -> None:
    database = Database(url)
    try:
        await UpdateInbox(database, clock=lambda: at).record(7001, -2609, {"update_id": 7001})
    finally:
        await database.dispose()


def test_a_healthy_postgresql_database_is_ok(tg: FakeTelegramAPI) -> None:
    with fresh_postgres_database() as url:
        checks, code, _ = checked(settings_for(tg, url))

    assert code == 0
    assert checks["database"].status is Status.OK and checks["inbox"].status is Status.OK
