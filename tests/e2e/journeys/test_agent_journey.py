"""Contract §5 with the agent: members' text goes to the model (the fake provider, over litellm),
previews come back as their own messages with buttons, and confirmations edit them."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from tests.e2e.harness import (
    ANA,
    BRUNO,
    STRANGER,
    THIS_MONTH,
    BotStarter,
    Group,
    alerted,
    answer_text,
    previews_in,
    without_keyboard,
)
from tests.fakes.llm_server import FakeLLMServer, error, text, tool_calls
from tests.fakes.telegram_api import FakeTelegramAPI

CHAT = -1002000000001

REGISTER_MERCADO: dict[str, Any] = {
    "name": "Mercado", "expected": {"amount": Decimal("1500"), "currency": "BRL"},
    "aliases": ["supermercado"], "operationId": "op-mercado",
}
SPEND: dict[str, Any] = {
    "expense": "Mercado", "period": THIS_MONTH, "amount": {"amount": Decimal("37.90"), "currency": "BRL"},
    "operationId": "op-spend-1",
}
LUA_DE_MEL: dict[str, Any] = {
    "name": "Lua de mel", "target": {"amount": Decimal("6000"), "currency": "EUR"},
    "contributors": ["Ana", "Bruno"], "deadline": "2028-06-01", "operationId": "op-goal-1",
}


def user_messages(request: dict[str, Any]) -> list[str]:
    """The members' messages as the model read them, without the working memory that rides on the
    newest one."""
    return [m["content"].rsplit("\n\n", 1)[-1] for m in request["messages"] if m["role"] == "user"]


def test_members_talk_to_the_agent_confirm_its_previews_by_button_and_by_text_and_read_the_month(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT, title="Casa Ana e Bruno")
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    assert llm.requests == [], "commands never call the model"

    # A member's text -> registerExpense preview -> its own message with the two buttons.
    # Its words and its call in one answer: the preview ends the turn, one model request (§8).
    llm.script([tool_calls(("registerExpense", REGISTER_MERCADO),
                           content="Vou cadastrar o Mercado com R$ 1.500,00 por mês. Confirma?")])
    since = casa.mark()
    expense = casa.propose(ANA, "cadastra o mercado, uns 1500 por mês", replies=2)
    assert len(llm.requests) == 1
    [said, _] = casa.sent(since)
    assert said.params["text"] == "Vou cadastrar o Mercado com R$ 1.500,00 por mês. Confirma?"
    assert "reply_markup" not in said.params or not said.params["reply_markup"]
    assert "Mercado" in expense.text and "R$ 1.500,00" in expense.text
    assert "{" not in expense.text and "operationId" not in expense.text, "plain pt-BR, no JSON"
    assert [b["text"] for b in expense.buttons] == ["✅ Confirmar", "❌ Cancelar"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in expense.buttons)
    first = llm.requests[0]
    assert user_messages(first)[-1] == "[Ana] cadastra o mercado, uns 1500 por mês"
    assert "Casa Ana e Bruno" in first["messages"][-1]["content"], "the chat's own household"
    # "typing" after a 1 s grace is bot/telegram/delivery.py's, tested on a virtual clock
    # (tests/unit/bot/test_thinking.py): here it depends on how fast the machine is.

    requests_before = len(llm.requests)
    answer, edit = casa.confirm(BRUNO, expense)
    assert answer_text(answer) == "✅ Confirmado." and not alerted(answer)
    assert without_keyboard(edit) and "Despesa cadastrada por Bruno" in edit.params["text"]
    assert len(llm.requests) == requests_before, "a press never calls the model"

    # recordSpend preview, then a member confirms by text and the model confirms through the tool.
    # ("acho que": a plain "gastei 37,90 no mercado" is the free-text reader's, with no model.)
    llm.script([tool_calls(("recordSpend", SPEND))])
    spend = casa.propose(BRUNO, "acho que gastei 37,90 no mercado")
    assert "R$ 37,90" in spend.text and "junho de 2026" in spend.text

    llm.script([tool_calls(("recordSpend", {**SPEND, "confirm": True})), text("Pronto, registrado.")])
    since = casa.mark()
    # Not a bare "confirma" (that one is decided without the model: issue 26, finding 6).
    [done] = casa.say(ANA, "pode confirmar esse gasto")
    assert done.params["text"] == "Pronto, registrado."
    edit = casa.wait_edit(spend.message_id, since=since)
    assert without_keyboard(edit)
    assert edit.params["text"].startswith("✅ Gasto registrado por Ana")
    assert "R$ 37,90" in edit.params["text"]
    left = tg.message(CHAT, spend.message_id)["reply_markup"]["inline_keyboard"]
    assert [[b["text"] for b in row] for row in left] == [["↩️ Desfazer"]]
    confirming = llm.requests[-2]
    assert user_messages(confirming)[-1] == "[Ana] pode confirmar esse gasto"

    # The same press afterwards writes nothing more.
    again = casa.press(BRUNO, spend.confirm, spend.message_id)
    assert answer_text(again) == "Essa operação já foi confirmada."

    # A plain question is the reader's: /resumo's answer, with no model request.
    requests_before = len(llm.requests)
    plain = casa.reply_to(BRUNO, "quanto gastamos?")
    assert plain == casa.reply_to(BRUNO, "/resumo") and "R$ 37,90" in plain
    assert len(llm.requests) == requests_before

    # A question the reader leaves to the model (no subject it is sure of): the model reads
    # budgetStatus, and the bot words the result as /resumo does, with no second request.
    llm.script([tool_calls(("budgetStatus", {"period": THIS_MONTH}))])
    since, requests_before = casa.mark(), len(llm.requests)
    answer_to_read = casa.reply_to(BRUNO, "e como a gente tá indo, no geral?")
    assert answer_to_read == casa.reply_to(BRUNO, "/resumo")
    assert len(llm.requests) == requests_before + 1
    casa.settle()
    assert not previews_in(tg.calls[since:], CHAT), "a read proposes nothing"

    summary = casa.reply_to(ANA, "/resumo")
    assert "R$ 37,90" in summary and "R$ 1.500,00" in summary
    assert "R$ 75,80" not in summary, "the spend was written once"


def test_a_goal_created_through_the_chat_is_previewed_in_euros_and_confirmed(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT, title="Casa Ana e Bruno")
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)

    llm.script([tool_calls(("createGoal", LUA_DE_MEL))])
    goal = casa.propose(ANA, "queremos juntar 6000 euros pra lua de mel até junho de 2028")

    assert "Lua de mel" in goal.text and "€ 6.000,00" in goal.text and "01/06/2028" in goal.text
    assert "Ana" in goal.text and "Bruno" in goal.text
    answer, edit = casa.confirm(BRUNO, goal)
    assert answer_text(answer) == "✅ Confirmado."
    assert without_keyboard(edit) and edit.params["text"].startswith("✅ Meta criada por Bruno")

    goals = casa.reply_to(ANA, "/metas")
    assert "Lua de mel" in goals and "€ 6.000,00" in goals
    sent = [json.dumps(c.params, ensure_ascii=False) for c in tg.calls_to("sendMessage")]
    assert not any("operationId" in s or "op-goal-1" in s for s in sent), "ids never reach the chat"


def test_when_the_provider_fails_free_text_gets_a_reply_that_says_so_and_the_commands_still_work(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    llm.script([error(500), error(503)])

    reply = casa.reply_to(ANA, "gastei 50 na farmácia")

    assert "modelo de linguagem" in reply and "Nada foi registrado" in reply
    for command in ("/gasto", "/despesa", "/resumo", "/metas"):
        assert command in reply, command
    expense = casa.propose(ANA, "/despesa Farmácia 300")
    answer, _ = casa.confirm(ANA, expense)
    assert answer_text(answer) == "✅ Confirmado."
    assert "Farmácia" in casa.reply_to(ANA, "/resumo")


def test_a_non_member_who_writes_gets_one_hint_to_join_and_never_reaches_the_model(
    tg: FakeTelegramAPI, llm: FakeLLMServer, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(llm), CHAT)
    casa.reply_to(ANA, "/start")
    since = casa.mark()

    hint = casa.reply_to(STRANGER, "oi, posso usar?")
    casa.post(casa.message(STRANGER, "gastei 10 no mercado"))
    casa.post(casa.message(STRANGER, "alô?"))
    casa.settle()

    assert "/entrar" in hint
    texts = [c.params["text"] for c in casa.sent(since)]
    assert texts.count(hint) == 1, texts
    assert llm.requests == []
