"""`household-bot doctor`: is this deployment working? One line per part, for the engineer who
deploys and maintains the bot (in English, like the log), and exit 1 when a configured part does
not work (contract §9 "Operations").

The parts: the database (it answers, its migrations are at head) and what it holds (the inbox and
the operation log, which grow without bound if the purge stops, and the oldest update not yet
done); Telegram (`getMe` with the token) and the webhook (`getWebhookInfo`: url, pending updates,
last error); the chat model, the vision model and the transcription model, one tiny request each,
when configured. Each part is checked at once and has PART_TIMEOUT seconds; a part that is not
configured is reported, not failed. Nothing printed carries a secret: every configured one (the
token, keys, the webhook secret, the database password) is masked wherever it might appear.
"""

from __future__ import annotations

import asyncio
import io
import time
import wave
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

import httpx
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from domain.agent.model import FailureKind, ModelFailure
from domain.clock import Clock, utc_now
from infra.db.engine import Database, database_url
from infra.db.health import ping, revision, store_sizes
from infra.db.migrate import head_revision
from infra.settings import Settings

PART_TIMEOUT = 10.0  # seconds each part may take (they run at once)
STUCK_AFTER = timedelta(minutes=10)  # an update unfinished this long: no worker is taking it


class Status(StrEnum):
    OK = "ok"
    FAILED = "FAILED"
    NOTE = "note"  # reported, not a failure (a webhook polling does not need)
    SKIPPED = "skipped"  # not configured, or it needs a part that failed


@dataclass(frozen=True)
class Check:
    part: str
    status: Status
    detail: str


Part = Callable[[], Awaitable[list[Check]]]


async def diagnose(settings: Settings, *, timeout: float = PART_TIMEOUT, clock: Clock = utc_now) -> list[Check]:
    """Every part's check, in a fixed order; each part within `timeout` seconds."""
    if settings.llm_model:
        from infra.llm import import_litellm

        await import_litellm()  # seconds of importing, not a part's to pay
    doctor = _Doctor(settings, timeout, clock)
    parts: list[tuple[tuple[str, ...], Part]] = [
        (("database", "inbox"), doctor.database),
        (("telegram", "webhook"), doctor.telegram),
        (("model",), doctor.model),
        (("vision",), doctor.vision),
        (("transcription",), doctor.transcription),
    ]
    found = await asyncio.gather(*(doctor.bounded(names, part) for names, part in parts))
    return [check for checks in found for check in checks]


def run(settings: Settings, *, write: Callable[[str], object] = print, timeout: float = PART_TIMEOUT,
        clock: Clock = utc_now) -> int:
    """Prints the checks, a line each, and the verdict; 0 when every configured part works."""
    checks = asyncio.run(diagnose(settings, timeout=timeout, clock=clock))
    hide = _Secrets(settings)
    for check in checks:
        write(hide(f"{check.status.value:<8} {check.part:<14} {check.detail}"))
    failed = [check.part for check in checks if check.status is Status.FAILED]
    if not failed:
        write("Every configured part works.")
        return 0
    write(f"{len(failed)} {'part' if len(failed) == 1 else 'parts'} failed: {', '.join(failed)}.")
    return 1


class _Secrets:
    """Masks every configured secret in a line (a URL with the token, an error echoing a key)."""

    def __init__(self, settings: Settings) -> None:
        values = [settings.telegram_bot_token, settings.webhook_secret, settings.llm_api_key,
                  settings.transcription_api_key]
        secrets = [v.get_secret_value() for v in values if v is not None]
        token = settings.telegram_bot_token.get_secret_value() if settings.telegram_bot_token else ""
        secrets.append(token.partition(":")[2])
        try:
            secrets.append(make_url(database_url(settings.database_url)).password or "")
        except Exception:
            secrets.append(settings.database_url)  # unreadable: then the whole of it is secret
        self.secrets = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)

    def __call__(self, line: str) -> str:
        for secret in self.secrets:
            line = line.replace(secret, "***")
        return line


