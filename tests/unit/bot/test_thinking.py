"""While the model works the chat is kept informed (issue 26, finding 8): Telegram's "typing" is
refreshed before it lapses (~5 s), and after ~10 s one short "pensando…" message goes out, which
the answer then replaces (or which is deleted). Time here is a controllable clock: `sleep` moves
it, and the model answers once it reaches a given second; no test waits for real time."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from bot.app.outcomes import Outcome, Reply
from bot.telegram.delivery import THINKING_AFTER, TYPING_AFTER, TYPING_EVERY, answer_while_working
from bot.texts import messages

CHAT = -2608


@dataclass
class FakeBot:
    """What reaches Telegram, stamped with the controllable clock's second."""

    clock: VirtualTime
    calls: list[tuple[float, str, Any]] = field(default_factory=list)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(501))

    async def send_chat_action(self, chat_id: int, action: str) -> bool:
        self.calls.append((self.clock.now, "typing", action))
        return True

    async def send_message(self, chat_id: int, text: str, **_: Any) -> Any:
        message_id = next(self.ids)
        self.calls.append((self.clock.now, "send", (message_id, text)))
        return SimpleNamespace(chat_id=chat_id, message_id=message_id)

    async def edit_message_text(self, text: str, *, chat_id: int, message_id: int, **_: Any) -> Any:
        self.calls.append((self.clock.now, "edit", (message_id, text)))
        return True

    async def delete_message(self, chat_id: int, message_id: int) -> bool:
        self.calls.append((self.clock.now, "delete", message_id))
        return True

    def of(self, kind: str) -> list[tuple[float, Any]]:
        return [(at, what) for at, done, what in self.calls if done == kind]


@dataclass
class VirtualTime:
    """`sleep` advances `now`; the model's answer is released once `now` reaches `answer_at`."""

    answer_at: float
    now: float = 0.0
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    async def sleep(self, seconds: float) -> None:
        if self.answered.is_set():
            await asyncio.Event().wait()  # the work is done: wait to be stopped
        self.now += seconds
        if self.now >= self.answer_at:
            self.answered.set()
        await asyncio.sleep(0)

    def model(self, outcomes: list[Outcome]) -> Callable[[], Awaitable[list[Outcome]]]:
        async def work() -> list[Outcome]:
            if self.answer_at > 0:
                await self.answered.wait()
            return outcomes
        return work


async def answered(answer_at: float, outcomes: list[Outcome]) -> FakeBot:
    time = VirtualTime(answer_at)
    bot = FakeBot(time)
    context = SimpleNamespace(bot=bot, bot_data={})
    await answer_while_working(context, CHAT, time.model(outcomes)(), sleep=time.sleep)  # type: ignore[arg-type]
    return bot


async def test_a_slow_answer_keeps_typing_says_pensando_after_ten_seconds_and_becomes_the_answer() -> None:
    bot = await answered(31, [Reply("Em junho vocês gastaram R$ 37,90.")])

    typing = [at for at, _ in bot.of("typing")]
    [(said_at, (thinking_id, said))] = bot.of("send")
    [(_, (edited_id, answer))] = bot.of("edit")

    assert typing[0] == TYPING_AFTER and all(b - a <= TYPING_EVERY < 5 for a, b in itertools.pairwise(typing))
    assert typing[-1] >= 28  # still typing while the model works
    assert said == messages.thinking_text() and said_at == THINKING_AFTER == 10
    assert (edited_id, answer) == (thinking_id, "Em junho vocês gastaram R$ 37,90.")
    assert bot.of("delete") == []


async def test_a_quick_answer_is_sent_as_usual_without_pensando_or_typing() -> None:
    bot = await answered(0, [Reply("Pronto.")])

    assert [what for _, what in bot.of("send")] == [(501, "Pronto.")]
    assert bot.of("edit") == [] and bot.of("delete") == []
    assert bot.of("typing") == []  # out before the grace: no Bot API round trip for it


async def test_a_slow_answer_that_cannot_replace_pensando_deletes_it_and_is_sent_apart() -> None:
    long = "\n".join(["Uma linha do extrato."] * 400)  # over 4,096 characters: several messages

    bot = await answered(12, [Reply(long)])

    sent = [text for _, (_, text) in bot.of("send")]
    [(_, deleted)] = bot.of("delete")
    assert sent[0] == messages.thinking_text() and deleted == 501
    assert "".join(sent[1:]).count("Uma linha do extrato.") == 400


async def test_a_slow_model_that_says_nothing_leaves_no_pensando_behind() -> None:
    bot = await answered(15, [])

    [(_, deleted)] = bot.of("delete")
    assert deleted == 501 and bot.of("edit") == []
