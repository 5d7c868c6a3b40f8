"""Running the real bot for end-to-end tests: the webhook server over loopback HTTP, talking to
the fake Telegram Bot API (and, for the agent, the fake LLM provider).

Two ways to run the webhook server:

- `InProcessBot`: `create_app(settings)` served by uvicorn in a thread of the test process, on an
  ephemeral port. Fast; the bot's event loop is its own, so tests stay synchronous and use the
  fakes' `wait_for`. The `Settings` are built from a dict (`explicit_settings`), never from the
  environment or a `.env` file.
- `WorkerProcess`: `python -m bot webhook` as a subprocess with its configuration in the
  environment, ready once `GET /healthz` answers. It can be SIGKILLed and started again.

Both are `Webhook`s: `post_update(update, secret=...)` sends one Update as Telegram does.
`Group` speaks for a Telegram group (its members' messages and presses) and finds the bot's
answers among the fake Telegram's recorded calls.

Databases: `migrated_sqlite(path)` gives a migrated SQLite file; `fresh_postgres_database()` a new
PostgreSQL database (created on TEST_DATABASE_URL's server, migrated, dropped afterwards).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource

from bot.texts import guide
from infra.db.migrate import upgrade
from infra.settings import Settings
from tests.conftest import NO_POSTGRES
from tests.fakes.llm_server import FakeLLMServer
from tests.fakes.telegram_api import Call, FakeTelegramAPI, callback_update, message_update

REPO = Path(__file__).resolve().parents[2]
TOKEN = "123:ABC"
SECRET = "e2e-webhook-secret"
WEBHOOK_PATH = "/telegram/webhook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
LLM_MODEL = "openai/fake-model"
LLM_KEY = "sk-test"
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")
WAIT = 10.0  # seconds to wait for the bot's answer before a test fails
STARTUP_TIMEOUT = 30.0

# 2026-06-15 12:00 in São Paulo: the in-process bot's "now", so months are fixed in tests.
NOW = datetime(2026, 6, 15, 15, 0, tzinfo=UTC)
THIS_MONTH = "2026-06"

_update_ids = itertools.count(1000)


def next_update_id() -> int:
    """Update ids unique within the test session (a database may be shared by a module)."""
    return next(_update_ids)


def fixed_clock() -> datetime:
    return NOW


# --------------------------------------------------------------------------- settings, databases


class _ExplicitSettings(Settings):
    """Settings from the values given and the defaults only: no environment, no `.env`."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


def explicit_settings(values: dict[str, Any]) -> Settings:
    return _ExplicitSettings(**values)


def bot_config(tg: FakeTelegramAPI, database_url: str, llm: FakeLLMServer | None = None,
               **extra: Any) -> dict[str, Any]:
    """The settings of a bot that talks to these fakes, as field names and values."""
    values: dict[str, Any] = {
        "telegram_bot_token": TOKEN,
        "telegram_api_base_url": tg.base_url,
        "webhook_secret": SECRET,
        "host": "127.0.0.1",
        "database_url": database_url,
        "llm_model": None,
        # The bot speaks first (reminders, closings) only where a test asks for it: a worker on
        # the real clock must not post a reminder because of the day the suite runs.
        "schedule_check_seconds": 0,
    }
    if llm is not None:
        values.update(llm_model=LLM_MODEL, llm_api_base=llm.base_url, llm_api_key=LLM_KEY,
                      llm_num_retries=0, llm_timeout=15.0)
    values.update(extra)
    return values


def migrated_sqlite(path: Path, template: Path | None = None) -> str:
    """A migrated SQLite database at `path` (copied from `template` when given); its URL."""
    url = f"sqlite+aiosqlite:///{path}"
    if template is not None:
        shutil.copyfile(template, path)
    else:
        upgrade(url)
    return url


