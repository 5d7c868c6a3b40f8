"""Contract §6 through the webhook with no language model configured: a couple sets up the
house, registers an expense, spends, reads the month, creates a goal and contributes to it."""

from __future__ import annotations

from bot.telegram import commands
from bot.texts import guide
from tests.e2e.harness import (
    ANA,
    BRUNO,
    BotStarter,
    Group,
    alerted,
    answer_text,
    without_keyboard,
)
from tests.fakes.telegram_api import BOT_USERNAME, FakeTelegramAPI

CHAT = -1001000000001


def test_a_couple_runs_the_month_and_a_goal_with_commands_alone_when_no_model_is_configured(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT, title="Casa Ana e Bruno")

    welcome = casa.reply_to(ANA, "/start")
    assert "Casa Ana e Bruno" in welcome and "Ana" in welcome and "/entrar" in welcome
    joined = casa.join(BRUNO)
    assert "Bruno" in joined.params["text"]

    # Register an expense: a preview with the two buttons, then Bruno confirms it.
    expense = casa.propose(ANA, "/despesa Mercado 1.500")
    assert "Mercado" in expense.text and "R$ 1.500,00" in expense.text
    assert [b["text"] for b in expense.buttons] == ["✅ Confirmar", "❌ Cancelar"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in expense.buttons)
    answer, edit = casa.confirm(BRUNO, expense)
    assert answer_text(answer) == "✅ Confirmado." and not alerted(answer)
    assert without_keyboard(edit), edit.params
    assert "Despesa cadastrada por Bruno" in edit.params["text"]
    assert "R$ 1.500,00" in edit.params["text"]
    buttons = tg.message(CHAT, expense.message_id)["reply_markup"]["inline_keyboard"]
    assert [[b["text"] for b in row] for row in buttons] == [["↩️ Desfazer"]], "only ↩️ Desfazer is left"

    # A spend with cents, written the Brazilian way.
    spend = casa.propose(BRUNO, "/gasto 37,90 mercado")
    # The preview names the expense as the member wrote it ("mercado").
    assert "R$ 37,90" in spend.text and "mercado" in spend.text.lower()
    answer, edit = casa.confirm(ANA, spend)
    assert answer_text(answer) == "✅ Confirmado."
    assert without_keyboard(edit) and "Gasto registrado por Ana" in edit.params["text"]

    summary = casa.reply_to(ANA, "/resumo")
    assert "Mercado" in summary
    assert "R$ 37,90" in summary and "R$ 1.500,00" in summary
    assert "▓" in summary or "░" in summary, "a text progress bar"

    # A goal in euros with a deadline, and a contribution in reais.
    goal = casa.propose(ANA, "/meta Lua de mel 6000 EUR até 2028-06-01")
    assert "Lua de mel" in goal.text and "€ 6.000,00" in goal.text and "01/06/2028" in goal.text
    answer, edit = casa.confirm(BRUNO, goal)
    assert "Meta criada" in edit.params["text"] and without_keyboard(edit)

    contribution = casa.propose(BRUNO, "/aporte 500 lua")
    # The preview names the goal as the member wrote it ("lua").
    assert "R$ 500,00" in contribution.text and "lua" in contribution.text.lower()
    assert "Bruno" in contribution.text, "paid by the sender"
    answer, edit = casa.confirm(ANA, contribution)
    assert "Aporte registrado" in edit.params["text"]

    goals = casa.reply_to(BRUNO, "/metas")
    assert "Lua de mel" in goals and "€ 6.000,00" in goals and "01/06/2028" in goals
    assert "R$ 500,00" in goals, "the contribution is saved"

    # /start again changes nothing.
    again = casa.reply_to(BRUNO, "/start")
    assert "já está configurada" in again
    assert casa.reply_to(ANA, "/resumo") == summary

    # Free text without a model: a short note that says so and points to the commands.
    no_model = casa.reply_to(ANA, "gastei 50 na farmácia")
    assert "nenhum modelo" in no_model
    for command in ("/gasto", "/resumo", "/ajuda"):
        assert command in no_model, command

    # An unreadable command: the right form with an example, and nothing proposed.
    since = casa.mark()
    usage = casa.reply_to(ANA, "/gasto mercado")
    assert "/gasto <valor> <despesa>" in usage and "Ex.: /gasto 37,90 mercado" in usage
    casa.settle()
    assert not [c for c in casa.sent(since) if c.params.get("reply_markup")], "nothing proposed"
    assert not [c for c in tg.calls if not c.ok and c.method != "answerCallbackQuery"], \
        "every call to Telegram succeeded"


def test_an_unknown_expense_is_named_and_nothing_is_proposed(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT)
    casa.reply_to(ANA, "/start")
    since = casa.mark()

    reply = casa.reply_to(ANA, "/gasto 12 padaria")

    assert "padaria" in reply.lower()
    assert not [c for c in casa.sent(since) if c.params.get("reply_markup")]


def test_the_menu_telegram_gets_is_the_registrys(tg: FakeTelegramAPI, start_bot: BotStarter) -> None:
    start_bot()

    [menu] = tg.calls_to("setMyCommands")

    assert [(c["command"], c["description"]) for c in menu.params["commands"]] == [
        (c.command, c.description) for c in commands.menu()]


def test_an_unknown_command_is_answered_with_the_closest_one_and_another_bots_is_left_alone(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    # Issue 26, finding 11: /gasot got no answer at all.
    casa = Group(tg, start_bot(), -1002000000026)
    casa.reply_to(ANA, "/start")

    typo = casa.reply_to(ANA, "/gasot 10 mercado")
    ours = casa.reply_to(ANA, f"/xyzzy@{BOT_USERNAME}")
    since = casa.mark()
    casa.post(casa.message(ANA, "/poll qual pizza?"))  # another bot's, most likely
    casa.post(casa.message(ANA, "/gasot@outro_bot 10"))
    casa.settle()

    assert typo == "Comando desconhecido: /gasot. Você quis dizer /gasto?"
    assert ours == "Comando desconhecido: /xyzzy. Veja /ajuda."
    assert [c.params["text"] for c in casa.sent(since)] == [guide.help_text()]