class _Doctor:
    def __init__(self, settings: Settings, timeout: float, clock: Clock) -> None:
        self.settings = settings
        self.timeout = timeout
        self.clock = clock
        self.hide = _Secrets(settings)

    async def bounded(self, names: tuple[str, ...], part: Part) -> list[Check]:
        """A part's checks, or each named as failed when the part takes longer than `timeout`
        or breaks in a way it did not foresee."""
        try:
            checks = await asyncio.wait_for(part(), self.timeout)
        except TimeoutError:
            checks = self._failed(names, f"no answer within {self.timeout:g} s")
        except Exception as error:  # a check must never take the others down
            checks = self._failed(names, _error(error))
        return [Check(c.part, c.status, self.hide(" ".join(c.detail.split()))) for c in checks]

    @staticmethod
    def _failed(names: tuple[str, ...], why: str) -> list[Check]:
        first, *rest = names
        return [Check(first, Status.FAILED, why),
                *(Check(name, Status.SKIPPED, f"not checked: {first} failed") for name in rest)]

    # -- the database and what it holds --------------------------------------------------------

    async def database(self) -> list[Check]:
        url = database_url(self.settings.database_url)
        shown = make_url(url).render_as_string(hide_password=True)
        database = Database(url, poolclass=NullPool)
        try:
            try:
                await ping(database)
                at = await revision(database)
            except Exception as error:
                return self._failed(("database", "inbox"), f"{shown}: unreachable ({_error(error)})")
            head = head_revision()
            if at is None:
                return self._failed(("database", "inbox"), f"{shown}: not migrated; run household-bot migrate")
            if at != head:
                return self._failed(("database", "inbox"),
                                    f"{shown}: at migration {at}, the code's is {head}; run household-bot migrate")
            return [Check("database", Status.OK, f"{shown}: reachable, migrations at head ({head})"),
                    await self._inbox(database)]
        finally:
            await database.dispose()

    async def _inbox(self, database: Database) -> Check:
        sizes = await store_sizes(database)
        detail = (f"{sizes.updates:,} updates ({sizes.unfinished:,} unfinished, {sizes.failed:,} failed); "
                  f"operation log: {sizes.operations:,} operations ({sizes.pending:,} pending)")
        oldest = sizes.oldest_unfinished
        if oldest is None:
            return Check("inbox", Status.OK, detail)
        age = self.clock() - oldest.received_at
        where = f"update {oldest.update_id}" + (f", chat {oldest.chat_id}" if oldest.chat_id is not None else "")
        detail += f"; the oldest unfinished is {_age(age)} old ({where})"
        if age > STUCK_AFTER:
            return Check("inbox", Status.FAILED, f"{detail}: is a webhook worker running?")
        return Check("inbox", Status.OK, detail)

    # -- Telegram ------------------------------------------------------------------------------

    async def telegram(self) -> list[Check]:
        token = self.settings.telegram_bot_token
        if token is None:
            why = "TELEGRAM_BOT_TOKEN is not set (polling, webhook and remind need it; the console does not)"
            return [Check("telegram", Status.SKIPPED, why),
                    Check("webhook", Status.SKIPPED, "needs TELEGRAM_BOT_TOKEN")]
        base = f"{self.settings.telegram_api_base_url.rstrip('/')}/bot{token.get_secret_value()}"
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            try:
                me = await _bot_api(client, f"{base}/getMe")
            except _Refused as refused:
                if refused.status == 401:
                    detail = "getMe: the token was refused (401 Unauthorized); check TELEGRAM_BOT_TOKEN"
                else:
                    detail = f"getMe: {refused}"
                return [Check("telegram", Status.FAILED, detail),
                        Check("webhook", Status.SKIPPED, "needs a token Telegram accepts")]
            except httpx.HTTPError as error:
                return [Check("telegram", Status.FAILED,
                              f"{self.settings.telegram_api_base_url}: unreachable ({_error(error)})"),
                        Check("webhook", Status.SKIPPED, "needs Telegram")]
            bot = Check("telegram", Status.OK, f"@{me.get('username')} (id {me.get('id')}) answers getMe")
            try:
                info = await _bot_api(client, f"{base}/getWebhookInfo")
            except (_Refused, httpx.HTTPError) as error:
                return [bot, Check("webhook", Status.FAILED, f"getWebhookInfo: {_error(error)}")]
        return [bot, self._webhook(info)]

    def _webhook(self, info: dict[str, Any]) -> Check:
        url, pending = str(info.get("url") or ""), int(info.get("pending_update_count") or 0)
        wanted = self.settings.webhook_url
        if not url:
            if wanted is None:
                return Check("webhook", Status.NOTE,
                             f"not set, {pending} pending updates (polling and the console need none)")
            return Check("webhook", Status.FAILED,
                         f"not set, but WEBHOOK_URL is {wanted}: start household-bot webhook (it registers "
                         "it), or call setWebhook with the same secret")
        if wanted is not None and url != wanted:
            return Check("webhook", Status.FAILED, f"Telegram has {url}, WEBHOOK_URL is {wanted}")
        detail = f"{url}, {pending} pending updates"
        error, when = info.get("last_error_message"), info.get("last_error_date")
        if not error:
            return Check("webhook", Status.OK, f"{detail}, no delivery error")
        ago = _age(self.clock() - datetime.fromtimestamp(int(when), UTC)) if when else "some time"
        detail += f", last delivery error {ago} ago: {error}"
        # An error with updates still waiting is Telegram failing to reach the bot now.
        return Check("webhook", Status.FAILED if pending else Status.OK, detail)

    # -- the models ----------------------------------------------------------------------------

    async def model(self) -> list[Check]:
        if not self.settings.llm_model:
            return [Check("model", Status.SKIPPED, "LLM_MODEL is not set (free text gets a note; the commands work)")]
        return [await self._chat("model", self.settings.llm_model)]

    async def vision(self) -> list[Check]:
        if not self.settings.vision_model:
            return []  # photos go to LLM_MODEL: nothing more to check
        return [await self._chat("vision", self.settings.vision_model)]

    async def _chat(self, part: str, name: str) -> Check:
        from infra.llm import LiteLLMModel

        key = self.settings.llm_api_key
        # Its own timeout a little over the part's: the part's limit is the one that speaks.
        model = LiteLLMModel(name, api_base=self.settings.llm_api_base,
                             api_key=key.get_secret_value() if key else None,
                             timeout=self.timeout + 1, num_retries=0, max_tokens=5)
        started = time.perf_counter()
        try:
            await model.complete([{"role": "user", "content": "Responda só: ok"}], [])
        except ModelFailure as failure:
            return Check(part, Status.FAILED, _failure(failure, "LLM_API_KEY"))
        return Check(part, Status.OK, f"{name} answered in {time.perf_counter() - started:.1f} s")

    async def transcription(self) -> list[Check]:
        if not self.settings.llm_model:
            return [Check("transcription", Status.SKIPPED, "voice notes need LLM_MODEL (and TRANSCRIPTION_MODEL)")]
        from infra.llm import LiteLLMTranscriber

        settings = self.settings
        key = settings.transcription_api_key or settings.llm_api_key
        transcriber = LiteLLMTranscriber(settings.transcription_model,
                                         api_base=settings.transcription_api_base or settings.llm_api_base,
                                         api_key=key.get_secret_value() if key else None,
                                         timeout=self.timeout + 1)
        started = time.perf_counter()
        try:
            await transcriber.transcribe(_silence(), "doctor.wav")
        except ModelFailure as failure:
            return [Check("transcription", Status.FAILED, _failure(failure, "TRANSCRIPTION_API_KEY (or LLM_API_KEY)"))]
        return [Check("transcription", Status.OK,
                      f"{settings.transcription_model} answered in {time.perf_counter() - started:.1f} s")]


