"""A fake Telegram Bot API server for end-to-end tests.

It is a real HTTP server (starlette + uvicorn) on 127.0.0.1 with an ephemeral port, run in a
background thread, so the real python-telegram-bot client talks to it over the network:

    with FakeTelegramAPI(token="123:ABC") as tg:
        bot = telegram.Bot("123:ABC", base_url=f"{tg.base_url}/bot")
        ...
        [call] = tg.wait_for("sendMessage")

The bot calls ``{base_url}/bot{token}/{method}``. Request bodies may be JSON, form-urlencoded
(PTB's default: nested values such as ``reply_markup`` arrive as JSON strings) or multipart; every
call is recorded with its parameters decoded into plain Python values.

Behaviour modelled on the real Bot API (https://core.telegram.org/bots/api) and its error texts:
- message ids increase per chat; ``editMessageText`` without ``reply_markup`` removes the inline
  keyboard; editing to the identical content is a 400 "message is not modified";
- ``getUpdates`` returns the updates with ``update_id >= offset`` and forgets the ones below it
  (PTB sends ``offset = last update_id + 1``), waits up to ``timeout`` seconds (capped) and answers
  409 while a webhook is set;
- a callback query can be answered once; a second answer is the 400 "query is too old ...";
- method names are case-insensitive; an unknown method is 404, an unknown token 401.
"""

from __future__ import annotations

import asyncio
import copy
import email.parser
import email.policy
import json
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qsl

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = [
    "BOT_USERNAME",
    "Call",
    "FakeTelegramAPI",
    "UploadedFile",
    "bot_user",
    "callback_update",
    "message_update",
]

BOT_USERNAME = "household_test_bot"
BOT_FIRST_NAME = "Household Test Bot"
MAX_MESSAGE_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)

Params = dict[str, Any]
JSON = dict[str, Any]
CallPredicate = Callable[["Call"], bool]


