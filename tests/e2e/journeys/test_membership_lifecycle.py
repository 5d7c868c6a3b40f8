"""Contract §8 "Membership and lifecycle", black-box: the webhook against the fake Bot API.

Who belongs (/entrar confirmed by a member, /sair, people leaving the group, anonymous admins),
the group's life (a supergroup migration in either order or found on a send, the bot removed and
added back), /apagar, and replies longer than Telegram's limit.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.telegram.sending import utf16_units
from bot.texts import messages
from domain.money import Money
from infra.db import ChatDirectory, Database, SqlBudgetRepository
from tests.e2e.harness import (
    ANA,
    BRUNO,
    STRANGER,
    BotStarter,
    Group,
    Person,
    alerted,
    answer_text,
    next_update_id,
    wait_until_processed,
    without_keyboard,
)
from tests.fakes.telegram_api import FakeTelegramAPI

CHAT = -1004000000001
SUPERGROUP = -1004000000999
ANONYMOUS = Person(1087968824, "Group")


def a_couple(tg: FakeTelegramAPI, start_bot: BotStarter, chat_id: int = CHAT) -> Group:
    casa = Group(tg, start_bot(), chat_id)
    casa.reply_to(ANA, "/start")
    casa.join(BRUNO)
    casa.confirm(ANA, casa.propose(ANA, "/despesa Mercado 1.500"))
    return casa


def service_message(casa: Group, chat_id: int, **fields: Any) -> dict[str, Any]:
    """A service message (no text) in `chat_id`, as Telegram sends migrations and departures."""
    update_id = next_update_id()
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": int(time.time()),
        "chat": {"id": chat_id, "title": casa.title, "type": "supergroup" if chat_id < -10**12 else "group"},
        "from": {"id": ANA.user_id, "is_bot": False, "first_name": ANA.first_name}, **fields}}


def member_update(casa: Group, kind: str, user: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A chat_member or my_chat_member update: `user`'s status in the group went from old to new."""
    def member(status: str) -> dict[str, Any]:
        return {"user": user, "status": status, **({"until_date": 0} if status == "kicked" else {})}

    return {"update_id": next_update_id(), kind: {
        "chat": {"id": casa.chat_id, "title": casa.title, "type": "supergroup"},
        "from": {"id": ANA.user_id, "is_bot": False, "first_name": ANA.first_name},
        "date": int(time.time()),
        "old_chat_member": member(old),
        "new_chat_member": member(new)}}


def person(who: Person) -> dict[str, Any]:
    return {"id": who.user_id, "is_bot": False, "first_name": who.first_name}


def post(casa: Group, update: dict[str, Any]) -> None:
    assert casa.post(update).status_code == 200


# --------------------------------------------------------------------------- membership


