"""The production `LanguageModel`: any chat model litellm can reach, behind the domain's port.

litellm is imported lazily, on the first call, and only here: importing it costs seconds and
hundreds of MB, and the bot must start (and the domain tests run) without paying that.
Everything litellm can raise is turned into a `ModelFailure` so the chat loop never sees a
provider-specific exception, and never a message that carries an API key.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

from domain.agent.model import FailureKind, ModelFailure

if TYPE_CHECKING:
    from types import ModuleType

    from infra.settings import Settings

__all__ = ["LiteLLMModel", "LiteLLMTranscriber", "count_prompt_tokens", "reads_images"]

logger = logging.getLogger("infra.llm")

DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_NUM_RETRIES = 2
DEFAULT_RETRY_WAIT_SECONDS = 0.5  # then 1, 2, 4 ... up to _MAX_RETRY_WAIT_SECONDS
# A tool call or a reply in the chat is a few hundred tokens; a small model that loops writes until
# this cap (about 100 s at a local model's 10 tokens/s) instead of until the timeout, every retry.
DEFAULT_MAX_TOKENS = 1024
_MAX_RETRY_WAIT_SECONDS = 8.0
_TRANSIENT = frozenset({FailureKind.UNREACHABLE, FailureKind.TIMEOUT, FailureKind.RATE_LIMITED,
                        FailureKind.SERVER_ERROR})
_MAX_DETAIL_CHARS = 300
_MIN_SECRET_CHARS = 4  # shorter "keys" (e.g. "x" for a local vLLM) are placeholders, not secrets
_SECRET_LIKE = re.compile(r"sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+", re.IGNORECASE)
_CHAIN_DEPTH = 12


def _litellm() -> ModuleType:
    """Import litellm on first use, configured to stay offline and quiet."""
    # Without this litellm fetches a model price map from the internet at import time.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    # Otherwise every exception also prints "Give Feedback / Get Help" banners to stdout.
    litellm.suppress_debug_info = True
    return litellm


async def import_litellm() -> ModuleType:
    """litellm, imported on a worker thread: the import takes seconds, and on the event loop it
    would stall every other chat (and a second importer would block on the import lock there).
    Once imported, this costs no thread hop."""
    module = sys.modules.get("litellm")
    if module is not None and getattr(module, "acompletion", None) is not None:
        return _litellm()
    return await asyncio.to_thread(_litellm)


def warm_up(*also: Callable[[], object]) -> asyncio.Task[ModuleType]:
    """Starts importing litellm in the background, right after a worker is healthy, so the
    first member message does not pay for it (issue 13); then runs `also` (other first-use
    costs) on the same thread. Failures surface on first real use."""
    def work() -> ModuleType:
        litellm = _warm()
        for warm in also:
            warm()
        return litellm

    task = asyncio.get_running_loop().create_task(asyncio.to_thread(work), name="litellm-warm-up")
    task.add_done_callback(_log_warm_up)
    return task


def _warm() -> ModuleType:
    """The import, then one offline completion (`mock_response`, no network): litellm's first
    call loads a second of lazy modules and tables of its own, which a member would wait for."""
    litellm = _litellm()
    tool = {"type": "function", "function": {"name": "warmUp", "description": "-",
                                             "parameters": {"type": "object", "properties": {}}}}
    try:
        litellm.completion(model="openai/warm-up", messages=[{"role": "user", "content": "-"}],
                           tools=[tool], mock_response="-", api_key="sk-warm-up")
    except Exception as exc:  # cosmetic: the first real call simply pays for it
        logger.info("litellm warm-up completion skipped: %s", type(exc).__name__)
    return litellm


def _log_warm_up(task: asyncio.Task[ModuleType]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("litellm warm-up import failed: %s", task.exception())


def count_prompt_tokens(
    model: str, messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]] | None
) -> int:
    """Prompt size as the provider's tokenizer sees it (offline for OpenAI/Anthropic/Gemini names)."""
    litellm = _litellm()
    return int(
        litellm.token_counter(
            model=model,
            messages=[dict(m) for m in messages],
            tools=[dict(t) for t in tools] if tools else None,
        )
    )


