"""The webhook as Telegram uses it: redeliveries, the secret header, and chats that must not wait
for each other."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.e2e.harness import (
    ANA,
    BRUNO,
    SECRET,
    SECRET_HEADER,
    BotStarter,
    Group,
    last_preview,
    post_concurrently,
)
from tests.fakes.llm_server import FakeLLMServer, Reply, delay, text
from tests.fakes.telegram_api import FakeTelegramAPI

CHAT = -1004000000001
SLOW_CHAT = -1004000000002
QUICK_CHAT = -1004000000003
HELD_SECONDS = 60.0  # a delay no test waits out: the test releases it


def test_a_redelivered_update_is_acknowledged_and_processed_once(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    since = casa.mark()
    request = casa.message(ANA, "/despesa Aluguel 2.500 dia 10")

    first = casa.post(request)
    again = casa.post(request)
    together = post_concurrently([(casa.webhook, request)] * 3)

    assert first.status_code == again.status_code == 200
    assert together == [200, 200, 200]
    casa.settle()
    previews = [c for c in casa.sent(since) if c.params.get("reply_markup")]
    assert len(previews) == 1, [c.params["text"] for c in casa.sent(since)]
    casa.confirm(BRUNO, last_preview(tg, CHAT, since))

    # A redelivered press confirms once; the repeat is answered and writes nothing more.
    preview = casa.propose(ANA, "/gasto 99 aluguel")
    press = casa.press_update(BRUNO, preview.confirm, preview.message_id)
    casa.post(press)
    casa.post(press)
    casa.settle()
    answers = [c for c in tg.calls_to("answerCallbackQuery")
               if c.params.get("callback_query_id") == press["callback_query"]["id"]]
    assert len(answers) == 1 and answers[0].params["text"] == "✅ Confirmado."
    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 99,00" in summary and "R$ 198,00" not in summary


def test_a_wrong_or_missing_secret_is_refused_with_403_and_nothing_happens(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    before = len(tg.calls)
    update = casa.message(ANA, "gastei 40 no mercado")
    press = casa.press_update(ANA, "ok:AAAAAAAAAAAAAAAA", 1)

    refused = [
        httpx.post(casa.webhook.webhook_url, json=update, headers={SECRET_HEADER: "wrong"}),
        httpx.post(casa.webhook.webhook_url, json=update, headers={SECRET_HEADER: SECRET + "x"}),
        httpx.post(casa.webhook.webhook_url, json=update, headers={SECRET_HEADER: SECRET[:-1]}),
        httpx.post(casa.webhook.webhook_url, json=update, headers={SECRET_HEADER: ""}),
        httpx.post(casa.webhook.webhook_url, json=update),
        httpx.post(casa.webhook.webhook_url, json=press, headers={SECRET_HEADER: "wrong"}),
        httpx.post(casa.webhook.webhook_url, content=b"not json", headers={SECRET_HEADER: "wrong"}),
    ]

    assert [r.status_code for r in refused] == [403] * len(refused)
    casa.settle()
    new_calls = [c.method for c in tg.calls[before:]]
    assert new_calls == ["sendMessage"], f"only the settling /ajuda was answered: {new_calls}"
    assert llm.requests == [], "no model request"

    # The refused update was not stored: sent properly, it is new, and the model answers it.
    llm.script([text("Anotado.")])
    since = casa.mark()
    assert casa.post(update).status_code == 200
    [reply] = casa.wait_sent(since=since)
    assert reply.params["text"] == "Anotado."
    assert len(llm.requests) == 1


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # inside AIORateLimiter
def test_telegrams_429_is_waited_out_and_the_reply_still_arrives(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)
    since = casa.mark()
    tg.fail_next("sendMessage", status=429, retry_after=1)

    welcome = casa.reply_to(ANA, "/start")

    assert "criada" in welcome
    attempts = [c for c in tg.calls[since:] if c.method == "sendMessage"]
    assert [c.status for c in attempts] == [429, 200]
    assert attempts[1].at - attempts[0].at >= 0.9, "it waited retry_after"


def household_of(request: dict[str, Any]) -> str:
    return str(request["messages"][-1]["content"])  # the working memory rides on the member's message


def test_a_slow_model_in_one_chat_does_not_delay_another_chat(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    # The slow model answers only when the test releases it (or after a minute): the quick chat's
    # answer must come while the slow one is still held, whatever the machine's load.
    def responder(request: dict[str, Any]) -> Reply:
        if "Casa Lenta" in household_of(request):
            return delay(HELD_SECONDS, then=text("Resposta lenta."))
        return text("Resposta rápida.")

    llm.responder = responder
    bot = start_bot(llm, llm_timeout=HELD_SECONDS + 30)
    lenta = Group(tg, bot, SLOW_CHAT, title="Casa Lenta")
    rapida = Group(tg, bot, QUICK_CHAT, title="Casa Rápida")
    lenta.reply_to(ANA, "/start")
    rapida.reply_to(BRUNO, "/start")
    slow_mark, quick_mark = lenta.mark(), rapida.mark()

    assert lenta.post(lenta.message(ANA, "oi, tudo bem?")).status_code == 200
    # Once the slow chat's request is at the model, the other chat speaks.
    deadline = time.monotonic() + 10
    while not llm.requests:
        assert time.monotonic() < deadline, "the slow chat never reached the model"
        time.sleep(0.01)
    assert rapida.post(rapida.message(BRUNO, "oi!")).status_code == 200

    [quick] = rapida.wait_sent(since=quick_mark, timeout=HELD_SECONDS / 2)
    assert lenta.sent(slow_mark) == [], "the slow chat was answered before its model was released"
    llm.release_delays()
    [slow] = lenta.wait_sent(since=slow_mark)
    assert quick.params["text"] == "Resposta rápida." and slow.params["text"] == "Resposta lenta."
    assert quick.at < slow.at


def test_a_commands_answer_goes_through_the_one_send_path_and_outlives_a_telegram_502(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)
    casa.reply_to(ANA, "/start")
    since = casa.mark()
    tg.fail_next("sendMessage", status=502, description="Bad Gateway")

    statement = casa.reply_to(ANA, "/extrato")

    assert "Extrato de" in statement
    attempts = [c for c in tg.calls[since:] if c.method == "sendMessage"]
    assert [c.status for c in attempts] == [502, 200]
