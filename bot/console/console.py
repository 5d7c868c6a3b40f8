"""`household-bot console`: the same chat in a terminal, with the same use cases and no Telegram."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from bot.app.outcomes import Decision, Edit, Outcome, Photo, PressResult, Preview, Reply, Speaker
from bot.app.service import HouseholdService
from bot.commands.catalog import closest, find
from bot.commands.parsing import CommandUsageError
from bot.console.actions import ACTIONS, CONSOLE_CHAT_ID, Charts, answer, propose
from bot.texts import console as texts
from bot.texts import messages
from domain.errors import DomainError
from domain.text import fold

QUIT = ("/fim", "/quit", "/exit")
CONSOLE_COMMANDS = ("eu", "pendentes", "fim")  # the console's own, besides the catalog's


def person_id(name: str) -> int:
    """A person's stable id in the console, from their name: the same person after a restart,
    whatever order people are typed in (case and accents ignored)."""
    digest = hashlib.sha256(fold(name).encode()).digest()
    return int.from_bytes(digest[:6], "big") + 1


class Console:
    def __init__(self, service: HouseholdService, write: Callable[[str], None] = print, *,
                 folder: Path = Path("data"), charts: Charts | None = None) -> None:
        self.service = service
        self.write = write
        self.folder = folder  # where /exportar and /grafico write their files (DATA_DIR)
        self.charts = charts  # draws /grafico's chart (bootstrap's Services.schedule(...).chart)
        self.speakers: dict[str, Speaker] = {}
        self.speaker: Speaker | None = None
        self.choices: dict[str, tuple[Decision, str]] = {}  # "1" -> (decision, operation key)
        self._next_choice = 1
        self._next_message = 1
        self._next_photo = 1

    async def switch(self, name: str) -> None:
        key = name.strip().casefold()
        if key not in self.speakers:
            self.speakers[key] = Speaker(user_id=person_id(name), first_name=name.strip())
        self.speaker = self.speakers[key]
        self.write(texts.speaking_now(self.speaker.first_name))

    async def handle(self, line: str) -> bool:
        """One typed line; False when the person wants to leave."""
        text = line.strip()
        if not text:
            return True
        if text in QUIT:
            return False
        if text in self.choices:
            await self._press(*self.choices[text])
            return True
        if text.isdigit():
            self.write(texts.no_such_choice(text))
            return True
        command, _, rest = text.partition(" ")
        name = command.lstrip("/").split("@")[0].lower() if command.startswith("/") else ""
        if name == "eu":
            if rest.strip():
                await self.switch(rest)
            else:
                self.write(texts.who_is_speaking(self.speaker.first_name if self.speaker else None))
            return True
        if self.speaker is None:  # the rest of a first command is not a name ("/gasto 10 mercado")
            await self.switch("Eu")
        assert self.speaker is not None
        try:
            await self._dispatch(name, rest, text)
        except (DomainError, CommandUsageError) as error:
            self.write(messages.error_text(error))
        return True

    async def _dispatch(self, name: str, rest: str, text: str) -> None:
        command = find(name) if name else None
        if command is not None:
            action = propose if command.writes else answer if command.reads else ACTIONS[command.name]
            await action(self, command.name, rest)
        elif name == "pendentes":
            await self.list_pending()
        elif name:
            self.write(messages.unknown_command_text(name, closest(name, CONSOLE_COMMANDS)))
        elif not await self._decide_pending(text):
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
                self.choices[ok] = (Decision.CONFIRM, outcome.key)
                self.choices[no] = (Decision.CANCEL, outcome.key)
                message_id = self._next_message
                self._next_message += 1
                await self.service.preview_posted(CONSOLE_CHAT_ID, outcome.operation_id, message_id)
                self.write(f"{outcome.text}\n{texts.choices(ok, no)}")
                if outcome.photo is not None:
                    self.show_photo(outcome.photo)
            elif isinstance(outcome, Edit):
                self.write(outcome.text)
            elif isinstance(outcome, Photo):
                self.show_photo(outcome)

    def show_photo(self, photo: Photo) -> None:
        """A picture (the acerto's QR code) goes to a PNG beside /exportar's files; the terminal
        shows where."""
        path = self.folder / f"pix-{self._next_photo}.png"
        self._next_photo += 1
        path.write_bytes(photo.png)
        self.write(texts.photo_saved(str(path)))

    async def list_pending(self) -> None:
        """Previews still waiting for a press, from this run or an earlier one, numbered."""
        previews = await self.service.pending_previews(CONSOLE_CHAT_ID)
        if not previews:
            self.write(texts.NO_PENDING)
            return
        await self.show(list(previews))

    async def _decide_pending(self, text: str) -> bool:
        """"confirma" / "cancela" typed on its own: the one preview waiting, or which one? (the
        numbers then show them); False when the line is something else, for the agent."""
        result = await self.service.decide_pending(CONSOLE_CHAT_ID, self.speaking().user_id, text)
        if result is None:
            return False
        if isinstance(result, Reply):
            self.write(result.text)
            previews = await self.service.pending_previews(CONSOLE_CHAT_ID)
            if previews:
                self.write(texts.CHOOSE_BY_NUMBER)
                await self.show(list(previews))
            return True
        self._write_result(result)
        return True

    async def _press(self, decision: Decision, key: str) -> None:
        self._write_result(await self.service.press(CONSOLE_CHAT_ID, self.speaking().user_id, decision, key))

    def _write_result(self, result: PressResult) -> None:
        self.write(result.edit.text if result.decided and result.edit is not None else result.answer)
