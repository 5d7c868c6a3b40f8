"""Issue 17's cases (21-25): a preview nobody saw is never written, no update blocks its chat,
look-alike names are refused, an edited command writes at most once, and 50 tool calls in one
answer are capped. Each runs the bot over its webhook against the fake Telegram and model."""

from __future__ import annotations

import json
import time
from decimal import Decimal
from typing import Any

import httpx

from bot.telegram.retries import SEND_ATTEMPTS
from bot.texts import messages
from domain.agent.chat import MAX_TOOL_CALLS_PER_ANSWER, TOO_MANY_CALLS_REPLY
from tests.e2e.harness import ANA, BRUNO, SECRET, SECRET_HEADER, Group, Person, previews_in
from tests.fakes.llm_server import FakeLLMServer, delay, text, tool_calls
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.reliability.conftest import Bots, couple_with_groceries
from tests.reliability.report import Figures
from tests.reliability.support import MONTH, actual_at, inbox_at, operations_at, sync

UNSEEN_CHAT = -1017000000001
POISON_CHAT = -1017000000002
NAMES_CHAT = -1017000000003
EDIT_CHAT = -1017000000004
CALLS_CHAT = -1017000000005


def spend(operation_id: str, amount: str, *, confirm: bool = False) -> dict[str, Any]:
    return {"expense": "Mercado", "period": MONTH, "operationId": operation_id, "confirm": confirm,
            "amount": {"amount": Decimal(amount), "currency": "BRL"}}


def texts(casa: Group, since: int) -> list[str]:
    return [str(c.params["text"]) for c in casa.sent(since)]


def test_a_preview_that_never_reached_the_chat_is_never_written_by_button_reply_or_model(
        tg: FakeTelegramAPI, llm: FakeLLMServer, bots: Bots, figures: Figures) -> None:
    bot = bots.start(llm, llm_max_tokens=8192)  # the answer below is longer than the default cap
    casa = couple_with_groceries(tg, bot, UNSEEN_CHAT)

    # A reply over 4,096 characters (Telegram would answer 400) goes out in parts, and the preview
    # after it all the same.
    # The model's words come with its proposal: a proposing answer ends the turn (contract §8).
    llm.script([tool_calls(("recordSpend", spend("op-long", "900")), content="Veja os detalhes. " * 300)])
    since = casa.mark()
    casa.say(ANA, "acho que gastei 900 no mercado", replies=3)  # the text in two parts, the preview
    refused = [c for c in tg.calls[since:] if c.method == "sendMessage" and c.status == 400]
    parts = [c for c in tg.calls[since:] if c.method == "sendMessage" and c.status == 200
             and "reply_markup" not in c.params]
    posted_after_long = len(previews_in(tg.calls[since:], UNSEEN_CHAT))
    casa.press(ANA, previews_in(tg.calls[since:], UNSEEN_CHAT)[0].cancel,
               previews_in(tg.calls[since:], UNSEEN_CHAT)[0].message_id)

    # Telegram answers 502 to every attempt at the text and at the preview: the preview is
    # closed and the chat told; then a forged button, a member's "confirma" and the model try.
    llm.script([tool_calls(("recordSpend", spend("op-502", "900")), content="Confirma?")])
    # (the text's attempts, the one notice that it was lost, the preview's attempts)
    tg.fail_next("sendMessage", status=502, times=SEND_ATTEMPTS + 1 + SEND_ATTEMPTS)
    since = casa.mark()
    casa.say(ANA, "acho que gastei 900 no mercado", replies=1)
    told = messages.preview_not_shown_text() in texts(casa, since)
    unseen = sync(operations_at(bots.url, UNSEEN_CHAT))["op-502"]

    button = casa.press(BRUNO, f"ok:{unseen['key']}", message_id=999_999)
    casa.say(BRUNO, "confirma", replies=1)  # nothing pending: said without the model (issue 26)
    llm.script([tool_calls(("recordSpend", spend("op-502", "900", confirm=True))), text("Pronto!")])
    casa.say(ANA, "ué, deu erro? pode confirmar", replies=1)

    written = sync(actual_at(bots.url, UNSEEN_CHAT))
    status = sync(operations_at(bots.url, UNSEEN_CHAT))["op-502"]["status"]
    closed = "closed" if status == "cancelled" else status
    writes = "0 writes" if written == 0 else f"R$ {written:f} written"
    held = figures.add(
        21, f"{bots.backend}, reply > 4,096 chars; 502 on every send", attempts=5,
        expected="long reply: 2 parts, 0x400, preview posted; 502: preview closed, chat told, 0 writes "
                 "by button, reply and model",
        seen=f"long reply: {len(parts)} parts, {len(refused)}x400, "
             f"{'preview posted' if posted_after_long else 'no preview'}; "
             f"502: preview {closed}, chat {'told' if told else 'not told'}, {writes} "
             "by button, reply and model")
    assert held
    assert written == Decimal(0) and button.params.get("show_alert")


