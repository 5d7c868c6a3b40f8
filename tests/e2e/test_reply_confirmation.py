"""Contract §8: replying "confirma" / "ok" / 👍 or "cancela" / "não" to a preview decides it exactly as
the buttons do, with no model call: with no model configured, with the provider down, and never for
a non-member."""

from __future__ import annotations

from tests.e2e.harness import (
    ANA,
    BRUNO,
    STRANGER,
    BotStarter,
    Group,
    PreviewMessage,
    without_keyboard,
)
from tests.fakes.llm_server import FakeLLMServer, error, text, tool_calls
from tests.fakes.telegram_api import Call, FakeTelegramAPI

CHAT = -1002000000013


def reply(casa: Group, person: object, preview: PreviewMessage, words: str) -> None:
    response = casa.post(casa.reply_update(person, words, preview.message_id))  # type: ignore[arg-type]
    assert response.status_code == 200, response.text


def edited(casa: Group, preview: PreviewMessage, since: int) -> Call:
    return casa.wait_edit(preview.message_id, since=since)


def test_a_reply_confirma_writes_the_preview_once_without_any_model(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)  # no LLM_MODEL at all
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    expense = casa.propose(ANA, "/despesa Mercado 1.500")
    since = casa.mark()
    reply(casa, ANA, expense, "sim")
    assert "Despesa cadastrada por Ana" in edited(casa, expense, since).params["text"]
    first = casa.propose(ANA, "/gasto 37,90 mercado")

    since = casa.mark()
    reply(casa, BRUNO, first, "Confirma!")
    edit = edited(casa, first, since)

    assert without_keyboard(edit) and "Gasto registrado por Bruno" in edit.params["text"]
    assert "R$ 37,90" in edit.params["text"]
    reply(casa, ANA, first, "👍")  # a second reply to a decided preview writes nothing more
    casa.settle()
    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 37,90" in summary and "R$ 75,80" not in summary
    assert expense.message_id != first.message_id


def test_a_reply_nao_cancels_the_preview_and_it_cannot_be_confirmed_later(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)
    casa.reply_to(ANA, "/start")
    preview = casa.propose(ANA, "/despesa Academia 120")

    since = casa.mark()
    reply(casa, ANA, preview, "Não.")
    edit = edited(casa, preview, since)

    assert without_keyboard(edit) and "cancelad" in edit.params["text"].lower()
    reply(casa, ANA, preview, "confirmar")
    casa.settle()
    assert "Academia" not in casa.reply_to(ANA, "/resumo")


def test_with_the_provider_down_a_reply_ok_to_the_agents_preview_confirms_it_and_calls_no_model(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    llm.script([tool_calls(("registerExpense", {"name": "Luz", "expected": {"amount": 180, "currency": "BRL"},
                                                "operationId": "luz"}))])
    preview = casa.propose(ANA, "cadastra a luz, uns 180 por mês")
    requests = len(llm.requests)
    llm.script([error(503)] * 5)  # the provider is down from here on

    since = casa.mark()
    reply(casa, BRUNO, preview, "ok")
    edit = edited(casa, preview, since)

    assert "Despesa cadastrada por Bruno" in edit.params["text"]
    assert len(llm.requests) == requests, "a reply decision never calls the model"
    assert "Luz" in casa.reply_to(ANA, "/resumo")


def test_a_non_members_reply_writes_nothing_and_leaves_the_preview_open(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    preview = casa.propose(ANA, "/despesa Internet 100")

    since = casa.mark()
    reply(casa, STRANGER, preview, "sim")
    casa.settle()

    assert not [c for c in tg.calls[since:] if c.method == "editMessageText"]
    assert "Internet" not in casa.reply_to(ANA, "/resumo")
    assert llm.requests == []
    since = casa.mark()
    reply(casa, ANA, preview, "pode")
    assert "Despesa cadastrada por Ana" in edited(casa, preview, since).params["text"]


def test_a_reply_that_says_more_than_a_decision_goes_to_the_agent(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    preview = casa.propose(ANA, "/despesa Gás 90")
    llm.script([text("Quer que eu mude o valor para 95?")])

    since = casa.mark()
    reply(casa, ANA, preview, "ok, mas foi 95")
    [answer] = casa.wait_sent(since=since)

    assert answer.params["text"] == "Quer que eu mude o valor para 95?"
    assert len(llm.requests) == 1
    assert not [c for c in tg.calls[since:] if c.method == "editMessageText"]


def test_a_confirma_that_replies_to_nothing_confirms_the_one_preview_or_asks_which_with_no_model(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    # Issue 26, findings 6 and 12: it went to the model, which confirmed the newest of several.
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    first = casa.propose(ANA, "/gasto 37,90 mercado")
    second = casa.propose(BRUNO, "/gasto 12,50 mercado")
    requests = len(llm.requests)

    asked = casa.reply_to(BRUNO, "confirma")
    since = casa.mark()
    casa.press(ANA, second.cancel, second.message_id)
    casa.wait_edit(second.message_id, since=since)
    since = casa.mark()
    said = casa.reply_to(ANA, "Confirma!")
    edit = casa.wait_edit(first.message_id, since=since)
    nothing = casa.reply_to(ANA, "ok")

    assert asked.startswith("Há 2 propostas esperando. Qual delas?")
    assert said == "✅ Confirmado: gasto de R$ 37,90 em Mercado, junho de 2026."
    assert "Gasto registrado por Ana" in edit.params["text"]
    assert nothing == "Nada pendente para confirmar."
    assert len(llm.requests) == requests, "no model was asked"
