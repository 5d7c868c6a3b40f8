"""What bench/run.py and bench/real_model.py share: the bot's credentials and the couple who
talk to it, server processes (a webhook server or a `household-bot webhook` worker, ready once
GET /healthz answers), and the driver that posts updates as Telegram does and finds the answers
at the fake Bot API (tests/fakes/telegram_api.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from domain.clock import local_today, utc_now
from domain.money import Period
from tests.fakes.telegram_api import Call, FakeTelegramAPI

REPO = Path(__file__).resolve().parents[1]
TOKEN = "123456:BENCH"
SECRET = "bench-webhook-secret"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK = "/telegram/webhook"
TIMEZONE = "America/Sao_Paulo"
ANA, BRUNO = (1001, "Ana"), (1002, "Bruno")
GAP = 0.02                   # seconds between measured actions, so none overlaps the last one
WAIT = 30.0
TEXT = "acho que gastei 37,90 no mercado"
"""A member's text the free-text reader leaves to the model ("acho que" is a hedge): a model turn."""
READER_TEXT = "gastei 37,90 no mercado"
"""The same spend in a form the reader takes: a preview with no model request."""
COMMAND_TEXT = "/gasto 37,90 mercado"
"""The same spend as a command, the reader's yardstick (reader_vs_command <= 1.2)."""

_update_ids = itertools.count(10_000_000)


def next_update_id() -> int:
    return next(_update_ids)


def this_month() -> Period:
    return Period.of(local_today(utc_now, TIMEZONE))


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A webhook server in a subprocess, ready once GET /healthz answers."""

    name: str
    command: list[str]
    port: int
    logdir: Path
    env: dict[str, str] | None = None
    cwd: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    ready_after: float = 0.0
    cpu_per_round_ms: float = 0.0
    stop_timeout: float = 15.0  # seconds it has after SIGTERM (a profile or a trace takes long to write)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.logdir / f"{self.name}.log"

    def spawn(self) -> None:
        self.started_at = time.perf_counter()
        with open(self.log_path, "ab") as log_file:
            self.process = subprocess.Popen(self.command, stdout=log_file, stderr=subprocess.STDOUT,
                                            env=self.env, cwd=self.cwd)

    async def ready(self, timeout: float = 90.0) -> float:
        """Seconds from spawn until /healthz answered 200."""
        assert self.process is not None
        deadline = time.perf_counter() + timeout
        async with httpx.AsyncClient(timeout=1.0) as client:
            while time.perf_counter() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.name} exited with {self.process.returncode}; "
                                       f"see {self.log_path}:\n{self.log_path.read_text()[-3000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.url}/healthz")).status_code == 200:
                        self.ready_after = time.perf_counter() - self.started_at
                        return self.ready_after
                await asyncio.sleep(0.01)
        raise RuntimeError(f"{self.name} did not answer /healthz in {timeout} s; see {self.log_path}")

    async def start(self) -> Server:
        self.spawn()
        await self.ready()
        return self

    def status(self, field_name: str) -> int | None:
        """A field of /proc/<pid>/status in kB (VmHWM: peak resident set size), Linux only."""
        if self.process is None:
            return None
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    def cpu_s(self) -> float:
        """CPU seconds the process has used (user + system, all threads), Linux only."""
        if self.process is None:
            return 0.0
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=self.stop_timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --------------------------------------------------------------------------- the worker process


def worker_env(api: str, database_url: str, port: int, llm_base: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "TELEGRAM_", "WEBHOOK_"))}
    env.update(TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_BASE_URL=api, WEBHOOK_SECRET=SECRET,
               DATABASE_URL=database_url, HOST="127.0.0.1", PORT=str(port),
               LLM_MODEL="openai/fake-model", LLM_API_BASE=llm_base, LLM_API_KEY="sk-bench",
               LITELLM_OFFLINE_MODE="true", LITELLM_LOCAL_MODEL_COST_MAP="True",
               PYTHONPATH=str(REPO))
    return env


def worker_command(*python_options: str, script: bool = False) -> list[str]:
    """`household-bot webhook` (the installed script) or `python [options] -m bot webhook`."""
    installed = Path(sys.executable).with_name("household-bot")
    if script and installed.exists():
        return [str(installed), "webhook"]
    return [sys.executable, *python_options, "-m", "bot", "webhook"]


# --------------------------------------------------------------------------- driving the servers


class Driver:
    """Posts updates as Telegram does and finds the answers at the fake Bot API."""

    def __init__(self, tg: FakeTelegramAPI) -> None:
        self.tg = tg
        self.clients: dict[str, httpx.AsyncClient] = {}
        # Call.at is time.monotonic(); map it onto perf_counter (the same clock on Linux).
        self.offset = statistics.median(time.perf_counter() - time.monotonic() for _ in range(5))

    def client(self, server: Server) -> httpx.AsyncClient:
        if server.url not in self.clients:
            self.clients[server.url] = httpx.AsyncClient(
                base_url=server.url, timeout=WAIT,
                limits=httpx.Limits(max_connections=200, max_keepalive_connections=200))
        return self.clients[server.url]

    async def close(self) -> None:
        for client in self.clients.values():
            await client.aclose()
        self.clients.clear()

    def mark(self) -> int:
        with self.tg._lock:  # the fake's own list, without copying thousands of calls
            return len(self.tg._calls)

    async def post(self, server: Server, update: dict[str, Any]) -> None:
        response = await self.client(server).post(WEBHOOK, json=update, headers={SECRET_HEADER: SECRET})
        response.raise_for_status()

    async def wait_for(self, method: str, predicate: Callable[[Call], bool], since: int,
                       count: int = 1, timeout: float = WAIT) -> list[Call]:
        try:
            return await asyncio.to_thread(self.tg.wait_for, method, predicate, timeout, count, since=since)
        except TimeoutError as error:
            seen = [(c.method, c.status, c.params.get("chat_id"), str(c.params.get("text"))[:120])
                    for c in self.tg.calls[since:][-10:]]
            raise TimeoutError(f"{error}; since the request: {seen}") from None

    def at(self, call: Call) -> float:
        return call.at + self.offset

    async def timed(self, server: Server, update: dict[str, Any], method: str,
                    predicate: Callable[[Call], bool]) -> tuple[float, Call]:
        since = self.mark()
        started = time.perf_counter()
        await self.post(server, update)
        [call, *_] = await self.wait_for(method, predicate, since)
        return self.at(call) - started, call


def in_chat(chat_id: int, *, preview: bool | None = None) -> Callable[[Call], bool]:
    def matches(call: Call) -> bool:
        if call.params.get("chat_id") != chat_id or not call.ok:
            return False
        return preview is None or bool(call.params.get("reply_markup")) == preview
    return matches
