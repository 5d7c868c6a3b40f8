"""`household-bot webhook`: Starlette + uvicorn, with a durable inbox in front of the handlers.

An update is stored (unique by update_id) before Telegram gets its 200, so a crash loses
nothing and a redelivery is acknowledged and ignored. Dispatchers in every worker process claim
updates from the inbox: only the oldest unfinished update of a chat can be claimed, so each
chat's updates run in order, while different chats run concurrently. A claim is a lease; a
worker that dies leaves it to expire, and another worker picks the update up again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from telegram import Update
from telegram.ext import Application

from bot.bootstrap import Services
from bot.telegram import handlers
from bot.telegram.application import SERVICES, build_application
from infra.db.stores.inbox import InboxItem, UpdateInbox
from infra.settings import Settings

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_PATH = "/telegram/webhook"
LEASE = timedelta(seconds=90)
IDLE_POLL_SECONDS = 0.5
MAX_CONCURRENT_UPDATES = 256


def chat_of(update: dict[str, Any]) -> int:
    """The chat an update belongs to, for per-chat ordering (0 when it has none)."""
    for kind in ("message", "edited_message", "channel_post", "my_chat_member", "chat_member"):
        chat = (update.get(kind) or {}).get("chat")
        if isinstance(chat, dict) and isinstance(chat.get("id"), int):
            return int(chat["id"])
    query = update.get("callback_query") or {}
    chat = (query.get("message") or {}).get("chat") or {}
    if isinstance(chat.get("id"), int):
        return int(chat["id"])
    user = query.get("from") or {}
    return int(user["id"]) if isinstance(user.get("id"), int) else 0


MAX_BODY_BYTES = 1_000_000  # Telegram's updates are a few kB; a 5 MB text is no message
MAX_UPDATE_ID = 2**63 - 1  # the inbox's BIGINT key; Telegram's ids are far below it


async def read_bounded(request: Request, limit: int) -> bytes | None:
    """The request's body, or None once it is past `limit` bytes: a declared Content-Length over
    it is refused before any byte is read, and a chunked body is read chunk by chunk and left
    as soon as it passes the limit (at most `limit` + one chunk is ever held)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def readable_update(body: bytes, app: Application) -> dict[str, Any] | None:
    """The update as a JSON object the inbox can store and PTB can read, or None (a 400).

    A 400 rather than a 500 for what no retry can fix: JSON nested deeper than the parser goes, an
    update id the key cannot hold, a lone surrogate (no UTF-8 for it, so no database takes it), or
    a body PTB's Update refuses. A NUL byte is kept (stored escaped): the handler answers it."""
    try:
        payload = json.loads(body)
        if not isinstance(payload, dict):
            return None
        update_id = payload.get("update_id")
        if isinstance(update_id, bool) or not isinstance(update_id, int) or not 0 <= update_id <= MAX_UPDATE_ID:
            return None
        json.dumps(payload, ensure_ascii=False).encode("utf-8")
        Update.de_json(payload, app.bot)
    except RecursionError:
        log.warning("refused a webhook body nested too deeply")
        return None
    except Exception as error:  # anything PTB or the parser refuses is the sender's fault
        log.warning("refused a webhook body: %s", type(error).__name__)
        return None
    return payload


