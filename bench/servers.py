"""The webhook servers bench/run.py starts, each in its own process (not a test, not for production).

    python bench/servers.py echo --port P --api URL --token T --secret S
    python bench/servers.py bot  --port P --api URL --token T --secret S --database-url URL [--slow 1.0]

`echo` is the floor for any python-telegram-bot webhook bot: an Application with `updater(None)`
behind the same kind of Starlette route on uvicorn (secret checked with hmac.compare_digest, the
update handed to PTB's update queue, as in PTB's examples/customwebhookbot/starlettebot.py), whose
one handler answers every text with sendMessage. No database, no rate limiter.

`bot` is the household bot exactly as `household-bot webhook` serves it (`create_app`, uvicorn with
the same options), except that the language model is `BenchModel`, an in-process LanguageModel:
zero latency, a recordSpend call then a text; a text containing `SLOW` makes it sleep `--slow`
seconds and answer in text instead.

Both log as `household-bot` does (INFO, httpx at WARNING), to stderr.

`--no-flood-limit` (bot): PTB's AIORateLimiter with no overall or per-group rate, for the 100-chat
figure without Telegram's ~30 messages a second. Environment, for finding where time goes:
  BENCH_TRACE=PATH        time the main steps per kind of update, count SQL statements and
                          commits, and write them to PATH at exit (bench/run.py --trace DIR)
  BENCH_PROFILE=PREFIX    pyinstrument over the whole server: PREFIX.txt and PREFIX.html
                          (bench/run.py --profile DIR; pip install pyinstrument)
  BENCH_SQLITE_SYNC=MODE  an experiment: PRAGMA synchronous=MODE on every SQLite connection
                          (the bot keeps SQLite's default, FULL)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hmac
import itertools
import json
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import uvicorn  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import PlainTextResponse, Response  # noqa: E402
from starlette.routing import Route  # noqa: E402
from telegram import Update  # noqa: E402
from telegram.ext import Application, ContextTypes, MessageHandler, filters  # noqa: E402

from domain.clock import local_today, utc_now  # noqa: E402
from domain.money import Period  # noqa: E402
from tests.fakes.scripted_model import call, say  # noqa: E402

WEBHOOK_PATH = "/telegram/webhook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SLOW_MARKER = "SLOW"
EXPENSE = "Mercado"  # bench/run.py seeds the household with it


# --------------------------------------------------------------------------- the bare echo bot


def echo_app(token: str, api: str, secret: str) -> Starlette:
    ptb = Application.builder().token(token).base_url(f"{api}/bot").updater(None).build()

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None and message.text is not None
        await context.bot.send_message(message.chat_id, message.text)

    ptb.add_handler(MessageHandler(filters.TEXT, echo))
    expected = secret.encode()

    async def receive(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            return PlainTextResponse("forbidden", status_code=403)
        await ptb.update_queue.put(Update.de_json(json.loads(await request.body()), ptb.bot))
        return Response()

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with ptb:
            await ptb.start()
            yield
            await ptb.stop()

    return Starlette(routes=[Route(WEBHOOK_PATH, receive, methods=["POST"]),
                             Route("/healthz", health, methods=["GET"])], lifespan=lifespan)


# --------------------------------------------------------------------------- the household bot


class BenchModel:
    """A LanguageModel with no latency of its own: it decides from the last message alone.

    A member's message -> one recordSpend call (a fresh operationId each time) on this month's
    Mercado; a tool result -> a short text. A member's message with SLOW in it -> sleep, then text.
    """

    def __init__(self, slow_seconds: float, timezone: str) -> None:
        self.slow_seconds = slow_seconds
        self.timezone = timezone
        self._ids = itertools.count(1)

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        last = messages[-1]
        if last.get("role") == "tool":
            return say("Prévia acima: é só confirmar.")
        if SLOW_MARKER in str(last.get("content")):
            await asyncio.sleep(self.slow_seconds)
            return say("Oi! Em que posso ajudar?")
        month = Period.of(local_today(utc_now, self.timezone))
        return call("recordSpend", {
            "expense": EXPENSE, "period": str(month), "operationId": f"op-{next(self._ids)}",
            "amount": {"amount": Decimal("37.90"), "currency": "BRL"}})


def bot_app(options: argparse.Namespace) -> Starlette:
    from bot.telegram.webhook import create_app
    from infra.settings import Settings

    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token=options.token, telegram_api_base_url=options.api,
        webhook_secret=options.secret, database_url=options.database_url,
        host="127.0.0.1", port=options.port, llm_model=None,
        # The schedule has its own figures (bench/run.py's "schedule"). Left on, the big
        # database's 1,000 other households get their month's closing, a chart each, in the
        # middle of the timed requests: that measured a closing day, not the history's cost.
        schedule_check_seconds=0)
    if options.no_flood_limit:
        # Only for the concurrency figure without Telegram's ~30 messages/s: PTB's AIORateLimiter
        # (wherever the bot builds it) gets no overall and no per-group rate; everything else,
        # its 429 retries included, stays as it is.
        from telegram.ext import AIORateLimiter

        build = AIORateLimiter.__init__

        def unlimited(self: AIORateLimiter, *args: Any, **kwargs: Any) -> None:
            build(self, *args, **{**kwargs, "overall_max_rate": 0, "group_max_rate": 0})

        AIORateLimiter.__init__ = unlimited  # type: ignore[method-assign]
    if os.environ.get("BENCH_SQLITE_SYNC"):  # experiment: PRAGMA synchronous for every connection
        from sqlalchemy import event

        import infra.db.engine as engine_module

        original = engine_module.create_engine

        def create_engine(url: str | None = None, **kw: Any) -> Any:
            engine = original(url, **kw)
            if engine.dialect.name == "sqlite":
                @event.listens_for(engine.sync_engine, "connect")
                def _sync(dbapi_connection: Any, _record: Any) -> None:
                    dbapi_connection.execute(f"PRAGMA synchronous={os.environ['BENCH_SQLITE_SYNC']}")
            return engine

        engine_module.create_engine = create_engine
    return create_app(settings, model=BenchModel(options.slow, settings.household_timezone))


# --------------------------------------------------------------------------- tracing (--trace)

TRACED = [  # (module, class, methods): where a turn's and a confirmation's time goes
    ("infra.db.stores.inbox", "UpdateInbox", ["record", "claim", "done"]),
    # HouseholdService is a facade: the steps its talk and press went through live in its parts.
    ("bot.app.service", "HouseholdService", ["talk", "press", "preview_posted"]),
    ("bot.app.chats", "Chats", ["context", "member"]),  # the chat's household and tools; the speaker
    ("bot.app.conversation", "Conversation", ["_outcomes"]),  # the previews
    ("domain.agent.reader", "SpendReader", ["read"]),  # the free-text reader (no model)
    ("domain.agent.chat", "AgentChat", ["_read"]),  # the reader's calls run, and kept in the history
    ("bot.app.decisions", "Decisions", ["_confirm"]),
    ("domain.agent.chat", "AgentChat", ["send", "schemas"]),
    ("bot.app.commands", "Commands", ["propose"]),
    ("domain.tools.confirmer", "Confirmer", ["confirm"]),  # a press's confirmation (was AgentChat.confirm)
    ("domain.tools.base", "WriteTool", ["run", "_propose", "_confirm"]),
    ("infra.db.stores.conversations", "SqlConversationStore", ["recent", "append"]),
    ("infra.db.stores.operations", "SqlOperationLog", ["get", "get_by_key", "propose", "attach_message"]),
    ("infra.db.stores.budgets", "SqlBudgetRepository", ["load", "save"]),
    ("infra.db.stores.goals", "SqlGoalRepository", ["list"]),
    ("infra.db.stores.households", "SqlHouseholdRepository", ["load"]),
    ("infra.db.stores.chats", "ChatDirectory", ["household_of_chat", "member_of_user"]),
    ("telegram.ext", "ExtBot", ["send_message", "send_chat_action", "edit_message_text",
                                "answer_callback_query"]),
    ("telegram.ext", "Application", ["process_update"]),
]


def install_tracing(path: str) -> None:
    """Times the methods above per kind of update (text, the reader's text, press, command) and
    writes, at exit, each one's calls per update and median milliseconds to `path`."""
    import atexit
    import contextvars
    import functools
    import importlib
    import inspect
    import statistics
    import time
    from collections import defaultdict

    from bench.common import READER_TEXT

    kind: contextvars.ContextVar[str] = contextvars.ContextVar("bench_kind", default="other")
    spans: dict[tuple[str, str], list[float]] = defaultdict(list)
    updates: dict[str, int] = defaultdict(int)

    def timed(label: str, function: Any) -> Any:
        @functools.wraps(function)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            if label == "Application.process_update":
                update = args[1]
                message = getattr(update, "effective_message", None)
                text = getattr(message, "text", None) or ""
                kind.set("press" if update.callback_query else "command" if text.startswith("/")
                         else "reader text" if text == READER_TEXT else "text")
                updates[kind.get()] += 1
            started = time.perf_counter()
            try:
                return await function(*args, **kwargs)
            finally:
                spans[(kind.get(), label)].append(time.perf_counter() - started)

        @functools.wraps(function)
        def sync_wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spans[(kind.get(), label)].append(time.perf_counter() - started)

        return wrapper if inspect.iscoroutinefunction(function) else sync_wrapper

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    statements: dict[str, int] = defaultdict(int)
    commits: dict[str, int] = defaultdict(int)

    @event.listens_for(Engine, "before_cursor_execute")
    def _statement(*_: Any) -> None:
        statements[kind.get()] += 1

    @event.listens_for(Engine, "commit")
    def _commit(*_: Any) -> None:
        commits[kind.get()] += 1

    for module, name, methods in TRACED:
        cls = getattr(importlib.import_module(module), name)
        for method in methods:
            # A probe that names nothing would time nothing and say nothing: it fails here instead.
            if not hasattr(cls, method):
                raise AttributeError(f"--trace: {module}.{name} has no {method}; update TRACED")
            setattr(cls, method, timed(f"{name}.{method}", getattr(cls, method)))

    def report() -> None:
        lines = []
        for which in ("text", "reader text", "press", "command", "other"):
            rows = [(label, values) for (k, label), values in spans.items() if k == which]
            if not rows and not statements[which]:
                continue
            count = max(updates[which], 1)
            lines.append(f"{which}: {updates[which]} updates; {statements[which] / count:.1f} SQL statements "
                         f"and {commits[which] / count:.1f} commits per update; calls per update, median ms, "
                         "ms per update")
            for label, values in sorted(rows, key=lambda row: -sum(row[1])):
                lines.append(f"  {label:40}{len(values) / count:6.1f}{statistics.median(values) * 1000:9.2f}"
                             f"{sum(values) / count * 1000:9.2f}")
        Path(path).write_text("\n".join(lines) + "\n")

    atexit.register(report)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["echo", "bot"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--api", required=True, help="the Bot API base URL (the fake's)")
    parser.add_argument("--token", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--database-url")
    parser.add_argument("--slow", type=float, default=1.0)
    parser.add_argument("--no-flood-limit", action="store_true")
    options = parser.parse_args()
    # As `household-bot` configures logging (bot/__main__.py).
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if os.environ.get("BENCH_TRACE"):
        install_tracing(os.environ["BENCH_TRACE"])
    app = (echo_app(options.token, options.api, options.secret) if options.kind == "echo"
           else bot_app(options))
    profile = os.environ.get("BENCH_PROFILE")  # a path prefix: bench/run.py --profile DIR
    if profile or os.environ.get("BENCH_TRACE"):
        # uvicorn re-raises the SIGTERM it caught once it has shut down; a handler of our own
        # lets the process live on long enough to write the profile or the trace.
        signal.signal(signal.SIGTERM, lambda *_: None)
    if profile:
        from pyinstrument import Profiler  # pip install pyinstrument (not a project dependency)

        profiler = Profiler(interval=0.0002)
        profiler.start()
    # As bot.telegram.webhook.run_webhook serves it.
    uvicorn.run(app, host="127.0.0.1", port=options.port, log_level="info", access_log=False)
    if profile:
        profiler.stop()
        Path(f"{profile}.txt").write_text(profiler.output_text(show_all=False))
        Path(f"{profile}.html").write_text(profiler.output_html())


if __name__ == "__main__":
    main()
