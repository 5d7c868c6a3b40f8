"""A fake OpenAI-compatible chat-completions server on loopback, for tests.

It is a real HTTP server (starlette + uvicorn in a background thread), so the production adapter
is exercised through its whole HTTP stack: serialisation, status codes, headers, timeouts and
retries. Tests script the replies one per request and read back what the client sent:

    with FakeLLMServer() as llm:
        llm.script([tool_calls(("recordSpend", {"amount": Decimal("37.90")}, "call_1")), text("ok")])
        ...  # point the client at llm.base_url
        assert llm.requests[0]["tools"] == TOOLS
"""

from __future__ import annotations

import asyncio
import email.parser
import email.policy
import itertools
import json
import re
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

# --------------------------------------------------------------------------- scripted replies


@dataclass(frozen=True)
class TextReply:
    content: str
    usage: tuple[int, int] | None = None


@dataclass(frozen=True)
class ScriptedToolCall:
    name: str
    arguments: str
    """The exact JSON text sent as `function.arguments` (may be deliberately malformed)."""
    call_id: str


@dataclass(frozen=True)
class ToolCallsReply:
    calls: tuple[ScriptedToolCall, ...]
    content: str | None = None
    usage: tuple[int, int] | None = None


@dataclass(frozen=True)
class ErrorReply:
    status: int
    body: Any = None
    """A JSON-able body, a raw string, or None for an OpenAI-style error object."""
    retry_after: float | None = None


@dataclass(frozen=True)
class DelayReply:
    seconds: float
    then: Reply


@dataclass(frozen=True)
class RawReply:
    """Any body with any status: for responses that are not valid chat completions."""

    body: Any
    status: int = 200


Reply = TextReply | ToolCallsReply | ErrorReply | DelayReply | RawReply
Responder = Callable[[dict[str, Any]], Reply]
ToolCallSpec = tuple[str, Mapping[str, Any]] | tuple[str, Mapping[str, Any], str]


def dumps_exact(value: Any) -> str:
    """json.dumps, but a Decimal is written as the number literal it spells (37.90 -> `37.90`).

    Real models send amounts like `37.90`; a float round-trip would print `37.9` and hide bugs
    where the adapter or the tool layer re-serialises arguments and loses the cents.
    """
    token = uuid.uuid4().hex

    def default(obj: Any) -> Any:
        if isinstance(obj, Decimal):
            if not obj.is_finite():
                raise ValueError(f"{obj} has no JSON number literal")
            return f"{token}{obj}{token}"
        raise TypeError(f"{type(obj).__name__} is not JSON serialisable")

    text = json.dumps(value, default=default, ensure_ascii=False)
    return re.sub(f'"{token}(.*?){token}"', r"\1", text)


def text(content: str, *, usage: tuple[int, int] | None = None) -> TextReply:
    """A plain assistant answer (finish_reason "stop"). `usage` = (prompt, completion) tokens."""
    return TextReply(content, usage)


def tool_calls(
    *calls: ToolCallSpec, content: str | None = None, usage: tuple[int, int] | None = None
) -> ToolCallsReply:
    """One assistant message with tool calls: each call is (name, args) or (name, args, id)."""
    scripted = []
    for index, call in enumerate(calls, start=1):
        name, arguments, *rest = call
        call_id = str(rest[0]) if rest else f"call_{index}"
        scripted.append(ScriptedToolCall(name, dumps_exact(dict(arguments)), call_id))
    return ToolCallsReply(tuple(scripted), content, usage)


def raw_arguments(name: str, arguments: str, call_id: str = "call_1") -> ToolCallsReply:
    """A tool call whose arguments text is sent verbatim, e.g. malformed JSON."""
    return ToolCallsReply((ScriptedToolCall(name, arguments, call_id),))


def error(status: int = 500, body: Any = None, retry_after: float | None = None) -> ErrorReply:
    """An HTTP error. `retry_after` (seconds, may be fractional) sets the Retry-After header,
    which the OpenAI SDK honours, so retry tests need not wait for its default backoff."""
    return ErrorReply(status, body, retry_after)


