"""Contract §8 "Schedule" through the webhook and the fake Bot API, with a clock the test moves:
the reminder the day before, /lembretes off and on, /grafico's photo, and two workers plus
`household-bot remind` at once sending each reminder once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bot.telegram.application import remind
from tests.e2e.harness import (
    ANA,
    BRUNO,
    WAIT,
    Group,
    InProcessBot,
    bot_config,
    explicit_settings,
)
from tests.fakes.telegram_api import Call, FakeTelegramAPI, UploadedFile

CHAT = -1001600000001
RACE_CHAT = -1001600000002
CHECK_EVERY = 0.1  # seconds between the bots' checks; the clock, not this, decides what is due
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Clock:
    """The bots' "now", moved by the test (read from the bots' threads)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def sao_paulo(day: int, hour: int, month: int = 6) -> datetime:
    return datetime(2026, month, day, hour + 3, tzinfo=UTC)


def reminder(text: str):  # type: ignore[no-untyped-def]
    return lambda call: call.ok and str(call.params.get("text", "")) == text


def reminders(tg: FakeTelegramAPI, chat_id: int) -> list[str]:
    return [str(c.params["text"]) for c in tg.calls_to("sendMessage")
            if c.ok and c.params.get("chat_id") == chat_id and str(c.params.get("text", "")).startswith("📅")]


def add_expense(casa: Group, text: str) -> None:
    casa.confirm(BRUNO, casa.propose(ANA, text))


def test_the_group_is_reminded_the_day_before_once_and_not_while_reminders_are_off(
    tg: FakeTelegramAPI, sqlite_url: str
) -> None:
    clock = Clock(sao_paulo(15, 8))
    settings = explicit_settings(bot_config(tg, sqlite_url, schedule_check_seconds=CHECK_EVERY))
    with InProcessBot(settings, clock=clock) as bot:
        casa = Group(tg, bot, CHAT)
        casa.reply_to(ANA, "/start")
        casa.join(BRUNO)
        add_expense(casa, "/despesa Aluguel 3.200 dia 16")

        clock.now = sao_paulo(15, 9)
        tg.wait_for("sendMessage", reminder("📅 Amanhã vence Aluguel: R$ 3.200,00"), timeout=WAIT)

        assert casa.reply_to(BRUNO, "/lembretes off").startswith("🔕 Lembretes desligados")
        add_expense(casa, "/despesa Internet 150 dia 17")
        clock.now = sao_paulo(16, 10)
        assert asyncio.run(remind(settings, now=clock.now)).reminders == 0
        assert reminders(tg, CHAT) == ["📅 Amanhã vence Aluguel: R$ 3.200,00"]

        assert casa.reply_to(ANA, "/lembretes on").startswith("🔔 Lembretes ligados")
        tg.wait_for("sendMessage", reminder("📅 Amanhã vence Internet: R$ 150,00"), timeout=WAIT)
        assert asyncio.run(remind(settings, now=clock.now)).reminders == 0
    assert reminders(tg, CHAT) == ["📅 Amanhã vence Aluguel: R$ 3.200,00", "📅 Amanhã vence Internet: R$ 150,00"]


def test_grafico_sends_the_months_chart_as_a_png_photo(tg: FakeTelegramAPI, sqlite_url: str) -> None:
    clock = Clock(sao_paulo(15, 8))
    settings = explicit_settings(bot_config(tg, sqlite_url))
    with InProcessBot(settings, clock=clock) as bot:
        casa = Group(tg, bot, CHAT)
        casa.reply_to(ANA, "/start")
        casa.join(BRUNO)
        assert "/despesa" in casa.reply_to(ANA, "/grafico")  # nothing to draw yet
        add_expense(casa, "/despesa Mercado 1.500")
        casa.confirm(ANA, casa.propose(ANA, "/gasto 1.730,45 mercado"))
        # A month it cannot read gets the form; a month's name is read as /resumo reads it.
        assert "/grafico 2026-05" in casa.reply_to(ANA, "/grafico junhoo")

        since = casa.mark()
        casa.post(casa.message(ANA, "/grafico junho"))
        [photo] = tg.wait_for("sendPhoto", lambda c: c.params.get("chat_id") == CHAT and c.ok, since=since,
                              timeout=WAIT)
    upload = photo.params["photo"]
    assert isinstance(upload, UploadedFile) and upload.data.startswith(PNG_SIGNATURE)
    assert 10_000 < len(upload.data) < 1_000_000
    assert photo.params["caption"] == "📊 Junho de 2026: previsto x gasto e metas"


def test_two_workers_and_household_bot_remind_at_once_send_the_reminder_once(
    tg: FakeTelegramAPI, sqlite_url: str, tmp_path: Path
) -> None:
    clock = Clock(sao_paulo(15, 8))
    settings = explicit_settings(bot_config(tg, sqlite_url, schedule_check_seconds=CHECK_EVERY))
    first, second = InProcessBot(settings, clock=clock), InProcessBot(settings, clock=clock)
    with first, second:
        casa = Group(tg, first, RACE_CHAT)
        casa.reply_to(ANA, "/start")
        casa.join(BRUNO)
        add_expense(casa, "/despesa Aluguel 3.200 dia 16")

        clock.now = sao_paulo(15, 9)  # both workers' checks now find it due, and so does remind
        delivered = asyncio.run(remind(settings, now=clock.now))
        sent: list[Call] = tg.wait_for("sendMessage", reminder("📅 Amanhã vence Aluguel: R$ 3.200,00"),
                                       timeout=WAIT)
    assert delivered.reminders in (0, 1)
    assert len(sent) == 1
    assert reminders(tg, RACE_CHAT) == ["📅 Amanhã vence Aluguel: R$ 3.200,00"]