class _Refused(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(f"{status} {description}".strip())
        self.status = status


async def _bot_api(client: httpx.AsyncClient, url: str) -> dict[str, Any]:
    response = await client.get(url)
    try:
        body = response.json()
    except ValueError:
        body = {}
    if response.status_code != 200 or not body.get("ok"):
        raise _Refused(response.status_code, str(body.get("description") or response.reason_phrase))
    result: dict[str, Any] = body.get("result") or {}
    return result


def _failure(failure: ModelFailure, key: str) -> str:
    """A model's failure by kind; its detail is already without keys (infra.llm)."""
    if failure.kind is FailureKind.AUTHENTICATION:
        return f"authentication: the key was refused; check {key} ({failure.detail})"
    return f"{failure.kind.value}: {failure.detail}"


def _error(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _age(age: timedelta) -> str:
    minutes = int(age.total_seconds() // 60)
    if minutes < 1:
        return "less than a minute"
    if minutes < 120:
        return f"{minutes} min"
    return f"{minutes // 60} h"


def _silence() -> bytes:
    """A tenth of a second of silence as a WAV file: the tiniest audio a transcriber takes."""
    out = io.BytesIO()
    with wave.open(out, "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(16_000)
        audio.writeframes(b"\0\0" * 1_600)
    return out.getvalue()
