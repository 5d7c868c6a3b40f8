"""/lembretes and /grafico: parse the update, ask the schedule, reply."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot import rendering, schedule_text
from bot.commands import resumo_period
from bot.handlers import chat_id_of, service_of, speaker_of
from bot.parsing import CommandUsageError
from bot.ports import ChatLink
from bot.schedule import Chart, schedule_of
from bot.sending import send_text


async def _member_link(update: Update, context: ContextTypes.DEFAULT_TYPE) -> ChatLink | str:
    """The chat's household when the sender is one of its members; otherwise what to answer."""
    chat_id = chat_id_of(update)
    service = service_of(context)
    link = await service.storage.directory.household_of_chat(chat_id)
    if link is None:
        return rendering.not_started_text()
    if await service.member(chat_id, speaker_of(update).user_id) is None:
        return rendering.join_hint_text()
    return link


async def lembretes(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/lembretes on|off: the household's bill reminders."""
    link = await _member_link(update, context)
    if isinstance(link, ChatLink):
        text = await schedule_of(context.application).switch_reminders(link, " ".join(context.args or []))
    else:
        text = link
    await send_text(context, chat_id_of(update), text)


async def grafico(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/grafico [AAAA-MM]: the month's chart as a photo."""
    chat_id = chat_id_of(update)
    words = context.args or []
    try:
        value = resumo_period(" ".join(words))
    except CommandUsageError:
        await send_text(context, chat_id, schedule_text.GRAFICO_USAGE)
        return
    link = await _member_link(update, context)
    if not isinstance(link, ChatLink):
        await send_text(context, chat_id, link)
        return
    chart = await schedule_of(context.application).chart(link, value)
    if isinstance(chart, Chart):
        await context.bot.send_photo(chat_id, chart.png, caption=chart.caption)
    else:
        await send_text(context, chat_id, chart)

