"""Confirmar and Cancelar as Telegram delivers them: many at once, in the wrong order, from the
wrong person, with forged data. Exactly one write, or none, and an answer to every press."""

from __future__ import annotations

from tests.e2e.harness import (
    ANA,
    BRUNO,
    STRANGER,
    BotStarter,
    Group,
    alerted,
    answer_text,
    post_concurrently,
    without_keyboard,
)
from tests.fakes.telegram_api import FakeTelegramAPI

CHAT = -1003000000001
OTHER_CHAT = -1003000000002

CONFIRMED = "✅ Confirmado."
ALREADY = "Essa operação já foi confirmada."


def couple_with_groceries(tg: FakeTelegramAPI, start_bot: BotStarter, chat_id: int = CHAT) -> Group:
    """A household with Ana and Bruno and a confirmed "Mercado" expense of R$ 1.500,00."""
    casa = Group(tg, start_bot.running[0] if start_bot.running else start_bot(), chat_id)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    return casa


def test_ten_simultaneous_presses_by_both_members_write_once(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = couple_with_groceries(tg, start_bot)
    spend = casa.propose(BRUNO, "/gasto 37,90 mercado")
    since = casa.mark()
    presses = [casa.press_update(ANA if i % 2 else BRUNO, spend.confirm, spend.message_id)
               for i in range(10)]

    statuses = post_concurrently([(casa.webhook, update) for update in presses])

    assert statuses == [200] * 10
    answers = [casa.wait_answer(update["callback_query"]["id"]) for update in presses]
    texts = sorted(answer_text(a) for a in answers)
    assert texts.count(CONFIRMED) == 1, texts
    assert texts.count(ALREADY) == 9, texts
    edit = casa.wait_edit(spend.message_id, since=since)
    assert without_keyboard(edit) and "Gasto registrado" in edit.params["text"]
    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 37,90" in summary
    assert "R$ 75,80" not in summary and "R$ 379,00" not in summary, summary


def test_cancelar_then_confirmar_writes_nothing_and_the_second_press_is_alerted(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = couple_with_groceries(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 200 mercado")

    since = casa.mark()
    cancelled = casa.press(ANA, spend.cancel, spend.message_id)
    assert answer_text(cancelled) == "❌ Cancelado." and not alerted(cancelled)
    edit = casa.wait_edit(spend.message_id, since=since)
    assert without_keyboard(edit)
    assert edit.params["text"].startswith("❌ Cancelado por Ana") and "Nada foi registrado" in edit.params["text"]

    late = casa.press(BRUNO, spend.confirm, spend.message_id)
    assert alerted(late)
    assert answer_text(late) == "Essa operação foi cancelada e não pode mais ser confirmada."

    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 200,00" not in summary, summary
    assert "R$ 0,00" in summary


def test_a_strangers_press_is_alerted_and_writes_nothing_while_the_preview_stays_open(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = couple_with_groceries(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 80 mercado")

    since = casa.mark()
    refused = casa.press(STRANGER, spend.confirm, spend.message_id)
    assert alerted(refused) and "/entrar" in answer_text(refused)
    refused_cancel = casa.press(STRANGER, spend.cancel, spend.message_id)
    assert alerted(refused_cancel)
    casa.settle()
    assert not [c for c in tg.calls[since:] if c.method == "editMessageText"], "the preview is untouched"
    assert "R$ 80,00" not in casa.reply_to(ANA, "/resumo")

    answer, _ = casa.confirm(BRUNO, spend)
    assert answer_text(answer) == CONFIRMED, "a member can still confirm it"
    assert "R$ 80,00" in casa.reply_to(ANA, "/resumo")


def test_forged_callback_data_and_another_chats_callback_data_are_alerted_and_write_nothing(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = couple_with_groceries(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 80 mercado")
    # Another household, in another chat, with a preview of its own; Ana is a member there too.
    vizinhos = couple_with_groceries(tg, start_bot, OTHER_CHAT)
    theirs = vizinhos.propose(BRUNO, "/gasto 55 mercado")
    since = casa.mark()

    key = spend.confirm.partition(":")[2]
    forged = [
        "ok:AAAAAAAAAAAAAAAA",              # the right shape, no such operation
        "ok:" + key[::-1],                  # a near miss of a real key
        "ok:" + "A" * 60,                   # too long to be a key
        "ok:" + key[:-1] + "\x00",          # a NUL byte, which PostgreSQL refuses in text
        "ok:çãõ€",
        "delete:" + key,                    # not an action of ours
        "hello",
        "",
        "ok:",
        theirs.confirm,                     # a real key, of the other chat
        theirs.cancel,
    ]
    for data in forged:
        answer = casa.press(ANA, data, spend.message_id)
        assert alerted(answer), (data, answer.params)
        assert answer_text(answer) and len(answer_text(answer)) <= 200

    # A press on a message the bot never sent here, with real data of the other chat.
    answer = casa.press(ANA, theirs.confirm, 9999)
    assert alerted(answer)

    casa.settle()
    vizinhos.settle()
    assert not [c for c in tg.calls[since:] if c.method == "editMessageText"], "no preview was touched"
    assert "R$ 55,00" not in vizinhos.reply_to(ANA, "/resumo")
    assert "R$ 80,00" not in casa.reply_to(ANA, "/resumo")
    # Both previews are still open to their own members.
    assert answer_text(vizinhos.confirm(ANA, theirs)[0]) == CONFIRMED
    assert answer_text(casa.confirm(BRUNO, spend)[0]) == CONFIRMED
    assert "R$ 55,00" in vizinhos.reply_to(ANA, "/resumo")
