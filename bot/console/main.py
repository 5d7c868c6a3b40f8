"""Starting the console: the database migrated, the services built, lines read until Ctrl-D."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.bootstrap import bootstrap
from bot.console.actions import CONSOLE_CHAT_ID
from bot.console.console import Console
from bot.texts import console as texts
from infra.db.migrate import upgrade
from infra.settings import Settings


def quiet_logging() -> None:
    """Log lines (in English, for operators) stay out of the conversation: only errors reach
    the terminal, and in a line of their own."""
    logging.basicConfig(level=logging.ERROR, format="[log] %(levelname)s %(name)s: %(message)s",
                        force=True)


def enable_line_editing() -> bool:
    """Arrow keys, history and line editing in `input()` (GNU readline where Python has it)."""
    try:
        import readline  # noqa: F401  (importing it is what turns line editing on)
    except ImportError:
        return False
    return True


async def _main(settings: Settings) -> int:
    quiet_logging()
    enable_line_editing()
    services = await bootstrap(settings)
    charts = services.schedule(TerminalSender()).chart
    console = Console(services.service, folder=settings.data_dir, charts=charts)
    print(texts.INTRO)
    if sys.stdin.isatty():
        name = await asyncio.get_running_loop().run_in_executor(None, _ask_name)
        await console.switch(name)
    if services.service.model is None:
        print(texts.NO_MODEL)
    if await services.service.pending_previews(CONSOLE_CHAT_ID):
        await console.list_pending()
    loop = asyncio.get_running_loop()
    try:
        while True:
            line = await loop.run_in_executor(None, _read_line)
            if line is None or not await console.handle(line):
                break
    finally:
        await services.database.dispose()
    return 0


class TerminalSender:
    """The Sender the console's schedule is built with: /grafico only draws (it sends nothing),
    and reminders are Telegram's; anything said unasked would just be printed."""

    async def send_text(self, chat_id: int, text: str) -> None:
        print(text)

    async def send_photo(self, chat_id: int, png: bytes, caption: str) -> None:
        print(caption)

    async def edit_text(self, chat_id: int, message_id: int, text: str) -> None:
        print(text)


def _ask_name() -> str:
    try:
        return input(texts.ASK_NAME).strip() or "Eu"
    except EOFError:
        return "Eu"


def _read_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


def run_console(settings: Settings) -> int:
    upgrade(settings.database_url)
    return asyncio.run(_main(settings))


if __name__ == "__main__":
    sys.exit(run_console(Settings()))