def _server_url(url: str) -> str:
    """A plain postgresql:// URL for asyncpg from any of the forms DATABASE_URL takes."""
    for prefix in ("postgresql+asyncpg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


def _with_database(url: str, name: str) -> str:
    base, _, _ = _server_url(url).partition("?")
    head, _, _ = base.rpartition("/")
    return f"{head}/{name}"


async def _admin(url: str, statement: str) -> None:
    import asyncpg  # only the PostgreSQL runs need it

    connection = await asyncpg.connect(_server_url(url))
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@contextlib.contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, migrated database on TEST_DATABASE_URL's server (skips without it); dropped after."""
    if not TEST_DATABASE_URL:
        pytest.skip(NO_POSTGRES)
    name = f"e2e_{secrets.token_hex(6)}"
    asyncio.run(_admin(TEST_DATABASE_URL, f'CREATE DATABASE "{name}"'))
    try:
        url = _with_database(TEST_DATABASE_URL, name)
        upgrade(url)
        yield url
    finally:
        asyncio.run(_admin(TEST_DATABASE_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _count_unfinished(url: str) -> int:
    from sqlalchemy import text

    from infra.db.engine import Database

    database = Database(url)
    try:
        async with database.engine.connect() as connection:
            result = await connection.execute(
                text("SELECT count(*) FROM processed_updates WHERE status <> 'done'"))
            return int(result.scalar_one())
    finally:
        await database.dispose()


def wait_until_processed(database_url: str, timeout: float = WAIT) -> None:
    """Returns once every update in the inbox is done (e.g. before killing a worker: a killed
    worker's unfinished update would hold its chat until the lease runs out)."""
    deadline = time.monotonic() + timeout
    while asyncio.run(_count_unfinished(database_url)):
        if time.monotonic() > deadline:
            raise TimeoutError("updates are still unfinished in the inbox")
        time.sleep(0.05)


# --------------------------------------------------------------------------- the webhook server


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Webhook:
    """Anything serving the bot's webhook on `base_url`."""

    base_url: str

    @property
    def webhook_url(self) -> str:
        return f"{self.base_url}{WEBHOOK_PATH}"

    def post_update(self, update: dict[str, Any], secret: str | None = SECRET) -> httpx.Response:
        """POSTs one Update as Telegram does (`secret=None` sends no secret header)."""
        headers = {} if secret is None else {SECRET_HEADER: secret}
        return httpx.post(self.webhook_url, json=update, headers=headers, timeout=WAIT)

    def healthy(self) -> bool:
        try:
            return httpx.get(f"{self.base_url}/healthz", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False


class InProcessBot(Webhook):
    """`create_app(settings, **overrides)` served by uvicorn in a background thread."""

    def __init__(self, settings: Settings, **overrides: Any) -> None:
        from bot.telegram.webhook import create_app

        self.app = create_app(settings, **overrides)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self.port = int(self._socket.getsockname()[1])
        self.base_url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=5)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]},
                                        name="e2e-webhook", daemon=True)

    def start(self) -> InProcessBot:
        self._thread.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the webhook server did not start (see the log above)")
            if time.monotonic() > deadline:
                raise TimeoutError("the webhook server did not start in time")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=15)
        self._socket.close()

    def __enter__(self) -> InProcessBot:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def worker_environment(values: dict[str, Any]) -> dict[str, str]:
    """The environment of `python -m bot webhook` for these settings (see `bot_config`)."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("TELEGRAM_", "WEBHOOK_", "LLM_", "DATABASE_"))}
    for name, value in values.items():
        env[name.upper()] = "" if value is None else str(value)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env["LITELLM_OFFLINE_MODE"] = "true"
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class WorkerProcess(Webhook):
    """`python -m bot webhook` in a subprocess, run from an empty directory (no `.env`)."""

    def __init__(self, values: dict[str, Any], workdir: Path, name: str = "worker") -> None:
        self.values = dict(values)
        self.workdir = workdir
        self.name = name
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = workdir / f"{name}.log"
        self.base_url = ""
        self.starts = 0

    def start(self) -> WorkerProcess:
        """Starts (or starts again) on a new port; returns once /healthz answers 200."""
        assert self.process is None or self.process.poll() is not None, "already running"
        self.starts += 1
        port = _free_port()
        self.base_url = f"http://127.0.0.1:{port}"
        env = worker_environment({**self.values, "port": port})
        self.workdir.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            log.write(f"\n===== start #{self.starts} on port {port}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot", "webhook"], cwd=self.workdir, env=env,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def wait_healthy(self, timeout: float = STARTUP_TIMEOUT) -> WorkerProcess:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while not self.healthy():
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name} did not answer /healthz in time:\n{self.log()}")
            time.sleep(0.05)
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, as when a machine dies."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def errors_since(self, offset: int = 0) -> list[str]:
        """ERROR lines and tracebacks the worker logged after byte `offset` of its log."""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                lines = log.read().decode(errors="replace").splitlines()
        except OSError:
            return []
        return [line for line in lines if " ERROR " in line or line.startswith("Traceback")]

    def log(self, tail: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-tail:])
        except OSError:
            return "(no log)"


@contextlib.contextmanager
def worker_processes(values: dict[str, Any], workdir: Path, count: int = 1) -> Iterator[list[WorkerProcess]]:
    """`count` workers with the same settings, started together, stopped at the end."""
    workers = [WorkerProcess(values, workdir, name=f"worker-{index}") for index in range(count)]
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.wait_healthy()
        yield workers
    finally:
        for worker in workers:
            worker.stop()


def post_concurrently(posts: Sequence[tuple[Webhook, dict[str, Any]]],
                      secret: str | None = SECRET) -> list[int]:
    """POSTs every (webhook, update) at once; the HTTP statuses in the same order."""
    headers = {} if secret is None else {SECRET_HEADER: secret}

    async def send_all() -> list[int]:
        limits = httpx.Limits(max_connections=len(posts) or 1)
        async with httpx.AsyncClient(timeout=WAIT, limits=limits) as client:
            # Connect first, so the requests themselves leave together.
            start = asyncio.Event()

            async def send(target: Webhook, update: dict[str, Any]) -> int:
                await start.wait()
                response = await client.post(target.webhook_url, json=update, headers=headers)
                return response.status_code

            tasks = [asyncio.create_task(send(target, update)) for target, update in posts]
            await asyncio.sleep(0)
            start.set()
            return list(await asyncio.gather(*tasks))

    return asyncio.run(send_all())


# --------------------------------------------------------------------------- a group and its members


@dataclass(frozen=True)
class Person:
    user_id: int
    first_name: str


ANA = Person(501, "Ana")
BRUNO = Person(502, "Bruno")
STRANGER = Person(666, "Zé")


@dataclass(frozen=True)
class PreviewMessage:
    """A message of the bot's with the ✅ Confirmar / ❌ Cancelar keyboard."""

    chat_id: int
    message_id: int
    text: str
    buttons: list[dict[str, Any]]

    @property
    def confirm(self) -> str:
        return self._data("✅ Confirmar")

    @property
    def cancel(self) -> str:
        return self._data("❌ Cancelar")

    def _data(self, label: str) -> str:
        [data] = [b["callback_data"] for b in self.buttons if b.get("text") == label]
        return str(data)