class Dispatcher:
    """Claims updates from the inbox and runs them through PTB, one task per update."""

    def __init__(self, app: Application, inbox: UpdateInbox) -> None:
        self.app = app
        self.inbox = inbox
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.wake = asyncio.Event()
        self._slots = asyncio.Semaphore(MAX_CONCURRENT_UPDATES)
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._loop = asyncio.create_task(self._run(), name="inbox-dispatcher")

    async def stop(self) -> None:
        # The flag, not only the cancel: on Python 3.11 a cancel that meets a wake-up inside
        # asyncio.wait_for is swallowed (it returns the event's result), and the loop would poll
        # on, holding the shutdown for good.
        self._stopping = True
        self.wake.set()
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=10)

    def notify(self) -> None:
        """Something may be claimable now: an update was recorded here, or one finished."""
        self.wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            # Cleared before the claim, not after it: an update recorded while the claim runs
            # wakes the loop again instead of waiting for the idle poll.
            self.wake.clear()
            try:
                await self._slots.acquire()
                item = await self.inbox.claim(self.owner, LEASE)
            except Exception:
                self._slots.release()
                log.exception("inbox claim failed")
                await asyncio.sleep(IDLE_POLL_SECONDS)
                continue
            if item is not None:  # there may be more: claim again at once
                task = asyncio.create_task(self._process(item), name=f"update-{item.update_id}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                continue
            self._slots.release()
            # Nothing to claim: wait for news (a record or a finish here) or the idle poll
            # (other workers' updates, expired leases).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), IDLE_POLL_SECONDS)

    async def _process(self, item: InboxItem) -> None:
        keepalive = asyncio.create_task(self._keep_lease(item))
        try:
            update = Update.de_json(item.payload, self.app.bot)
            # PTB hands handler errors to the error handler; nothing escapes here but bugs.
            await self.app.process_update(update)
        except Exception:
            log.exception("update %s failed", item.update_id)
        finally:
            keepalive.cancel()
            try:
                await self.inbox.done(item.update_id, self.owner)
            except Exception:
                log.exception("could not mark update %s done; its lease will expire", item.update_id)
            self._slots.release()
            self.notify()  # the chat's next update, if any, is claimable now

    async def _keep_lease(self, item: InboxItem) -> None:
        while True:
            await asyncio.sleep(LEASE.total_seconds() / 3)
            await self.inbox.extend(item.update_id, self.owner, LEASE)


def create_app(settings: Settings, **overrides: Any) -> Starlette:
    """The webhook server; `overrides` (model=, clock=) reach the composition root in tests."""
    assert settings.webhook_secret is not None
    secret = settings.webhook_secret.get_secret_value().encode()
    ptb = build_application(settings, webhook=True, **overrides)
    state: dict[str, Any] = {}

    async def receive(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, secret):
            log.warning("refused a webhook request with a wrong or missing secret")
            return PlainTextResponse("forbidden", status_code=403)
        body = await read_bounded(request, MAX_BODY_BYTES)
        if body is None:
            return PlainTextResponse("update too large", status_code=413)
        payload = readable_update(body, ptb)
        if payload is None:
            return PlainTextResponse("bad update", status_code=400)
        update_id = payload["update_id"]
        inbox: UpdateInbox = state["inbox"]
        fresh = await inbox.record(update_id, chat_of(payload), payload)
        if fresh:
            state["dispatcher"].notify()
        return JSONResponse({"ok": True})

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await ptb.initialize()
        await ptb.post_init(ptb)  # type: ignore[misc]
        services: Services = ptb.bot_data[SERVICES]
        state["inbox"] = UpdateInbox(services.database)
        if settings.webhook_url:
            await ptb.bot.set_webhook(settings.webhook_url, secret_token=settings.webhook_secret.get_secret_value()  # type: ignore[union-attr]
                                      , allowed_updates=handlers.ALLOWED_UPDATES)
        await ptb.start()
        dispatcher = Dispatcher(ptb, state["inbox"])
        state["dispatcher"] = dispatcher
        dispatcher.start()
        try:
            yield
        finally:
            await dispatcher.stop()
            await ptb.stop()
            await ptb.post_shutdown(ptb)  # type: ignore[misc]
            await ptb.shutdown()

    return Starlette(routes=[Route(WEBHOOK_PATH, receive, methods=["POST"]),
                             Route("/healthz", health, methods=["GET"])], lifespan=lifespan)


def run_webhook(settings: Settings) -> int:
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info",
                access_log=False)
    return 0
