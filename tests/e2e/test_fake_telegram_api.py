"""The fake Telegram Bot API answers the real python-telegram-bot client as Telegram would."""

from __future__ import annotations

import asyncio
import datetime as dtm
import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from telegram import (
    Bot,
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.error import BadRequest, Conflict, InvalidToken, NetworkError, RetryAfter
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

# tests/e2e has no __init__.py, so pytest (prepend import mode) puts only tests/e2e on sys.path and
# the `tests` package is not importable. Harmless once tests/e2e/__init__.py or
# `pythonpath = ["."]` exists.
_REPO_ROOT = str(Path(__file__).resolve().parents[2])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

from tests.fakes.telegram_api import (  # noqa: E402
    BOT_USERNAME,
    FakeTelegramAPI,
    UploadedFile,
    callback_update,
    message_update,
)

TOKEN = "123:ABC"
CHAT_ID = -1001234567890
USER_ID = 4242


@pytest.fixture
def tg() -> Iterator[FakeTelegramAPI]:
    with FakeTelegramAPI(token=TOKEN) as fake:
        yield fake


def keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in pairs]]
    )


async def test_the_bot_learns_its_identity_from_get_me(tg: FakeTelegramAPI) -> None:
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        assert bot.username == BOT_USERNAME
        assert bot.id == 123

    [call] = tg.calls_to("getMe")
    assert call.token == TOKEN
    assert call.ok


async def test_a_sent_message_carries_its_inline_keyboard_and_ids_count_per_chat(
    tg: FakeTelegramAPI,
) -> None:
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        first = await bot.send_message(
            CHAT_ID, "Confirmar despesa?", reply_markup=keyboard(("Sim", "yes"), ("Não", "no"))
        )
        second = await bot.send_message(CHAT_ID, "Outra")
        elsewhere = await bot.send_message(USER_ID, "Privado")

    assert (first.message_id, second.message_id, elsewhere.message_id) == (1, 2, 1)
    assert first.chat.id == CHAT_ID
    assert first.chat.type == "supergroup"
    assert elsewhere.chat.type == "private"
    assert first.from_user is not None and first.from_user.is_bot
    assert first.reply_markup is not None
    assert [b.callback_data for b in first.reply_markup.inline_keyboard[0]] == ["yes", "no"]

    # PTB sent reply_markup as a JSON string inside a form body; the fake decoded it.
    sent = tg.calls_to("sendMessage")[0].params
    assert sent["chat_id"] == CHAT_ID
    assert sent["reply_markup"] == {
        "inline_keyboard": [
            [{"text": "Sim", "callback_data": "yes"}, {"text": "Não", "callback_data": "no"}]
        ]
    }
    assert [m["text"] for m in tg.messages(CHAT_ID)] == ["Confirmar despesa?", "Outra"]


async def test_an_edited_message_keeps_its_id_and_drops_the_keyboard(
    tg: FakeTelegramAPI,
) -> None:
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        sent = await bot.send_message(CHAT_ID, "Confirmar?", reply_markup=keyboard(("Sim", "y")))
        edited = await bot.edit_message_text("Confirmado ✅", CHAT_ID, sent.message_id)

    assert not isinstance(edited, bool)
    assert edited.message_id == sent.message_id
    assert edited.text == "Confirmado ✅"
    assert edited.reply_markup is None
    assert edited.edit_date is not None
    [stored] = tg.messages(CHAT_ID)
    assert stored["text"] == "Confirmado ✅"
    assert "reply_markup" not in stored


async def test_editing_to_the_same_text_and_keyboard_is_rejected_as_not_modified(
    tg: FakeTelegramAPI,
) -> None:
    markup = keyboard(("Sim", "y"))
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        sent = await bot.send_message(CHAT_ID, "Confirmar?", reply_markup=markup)
        # PTB strips "Bad Request: " and capitalize()s the rest: "Message is not modified: ...".
        with pytest.raises(BadRequest, match=r"^Message is not modified") as caught:
            await bot.edit_message_text("Confirmar?", CHAT_ID, sent.message_id, reply_markup=markup)
        assert "message is not modified" in caught.value.message.lower()
        with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
            await bot.edit_message_text("Nada", CHAT_ID, 999)
        only_keyboard = await bot.edit_message_reply_markup(
            CHAT_ID, sent.message_id, reply_markup=keyboard(("Desfazer", "undo"))
        )

    assert not isinstance(only_keyboard, bool)
    assert only_keyboard.text == "Confirmar?"
    assert tg.message(CHAT_ID, sent.message_id)["reply_markup"] == {
        "inline_keyboard": [[{"text": "Desfazer", "callback_data": "undo"}]]
    }
    assert [call.status for call in tg.calls_to("editMessageText")] == [400, 400]