# --------------------------------------------------------------------------------------------
# Recorded calls and decoded parameters
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request."""

    filename: str | None
    content_type: str
    data: bytes


@dataclass(frozen=True)
class Call:
    """One request the fake answered.

    ``at`` is ``time.monotonic()`` when the request arrived; ``status`` and ``response`` are what
    the fake answered (``response`` is the whole JSON body, ``{"ok": ..., ...}``). Calls answered
    with an error (401, 404, injected faults, 400s) are recorded too: check ``status`` or ``ok``.
    """

    method: str
    params: Params
    at: float
    token: str = ""
    status: int = 200
    response: JSON = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def result(self) -> Any:
        return self.response.get("result")


# Parameter names whose form value is a plain string, never JSON (text may look like "[1]" or "7").
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "data",
        "parse_mode",
        "callback_query_id",
        "inline_message_id",
        "business_connection_id",
        "url",
        "secret_token",
        "ip_address",
        "language_code",
        "action",
        "title",
        "description",
        "short_description",
        "name",
        "file_id",
        "certificate",
        "photo",
        "document",
        "sticker",
        "emoji",
        "question",
    }
)
# Parameter names that hold integers (chat_id may also be "@channelusername").
_INT_PARAMS = frozenset(
    {
        "chat_id",
        "from_chat_id",
        "message_id",
        "user_id",
        "offset",
        "limit",
        "message_thread_id",
        "direct_messages_topic_id",
        "reply_to_message_id",
        "max_connections",
        "cache_time",
        "until_date",
    }
)
_NUMBER_PARAMS = frozenset({"timeout"})
_INT_RE = re.compile(r"-?\d+")
_NUMBER_RE = re.compile(r"-?\d+(\.\d+)?")


def _decode_form_value(name: str, value: str) -> Any:
    """Turn one form field (PTB's ``RequestParameter.json_value``) into a Python value."""
    if name in _STRING_PARAMS:
        return value
    if name in _INT_PARAMS:
        return int(value) if _INT_RE.fullmatch(value) else value
    if name in _NUMBER_PARAMS and _NUMBER_RE.fullmatch(value):
        number = float(value)
        return int(number) if number.is_integer() else number
    if value in ("true", "false"):
        return value == "true"
    if value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    if name.endswith("_id") and _INT_RE.fullmatch(value):
        return int(value)
    return value


def _decode_json_params(body: JSON) -> Params:
    """A JSON body is already typed; some clients still send nested objects as JSON strings."""
    params: Params = {}
    for name, value in body.items():
        if isinstance(value, str) and name not in _STRING_PARAMS and value[:1] in ("{", "["):
            try:
                params[name] = json.loads(value)
                continue
            except ValueError:
                pass
        params[name] = value
    return params


def _decode_multipart(content_type: str, body: bytes) -> Params:
    """Parse multipart/form-data with the standard library (python-multipart is not needed)."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    params: Params = {}
    if not message.is_multipart():
        return params
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        filename = part.get_filename()
        if filename is None and part.get_content_type() == "text/plain":
            charset = part.get_content_charset() or "utf-8"
            params[name] = _decode_form_value(name, data.decode(charset))
        else:
            params[name] = UploadedFile(
                filename=filename, content_type=part.get_content_type(), data=data
            )
    return params


async def _read_params(request: Request) -> Params:
    params: Params = {
        name: _decode_form_value(name, value) for name, value in request.query_params.items()
    }
    body = await request.body()
    if not body:
        return params
    content_type = request.headers.get("content-type", "")
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type == "application/json":
        decoded = json.loads(body)
        if isinstance(decoded, dict):
            params.update(_decode_json_params(decoded))
    elif media_type == "multipart/form-data":
        params.update(_decode_multipart(content_type, body))
    else:  # application/x-www-form-urlencoded (PTB's default) or unspecified
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True)
        params.update({name: _decode_form_value(name, value) for name, value in pairs})
    return params


# --------------------------------------------------------------------------------------------
# Update builders (Telegram's Update JSON shape)
# --------------------------------------------------------------------------------------------


def bot_user(token: str = "123:ABC") -> JSON:
    """The bot's ``User`` as ``getMe`` returns it; the id is the token's numeric prefix."""
    prefix = token.split(":", 1)[0]
    return {
        "id": int(prefix) if prefix.isdigit() else 1,
        "is_bot": True,
        "first_name": BOT_FIRST_NAME,
        "username": BOT_USERNAME,
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def _chat(chat_id: int, chat_type: str, chat_title: str, first_name: str) -> JSON:
    if chat_type == "private":
        return {"id": chat_id, "first_name": first_name, "type": "private"}
    return {"id": chat_id, "title": chat_title, "type": chat_type}


def _user(user_id: int, first_name: str, language_code: str | None) -> JSON:
    user: JSON = {"id": user_id, "is_bot": False, "first_name": first_name}
    if language_code:
        user["language_code"] = language_code
    return user


def _utf16_length(text: str) -> int:
    """Telegram measures entity offsets and lengths in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def message_update(
    update_id: int,
    chat_id: int,
    user_id: int,
    first_name: str,
    text: str,
    chat_type: str = "group",
    chat_title: str = "Casa",
    message_id: int | None = None,
    *,
    language_code: str | None = "pt-br",
    date: int | None = None,
) -> JSON:
    """An ``Update`` carrying a text ``Message`` from a user.

    A text that starts with "/" gets a ``bot_command`` entity at offset 0 covering the command
    word (including an optional ``@botname``), as Telegram sends it; PTB's CommandHandler needs it.
    ``message_id`` defaults to ``update_id``.
    """
    message: JSON = {
        "message_id": update_id if message_id is None else message_id,
        "from": _user(user_id, first_name, language_code),
        "chat": _chat(chat_id, chat_type, chat_title, first_name),
        "date": int(time.time()) if date is None else date,
        "text": text,
    }
    if text.startswith("/"):
        command = text.split(maxsplit=1)[0]
        message["entities"] = [
            {"offset": 0, "length": _utf16_length(command), "type": "bot_command"}
        ]
    return {"update_id": update_id, "message": message}


def media_update(update_id: int, chat_id: int, user_id: int, first_name: str, content: JSON,
                 chat_type: str = "group", chat_title: str = "Casa") -> JSON:
    """An ``Update`` whose ``Message`` carries `content` instead of text: ``{"voice": {...}}``,
    ``{"photo": [...], "caption": ...}``, ``{"document": {...}}`` (see ``FakeTelegramAPI.add_file``)."""
    message: JSON = {
        "message_id": update_id,
        "from": _user(user_id, first_name, "pt-br"),
        "chat": _chat(chat_id, chat_type, chat_title, first_name),
        "date": int(time.time()),
        **content,
    }
    return {"update_id": update_id, "message": message}


def callback_update(
    update_id: int,
    chat_id: int,
    user_id: int,
    first_name: str,
    data: str,
    message_id: int,
    callback_id: str | None = None,
    *,
    chat_type: str = "group",
    chat_title: str = "Casa",
    message: JSON | None = None,
    language_code: str | None = "pt-br",
) -> JSON:
    """An ``Update`` carrying a ``CallbackQuery`` (a press on an inline button).

    ``message`` is the message the keyboard belongs to; pass ``tg.message(chat_id, message_id)``
    to use the fake's current copy (text, keyboard). Without it a minimal message with the chat,
    ``message_id`` and a non-zero ``date`` is used (a zero date would make PTB treat it as an
    ``InaccessibleMessage``).
    """
    if message is None:
        message = {
            "message_id": message_id,
            "chat": _chat(chat_id, chat_type, chat_title, first_name),
            "date": int(time.time()),
        }
    return {
        "update_id": update_id,
        "callback_query": {
            "id": callback_id if callback_id is not None else f"{update_id}{abs(chat_id)}",
            "from": _user(user_id, first_name, language_code),
            "message": copy.deepcopy(message),
            "chat_instance": str(abs(chat_id) * 7919 + 1_000_000_007),
            "data": data,
        },
    }


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


class _ApiError(Exception):
    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


@dataclass(frozen=True)
class _Described:
    """A result Telegram sends with a ``description`` (setWebhook, deleteWebhook)."""

    result: Any
    description: str


@dataclass
class _Fault:
    status: int
    description: str
    parameters: JSON | None
    times: int


def _error_body(status: int, description: str, parameters: JSON | None = None) -> JSON:
    body: JSON = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return body


def _normalize_markup(markup: Any) -> Any:
    """An empty inline keyboard is no keyboard, as in Telegram."""
    if isinstance(markup, dict) and markup.get("inline_keyboard") == []:
        return None
    return markup


class FakeTelegramAPI:
    """A fake Bot API on ``http://127.0.0.1:<ephemeral port>``; use it as a context manager."""

    def __init__(
        self,
        token: str = "123:ABC",
        *,
        max_poll_timeout: float = 1.0,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.max_poll_timeout = max_poll_timeout
        self.host = host
        self.bot = bot_user(token)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._calls: list[Call] = []
        self._messages: dict[int | str, dict[int, JSON]] = {}
        self._last_message_id: dict[int | str, int] = {}
        self._chats: dict[int | str, JSON] = {}
        self._updates: list[JSON] = []
        self._faults: dict[str, list[_Fault]] = {}
        self._answered_callbacks: set[str] = set()
        self._commands: dict[str, list[JSON]] = {}
        self._webhook: JSON = {}
        self._files: dict[str, tuple[str, bytes]] = {}  # file_id -> (file_path, content)
        self.downloads: list[str] = []  # file paths fetched from /file/bot<token>/<path>, in order
        self._stopping = False
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._port = 0
        handlers: dict[str, Callable[[Params], Awaitable[Any]]] = {
            "getMe": self._get_me,
            "sendMessage": self._send_message,
            "sendDocument": self._send_document,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "answerCallbackQuery": self._answer_callback_query,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "getUpdates": self._get_updates,
            "sendChatAction": self._send_chat_action,
            "sendPhoto": self._send_photo,
            "getChat": self._get_chat,
            "getFile": self._get_file,
        }
        # Telegram's method names are case-insensitive.
        self._handlers = {name.lower(): (name, handler) for name, handler in handlers.items()}
        self.app = Starlette(
            routes=[
                Route("/bot{token}/{method}", self._endpoint, methods=["GET", "POST"]),
                Route("/file/bot{token}/{path:path}", self._download, methods=["GET"]),
                Route("/{path:path}", self._not_found, methods=["GET", "POST"]),
            ]
        )

    # ---- lifecycle -------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The value for TELEGRAM_API_BASE_URL; PTB's ``base_url`` is ``f"{base_url}/bot"``."""
        if not self._port:
            raise RuntimeError("FakeTelegramAPI is not running")
        return f"http://{self.host}:{self._port}"

    @property
    def bot_base_url(self) -> str:
        """What to pass to PTB's ``base_url`` (it appends the token and the method)."""
        return f"{self.base_url}/bot"

    def start(self, startup_timeout: float = 10.0) -> None:
        if self._thread is not None:
            raise RuntimeError("FakeTelegramAPI is already running")
        # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted sockets only when the
        # listener's proto is IPPROTO_TCP; with proto 0, Nagle + delayed ACK add ~40 ms to every
        # keep-alive request (uvicorn writes the headers and the body separately).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind((self.host, 0))
        self._socket = sock
        self._port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            loop="asyncio",
            http="h11",
            ws="none",
            timeout_graceful_shutdown=2,
            # uvicorn's 5 s keep-alive closes an idle connection just as the client reuses it
            # (a reset, by timing alone); a test's fake keeps its connections for the whole test.
            timeout_keep_alive=3600,
        )
        server = uvicorn.Server(config)
        self._server = server
        self._stopping = False
        self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name="fake-telegram-api", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + startup_timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("FakeTelegramAPI did not start")
            time.sleep(0.005)

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True  # ends a waiting getUpdates at once
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(timeout)
        if self._socket is not None:
            self._socket.close()
        self._server = None
        self._thread = None
        self._socket = None
        self._port = 0

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    # ---- test-facing state ---------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """A snapshot of every recorded call, oldest first."""
        with self._lock:
            return list(self._calls)

    def calls_to(self, method: str) -> list[Call]:
        method = self._canonical(method)
        with self._lock:
            return [call for call in self._calls if call.method == method]

    def clear_calls(self) -> None:
        with self._lock:
            self._calls.clear()

    def messages(self, chat_id: int | str) -> list[JSON]:
        """The bot's messages in a chat as they are now (after edits), by message_id."""
        with self._lock:
            stored = self._messages.get(chat_id, {})
            return [copy.deepcopy(stored[key]) for key in sorted(stored)]

    def message(self, chat_id: int | str, message_id: int) -> JSON:
        """One of the bot's messages as it is now; KeyError if the bot never sent it."""
        with self._lock:
            return copy.deepcopy(self._messages[chat_id][message_id])

    def register_chat(self, chat: JSON) -> None:
        """Tell the fake a chat's ``Chat`` object (type, title); push_update does it itself."""
        with self._lock:
            self._chats[chat["id"]] = copy.deepcopy(chat)

    def push_update(self, update: JSON) -> None:
        """Queue an update for getUpdates (polling mode)."""
        with self._changed:
            for message in _messages_in(update):
                chat = message.get("chat")
                if isinstance(chat, dict) and "id" in chat:
                    self._chats.setdefault(chat["id"], copy.deepcopy(chat))
            incoming = update.get("message")
            if isinstance(incoming, dict) and isinstance(incoming.get("chat"), dict):
                # Users and the bot share one message_id sequence per chat.
                chat_id = incoming["chat"]["id"]
                last = self._last_message_id.get(chat_id, 0)
                self._last_message_id[chat_id] = max(last, int(incoming["message_id"]))
            self._updates.append(copy.deepcopy(update))
            self._updates.sort(key=lambda queued: queued["update_id"])
            self._changed.notify_all()

    @property
    def pending_updates(self) -> list[JSON]:
        with self._lock:
            return copy.deepcopy(self._updates)

    def fail_next(
        self,
        method: str,
        status: int = 429,
        retry_after: int = 1,
        times: int = 1,
        description: str | None = None,
        parameters: JSON | None = None,
    ) -> None:
        """Answer the next ``times`` calls to ``method`` with an error, as Telegram does.

        429 carries ``parameters.retry_after`` (PTB raises RetryAfter); other statuses answer
        ``description`` (default: Telegram's generic text for the status); ``parameters`` as
        Telegram sends them (``{"migrate_to_chat_id": ...}`` makes PTB raise ChatMigrated).
        """
        parameters_default: JSON | None = None
        if status == 429:
            parameters_default = {"retry_after": retry_after}
            text = description or f"Too Many Requests: retry after {retry_after}"
        else:
            text = description or {
                400: "Bad Request",
                401: "Unauthorized",
                403: "Forbidden: bot was blocked by the user",
                404: "Not Found",
                409: "Conflict",
                500: "Internal Server Error",
                502: "Bad Gateway",
            }.get(status, "Error")
        parameters = parameters or parameters_default
        canonical = self._canonical(method)
        with self._lock:
            self._faults.setdefault(canonical, []).append(
                _Fault(status=status, description=text, parameters=parameters, times=times)
            )

    def _canonical(self, method: str) -> str:
        """"sendmessage" -> "sendMessage" for the methods the fake implements."""
        return self._handlers.get(method.lower(), (method, None))[0]

    def _matching(
        self, method: str, predicate: CallPredicate | None, since: int
    ) -> list[Call]:
        return [
            call
            for call in self._calls[since:]
            if call.method == method and (predicate is None or predicate(call))
        ]

    def wait_for(
        self,
        method: str,
        predicate: CallPredicate | None = None,
        timeout: float = 5.0,
        count: int = 1,
        *,
        since: int = 0,
    ) -> list[Call]:
        """Block until at least ``count`` matching calls are recorded; return all matches.

        ``since`` skips the first calls (pass ``len(tg.calls)`` taken before acting).
        Raises TimeoutError. Do not call it from the event loop that runs the bot: use
        ``await_for`` there.
        """
        method = self._canonical(method)
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = self._matching(method, predicate, since)
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(self._timeout_message(method, count, found))
                self._changed.wait(remaining)

    async def await_for(
        self,
        method: str,
        predicate: CallPredicate | None = None,
        timeout: float = 5.0,
        count: int = 1,
        *,
        since: int = 0,
        poll_interval: float = 0.01,
    ) -> list[Call]:
        """``wait_for`` for async tests: polls with asyncio.sleep, never blocks the loop."""
        method = self._canonical(method)
        deadline = time.monotonic() + timeout
        while True:
            expired = time.monotonic() >= deadline
            with self._lock:
                found = self._matching(method, predicate, since)
                if len(found) >= count:
                    return found
                if expired:
                    raise TimeoutError(self._timeout_message(method, count, found))
            await asyncio.sleep(poll_interval)

    def _timeout_message(self, method: str, count: int, found: list[Call]) -> str:
        seen = [f"{call.method}:{call.status}" for call in self._calls[-20:]]
        return f"expected {count} call(s) to {method}, got {len(found)}; last calls: {seen}"

    def add_file(self, content: bytes, file_path: str) -> JSON:
        """A file the bot can fetch with getFile and download; returns the fields an update
        carries for it (``file_id``, ``file_unique_id``, ``file_size``)."""
        with self._lock:
            file_id = f"file-{len(self._files) + 1}"
            self._files[file_id] = (file_path, content)
        return {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_size": len(content)}

    # ---- HTTP ------------------------------------------------------------------------------

    async def _download(self, request: Request) -> Response:
        path = request.path_params["path"]
        with self._lock:
            found = next((content for stored, content in self._files.values() if stored == path), None)
            if request.path_params["token"] == self.token and found is not None:
                self.downloads.append(path)
        if request.path_params["token"] != self.token or found is None:
            return JSONResponse(_error_body(404, "Not Found"), status_code=404)
        return Response(found, media_type="application/octet-stream")

    async def _not_found(self, request: Request) -> JSONResponse:
        return JSONResponse(_error_body(404, "Not Found"), status_code=404)

    async def _endpoint(self, request: Request) -> JSONResponse:
        arrived = time.monotonic()
        token = request.path_params["token"]
        requested = request.path_params["method"]
        canonical, handler = self._handlers.get(requested.lower(), (requested, None))
        try:
            params = await _read_params(request)
        except (ValueError, UnicodeDecodeError):
            error = _error_body(400, "Bad Request: can't parse request body")
            return self._respond(canonical, {}, arrived, token, 400, error)
        try:
            if token != self.token:
                raise _ApiError(401, "Unauthorized")
            if handler is None:
                raise _ApiError(404, "Not Found")
            self._raise_injected_fault(canonical)
            result = await handler(params)
        except _ApiError as error:
            body = _error_body(error.status, error.description, error.parameters)
            return self._respond(canonical, params, arrived, token, error.status, body)
        except Exception as bug:  # a bug in the fake or a malformed value: record it, answer 500
            body = _error_body(500, f"Internal Server Error: {bug!r}")
            return self._respond(canonical, params, arrived, token, 500, body)
        if isinstance(result, _Described):
            body = {"ok": True, "result": result.result, "description": result.description}
        else:
            body = {"ok": True, "result": result}
        return self._respond(canonical, params, arrived, token, 200, body)

    def _respond(
        self, method: str, params: Params, arrived: float, token: str, status: int, body: JSON
    ) -> JSONResponse:
        call = Call(
            method=method, params=params, at=arrived, token=token, status=status, response=body
        )
        with self._changed:
            self._calls.append(call)
            self._changed.notify_all()
        return JSONResponse(body, status_code=status)

    def _raise_injected_fault(self, method: str) -> None:
        with self._lock:
            queue = self._faults.get(method)
            if not queue:
                return
            fault = queue[0]
            fault.times -= 1
            if fault.times <= 0:
                queue.pop(0)
        raise _ApiError(fault.status, fault.description, fault.parameters)

    # ---- Bot API methods -------------------------------------------------------------------

    def _chat_for(self, chat_id: Any) -> JSON:
        """Caller holds the lock."""
        if chat_id is None or chat_id == "":
            raise _ApiError(400, "Bad Request: chat_id is empty")
        known = self._chats.get(chat_id)
        if known is not None:
            return copy.deepcopy(known)
        if isinstance(chat_id, int) and chat_id > 0:
            return {"id": chat_id, "first_name": "User", "type": "private"}
        if isinstance(chat_id, int):
            kind = "supergroup" if str(chat_id).startswith("-100") else "group"
            return {"id": chat_id, "title": f"Chat {chat_id}", "type": kind}
        return {"id": chat_id, "title": str(chat_id), "type": "channel"}

    def _stored_message(self, params: Params) -> JSON:
        """Caller holds the lock."""
        chat_id = params.get("chat_id")
        message_id = params.get("message_id")
        if chat_id is None or chat_id == "":
            raise _ApiError(400, "Bad Request: chat_id is empty")
        if message_id is None:
            raise _ApiError(400, "Bad Request: message identifier is not specified")
        message = self._messages.get(chat_id, {}).get(message_id)
        if message is None:
            raise _ApiError(400, "Bad Request: message to edit not found")
        return message

    @staticmethod
    def _check_markup(markup: Any) -> None:
        if markup is None:
            return
        if not isinstance(markup, dict):
            raise _ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and len(data.encode("utf-8")) > MAX_CALLBACK_DATA_BYTES:
                    raise _ApiError(400, "Bad Request: BUTTON_DATA_INVALID")

    @staticmethod
    def _check_text(text: Any) -> str:
        if not isinstance(text, str) or not text.strip():
            raise _ApiError(400, "Bad Request: message text is empty")
        if _utf16_length(text) > MAX_MESSAGE_LENGTH:
            raise _ApiError(400, "Bad Request: message is too long")
        return text

    async def _get_me(self, params: Params) -> JSON:
        return copy.deepcopy(self.bot)

    async def _send_message(self, params: Params) -> JSON:
        text = self._check_text(params.get("text"))
        markup = _normalize_markup(params.get("reply_markup"))
        self._check_markup(markup)
        with self._lock:
            chat = self._chat_for(params.get("chat_id"))
            chat_id = chat["id"]
            message_id = self._last_message_id.get(chat_id, 0) + 1
            self._last_message_id[chat_id] = message_id
            message: JSON = {
                "message_id": message_id,
                "from": copy.deepcopy(self.bot),
                "chat": chat,
                "date": int(time.time()),
                "text": text,
            }
            if params.get("entities"):
                message["entities"] = copy.deepcopy(params["entities"])
            if markup is not None:
                message["reply_markup"] = copy.deepcopy(markup)
            self._messages.setdefault(chat_id, {})[message_id] = message
            return copy.deepcopy(message)

    async def _send_photo(self, params: Params) -> JSON:
        """The photo is kept in the recorded call (an UploadedFile when uploaded); the message
        gets a photo size naming it and the caption, if any."""
        photo = params.get("photo")
        if photo is None or photo == "" or (isinstance(photo, UploadedFile) and not photo.data):
            raise _ApiError(400, "Bad Request: there is no photo in the request")
        caption = params.get("caption")
        if caption is not None and _utf16_length(str(caption)) > MAX_CAPTION_LENGTH:
            raise _ApiError(400, "Bad Request: message caption is too long")
        with self._lock:
            chat = self._chat_for(params.get("chat_id"))
            chat_id = chat["id"]
            message_id = self._last_message_id.get(chat_id, 0) + 1
            self._last_message_id[chat_id] = message_id
            size = len(photo.data) if isinstance(photo, UploadedFile) else 0
            message: JSON = {"message_id": message_id, "from": copy.deepcopy(self.bot), "chat": chat,
                             "date": int(time.time()),
                             "photo": [{"file_id": f"photo-{chat_id}-{message_id}",
                                        "file_unique_id": f"p{message_id}", "width": 1, "height": 1,
                                        "file_size": size}]}
            if caption is not None:
                message["caption"] = caption
            self._messages.setdefault(chat_id, {})[message_id] = message
            return copy.deepcopy(message)

    async def _send_document(self, params: Params) -> JSON:
        """A document uploaded as a multipart file part (its bytes stay in the recorded call)."""
        document = params.get("document")
        if not isinstance(document, UploadedFile):
            raise _ApiError(400, "Bad Request: there is no document in the request")
        with self._lock:
            chat = self._chat_for(params.get("chat_id"))
            chat_id = chat["id"]
            message_id = self._last_message_id.get(chat_id, 0) + 1
            self._last_message_id[chat_id] = message_id
            message: JSON = {
                "message_id": message_id, "from": copy.deepcopy(self.bot), "chat": chat,
                "date": int(time.time()),
                "document": {"file_id": f"doc-{chat_id}-{message_id}", "file_unique_id": f"u{message_id}",
                             "file_name": document.filename, "mime_type": document.content_type,
                             "file_size": len(document.data)},
            }
            if params.get("caption"):
                message["caption"] = params["caption"]
            self._messages.setdefault(chat_id, {})[message_id] = message
            return copy.deepcopy(message)

    def _edit(self, params: Params, text: str | None) -> JSON | bool:
        if params.get("inline_message_id"):
            return True  # Telegram answers True for inline messages
        markup = _normalize_markup(params.get("reply_markup"))
        self._check_markup(markup)
        with self._lock:
            message = self._stored_message(params)
            new_text = message.get("text") if text is None else text
            if new_text == message.get("text") and markup == message.get("reply_markup"):
                raise _ApiError(400, NOT_MODIFIED)
            message["text"] = new_text
            if text is not None:
                message.pop("entities", None)
                if params.get("entities"):
                    message["entities"] = copy.deepcopy(params["entities"])
            if markup is None:
                message.pop("reply_markup", None)
            else:
                message["reply_markup"] = copy.deepcopy(markup)
            message["edit_date"] = int(time.time())
            return copy.deepcopy(message)

    async def _edit_message_text(self, params: Params) -> JSON | bool:
        return self._edit(params, self._check_text(params.get("text")))

    async def _edit_message_reply_markup(self, params: Params) -> JSON | bool:
        return self._edit(params, None)

    async def _answer_callback_query(self, params: Params) -> bool:
        query_id = params.get("callback_query_id")
        text = params.get("text")
        if isinstance(text, str) and len(text) > 200:
            raise _ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        with self._lock:
            if not query_id or query_id in self._answered_callbacks:
                raise _ApiError(400, QUERY_TOO_OLD)
            self._answered_callbacks.add(query_id)
        return True

    async def _set_webhook(self, params: Params) -> _Described:
        url = params.get("url", "")
        if not url:  # an empty url removes the webhook
            return await self._delete_webhook(params)
        with self._lock:
            self._webhook = {
                "url": url,
                "max_connections": params.get("max_connections", 40),
                "allowed_updates": params.get("allowed_updates"),
                "has_secret_token": bool(params.get("secret_token")),
            }
            if params.get("drop_pending_updates"):
                self._updates.clear()
        return _Described(True, "Webhook was set")

    async def _delete_webhook(self, params: Params) -> _Described:
        with self._lock:
            had = bool(self._webhook)
            self._webhook = {}
            if params.get("drop_pending_updates"):
                self._updates.clear()
        return _Described(True, "Webhook was deleted" if had else "Webhook is already deleted")

    async def _get_webhook_info(self, params: Params) -> JSON:
        with self._lock:
            info: JSON = {
                "url": self._webhook.get("url", ""),
                "has_custom_certificate": False,
                "pending_update_count": len(self._updates),
            }
            if self._webhook:
                info["max_connections"] = self._webhook["max_connections"]
                if self._webhook["allowed_updates"] is not None:
                    info["allowed_updates"] = self._webhook["allowed_updates"]
            return info

    @staticmethod
    def _commands_key(params: Params) -> str:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps([scope, params.get("language_code", "")], sort_keys=True)

    async def _set_my_commands(self, params: Params) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _ApiError(400, "Bad Request: can't parse commands JSON object")
        with self._lock:
            self._commands[self._commands_key(params)] = copy.deepcopy(commands)
        return True

    async def _get_my_commands(self, params: Params) -> list[JSON]:
        with self._lock:
            return copy.deepcopy(self._commands.get(self._commands_key(params), []))

    async def _delete_my_commands(self, params: Params) -> bool:
        with self._lock:
            self._commands.pop(self._commands_key(params), None)
        return True

    async def _get_updates(self, params: Params) -> list[JSON]:
        offset = params.get("offset") or 0
        limit = params.get("limit") or 100
        limit = max(1, min(int(limit), 100))
        timeout = float(params.get("timeout") or 0)
        deadline = time.monotonic() + max(0.0, min(timeout, self.max_poll_timeout))
        with self._lock:
            if self._webhook:
                raise _ApiError(409, WEBHOOK_CONFLICT)
            if offset > 0:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            elif offset < 0:
                self._updates = self._updates[offset:]
        while True:
            with self._lock:
                pending = copy.deepcopy(self._updates[:limit])
            if pending or self._stopping or time.monotonic() >= deadline:
                return pending
            await asyncio.sleep(0.01)

    async def _get_file(self, params: Params) -> JSON:
        with self._lock:
            stored = self._files.get(str(params.get("file_id")))
        if stored is None:
            raise _ApiError(400, "Bad Request: invalid file_id")
        file_id = str(params["file_id"])
        return {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_size": len(stored[1]),
                "file_path": stored[0]}

    async def _send_chat_action(self, params: Params) -> bool:
        with self._lock:
            self._chat_for(params.get("chat_id"))
        if not params.get("action"):
            raise _ApiError(400, "Bad Request: action is empty")
        return True

    async def _get_chat(self, params: Params) -> JSON:
        with self._lock:
            chat = self._chat_for(params.get("chat_id"))
        chat.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        return chat


def _messages_in(update: JSON) -> Iterator[JSON]:
    for key in ("message", "edited_message", "channel_post", "edited_channel_post"):
        value = update.get(key)
        if isinstance(value, dict):
            yield value
    query = update.get("callback_query")
    if isinstance(query, dict) and isinstance(query.get("message"), dict):
        yield query["message"]