class LiteLLMModel:
    """A `LanguageModel` over `litellm.acompletion`.

    Options: `timeout` (seconds per attempt, default 30), `num_retries` (default 2; transient
    failures only: unreachable, timeouts, 429 and 5xx, for every provider alike, with exponential
    waits from `retry_wait` seconds, default 0.5),
    `fallbacks` (models tried in order when the primary fails), `temperature`, `max_tokens`
    (the answer's length cap, default 1024; None for the provider's own; an answer cut there is
    an invalid response, never half a tool call), and anything else litellm accepts, passed
    through. Unsupported provider params are dropped, not errors.

    A fallback given as a plain model string does NOT inherit `api_base`/`api_key`: litellm reads
    that provider's credentials from its usual environment variables, so the primary's key is
    never sent to another provider. Give a dict {"model", "api_base", "api_key", ...} to set them.
    """

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        **options: Any,
    ) -> None:
        self.model = model
        self._api_base = api_base
        self._api_key = api_key
        self._timeout = float(options.pop("timeout", DEFAULT_TIMEOUT_SECONDS))
        self._num_retries = int(options.pop("num_retries", DEFAULT_NUM_RETRIES))
        self._retry_wait = float(options.pop("retry_wait", DEFAULT_RETRY_WAIT_SECONDS))
        self._fallbacks = [_fallback_target(f) for f in options.pop("fallbacks", None) or ()]
        if options.get("temperature") is None:
            options.pop("temperature", None)
        options.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
        if options["max_tokens"] is None:
            options.pop("max_tokens")
        self._options = options
        self._secrets = [
            s
            for s in [api_key, *(t.get("api_key") for t in self._fallbacks)]
            if isinstance(s, str) and len(s) >= _MIN_SECRET_CHARS
        ]

    def __repr__(self) -> str:
        return f"LiteLLMModel(model={self.model!r}, api_base={self._api_base!r})"

    def reads_images(self) -> bool:
        """False when litellm's model map says this model takes no image input (see `reads_images`)."""
        return reads_images(self.model)

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        """One assistant message for the conversation; tries the fallbacks if the primary fails."""
        primary = {"model": self.model, "api_base": self._api_base, "api_key": self._api_key}
        targets = [primary, *self._fallbacks]
        failure: ModelFailure | None = None
        for index, target in enumerate(targets):
            if index:
                logger.warning("llm falling back model=%s after %s", target["model"], failure)
            try:
                return await self._complete_once(target, messages, tools)
            except ModelFailure as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def _complete_once(
        self, target: Mapping[str, Any], messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """One target, retried on transient failures: the same policy for every provider.

        (litellm's providers disagree: the OpenAI SDK retries by itself, anthropic/, gemini/ and
        ollama_chat/ do not; so litellm's own retries are off and this loop is the only one.)
        """
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self._num_retries + 1),
            wait=wait_exponential(multiplier=self._retry_wait, max=_MAX_RETRY_WAIT_SECONDS),
            retry=retry_if_exception(lambda e: isinstance(e, ModelFailure) and e.kind in _TRANSIENT),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await self._attempt(target, messages, tools)
        raise AssertionError("unreachable: tenacity reraises the last failure")

    async def _attempt(
        self, target: Mapping[str, Any], messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        litellm = await import_litellm()
        model = str(target["model"])
        request: dict[str, Any] = {
            **self._options,
            **{k: v for k, v in target.items() if v is not None},
            "messages": messages,
            "timeout": self._timeout,
            # Retries are ours (see _complete_once); the OpenAI SDK's and litellm's are off.
            "max_retries": 0,
            "num_retries": 0,
            "drop_params": True,
        }
        if tools:  # OpenAI rejects `tools: []`
            request["tools"] = tools
        started = time.perf_counter()
        try:
            response = await litellm.acompletion(**request)
            message = _assistant_message(response)
        except ModelFailure as exc:
            failure = ModelFailure(exc.kind, self._detail(model, exc.detail))
        except Exception as exc:
            failure = ModelFailure(_classify(exc, litellm), self._detail(model, str(exc)))
        else:
            latency_ms = (time.perf_counter() - started) * 1000
            usage = message["usage"]
            logger.info(
                "llm call model=%s latency_ms=%.0f prompt_tokens=%d completion_tokens=%d tool_calls=%d",
                model,
                latency_ms,
                usage["prompt_tokens"],
                usage["completion_tokens"],
                len(message["tool_calls"] or ()),
            )
            return message
        latency_ms = (time.perf_counter() - started) * 1000
        logger.warning(
            "llm call failed model=%s latency_ms=%.0f kind=%s detail=%s",
            model,
            latency_ms,
            failure.kind.value,
            failure.detail,
        )
        # `from None`: the provider's exception chain may carry request headers or keys.
        raise failure from None

    def _detail(self, model: str, text: str) -> str:
        """A one-line, bounded failure detail with every known key (and key-like token) masked."""
        text = " ".join(text.split())
        for secret in self._secrets:
            text = text.replace(secret, "***")
        text = f"{model}: {_SECRET_LIKE.sub('***', text)}"
        return text if len(text) <= _MAX_DETAIL_CHARS else text[: _MAX_DETAIL_CHARS - 1] + "…"


def _fallback_target(fallback: str | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(fallback, str):
        return {"model": fallback}
    if not isinstance(fallback, Mapping) or not isinstance(fallback.get("model"), str):
        raise TypeError("a fallback is a model string or a mapping with a 'model' string")
    return dict(fallback)


def reads_images(model: str) -> bool:
    """Whether `model` takes image input, as litellm's model map says (`supports_vision`).

    A model the map does not know (a local server's, a new release) is given the benefit of the
    doubt: the provider's own refusal then comes back as a failure reply."""
    litellm = _litellm()
    try:
        litellm.get_model_info(model)
    except Exception:
        return True
    return bool(litellm.supports_vision(model))


def model_from_settings(settings: Settings, model: str, **options: Any) -> LiteLLMModel:
    """`model` with the chat model's endpoint, key, timeout, retries and answer cap (LLM_API_BASE,
    LLM_API_KEY, LLM_TIMEOUT, LLM_NUM_RETRIES, LLM_MAX_TOKENS): the chat model's and the vision
    model's."""
    return LiteLLMModel(
        model,
        api_base=settings.llm_api_base,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
        timeout=settings.llm_timeout,
        num_retries=settings.llm_num_retries,
        max_tokens=settings.llm_max_tokens,
        **options,
    )


class LiteLLMTranscriber:
    """Speech to text through `litellm.atranscription` (OpenAI's whisper-1 by default; Groq, Azure
    and Deepgram through the same model string). Every failure is a `ModelFailure`, without keys."""

    def __init__(self, model: str, *, api_base: str | None = None, api_key: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT_SECONDS * 2) -> None:
        self.model = model
        self._api_base = api_base
        self._api_key = api_key
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"LiteLLMTranscriber(model={self.model!r}, api_base={self._api_base!r})"

    async def transcribe(self, audio: bytes, filename: str) -> str:
        litellm = _litellm()
        request: dict[str, Any] = {"model": self.model, "file": (filename, audio),
                                   "timeout": self._timeout, "max_retries": 0}
        if self._api_base:
            request["api_base"] = self._api_base
        if self._api_key:
            request["api_key"] = self._api_key
        started = time.perf_counter()
        try:
            response = await litellm.atranscription(**request)
        except Exception as exc:
            failure = ModelFailure(_classify(exc, litellm), self._detail(str(exc)))
            logger.warning("transcription failed model=%s kind=%s detail=%s", self.model,
                           failure.kind.value, failure.detail)
            raise failure from None
        text = _field(response, "text")
        if not isinstance(text, str):
            raise ModelFailure(FailureKind.INVALID_RESPONSE, f"{self.model}: no text in the transcription")
        logger.info("transcription model=%s latency_ms=%.0f bytes=%d chars=%d", self.model,
                    (time.perf_counter() - started) * 1000, len(audio), len(text))
        return text.strip()

    def _detail(self, text: str) -> str:
        """As LiteLLMModel._detail: one bounded line, the key and anything key-like masked."""
        text = " ".join(text.split())
        if self._api_key and len(self._api_key) >= _MIN_SECRET_CHARS:
            text = text.replace(self._api_key, "***")
        text = f"{self.model}: {_SECRET_LIKE.sub('***', text)}"
        return text if len(text) <= _MAX_DETAIL_CHARS else text[: _MAX_DETAIL_CHARS - 1] + "…"


# --------------------------------------------------------------------------- response parsing


def _field(obj: Any, name: str) -> Any:
    """Read a field from a litellm pydantic object or a plain dict alike."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _invalid(reason: str) -> ModelFailure:
    return ModelFailure(FailureKind.INVALID_RESPONSE, reason)


def _assistant_message(response: Any) -> dict[str, Any]:
    """The port's plain-dict assistant message, with tool arguments exactly as the provider sent them."""
    choices = _field(response, "choices")
    if not choices:
        raise _invalid("the response has no choices")
    message = _field(choices[0], "message")
    if message is None:
        raise _invalid("the first choice has no message")
    if _field(choices[0], "finish_reason") == "length":
        # A runaway answer (a small model repeating itself): its text is cut mid-sentence and its
        # tool calls mid-JSON, so none of it is passed on.
        raise _invalid("the answer was cut at the max_tokens limit")
    content = _field(message, "content")
    if content is not None and not isinstance(content, str):
        raise _invalid(f"message content is {type(content).__name__}, not text")
    calls = [_tool_call(call, index) for index, call in enumerate(_field(message, "tool_calls") or (), 1)]
    # An empty answer (no text, no calls) is passed on as "": small models give one after a
    # tool result, and the chat loop, not the adapter, knows whether that ends the turn.
    usage = _field(response, "usage")
    return {
        "role": "assistant",
        "content": content if content is not None or calls else "",
        "tool_calls": calls or None,
        "usage": {
            "prompt_tokens": int(_field(usage, "prompt_tokens") or 0),
            "completion_tokens": int(_field(usage, "completion_tokens") or 0),
        },
    }


def _tool_call(call: Any, index: int) -> dict[str, Any]:
    function = _field(call, "function")
    name = _field(function, "name")
    if not isinstance(name, str) or not name:
        raise _invalid(f"tool call #{index} has no function name")
    arguments = _field(function, "arguments")
    if isinstance(arguments, Mapping):  # some non-OpenAI providers hand back parsed JSON
        arguments = json.dumps(arguments, ensure_ascii=False)
    elif arguments is None:
        arguments = "{}"
    elif not isinstance(arguments, str):
        raise _invalid(f"tool call #{index} arguments are {type(arguments).__name__}")
    # Providers without call ids (some local servers) still need one to pair the tool result.
    call_id = _field(call, "id") or f"call_{index}"
    return {"id": str(call_id), "type": "function", "function": {"name": name, "arguments": arguments}}


# --------------------------------------------------------------------------- failure mapping


def _chain(exc: BaseException) -> Iterable[BaseException]:
    """The exception and its causes: litellm re-wraps errors, the real one is further down."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < _CHAIN_DEPTH:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _http_status(exc: BaseException) -> int | None:
    """The status the provider really answered with, if any.

    litellm's own exception classes carry synthetic codes (a refused connection surfaces as
    `InternalServerError`, status 500), so only httpx's and the OpenAI SDK's errors count.
    """
    import httpx
    import openai

    for link in _chain(exc):
        if isinstance(link, httpx.HTTPStatusError):
            return link.response.status_code
        if isinstance(link, openai.APIStatusError) and type(link).__module__.startswith("openai"):
            return link.status_code
    return None


def _kind_for_status(status: int) -> FailureKind:
    if status in (401, 403):
        return FailureKind.AUTHENTICATION
    if status == 408:
        return FailureKind.TIMEOUT
    if status == 429:
        return FailureKind.RATE_LIMITED
    if status == 404:  # wrong model name or base URL
        return FailureKind.NOT_CONFIGURED
    if status >= 500:
        return FailureKind.SERVER_ERROR
    # Other 4xx (context window, schema, content policy): no usable answer for this request.
    return FailureKind.INVALID_RESPONSE


def _classify(exc: BaseException, litellm: ModuleType) -> FailureKind:
    """Map whatever litellm raised to a `FailureKind`, trusting the root cause over the wrapper.

    Observed with litellm 1.110 / openai 3.x: a refused connection is `InternalServerError` with
    httpx.ConnectError below it; a 403 is a bare `APIError`; a 200 whose body is not a chat
    completion is `InternalServerError` with no HTTP error below it.
    """
    import httpx
    import openai

    errors = litellm.exceptions
    chain = list(_chain(exc))
    if any(
        isinstance(link, openai.APITimeoutError | httpx.TimeoutException | TimeoutError) for link in chain
    ):
        return FailureKind.TIMEOUT
    if any(
        isinstance(link, httpx.TransportError | ConnectionError)
        or (isinstance(link, openai.APIConnectionError) and type(link).__module__.startswith("openai"))
        for link in chain
    ):
        return FailureKind.UNREACHABLE
    status = _http_status(exc)
    if status is not None:
        return _kind_for_status(status)
    if any(type(link) is openai.OpenAIError for link in chain):
        # The SDK refused before sending anything (no API key for an `openai/` model, e.g. a local
        # llama.cpp or vLLM server): a set-up problem, not an answer litellm could not read.
        return FailureKind.NOT_CONFIGURED
    # No HTTP error underneath: litellm decided on its own.
    if isinstance(exc, errors.RateLimitError):
        return FailureKind.RATE_LIMITED
    if isinstance(exc, errors.AuthenticationError | errors.PermissionDeniedError):
        return FailureKind.AUTHENTICATION
    if isinstance(exc, errors.APIConnectionError):
        return FailureKind.UNREACHABLE
    if isinstance(exc, errors.BadRequestError | errors.NotFoundError):
        return FailureKind.NOT_CONFIGURED  # e.g. "LLM Provider NOT provided", unknown model
    # The provider answered but litellm could not read a chat completion out of it.
    return FailureKind.INVALID_RESPONSE