def test_a_poisoned_update_does_not_block_its_chat_and_hostile_bodies_get_400(
        tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    bot = bots.start()
    casa = Group(tg, bot, POISON_CHAT)
    casa.reply_to(ANA, "/start")

    poisoned = casa.message(ANA, "/ajuda")
    poisoned["message"]["x"] = {"$decimal": "bad"}
    poisoned["message"]["from"]["y"] = [{"$decimal": "NaN-bad"}, {"$date": "never"}]
    assert casa.post(poisoned).status_code == 200
    since = casa.mark()
    for _ in range(10):
        assert casa.post(casa.message(ANA, "/ajuda")).status_code == 200
    answered = casa.wait_sent(count=11, since=since)  # the poisoned one is answered too

    def raw(body: bytes) -> int:
        return httpx.post(bot.webhook_url, content=body, timeout=10,
                          headers={SECRET_HEADER: SECRET, "Content-Type": "application/json"}).status_code

    hostile = {
        "update id 2^63": raw(json.dumps({"update_id": 2**63, "message": {}}).encode()),
        "5,000-level nesting": raw(b'{"update_id": 1, "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
        "lone surrogate": raw(b'{"update_id": 2, "message": {"text": "\\ud800"}}'),
        "not an object": raw(b"[1, 2]"),
        "5 MB text": raw(json.dumps({"update_id": 3, "message": {"text": "x" * 5_000_000}}).encode()),
    }
    statuses = sync(inbox_at(bots.url))
    held = figures.add(
        22, bots.backend, attempts=11 + len(hostile),
        expected="the next 10 answered; 4x400 and 1x413 for hostile bodies, 0 stored",
        seen=f"the next {len(answered) - 1} answered; "
             f"{sum(s == 400 for s in hostile.values())}x400 and {sum(s == 413 for s in hostile.values())}x413 "
             f"for hostile bodies, {sum(i in statuses for i in (1, 2, 3))} stored")
    assert held, hostile


LOOK_ALIKES = ["Ana\u200b", "\u0410na", "An\u0430", "\u200fAna", "Ana\u202e", "\u0391na", "ANA", "Ana\u3164"]


def test_look_alike_and_invisible_names_are_all_refused(tg: FakeTelegramAPI, bots: Bots,
                                                        figures: Figures) -> None:
    bot = bots.start()
    casa = Group(tg, bot, NAMES_CHAT)
    casa.reply_to(ANA, "/start")
    refused = 0
    for number, name in enumerate(LOOK_ALIKES):
        person = Person(7000 + number, "Zé")
        answer = casa.reply_to(person, f"/entrar {name}")
        refused += "já é usado" in answer
    nul = casa.reply_to(Person(7100, "Zé"), "/entrar Ana\x00")
    refused += nul == messages.nul_byte_text()
    # and a member who joined with a clean name may still say hello
    joined = casa.reply_to(BRUNO, "/entrar")

    held = figures.add(23, bots.backend, attempts=len(LOOK_ALIKES) + 1,
                       expected=f"{len(LOOK_ALIKES) + 1} refused, 0 joined",
                       seen=f"{refused} refused, {len(LOOK_ALIKES) + 1 - refused} joined")
    assert held
    assert "Bruno" in joined


def test_an_edited_command_writes_at_most_once(tg: FakeTelegramAPI, bots: Bots, figures: Figures) -> None:
    bot = bots.start()
    casa = couple_with_groceries(tg, bot, EDIT_CHAT)
    since = casa.mark()
    original = casa.message(ANA, f"/gasto 50 mercado {MONTH}")
    assert casa.post(original).status_code == 200
    casa.wait_sent(count=1, since=since)
    edited = casa.message(ANA, f"/gasto 60 mercado {MONTH}")
    edited["edited_message"] = {**edited.pop("message"), "message_id": original["message"]["message_id"],
                                "edit_date": original["message"]["date"] + 5}
    assert casa.post(edited).status_code == 200
    casa.settle()
    previews = previews_in(tg.calls[since:], EDIT_CHAT)
    for preview in previews:
        casa.confirm(BRUNO, preview)

    written = sync(actual_at(bots.url, EDIT_CHAT))
    writes = sum(op["status"] == "confirmed" for op in sync(operations_at(bots.url, EDIT_CHAT)).values()
                 if op["tool"] == "recordSpend")
    held = figures.add(24, f"{bots.backend}, edit ignored", attempts=2,
                       expected="1 preview, 1 write, R$ 50",
                       seen=f"{len(previews)} preview{'s' if len(previews) != 1 else ''}, "
                            f"{writes} write{'s' if writes != 1 else ''}, R$ {written:.0f}")
    assert held


def test_fifty_tool_calls_in_one_answer_are_capped_and_the_chat_answers_its_next_message(
        tg: FakeTelegramAPI, llm: FakeLLMServer, bots: Bots, figures: Figures) -> None:
    bot = bots.start(llm, llm_max_tokens=8192)  # fifty calls are longer than the default cap
    casa = couple_with_groceries(tg, bot, CALLS_CHAT)
    requests = len(llm.requests)
    # Nothing scripted after the 50 calls: a second request for this message would fail the turn.
    llm.script([tool_calls(*[("recordSpend", spend(f"op-{n}", "1"), f"call_{n}") for n in range(50)])])
    since = casa.mark()
    casa.say(ANA, "registra 50 gastos de 1 real no mercado", replies=1 + MAX_TOOL_CALLS_PER_ANSWER)
    previews = len(previews_in(tg.calls[since:], CALLS_CHAT))
    capped = TOO_MANY_CALLS_REPLY in texts(casa, since)
    asked = len(llm.requests) - requests

    llm.script([delay(1.0, text("Oi! Em que posso ajudar?"))])
    started = time.monotonic()
    [answer] = casa.say(BRUNO, "oi", replies=1)
    seconds = time.monotonic() - started

    proposed = len(sync(operations_at(bots.url, CALLS_CHAT))) - 2  # less the join and the expense
    # The seconds are the figure the issue asks for; the assertion is on what cannot race.
    figures.add(25, f"{bots.backend}, 1 s model", attempts=50,
                expected=f"{MAX_TOOL_CALLS_PER_ANSWER} run, 1 model request, capped reply, next answer < 5 s",
                seen=f"{proposed} run, {asked} model request{'s' if asked != 1 else ''}, "
                     f"{'capped reply' if capped else 'no capped reply'}, next answer "
                     f"{'< 5 s' if seconds < 5 else f'{seconds:.1f} s'} ({seconds:.1f} s)",
                held=proposed == MAX_TOOL_CALLS_PER_ANSWER and asked == 1 and capped and seconds < 5)
    assert (proposed, previews, asked, capped) == (MAX_TOOL_CALLS_PER_ANSWER, MAX_TOOL_CALLS_PER_ANSWER, 1, True)
    assert answer.params["text"] == "Oi! Em que posso ajudar?"