async def test_a_callback_answer_is_recorded_and_a_second_answer_is_too_old(
    tg: FakeTelegramAPI,
) -> None:
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        assert await bot.answer_callback_query("cbq-1", text="Feito", show_alert=True) is True
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_callback_query("cbq-1")

    first = tg.calls_to("answerCallbackQuery")[0]
    assert first.params == {"callback_query_id": "cbq-1", "text": "Feito", "show_alert": True}


async def test_an_injected_429_reaches_ptb_as_retry_after_and_then_clears(
    tg: FakeTelegramAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # int retry_after is deprecated in PTB 22
    tg.fail_next("sendMessage", status=429, retry_after=3)
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(CHAT_ID, "Oi")
        assert caught.value.retry_after == dtm.timedelta(seconds=3)
        again = await bot.send_message(CHAT_ID, "Oi")

    assert again.message_id == 1  # the refused call created no message
    refused = tg.calls_to("sendMessage")[0]
    assert refused.response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 3",
        "parameters": {"retry_after": 3},
    }


async def test_injected_400_and_500_reach_ptb_as_bad_request_and_network_error(
    tg: FakeTelegramAPI,
) -> None:
    too_old = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    tg.fail_next("answerCallbackQuery", status=400, description=too_old)
    tg.fail_next("sendMessage", status=500, times=2)
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        with pytest.raises(BadRequest) as caught:
            await bot.answer_callback_query("cbq-9")
        # capitalize() also lowercases "ID": match Telegram errors case-insensitively.
        assert caught.value.message == (
            "Query is too old and response timeout expired or query id is invalid"
        )
        for _ in range(2):
            with pytest.raises(NetworkError, match="Internal Server Error"):
                await bot.send_message(CHAT_ID, "Oi")
        assert (await bot.send_message(CHAT_ID, "Oi")).message_id == 1


async def test_an_unknown_token_is_unauthorized_and_recorded(tg: FakeTelegramAPI) -> None:
    with pytest.raises(InvalidToken):
        async with Bot("999:WRONG", base_url=tg.bot_base_url):
            pass

    [call] = tg.calls_to("getMe")
    assert (call.token, call.status) == ("999:WRONG", 401)
    assert call.response == {"ok": False, "error_code": 401, "description": "Unauthorized"}


def test_an_unknown_method_is_not_found_and_method_names_ignore_case(
    tg: FakeTelegramAPI,
) -> None:
    with httpx.Client(base_url=f"{tg.base_url}/bot{TOKEN}") as client:
        missing = client.post("/sendTelepathy", json={"chat_id": 1})
        lowercase = client.post("/getme")

    assert missing.status_code == 404
    assert missing.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    assert lowercase.json()["result"]["username"] == BOT_USERNAME
    assert [call.method for call in tg.calls] == ["sendTelepathy", "getMe"]


def test_json_form_and_multipart_bodies_decode_to_the_same_params(tg: FakeTelegramAPI) -> None:
    markup = {"inline_keyboard": [[{"text": "Sim", "callback_data": "y"}]]}
    form = {"chat_id": str(CHAT_ID), "text": "[1] 42", "reply_markup": json.dumps(markup)}
    with httpx.Client(base_url=f"{tg.base_url}/bot{TOKEN}") as client:
        client.post("/sendMessage", json={"chat_id": CHAT_ID, "text": "[1] 42", "reply_markup": markup})
        client.post("/sendMessage", data=form)
        client.post(
            "/sendMessage",
            data=form,
            files={"note": ("nota.bin", b"\x00\xff\r\n--", "application/octet-stream")},
        )

    json_call, form_call, multipart_call = tg.calls_to("sendMessage")
    expected = {"chat_id": CHAT_ID, "text": "[1] 42", "reply_markup": markup}
    assert json_call.params == expected
    assert form_call.params == expected
    assert multipart_call.params == {
        **expected,
        "note": UploadedFile("nota.bin", "application/octet-stream", b"\x00\xff\r\n--"),
    }
    assert [m["message_id"] for m in tg.messages(CHAT_ID)] == [1, 2, 3]


def test_the_update_builders_produce_what_ptb_parses_as_commands_and_button_presses() -> None:
    command = Update.de_json(
        message_update(7, CHAT_ID, USER_ID, "Ana", f"/gastos@{BOT_USERNAME} hoje"), None
    )
    assert command.message is not None
    assert command.message.chat.title == "Casa"
    assert command.message.parse_entities() == {
        command.message.entities[0]: f"/gastos@{BOT_USERNAME}"
    }
    assert command.effective_user is not None and command.effective_user.first_name == "Ana"

    press = Update.de_json(callback_update(8, CHAT_ID, USER_ID, "Ana", "yes", 3), None)
    assert press.callback_query is not None
    assert press.callback_query.data == "yes"
    assert press.callback_query.message is not None
    assert press.callback_query.message.is_accessible
    assert press.callback_query.message.message_id == 3
    assert press.callback_query.message.chat.id == CHAT_ID


