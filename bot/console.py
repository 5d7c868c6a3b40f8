"""`household-bot console`: the same chat in a terminal, with the same services and no Telegram."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from bot import command_registry, rendering
from bot.application import bootstrap
from bot.console_commands import CONSOLE_CHAT_ID
from bot.parsing import CommandUsageError
from bot.service import (
    CANCEL,
    CONFIRM,
    Edit,
    HouseholdService,
    Outcome,
    PressResult,
    Preview,
    Reply,
    Speaker,
    callback_data,
)
from domain.errors import DomainError
from domain.text import fold
from infra.db.migrate import upgrade
from infra.settings import Settings

INTRO = """\
household-bot no terminal. Escreva como no grupo do Telegram, por exemplo:
  /gasto 37,90 mercado     /despesa Aluguel 2.500 dia 10     /resumo     /ajuda
Trocar quem fala: /eu <nome>     Propostas pendentes: /pendentes     Fechar: /fim (ou Ctrl-D)
"""
QUIT = ("/fim", "/quit", "/exit")


def person_id(name: str) -> int:
    """A person's stable id in the console, from their name: the same person after a restart,
    whatever order people are typed in (case and accents ignored)."""
    digest = hashlib.sha256(fold(name).encode()).digest()
    return int.from_bytes(digest[:6], "big") + 1


class Console:
    def __init__(self, service: HouseholdService, write: Callable[[str], None] = print, *,
                 folder: Path = Path()) -> None:
        self.service = service
        self.write = write
        self.folder = folder  # where /exportar writes its CSV
        self.speakers: dict[str, Speaker] = {}
        self.speaker: Speaker | None = None
        self.choices: dict[str, str] = {}  # "1" -> callback data
        self.shown: dict[int, str] = {}  # message id -> operation id, for edits
        self.last_preview: int | None = None  # what "confirma" / "cancela" answers, as a reply would
        self._next_choice = 1
        self._next_message = 1

    async def switch(self, name: str) -> None:
        key = name.strip().casefold()
        if key not in self.speakers:
            self.speakers[key] = Speaker(user_id=person_id(name), first_name=name.strip())
        self.speaker = self.speakers[key]
        self.write(f"(agora falando: {self.speaker.first_name})")

    async def handle(self, line: str) -> bool:
        """One typed line; False when the person wants to leave."""
        text = line.strip()
        if not text:
            return True
        if text in QUIT:
            return False
        if text in self.choices:
            await self._press(self.choices[text])
            return True
        if text.isdigit():
            self.write(f"Não há opção {text}. Veja as propostas pendentes com /pendentes.")
            return True
        command, _, rest = text.partition(" ")
        name = command.lstrip("/").split("@")[0].lower() if command.startswith("/") else ""
        if name == "eu":
            await self.switch(rest or "Membro")
            return True
        if self.speaker is None:  # the rest of a first command is not a name ("/gasto 10 mercado")
            await self.switch("Eu")
        assert self.speaker is not None
        try:
            await self._dispatch(name, rest, text)
        except (DomainError, CommandUsageError) as error:
            self.write(rendering.error_text(error))
        return True

    async def _dispatch(self, name: str, rest: str, text: str) -> None:
        command = command_registry.find(name) if name else None
        if command is not None:
            await command.console(self, command.name, rest)
        elif name == "pendentes":
            await self.list_pending()
        elif name:
            self.write(f"Comando desconhecido: /{name}. Veja /ajuda.")
        elif not await self._reply_to_last_preview(text):
            await self.show(await self.service.talk(CONSOLE_CHAT_ID, self.speaking(), text))

    def speaking(self) -> Speaker:
        """Who is typing (someone always is once a line is handled)."""
        assert self.speaker is not None
        return self.speaker

    async def show(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if isinstance(outcome, Reply):
                self.write(outcome.text)
            elif isinstance(outcome, Preview):
                ok, no = str(self._next_choice), str(self._next_choice + 1)
                self._next_choice += 2
                self.choices[ok] = callback_data(CONFIRM, outcome.key)
                self.choices[no] = callback_data(CANCEL, outcome.key)
                message_id = self._next_message
                self._next_message += 1
                await self.service.preview_posted(CONSOLE_CHAT_ID, outcome.operation_id, message_id)
                self.last_preview = message_id
                self.write(f"{outcome.text}\n  [{ok}] ✅ Confirmar   [{no}] ❌ Cancelar"
                           "   (ou responda confirma / cancela)")
            elif isinstance(outcome, Edit):
                self.write(outcome.text)

    async def list_pending(self) -> None:
        """Previews still waiting for a press, from this run or an earlier one, numbered."""
        previews = await self.service.pending_previews(CONSOLE_CHAT_ID)
        if not previews:
            self.write("Nenhuma proposta pendente.")
            return
        await self.show(list(previews))

    async def _reply_to_last_preview(self, text: str) -> bool:
        """"confirma" / "cancela" typed after a preview: what a Telegram reply to it does (§8)."""
        assert self.speaker is not None
        if self.last_preview is None:
            return False
        result = await self.service.reply_to_preview(CONSOLE_CHAT_ID, self.speaker.user_id,
                                                     self.last_preview, text)
        if result is None:
            return False
        self._write_result(result)
        return True

    def _decided(self, result: PressResult) -> None:
        if result.edit is not None and result.edit.message_id == self.last_preview:
            self.last_preview = None  # a later "ok" is for the agent again

    async def _press(self, data: str) -> None:
        assert self.speaker is not None
        self._write_result(await self.service.press(CONSOLE_CHAT_ID, self.speaker.user_id, data))

    def _write_result(self, result: PressResult) -> None:
        self._decided(result)
        first_time = result.answer in (rendering.confirmed_answer(), rendering.cancelled_answer())
        self.write(result.edit.text if first_time and result.edit is not None else result.answer)


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
    console = Console(services.service)
    print(INTRO)
    if sys.stdin.isatty():
        name = await asyncio.get_running_loop().run_in_executor(None, _ask_name)
        await console.switch(name)
    if services.service.model is None:
        print("(Sem LLM_MODEL: texto livre mostra os comandos; os comandos funcionam normalmente.)\n")
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


def _ask_name() -> str:
    try:
        return input("Quem está falando? (seu nome) ").strip() or "Eu"
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