def test_a_strangers_entrar_is_a_preview_only_an_existing_member_can_confirm(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    request = casa.propose(STRANGER, "/entrar")
    assert request.text.startswith(f"👋 {STRANGER.first_name} quer entrar na casa")
    assert [b["text"] for b in request.buttons] == ["✅ Confirmar", "❌ Cancelar"]

    own = casa.press(STRANGER, request.confirm, request.message_id)
    assert alerted(own) and answer_text(own) == messages.own_join_alert()
    assert casa.reply_to(STRANGER, "/gasto 10 mercado") == messages.join_hint_text(), \
        "until a member confirms, not a member"

    answer, edit = casa.confirm(BRUNO, request)
    assert not alerted(answer) and without_keyboard(edit)
    assert "Entrada na casa confirmada por Bruno" in edit.params["text"]
    assert casa.propose(STRANGER, "/gasto 10 mercado").text.startswith("📝 Registrar gasto")


def test_start_in_a_group_without_a_household_creates_it_with_the_sender(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = Group(tg, start_bot(), CHAT, title="Casa da Bia")
    welcome = casa.reply_to(BRUNO, "/start")
    assert "Casa da Bia" in welcome and "Bruno" in welcome
    assert "Mercado" in casa.propose(BRUNO, "/despesa Mercado 1.500").text
    again = casa.propose(ANA, "/start")
    assert "Ana quer entrar na casa" in again.text, "a stranger's /start asks to join"


def test_sair_leaves_and_a_member_who_left_can_no_longer_confirm(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 10 mercado")

    leaving = casa.propose(BRUNO, "/sair")  # a preview since issue 26 (finding 14)
    assert "Bruno quer sair da casa" in leaving.text
    _, left = casa.confirm(BRUNO, leaving)
    assert "Bruno saiu da casa" in left.params["text"]

    refused = casa.press(BRUNO, spend.confirm, spend.message_id)
    assert alerted(refused) and answer_text(refused) == messages.not_a_member_alert()


def test_a_member_removed_from_the_group_can_no_longer_confirm(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 10 mercado")

    post(casa, member_update(casa, "chat_member", person(BRUNO), "member", "kicked"))
    refused = casa.press(BRUNO, spend.confirm, spend.message_id)

    assert alerted(refused) and answer_text(refused) == messages.not_a_member_alert()
    casa.join(BRUNO)  # back in the group, a member confirms him again
    answer, edit = casa.confirm(BRUNO, spend)
    assert not alerted(answer) and "Gasto registrado por Bruno" in edit.params["text"]


def test_a_member_who_left_the_group_by_a_service_message_can_no_longer_confirm(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 10 mercado")

    post(casa, service_message(casa, CHAT, left_chat_member=person(BRUNO)))
    refused = casa.press(BRUNO, spend.confirm, spend.message_id)

    assert alerted(refused) and answer_text(refused) == messages.not_a_member_alert()


def test_an_anonymous_admin_is_told_to_write_as_themselves(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    update = casa.message(ANONYMOUS, "/gasto 10 mercado")
    update["message"]["from"] = {"id": 1087968824, "is_bot": True, "first_name": "Group",
                                 "username": "GroupAnonymousBot"}
    update["message"]["sender_chat"] = {"id": CHAT, "title": casa.title, "type": "supergroup"}
    since = casa.mark()

    post(casa, update)

    [reply] = casa.wait_sent(since=since)
    assert reply.params["text"] == messages.anonymous_admin_text()
    assert not reply.params.get("reply_markup"), "nothing proposed"


# --------------------------------------------------------------------------- the group's life


def test_a_supergroup_migration_keeps_the_household_and_pending_previews_in_either_order(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    spend = casa.propose(ANA, "/gasto 10 mercado")
    tg.register_chat({"id": SUPERGROUP, "title": casa.title, "type": "supergroup"})
    upgraded = Group(tg, casa.webhook, SUPERGROUP, title=casa.title)

    # The new supergroup's message first, then the old group's: both name the same move.
    post(casa, service_message(casa, SUPERGROUP, migrate_from_chat_id=CHAT))
    post(casa, service_message(casa, CHAT, migrate_to_chat_id=SUPERGROUP))

    answer = upgraded.press(BRUNO, spend.confirm, spend.message_id)
    assert not alerted(answer), answer_text(answer)
    assert "R$ 10,00 de R$ 1.500,00" in upgraded.reply_to(ANA, "/resumo")
    assert casa.reply_to(ANA, "/resumo") == messages.not_started_text()


def test_a_migration_seen_first_on_a_send_moves_the_household(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    tg.register_chat({"id": SUPERGROUP, "title": casa.title, "type": "supergroup"})
    tg.fail_next("sendMessage", status=400, description="Bad Request: group chat was upgraded to a "
                 "supergroup chat", parameters={"migrate_to_chat_id": SUPERGROUP})
    since = casa.mark()

    post(casa, casa.message(ANA, "/resumo"))

    [moved] = tg.wait_for("sendMessage", lambda c: c.ok and c.params.get("chat_id") == SUPERGROUP,
                          since=since)
    assert "Mercado" in moved.params["text"]
    upgraded = Group(tg, casa.webhook, SUPERGROUP, title=casa.title)
    assert "Mercado" in upgraded.reply_to(ANA, "/resumo")


def test_nothing_is_sent_to_a_group_the_bot_was_removed_from_until_it_is_added_back(
    tg: FakeTelegramAPI, start_bot: BotStarter, sqlite_url: str
) -> None:
    casa = a_couple(tg, start_bot)
    bot = {"id": tg.bot["id"], "is_bot": True, "first_name": tg.bot["first_name"]}
    post(casa, member_update(casa, "my_chat_member", bot, "member", "kicked"))
    since = casa.mark()

    post(casa, casa.message(ANA, "/resumo"))  # e.g. an update already queued when it was removed
    post(casa, casa.message(ANA, "/ajuda"))
    wait_until_processed(sqlite_url)
    assert casa.sent(since) == []

    post(casa, member_update(casa, "my_chat_member", bot, "left", "member"))
    assert "Mercado" in casa.reply_to(ANA, "/resumo")


# --------------------------------------------------------------------------- data rights


def test_apagar_confirmed_by_a_member_deletes_the_household(
    tg: FakeTelegramAPI, start_bot: BotStarter
) -> None:
    casa = a_couple(tg, start_bot)
    request = casa.propose(BRUNO, "/apagar")
    assert request.text.startswith("🗑️ Apagar todos os dados da casa")
    refused = casa.press(STRANGER, request.confirm, request.message_id)
    assert alerted(refused)

    answer, edit = casa.confirm(ANA, request)

    assert not alerted(answer) and without_keyboard(edit)
    assert "foram apagados por Ana" in edit.params["text"]
    assert casa.reply_to(ANA, "/resumo") == messages.not_started_text()
    assert "criada" in casa.reply_to(BRUNO, "/start"), "a new household can begin"


# --------------------------------------------------------------------------- long replies


def test_a_reply_longer_than_telegrams_limit_is_split_at_line_breaks(
    tg: FakeTelegramAPI, start_bot: BotStarter, sqlite_url: str
) -> None:
    casa = a_couple(tg, start_bot)
    asyncio.run(_many_expenses(sqlite_url, 90))
    since = casa.mark()

    post(casa, casa.message(ANA, "/resumo"))
    casa.settle()

    parts = [c.params["text"] for c in casa.sent(since)][:-1]  # the last one answers settle()
    assert len(parts) >= 2
    assert all(utf16_units(p) <= 4096 for p in parts)
    lines = "\n".join(parts).splitlines()
    assert sum(1 for line in lines if line.startswith("Despesa número")) == 90
    assert all(p.splitlines()[-1].strip() for p in parts), "cut at line breaks"


async def _many_expenses(url: str, count: int) -> None:
    database = Database(url)
    try:
        link = await ChatDirectory(database).household_of_chat(CHAT)
        assert link is not None
        budgets = SqlBudgetRepository(database)
        budget = await budgets.load(link.budget_id)
        for n in range(count):
            budget.register(f"Despesa número {n:03d} com um nome bem comprido 🏠", Money.of(n + 1, "BRL"))
        await budgets.save(budget)
    finally:
        await database.dispose()
