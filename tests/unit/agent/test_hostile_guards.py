"""The guards of issue 17 that need no database: the cap on one answer's tool calls, the cap on
the text sent to the model, the updates the bot ignores, and how a Telegram send is retried."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from telegram import Update
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.app.conversation import MAX_MODEL_TEXT
from bot.app.outcomes import Reply, Speaker
from bot.app.service import HouseholdService
from bot.telegram.gate import has_nul, ignored
from bot.telegram.retries import SEND_ATTEMPTS, retry_delay, with_retries
from bot.texts import messages
from domain.agent.chat import MAX_TOOL_CALLS_PER_ANSWER, TOO_MANY_CALLS_REPLY, AgentChat
from domain.budget import Budget
from domain.in_memory import InMemoryBudgetRepository
from domain.tools.budget import BudgetStatusTool
from tests.fakes.scripted_model import ScriptedModel, call, calls, say
from tests.fakes.storage import InMemoryStorage

CHAT = -1001
ANA = Speaker(1, "Ana")


async def test_an_answer_with_50_tool_calls_runs_only_10_and_asks_the_model_nothing_more() -> None:
    repo = InMemoryBudgetRepository()
    await repo.save(Budget.create("BRL", id="b1"))
    model = ScriptedModel(calls(*[call("budgetStatus", {"period": "2026-06"}) for _ in range(50)]),
                          say("nunca pedido"))
    chat = AgentChat.create(model, [BudgetStatusTool.create(budget_repo=repo, budget_id="b1")])

    reply = await chat.send("mostra tudo 50 vezes", sender="Ana")

    assert len(reply.tool_calls) == MAX_TOOL_CALLS_PER_ANSWER == 10
    assert reply.text == TOO_MANY_CALLS_REPLY
    assert len(model.requests) == 1
    # the history holds the 10 calls kept, each with its result, so the next turn is well formed
    history = await chat.conversations.recent(chat.conversation_id, 10)
    kept = [m for m in history if m.get("role") == "assistant" and m.get("tool_calls")]
    assert len(kept[0]["tool_calls"]) == 10
    assert sum(m.get("role") == "tool" for m in history) == 10


async def test_a_text_over_the_models_limit_is_answered_in_portuguese_and_never_sent() -> None:
    storage = InMemoryStorage()
    model = ScriptedModel()
    service = HouseholdService(storage, model=model)
    await service.start(CHAT, "Casa", ANA)

    outcomes = await service.talk(CHAT, ANA, "x" * (MAX_MODEL_TEXT + 1))

    assert outcomes == [Reply(messages.text_too_long_text(MAX_MODEL_TEXT))]
    assert "4.000 caracteres" in messages.text_too_long_text(MAX_MODEL_TEXT)
    assert model.requests == []


def update(kind: str, **message: Any) -> Update:
    body: dict[str, Any] = {"message_id": 1, "date": 0, "chat": {"id": CHAT, "type": "group", "title": "C"},
                            **message}
    return Update.de_json({"update_id": 1, kind: body}, None)  # type: ignore[arg-type]


SENDER = {"from": {"id": 1, "is_bot": False, "first_name": "Ana"}}


@pytest.mark.parametrize(("kind", "message", "reason"), [
    ("edited_message", {**SENDER, "text": "/gasto 60 mercado", "edit_date": 1}, "edited message"),
    ("channel_post", {"text": "oi"}, "channel post"),
    ("message", {"text": "oi"}, "no sender"),
    ("message", {**SENDER, "text": "oi"}, None),
])
def test_edited_messages_channel_posts_and_sender_less_updates_are_ignored(
        kind: str, message: dict[str, Any], reason: str | None) -> None:
    assert ignored(update(kind, **message)) == reason


def test_a_nul_byte_in_a_text_or_caption_is_caught() -> None:
    assert has_nul(update("message", **SENDER, text="Ana\x00"))
    assert has_nul(update("message", **SENDER, caption="x\x00y"))
    assert not has_nul(update("message", **SENDER, text="Ana"))


@pytest.mark.parametrize(("error", "attempt", "delay"), [
    (RetryAfter(dt.timedelta(seconds=3)), 1, 3.0),
    (TimedOut(), 1, 0.5),
    (NetworkError("Bad Gateway"), 2, 1.0),
    (NetworkError("Bad Gateway"), SEND_ATTEMPTS, None),
    (BadRequest("Message is too long"), 1, None),
    (Forbidden("bot was kicked"), 1, None),
    (RetryAfter(dt.timedelta(seconds=600)), 1, None),
])
def test_a_send_is_retried_as_the_bot_api_asks_and_a_bad_request_is_final(
        error: Exception, attempt: int, delay: float | None) -> None:
    assert retry_delay(error, attempt) == delay  # type: ignore[arg-type]


async def test_with_retries_waits_between_attempts_and_gives_up_after_the_last() -> None:
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    async def failing() -> None:
        raise NetworkError("Bad Gateway")

    with pytest.raises(NetworkError):
        await with_retries(failing, what="test", sleep=sleep)
    assert waited == [0.5, 1.0]

    answers = iter([TimedOut(), "sent"])

    async def flaky() -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert await with_retries(flaky, what="test", sleep=sleep) == "sent"
