"""The application's public API: every use case the adapters (Telegram, the console) may call.

Each method is one use case and says so in one line; the work is done by the parts it is built
from (one module each in bot/app/). It takes and gives plain values (bot/app/outcomes.py) and
never talks to Telegram.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, BinaryIO

from bot.app.chats import ChatContext, Chats
from bot.app.commands import Commands
from bot.app.conversation import Conversation
from bot.app.decisions import Decisions
from bot.app.membership import Membership
from bot.app.outcomes import Decision, Outcome, PressResult, Preview, Reply, Speaker
from bot.app.ports import ChatLink, Storage
from bot.app.proposals import Proposals
from bot.app.queries import Queries
from bot.commands import catalog
from domain.agent.model import LanguageModel
from domain.clock import DEFAULT_TIMEZONE, Clock, utc_now
from domain.household import Member
from domain.money import DEFAULT_RATES, ExchangeRates, Period
from domain.reports import MonthReport


class HouseholdService:
    def __init__(self, storage: Storage, *, model: LanguageModel | None = None, clock: Clock = utc_now,
                 timezone: str = DEFAULT_TIMEZONE, rates: ExchangeRates = DEFAULT_RATES,
                 default_currency: str = "BRL") -> None:
        self.storage = storage
        self.clock = clock
        self.timezone = timezone
        self.rates = rates
        self.chats = Chats(storage, clock=clock, timezone=timezone, rates=rates)
        self.proposals = proposals = Proposals(storage)
        self.membership = Membership(storage, self.chats, proposals, clock=clock,
                                     default_currency=default_currency)
        self.queries = Queries(storage, self.chats, proposals)
        self.conversation = Conversation(storage, self.chats, proposals, self.queries, model=model)
        self.commands = Commands(self.chats, proposals)
        self.decisions = Decisions(self.chats, proposals)

    @property
    def model(self) -> LanguageModel | None:
        """The model free text goes to (None: the commands still work)."""
        return self.conversation.model

    @model.setter
    def model(self, model: LanguageModel | None) -> None:
        self.conversation.model = model

    def today(self) -> date:
        """Today in the household's time zone."""
        return self.chats.today()

    # -- membership and the group's life ---------------------------------------------------------

    async def start(self, chat_id: int, title: str | None, speaker: Speaker) -> list[Outcome]:
        """/start: the chat becomes a household with the sender (a stranger asks to join)."""
        return await self.membership.start(chat_id, title, speaker)

    async def join(self, chat_id: int, speaker: Speaker, name: str | None, *,
                   operation_id: str | None = None) -> list[Outcome]:
        """/entrar: a preview a member confirms."""
        return await self.membership.join(chat_id, speaker, name, operation_id=operation_id)

    async def leave(self, chat_id: int, speaker: Speaker, *, operation_id: str | None = None) -> list[Outcome]:
        """/sair: a preview that, confirmed, takes the sender out (their history stays)."""
        return await self.membership.leave(chat_id, speaker, operation_id=operation_id)

    async def member_left(self, chat_id: int, user_id: int) -> str | None:
        """Someone left the group or was removed: no longer a member."""
        return await self.membership.member_left(chat_id, user_id)

    async def erase(self, chat_id: int, speaker: Speaker, *, operation_id: str | None = None) -> list[Outcome]:
        """/apagar: a preview that, confirmed, deletes every record of the household."""
        return await self.membership.erase(chat_id, speaker, operation_id=operation_id)

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """The group became a supergroup: the household follows the new chat id."""
        return await self.membership.migrate(old_chat_id, new_chat_id)

    async def bot_membership(self, chat_id: int, present: bool) -> None:
        """The bot was removed from the group, or added back."""
        await self.membership.bot_membership(chat_id, present)

    async def can_send(self, chat_id: int) -> bool:
        """False for a group the bot was removed from."""
        return await self.membership.can_send(chat_id)

    async def member(self, chat_id: int, user_id: int) -> Member | None:
        """The user's member in the chat's household, or None."""
        context = await self.chats.context(chat_id)
        return await self.chats.member(context, user_id) if context is not None else None

    async def member_link(self, chat_id: int, speaker: Speaker) -> ChatLink | Reply:
        """The chat's household when the speaker is one of its members; otherwise what to answer."""
        found = await self.chats.for_member(chat_id, speaker)
        return found if isinstance(found, Reply) else found[0].link

    # -- proposing -------------------------------------------------------------------------------

    async def talk(self, chat_id: int, speaker: Speaker, text: str, *,
                   attachments: Sequence[dict[str, Any]] = (),
                   model: LanguageModel | None = None) -> list[Outcome]:
        """A member's free text: the agent's answer and its previews."""
        return await self.conversation.talk(chat_id, speaker, text, attachments=attachments, model=model)

    async def command(self, chat_id: int, speaker: Speaker, command: str, text: str, *,
                      operation_id: str | None = None) -> list[Outcome]:
        """A write command (/gasto, /despesa, …): its preview, with no model. One that also reads
        (/divisao) answers its query when it is given no arguments."""
        if catalog.named(command).reads and not text.split():
            return [Reply(await self.answer(command, chat_id, speaker, text))]
        return await self.commands.propose(chat_id, speaker, command, text, operation_id=operation_id)

    async def undo_last(self, chat_id: int, speaker: Speaker, *, operation_id: str) -> list[Outcome]:
        """/desfazer: a preview undoing the last confirmed operation."""
        return list(await self.decisions.undo_last(chat_id, speaker, operation_id=operation_id))

    # -- deciding --------------------------------------------------------------------------------

    async def preview_posted(self, chat_id: int, operation_id: str, message_id: int) -> None:
        """The preview reached the chat as `message_id`: it can be confirmed from now on."""
        await self.decisions.posted(chat_id, operation_id, message_id)

    async def preview_not_posted(self, chat_id: int, operation_id: str) -> None:
        """The preview never reached the chat: it is closed, nobody may confirm it."""
        await self.decisions.not_posted(chat_id, operation_id)

    async def press(self, chat_id: int, user_id: int, decision: Decision, key: str) -> PressResult:
        """✅ Confirmar, ❌ Cancelar or ↩️ Desfazer on the operation `key` names."""
        return await self.decisions.press(chat_id, user_id, decision, key)

    async def reply_to_preview(self, chat_id: int, user_id: int, message_id: int,
                               text: str) -> PressResult | None:
        """A reply "confirma" / "cancela" to a posted preview: the press it stands for."""
        return await self.decisions.reply(chat_id, user_id, message_id, text)

    async def decide_pending(self, chat_id: int, user_id: int, text: str) -> PressResult | Reply | None:
        """A bare "confirma" / "cancela" that replies to no preview: the one waiting, or a question
        (several waiting, an erase, nothing); None when it is not one (it goes to the agent)."""
        return await self.decisions.bare(chat_id, user_id, text)

    # -- reading ---------------------------------------------------------------------------------

    async def answer(self, command: str, chat_id: int, speaker: Speaker, text: str) -> str:
        """A read command (/resumo, /metas, /extrato, …; bot/app/queries.QUERIES): its answer."""
        return await self.queries.answer(command, chat_id, speaker, text)

    async def month_for(self, command: str, chat_id: int, speaker: Speaker, text: str, *,
                        whole: bool = False) -> tuple[ChatLink, Period | None] | str:
        """The member's household and the month /grafico or /exportar names, read as /resumo reads
        it; with `whole`, None when no month is named. A str is what to answer instead."""
        return await self.queries.month_for(command, chat_id, speaker, text, whole=whole)

    async def export(self, chat_id: int, speaker: Speaker, period: Period | None, out: BinaryIO) -> str | Reply:
        """/exportar [AAAA-MM]: the CSV into `out` and its file name, for a member; otherwise
        what to answer (no household, or the join hint), and nothing written."""
        return await self.queries.export(chat_id, speaker, period, out)

    async def month(self, link: ChatLink, period: Period, today: date | None = None) -> MonthReport:
        """The month at a glance (/grafico, the monthly closing), its goals as of `today`."""
        return await self.queries.month(link, period, today or self.today())

    async def pending_previews(self, chat_id: int) -> list[Preview]:
        """Every preview of the chat still waiting for a decision."""
        return await self.queries.pending_previews(chat_id)

    async def context(self, chat_id: int) -> ChatContext | None:
        """The chat's household with its tools (media and statements build on it)."""
        return await self.chats.context(chat_id)