def keyboard_of(call: Call) -> list[dict[str, Any]]:
    markup = call.params.get("reply_markup") or {}
    if not isinstance(markup, dict):
        return []
    return [button for row in markup.get("inline_keyboard", []) for button in row]


def previews_in(calls: Iterable[Call], chat_id: int) -> list[PreviewMessage]:
    """Every preview the bot sent to `chat_id` among `calls`, oldest first."""
    return [PreviewMessage(chat_id, int(call.result["message_id"]), call.params["text"], keyboard_of(call))
            for call in calls
            if call.method == "sendMessage" and call.ok and call.params.get("chat_id") == chat_id
            and keyboard_of(call)]


def last_preview(tg: FakeTelegramAPI, chat_id: int, since: int = 0) -> PreviewMessage:
    """The newest preview in `chat_id` (after the first `since` calls); AssertionError if none."""
    found = previews_in(tg.calls[since:], chat_id)
    assert found, f"no preview was sent to chat {chat_id}"
    return found[-1]


@dataclass
class Group:
    """A Telegram group talking to the bot through `webhook` (or any of `webhooks`)."""

    tg: FakeTelegramAPI
    webhook: Webhook
    chat_id: int
    title: str = "Casa"
    posted: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tg.register_chat({"id": self.chat_id, "title": self.title, "type": "supergroup"})

    # -- building and sending updates

    def message(self, person: Person, text: str, update_id: int | None = None) -> dict[str, Any]:
        update_id = next_update_id() if update_id is None else update_id
        return message_update(update_id, self.chat_id, person.user_id, person.first_name, text,
                              chat_type="supergroup", chat_title=self.title)

    def reply_update(self, person: Person, text: str, message_id: int,
                     update_id: int | None = None) -> dict[str, Any]:
        """`person`'s text as a Telegram reply to the bot's message `message_id`."""
        update = self.message(person, text, update_id)
        update["message"]["reply_to_message"] = self.tg.message(self.chat_id, message_id)
        return update

    def press_update(self, person: Person, data: str, message_id: int,
                     update_id: int | None = None) -> dict[str, Any]:
        update_id = next_update_id() if update_id is None else update_id
        try:
            message = self.tg.message(self.chat_id, message_id)
        except KeyError:
            message = None  # forged: a message the bot never sent here
        return callback_update(update_id, self.chat_id, person.user_id, person.first_name, data,
                               message_id, chat_type="supergroup", chat_title=self.title,
                               message=message)

    def post(self, update: dict[str, Any], via: Webhook | None = None,
             secret: str | None = SECRET) -> httpx.Response:
        response = (via or self.webhook).post_update(update, secret=secret)
        if response.status_code == 200:
            self.posted.append(int(update["update_id"]))
        return response

    # -- what the bot answered

    def mark(self) -> int:
        """A position in the fake Telegram's call log: pass it as `since`."""
        return len(self.tg.calls)

    def sent(self, since: int = 0) -> list[Call]:
        """The bot's messages to this chat after `since`."""
        return [c for c in self.tg.calls[since:] if c.method == "sendMessage" and self._delivered(c)]

    def wait_sent(self, count: int = 1, since: int = 0, timeout: float = WAIT) -> list[Call]:
        """The bot's messages to this chat after `since`, once there are `count` of them."""
        return self.tg.wait_for("sendMessage", self._delivered, timeout=timeout, count=count, since=since)

    def wait_answer(self, callback_id: str, timeout: float = WAIT) -> Call:
        [answer] = self.tg.wait_for("answerCallbackQuery",
                                    lambda c: c.params.get("callback_query_id") == callback_id,
                                    timeout=timeout)
        return answer

    def wait_edit(self, message_id: int, since: int = 0, timeout: float = WAIT) -> Call:
        found = self.tg.wait_for(
            "editMessageText",
            lambda c: self._here(c) and c.params.get("message_id") == message_id and c.ok,
            timeout=timeout, since=since)
        return found[0]

    def _here(self, call: Call) -> bool:
        return call.params.get("chat_id") == self.chat_id

    def _delivered(self, call: Call) -> bool:
        """A call to this chat that Telegram accepted (not a 429 that PTB retries)."""
        return self._here(call) and call.ok

    # -- conversations

    def say(self, person: Person, text: str, replies: int = 1, via: Webhook | None = None) -> list[Call]:
        """`person` writes `text`; waits for `replies` messages of the bot's and returns them."""
        since = self.mark()
        response = self.post(self.message(person, text), via=via)
        assert response.status_code == 200, response.text
        return self.wait_sent(count=replies, since=since)

    def reply_to(self, person: Person, text: str, via: Webhook | None = None) -> str:
        [reply] = self.say(person, text, via=via)
        return str(reply.params["text"])

    def propose(self, person: Person, text: str, replies: int = 1, via: Webhook | None = None) -> PreviewMessage:
        """`person` writes something that ends in a preview; returns it."""
        since = self.mark()
        self.say(person, text, replies=replies, via=via)
        return last_preview(self.tg, self.chat_id, since)

    def press(self, person: Person, data: str, message_id: int, via: Webhook | None = None) -> Call:
        """`person` presses a button with `data`; returns the callback query's answer."""
        update = self.press_update(person, data, message_id)
        response = self.post(update, via=via)
        assert response.status_code == 200, response.text
        return self.wait_answer(update["callback_query"]["id"])

    def confirm(self, person: Person, preview: PreviewMessage, via: Webhook | None = None) -> tuple[Call, Call]:
        """Confirmar, then the preview's edit: (the answer, the editMessageText call)."""
        since = self.mark()
        answer = self.press(person, preview.confirm, preview.message_id, via=via)
        return answer, self.wait_edit(preview.message_id, since=since)

    def join(self, person: Person, confirmed_by: Person = ANA, via: Webhook | None = None,
             name: str = "") -> Call:
        """`person` sends /entrar and `confirmed_by`, a member, confirms it: the edited preview."""
        preview = self.propose(person, f"/entrar {name}".strip(), via=via)
        answer, edited = self.confirm(confirmed_by, preview, via=via)
        assert not alerted(answer), answer.params
        return edited

    def settle(self, via: Webhook | None = None) -> None:
        """Returns once every update posted to this chat so far has been handled: the chat's
        updates run in order, so the answer to a later /ajuda comes after all of theirs."""
        since = self.mark()
        update = self.message(STRANGER, "/ajuda")
        assert self.post(update, via=via).status_code == 200
        help_text = guide.help_text()
        self.tg.wait_for("sendMessage", lambda c: self._delivered(c) and c.params.get("text") == help_text,
                         since=since, timeout=WAIT)