async def test_a_polling_application_answers_pushed_messages_and_commands(
    tg: FakeTelegramAPI,
) -> None:
    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(f"eco: {update.effective_message.text}")

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_message(update.effective_chat.id, "Olá!")

    app = Application.builder().token(TOKEN).base_url(tg.bot_base_url).build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))

    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.05, timeout=1)
        tg.push_update(message_update(1, CHAT_ID, USER_ID, "Ana", "mercado 50"))
        tg.push_update(message_update(2, CHAT_ID, USER_ID, "Ana", f"/start@{BOT_USERNAME}"))
        replies = await tg.await_for("sendMessage", count=2, timeout=5)
        await app.updater.stop()
        await app.stop()

    assert [call.params["text"] for call in replies] == ["eco: mercado 50", "Olá!"]
    assert replies[0].params["reply_parameters"]["message_id"] == 1
    # The bot's replies continue the chat's message ids after the users' messages.
    assert [m["message_id"] for m in tg.messages(CHAT_ID)] == [3, 4]
    assert tg.pending_updates == []  # PTB confirmed both with its last offset
    assert tg.calls_to("deleteWebhook")  # start_polling clears any webhook first


async def test_get_updates_waits_at_most_the_cap_and_wakes_for_a_pushed_update(
    tg: FakeTelegramAPI,
) -> None:
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        started = time.monotonic()
        assert await bot.get_updates(timeout=30) == ()
        assert time.monotonic() - started < 2

        asyncio.get_running_loop().call_later(
            0.2, tg.push_update, message_update(5, CHAT_ID, USER_ID, "Ana", "oi")
        )
        [update] = await bot.get_updates(offset=5, timeout=1)
        assert update.update_id == 5
        assert await bot.get_updates(offset=6, timeout=0) == ()


async def test_webhook_and_commands_round_trip_and_polling_conflicts_with_a_webhook(
    tg: FakeTelegramAPI,
) -> None:
    async with Bot(TOKEN, base_url=tg.bot_base_url) as bot:
        assert await bot.set_webhook("https://example.test/hook", secret_token="s3cret")
        assert (await bot.get_webhook_info()).url == "https://example.test/hook"
        with pytest.raises(Conflict, match="webhook is active"):
            await bot.get_updates()
        assert await bot.delete_webhook(drop_pending_updates=True)
        assert (await bot.get_webhook_info()).url == ""

        await bot.set_my_commands([BotCommand("gastos", "Ver gastos")], language_code="pt")
        assert await bot.get_my_commands() == ()
        [command] = await bot.get_my_commands(language_code="pt")
        assert (command.command, command.description) == ("gastos", "Ver gastos")
        assert await bot.delete_my_commands(language_code="pt")
        assert await bot.get_my_commands(language_code="pt") == ()

        assert await bot.send_chat_action(CHAT_ID, "typing")
        chat = await bot.get_chat(CHAT_ID)
        assert chat.type == "supergroup"

    assert tg.calls_to("setWebhook")[0].params["secret_token"] == "s3cret"
    assert tg.calls_to("setWebhook")[0].response["description"] == "Webhook was set"


def test_wait_for_blocks_until_a_call_from_another_thread_arrives(tg: FakeTelegramAPI) -> None:
    def send_later() -> None:
        time.sleep(0.1)
        httpx.post(f"{tg.base_url}/bot{TOKEN}/sendMessage", data={"chat_id": "7", "text": "oi"})

    sender = threading.Thread(target=send_later)
    sender.start()
    [call] = tg.wait_for("sendMessage", lambda c: c.params["chat_id"] == 7, timeout=5)
    sender.join()
    assert call.params["text"] == "oi"

    with pytest.raises(TimeoutError, match="expected 1 call"):
        tg.wait_for("sendMessage", timeout=0.05, since=len(tg.calls))


@pytest.mark.parametrize(("text", "status"), [
    ("a" * 4096, 200),
    ("a" * 4097, 400),
    ("😀" * 2048, 200),  # 4,096 UTF-16 code units
    ("😀" * 2048 + "a", 400),  # 2,049 characters, 4,097 code units
    ("", 400),
    ("  \n ", 400),
])
def test_texts_over_4096_utf16_units_and_empty_texts_are_refused_as_telegram_does(
        tg: FakeTelegramAPI, text: str, status: int) -> None:
    sent = httpx.post(f"{tg.base_url}/bot{TOKEN}/sendMessage", data={"chat_id": str(CHAT_ID), "text": text})
    first = httpx.post(f"{tg.base_url}/bot{TOKEN}/sendMessage", data={"chat_id": str(CHAT_ID), "text": "oi"})
    edited = httpx.post(f"{tg.base_url}/bot{TOKEN}/editMessageText",
                        data={"chat_id": str(CHAT_ID), "message_id": str(first.json()["result"]["message_id"]),
                              "text": text})

    assert (sent.status_code, edited.status_code) == (status, status)
    if status == 400:
        assert sent.json()["ok"] is False and "Bad Request" in sent.json()["description"]
