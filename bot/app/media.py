"""What couples send besides text: voice notes, photos of receipts and bank statement files.

A voice note becomes the member's text (shown as 🎤 …) for the agent; a photo goes to a vision
model as an image part; a statement file is parsed with no model into one import preview. Each
ends in the same previews and buttons as typed text. Handlers (bot/telegram/media.py) hand over a `fetch`
that downloads the file; nothing here talks to Telegram.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.app.chats import ChatContext
from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.service import HouseholdService
from bot.texts import guide
from bot.texts import media as media_texts
from domain.agent.media_prompt import PHOTO_INSTRUCTIONS, photo_message
from domain.agent.model import LanguageModel, ModelFailure
from domain.agent.statement_suggestions import suggest_expenses
from domain.cards import Card
from domain.errors import DomainError
from domain.reports import FaturaReport
from domain.statements import (
    MAX_STATEMENT_BYTES,
    ImportPlan,
    NotAStatement,
    PlannedLine,
    StatementError,
    StatementLine,
    counted_before,
    fingerprints,
    plan_import,
    statement_faturas,
)
from domain.tools.statements import ImportStatementTool
from infra.audio import audio_container
from infra.images import MAX_INPUT_SIDE, ImageTooLarge, UnreadableImage, data_uri, prepare_image
from infra.statements import parse_statement

log = logging.getLogger(__name__)

MAX_AUDIO_SECONDS = 5 * 60
MAX_FILE_BYTES = 20 * 1024 * 1024  # what getFile serves to a bot
MEGABYTE = 1024 * 1024
IMPORT_TOOL = ImportStatementTool.name


class Transcriber(Protocol):
    """Speech to text; raises ModelFailure when the provider cannot."""

    async def transcribe(self, audio: bytes, filename: str) -> str:
        ...


@dataclass(frozen=True)
class Incoming:
    """A file an update carries: its name and size as Telegram reports them, and how to get it."""

    fetch: Callable[[], Awaitable[bytes]]
    name: str
    size: int | None = None


class MediaService:
    def __init__(self, household: HouseholdService, *, transcriber: Transcriber | None = None,
                 vision: LanguageModel | None = None) -> None:
        self.household = household
        self.transcriber = transcriber
        self.vision = vision

    # -- voice ------------------------------------------------------------------------------

    async def voice(self, chat_id: int, speaker: Speaker, incoming: Incoming,
                    duration: int | None) -> list[Outcome]:
        """A voice note or audio: transcribed, shown as 🎤 …, then the agent reads it as text."""
        if not await self._is_member(chat_id, speaker):
            return await self._outsider(chat_id, speaker)
        if self.household.model is None or self.transcriber is None:
            return [Reply(guide.no_model_text())]
        # Checked from the update, before anything is downloaded.
        if duration is not None and duration < 0:
            return [Reply(media_texts.bad_duration_text(duration))]
        if (duration or 0) > MAX_AUDIO_SECONDS or (incoming.size or 0) > MAX_FILE_BYTES:
            return [Reply(media_texts.audio_too_long_text(MAX_AUDIO_SECONDS // 60, MAX_FILE_BYTES // MEGABYTE))]
        audio = await self._download(incoming)
        if audio is None:
            return [Reply(media_texts.download_failed_text())]
        # Then from the bytes themselves, before the provider is paid to find out.
        if not audio:
            return [Reply(media_texts.empty_audio_text())]
        if len(audio) > MAX_FILE_BYTES:
            return [Reply(media_texts.audio_too_long_text(MAX_AUDIO_SECONDS // 60, MAX_FILE_BYTES // MEGABYTE))]
        if audio_container(audio) is None:
            log.info("refused a voice note that is no known audio in chat %s", chat_id)
            return [Reply(media_texts.not_audio_text())]
        try:
            transcript = (await self.transcriber.transcribe(audio, incoming.name)).strip()
        except ModelFailure as failure:
            log.warning("transcription failed in chat %s: %s", chat_id, failure.kind.value)
            return [Reply(media_texts.transcription_failed_text())]
        if not transcript:
            return [Reply(media_texts.empty_transcript_text())]
        return [Reply(media_texts.transcript_text(transcript)),
                *await self.household.talk(chat_id, speaker, transcript)]

    # -- photos -----------------------------------------------------------------------------

    async def photo(self, chat_id: int, speaker: Speaker, incoming: Incoming,
                    caption: str | None) -> list[Outcome]:
        """A photo (a receipt, a Pix receipt) with its caption goes to a vision model."""
        if not await self._is_member(chat_id, speaker):
            return await self._outsider(chat_id, speaker)
        model = self.vision or self.household.model
        if model is None:
            return [Reply(guide.no_model_text())]
        if not await _reads_images(model):
            return [Reply(media_texts.no_vision_text(str(getattr(model, "model", "atual"))))]
        if (incoming.size or 0) > MAX_FILE_BYTES:
            return [Reply(media_texts.file_too_big_text(MAX_FILE_BYTES // MEGABYTE))]
        data = await self._download(incoming)
        if data is None:
            return [Reply(media_texts.download_failed_text())]
        try:
            jpeg = await asyncio.to_thread(prepare_image, data)
        except ImageTooLarge as error:
            log.info("refused a photo larger than Telegram sends in chat %s: %s", chat_id, error)
            return [Reply(media_texts.image_too_large_text(MAX_INPUT_SIDE))]
        except UnreadableImage as error:
            log.info("unreadable photo in chat %s: %s", chat_id, error)
            return [Reply(media_texts.unreadable_image_text())]
        parts: list[dict[str, Any]] = [{"type": "text", "text": PHOTO_INSTRUCTIONS},
                                       {"type": "image_url", "image_url": {"url": data_uri(jpeg)}}]
        return await self.household.talk(chat_id, speaker, photo_message(caption), attachments=parts,
                                         model=model)

    # -- statements -------------------------------------------------------------------------

    async def statement(self, chat_id: int, speaker: Speaker, incoming: Incoming,
                        operation_id: str, caption: str | None = None) -> list[Outcome]:
        """A .ofx or .csv statement: one `Importar N lançamentos` preview of its new debits.

        `operation_id` comes from the Telegram update, so an update processed again finds its
        preview instead of proposing a second one. A card's statement goes on the card the
        `caption` names (or the household's only card); with several and none named, the member
        is asked which."""
        found = await self.household.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, member = found
        earlier = await context.operations.get(operation_id)
        if earlier is not None:  # a redelivered update: nothing to download again
            again = await self.household.proposals.again(context, earlier)
            return [again] if again is not None else []
        if (incoming.size or 0) > MAX_STATEMENT_BYTES:
            return [Reply(media_texts.file_too_big_text(MAX_STATEMENT_BYTES // MEGABYTE))]
        data = await self._download(incoming)
        if data is None:
            return [Reply(media_texts.download_failed_text())]
        try:
            statement = await asyncio.to_thread(parse_statement, incoming.name, data)
            currency = context.household.currency
            if statement.currency and statement.currency != currency:
                raise StatementError(f"O extrato está em {statement.currency}, e a casa usa {currency}. "
                                     "Nada foi importado.")
            card = await self._card_of(context, statement.card, caption)
            if isinstance(card, Reply):
                return [card]
            arguments = {**await self._import_arguments(context, incoming.name, statement.lines, card),
                         "paidBy": member.name}  # who sent the file paid its lines
            if card is not None:
                arguments["card"] = card
        except NotAStatement as error:
            return [Reply(media_texts.not_a_statement_text(error.found, incoming.name, error.line))]
        except StatementError as error:
            return [Reply(media_texts.statement_unreadable_text(str(error)))]
        if not arguments["lines"]:
            unmatched = [line["description"] for line in arguments["unmatched"]]
            return [Reply(media_texts.nothing_new_text(incoming.name, arguments["skipped"], unmatched,
                                                     len(arguments["credits"]), len(arguments["counted"])))]
        return [await self.household.proposals.fresh(context, IMPORT_TOOL, arguments, operation_id)]

    async def _card_of(self, context: ChatContext, card_statement: bool, caption: str | None) -> str | Reply | None:
        """The card a card statement's lines go on: the one the caption names, or the household's
        only card; a question when it has several and the caption names none; None for a bank
        account's statement, or a household with no card (its lines are plain spends)."""
        if not card_statement:
            return None
        budget = await self.household.storage.budgets.load(context.link.budget_id, periods=())
        cards = budget.active_cards()
        if not cards:
            return None
        words = (caption or "").split()
        for size in range(len(words), 0, -1):  # the longest run of the caption's words that names one
            for start in range(len(words) - size + 1):
                try:
                    return budget.find_card(" ".join(words[start:start + size])).name
                except DomainError:
                    continue
        if len(cards) == 1:
            return cards[0].name
        return Reply(media_texts.which_card_text([card.name for card in cards]))

    async def _import_arguments(self, context: ChatContext, filename: str,
                                lines: list[StatementLine], card: str | None = None) -> dict[str, Any]:
        storage = self.household.storage
        budget = await storage.budgets.load(context.link.budget_id, periods=())
        imported = await storage.statement_imports.already_imported(
            context.link.household_id, fingerprints(lines))
        plan = plan_import(budget, lines, imported)
        counted = await self._counted_parcelas(context, budget.find_card(card), plan) if card is not None else []
        # Where a model is configured it may place the lines no name matched; the preview says so.
        guesses = (await suggest_expenses(self.household.model, budget, [u.description for u in plan.unmatched])
                   if self.household.model is not None and plan.unmatched else {})
        suggested = [PlannedLine(u, key, guesses[u.description])
                     for u, key in zip(plan.unmatched, plan.unmatched_fingerprints, strict=True)
                     if u.description in guesses]
        unmatched = [u for u in plan.unmatched if u.description not in guesses]

        def aside(line: StatementLine) -> dict[str, Any]:
            return {"date": line.on.isoformat(), "amount": line.amount, "description": line.description}

        def planned(p: PlannedLine, guessed: bool) -> dict[str, Any]:
            return {"date": p.line.on.isoformat(), "amount": -p.line.amount, "description": p.line.description,
                    "expense": p.expense, "fingerprint": p.fingerprint, "suggested": guessed}

        return {
            "file": filename,
            "lines": [*(planned(p, False) for p in plan.to_import), *(planned(p, True) for p in suggested)],
            "unmatched": [aside(line) for line in unmatched],
            "credits": [aside(line) for line in plan.credits],
            "skipped": plan.skipped,
            "counted": [aside(line) for line in counted],
        }

    async def _counted_parcelas(self, context: ChatContext, card: Card, plan: ImportPlan) -> list[StatementLine]:
        """The card statement's parcelas its faturas already hold (a purchase in N x registered in
        the bot): taken out of `plan`, so a parcela is not counted twice."""
        faturas = statement_faturas(card, [(p.line.on, p.line.description) for p in plan.to_import])
        recorded = {}
        for fatura in {fatura for fatura, parcela in faturas if parcela is not None}:
            entries = await self.household.storage.ledger.fatura(card.id, fatura)
            items = FaturaReport.of(card, fatura, entries, (), context.household.currency).items
            recorded[fatura] = [(item.installment, item.installments, item.amount.amount) for item in items
                                if item.installment is not None and item.installments is not None]
        counted = counted_before([(fatura, parcela, -p.line.amount)
                                  for p, (fatura, parcela) in zip(plan.to_import, faturas, strict=True)], recorded)
        found = [p.line for i, p in enumerate(plan.to_import) if i in counted]
        plan.to_import = [p for i, p in enumerate(plan.to_import) if i not in counted]
        return found

    # -- shared -----------------------------------------------------------------------------

    async def _is_member(self, chat_id: int, speaker: Speaker) -> bool:
        return await self.household.member(chat_id, speaker.user_id) is not None

    async def _outsider(self, chat_id: int, speaker: Speaker) -> list[Outcome]:
        """As for text: silence in a chat that is no household, a hint now and then otherwise."""
        return await self.household.chats.outsider(chat_id, speaker)

    @staticmethod
    async def _download(incoming: Incoming) -> bytes | None:
        try:
            return bytes(await incoming.fetch())
        except Exception as error:  # Telegram or the network: the member is told, nothing is lost
            log.warning("file download failed: %s", type(error).__name__)
            return None


async def _reads_images(model: LanguageModel) -> bool:
    """Whether the model takes images; a model that cannot tell is assumed to (the provider decides)."""
    check = getattr(model, "reads_images", None)
    if not callable(check):
        return True
    # litellm's first import is slow and blocking: keep it off the event loop.
    return bool(await asyncio.to_thread(check))
