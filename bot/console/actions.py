"""What each command does in `household-bot console`: the same use cases as its Telegram handler,
written to the terminal. Wired to the command catalog here, by name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Final, Protocol

from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.ports import ChatLink
from bot.app.proposals import minted
from bot.app.schedule import Chart
from bot.app.service import HouseholdService
from bot.texts import guide, history
from bot.texts import schedule as schedule_texts
from domain.money import Period

Charts = Callable[[ChatLink, Period | None], Awaitable[Chart | str]]
"""/grafico's chart of a household's month, or what to say instead (bot/app/schedule.Schedule.chart)."""


class Console(Protocol):
    """What an action needs of the terminal (bot/console/console.py)."""

    service: HouseholdService
    folder: Path
    charts: Charts | None

    def write(self, text: str) -> None: ...

    async def show(self, outcomes: list[Outcome]) -> None: ...

    def speaking(self) -> Speaker: ...


Action = Callable[[Console, str, str], Awaitable[None]]  # (console, command, rest)

CONSOLE_CHAT_ID = 1
CONSOLE_HOUSEHOLD = "Casa no terminal"
TELEGRAM_ONLY = "/{command} só funciona no Telegram: {why}."


async def start(console: Console, command: str, rest: str) -> None:
    await console.show(await console.service.start(CONSOLE_CHAT_ID, CONSOLE_HOUSEHOLD, console.speaking()))


async def join(console: Console, command: str, rest: str) -> None:
    await console.show(await console.service.join(CONSOLE_CHAT_ID, console.speaking(), rest or None))


async def leave(console: Console, command: str, rest: str) -> None:
    await console.show(await console.service.leave(CONSOLE_CHAT_ID, console.speaking()))


async def erase(console: Console, command: str, rest: str) -> None:
    await console.show(await console.service.erase(CONSOLE_CHAT_ID, console.speaking()))


async def propose(console: Console, command: str, rest: str) -> None:
    """A write command's preview (/gasto, /despesa, …)."""
    await console.show(await console.service.command(CONSOLE_CHAT_ID, console.speaking(), command, rest))


async def answer(console: Console, command: str, rest: str) -> None:
    """A read command (/resumo, /metas, /extrato, …)."""
    console.write(await console.service.answer(command, CONSOLE_CHAT_ID, console.speaking(), rest))


async def undo_last(console: Console, command: str, rest: str) -> None:
    await console.show(await console.service.undo_last(CONSOLE_CHAT_ID, console.speaking(),
                                                       operation_id=minted()))


async def export(console: Console, command: str, rest: str) -> None:
    """The CSV goes to a file in the console's folder; the terminal shows where."""
    found = await console.service.month_for(command, CONSOLE_CHAT_ID, console.speaking(), rest, whole=True)
    if isinstance(found, str):
        console.write(found)
        return
    _, period = found
    path = _in_folder(console, history.export_file_name(period))
    with path.open("wb") as out:
        name = await console.service.export(CONSOLE_CHAT_ID, console.speaking(), period, out)
    if isinstance(name, Reply):
        path.unlink()
        console.write(name.text)
        return
    console.write(f"{history.export_caption(period)}: {path}")


async def chart(console: Console, command: str, rest: str) -> None:
    """The month's chart goes to a PNG file in the console's folder; the terminal shows where."""
    if console.charts is None:
        console.write(TELEGRAM_ONLY.format(command=command, why="o gráfico chega como foto"))
        return
    found = await console.service.month_for(command, CONSOLE_CHAT_ID, console.speaking(), rest)
    if isinstance(found, str):
        console.write(found)
        return
    drawn = await console.charts(*found)
    if isinstance(drawn, str):
        console.write(drawn)
        return
    path = _in_folder(console, schedule_texts.chart_file_name(found[1]))
    path.write_bytes(drawn.png)
    console.write(f"{drawn.caption}: {path}")


def _in_folder(console: Console, name: str) -> Path:
    """Where a file the console writes goes (made if missing), as its full path."""
    console.folder.mkdir(parents=True, exist_ok=True)
    return (console.folder / name).resolve()


async def reminders(console: Console, command: str, rest: str) -> None:
    console.write(TELEGRAM_ONLY.format(command=command, why="os avisos chegam no grupo"))


async def help_command(console: Console, command: str, rest: str) -> None:
    console.write(guide.help_text())


ACTIONS: Final[Mapping[str, Action]] = {
    "start": start, "grafico": chart, "lembretes": reminders, "desfazer": undo_last, "exportar": export,
    "entrar": join, "sair": leave, "apagar": erase, "ajuda": help_command,
}