def alerted(answer: Call) -> bool:
    return bool(answer.params.get("show_alert"))


def answer_text(answer: Call) -> str:
    return str(answer.params.get("text") or "")


def without_keyboard(edit: Call) -> bool:
    """An edit that leaves no Confirmar/Cancelar: no buttons at all, or (a confirmed one, contract
    §8) only ↩️ Desfazer."""
    markup = edit.params.get("reply_markup")
    return not markup or markup == {"inline_keyboard": []} or undo_data(edit) is not None


def undo_data(edit: Call) -> str | None:
    """The callback data of an edit's one button when that button is ↩️ Desfazer."""
    buttons = keyboard_of(edit)
    if len(buttons) == 1 and buttons[0].get("text") == "↩️ Desfazer":
        return str(buttons[0]["callback_data"])
    return None


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def tg() -> Iterator[FakeTelegramAPI]:
    with FakeTelegramAPI(token=TOKEN) as fake:
        yield fake


@pytest.fixture
def llm() -> Iterator[FakeLLMServer]:
    # litellm takes seconds to import: pay for it here, not inside a wait for the bot's answer.
    importlib.import_module("litellm")
    with FakeLLMServer() as server:
        yield server


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied for each test: faster than migrating each time."""
    path = tmp_path_factory.mktemp("e2e-template") / "household.db"
    migrated_sqlite(path)
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, sqlite_template: Path) -> str:
    return migrated_sqlite(tmp_path / "household.db", template=sqlite_template)


class BotStarter:
    """Starts in-process webhook servers for a test and stops them after it."""

    def __init__(self, tg: FakeTelegramAPI, database_url: str) -> None:
        self.tg = tg
        self.database_url = database_url
        self.running: list[InProcessBot] = []

    def __call__(self, llm: FakeLLMServer | None = None, **settings: Any) -> InProcessBot:
        values = bot_config(self.tg, self.database_url, llm, **settings)
        bot = InProcessBot(explicit_settings(values), clock=fixed_clock)
        self.running.append(bot.start())
        return bot

    def stop_all(self) -> None:
        while self.running:
            self.running.pop().stop()


@pytest.fixture
def start_bot(tg: FakeTelegramAPI, sqlite_url: str) -> Iterator[BotStarter]:
    """`start_bot()` (no model) or `start_bot(llm)`: the webhook server in this process on SQLite,
    with the clock fixed at NOW."""
    starter = BotStarter(tg, sqlite_url)
    try:
        yield starter
    finally:
        starter.stop_all()