def delay(seconds: float, then: Reply | None = None) -> DelayReply:
    """Wait before answering (for client timeouts); the server stops waiting when it closes."""
    return DelayReply(seconds, then if then is not None else text("(atrasado)"))


def raw(body: Any, status: int = 200) -> RawReply:
    """Send `body` as is: for responses that are not a valid chat completion."""
    return RawReply(body, status)


# --------------------------------------------------------------------------- the server

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    403: "permission_denied",
    404: "not_found_error",
    429: "rate_limit_exceeded",
}


def _rough_tokens(value: Any) -> int:
    """A deterministic stand-in for a tokenizer: about four characters per token."""
    if value is None:
        return 0
    return max(1, len(value if isinstance(value, str) else json.dumps(value)) // 4)


@dataclass
class FakeLLMServer:
    """An OpenAI-compatible server on 127.0.0.1 with an ephemeral port, used as a context manager.

    Replies come from the script (FIFO, one per POST /v1/chat/completions); when the script is
    empty the `responder` is asked; without one the server answers 500 so the test fails loudly.
    """

    responder: Responder | None = None
    models: tuple[str, ...] = ("fake-model",)
    requests: list[dict[str, Any]] = field(default_factory=list, init=False)
    """Every chat-completions body received, parsed from JSON, in order."""
    headers: list[dict[str, str]] = field(default_factory=list, init=False)
    """The HTTP headers of each chat-completions request, lower-cased names."""
    transcripts: list[str] = field(default_factory=list)
    """Texts answered, one per POST /v1/audio/transcriptions, in order; an int is that error status."""
    audio: list[dict[str, Any]] = field(default_factory=list, init=False)
    """Every transcription request: its form fields and the uploaded file's name and bytes."""

    def __post_init__(self) -> None:
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._released = threading.Event()
        self._ids = itertools.count(1)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self.port = 0

    # ----------------------------------------------------------------- public API

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def release_delays(self) -> None:
        """Ends every `delay` reply now, and any later one at once: a test orders events with
        this instead of racing a delay against a clock."""
        self._released.set()

    def script(self, replies: Iterable[Reply]) -> None:
        """Queue replies, consumed one per chat-completions request."""
        with self._lock:
            self._queue.extend(replies)

    @property
    def pending(self) -> int:
        """How many scripted replies are still unconsumed."""
        with self._lock:
            return len(self._queue)

    def start(self) -> FakeLLMServer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self._socket = sock
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self._app(),
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
            # uvicorn's 5 s keep-alive closes an idle connection just as the client reuses it
            # (a reset, by timing alone); a test's fake keeps its connections for the whole test.
            timeout_keep_alive=3600,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="fake-llm-server", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the fake LLM server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._closing.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._socket is not None:
            self._socket.close()

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ----------------------------------------------------------------- HTTP handling

    def _app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat_completions, methods=["POST"]),
                Route("/v1/models", self._list_models, methods=["GET"]),
                Route("/v1/audio/transcriptions", self._transcriptions, methods=["POST"]),
            ]
        )

    async def _transcriptions(self, request: Request) -> Response:
        """OpenAI's speech to text: a multipart form with `file` and `model`, answered as JSON."""
        fields, files = _multipart(request.headers.get("content-type", ""), await request.body())
        filename, content = files.get("file", (None, b""))
        with self._lock:
            self.audio.append({"model": fields.get("model"), "filename": filename, "content": content,
                               "fields": fields})
            answer: str | int | None = self.transcripts.pop(0) if self.transcripts else None
        if answer is None:
            return _error_response(500, "fake LLM server: no transcript scripted")
        if isinstance(answer, int):
            return _error_response(answer, f"fake transcription error {answer}")
        return JSONResponse({"text": answer})

    @staticmethod
    def images_in(body: dict[str, Any]) -> list[str]:
        """The `image_url` URLs of a chat request's messages (photos sent as content parts)."""
        return [part["image_url"]["url"] for message in body.get("messages", [])
                if isinstance(message.get("content"), list)
                for part in message["content"] if part.get("type") == "image_url"]

    async def _list_models(self, request: Request) -> Response:
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
        return JSONResponse({"object": "list", "data": data})

    async def _chat_completions(self, request: Request) -> Response:
        try:
            body = json.loads(await request.body())
        except ValueError:
            return _error_response(400, "fake LLM server: the request body is not JSON")
        with self._lock:
            self.requests.append(body)
            self.headers.append({k.lower(): v for k, v in request.headers.items()})
            if body.get("stream"):
                return _error_response(400, "fake LLM server: streaming is not supported")
            reply: Reply | None = self._queue.popleft() if self._queue else None
        if reply is None and self.responder is not None:
            reply = self.responder(body)
        if reply is None:
            return _error_response(
                500,
                f"fake LLM server: no scripted reply left for request #{len(self.requests)} "
                "(script more replies or set a responder)",
                "fake_script_exhausted",
            )
        return await self._render(reply, body)

    async def _render(self, reply: Reply, body: dict[str, Any]) -> Response:
        if isinstance(reply, DelayReply):
            await self._sleep(reply.seconds)
            return await self._render(reply.then, body)
        if isinstance(reply, ErrorReply):
            headers = {} if reply.retry_after is None else {"retry-after": str(reply.retry_after)}
            if reply.body is None:
                return _error_response(reply.status, f"fake error {reply.status}", headers=headers)
            return _body_response(reply.body, reply.status, headers)
        if isinstance(reply, RawReply):
            return _body_response(reply.body, reply.status, {})
        return JSONResponse(self._completion(reply, body))

    async def _sleep(self, seconds: float) -> None:
        """Sleep in small steps so closing the server is not held up by a pending delay."""
        deadline = time.monotonic() + seconds
        while not (self._closing.is_set() or self._released.is_set()) and time.monotonic() < deadline:
            await asyncio.sleep(min(0.05, max(0.0, deadline - time.monotonic())))

    def _completion(self, reply: TextReply | ToolCallsReply, body: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if isinstance(reply, ToolCallsReply):
            message["tool_calls"] = [
                {
                    "id": call.call_id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in reply.calls
            ]
            finish_reason = "tool_calls"
            produced: Any = [c.arguments for c in reply.calls] + [reply.content or ""]
        else:
            finish_reason = "stop"
            produced = reply.content
        if reply.usage is not None:
            prompt_tokens, completion_tokens = reply.usage
        else:
            prompt_tokens = _rough_tokens([body.get("messages"), body.get("tools")])
            completion_tokens = _rough_tokens(produced)
        cap = body.get("max_tokens")
        if isinstance(cap, int) and completion_tokens > cap:
            # As a real server does: the answer stops at the cap, mid-text or mid-JSON.
            finish_reason, completion_tokens = "length", cap
            if message["content"]:
                message["content"] = message["content"][: cap * 4]
            for call in message.get("tool_calls", ()):
                call["function"]["arguments"] = call["function"]["arguments"][: cap * 4]
        return {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.models[0]),
            "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }


def _multipart(content_type: str, body: bytes) -> tuple[dict[str, str], dict[str, tuple[str | None, bytes]]]:
    """A multipart/form-data body as its text fields and its files (name -> (filename, bytes))."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    fields: dict[str, str] = {}
    files: dict[str, tuple[str | None, bytes]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if not isinstance(name, str):
            continue
        filename = part.get_filename()
        if filename is None:
            fields[name] = data.decode("utf-8")
        else:
            files[name] = (filename, data)
    return fields, files


def _error_response(
    status: int, message: str, code: str | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    error_type = _ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return JSONResponse(
        {"error": {"message": message, "type": error_type, "param": None, "code": code}},
        status_code=status,
        headers=dict(headers or {}),
    )


def _body_response(body: Any, status: int, headers: Mapping[str, str]) -> Response:
    if isinstance(body, str | bytes):
        return Response(body, status_code=status, headers=dict(headers), media_type="application/json")
    return JSONResponse(body, status_code=status, headers=dict(headers))
