"""A chat as the use cases see it: its household, its operation log, its tools, and who in it is
a member. Every use case starts here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.ports import ChatLink, Storage
from bot.texts import messages
from domain.clock import Clock, local_today
from domain.errors import DomainError, NotFound
from domain.household import Household, Member
from domain.money import ExchangeRates, Period
from domain.operations.log import OperationLog
from domain.tools.base import HouseholdBinding, Tool, WriteTool
from domain.tools.registry import household_tools

NON_MEMBER_HINT_EVERY = timedelta(minutes=30)
# Commands and reports take months from a year before the household began (to catch up on the
# months before the bot) to a year ahead of this one.
MONTHS_AHEAD = 12
MONTHS_BEFORE = 12


@dataclass
class ChatContext:
    chat_id: int
    link: ChatLink
    household: Household
    operations: OperationLog
    tools: list[Tool[Any]]

    def tool(self, name: str) -> Tool[Any]:
        return next(t for t in self.tools if t.name == name)

    def write_tool(self, name: str) -> WriteTool[Any]:
        tool = self.tool(name)
        assert isinstance(tool, WriteTool), name
        return tool


def scope(chat_id: int) -> str:
    """The chat's operation log and conversation: operation ids are only unique within it."""
    return f"chat:{chat_id}"


class Chats:
    """Loads a chat's household with its tools, and tells members from everyone else."""

    def __init__(self, storage: Storage, *, clock: Clock, timezone: str, rates: ExchangeRates) -> None:
        self.storage = storage
        self.clock = clock
        self.timezone = timezone
        self.rates = rates
        self._hinted: dict[tuple[int, int], datetime] = {}

    def today(self) -> date:
        return local_today(self.clock, self.timezone)

    def operations(self, chat_id: int) -> OperationLog:
        return self.storage.operations(scope(chat_id))

    async def context(self, chat_id: int) -> ChatContext | None:
        """The chat's household, or None when the chat is none (or was just erased)."""
        link = await self.storage.directory.household_of_chat(chat_id)
        if link is None:
            return None
        try:
            household = await self.storage.households.load(link.household_id)
        except NotFound:  # erased by another worker between the two reads
            return None
        operations = self.operations(chat_id)
        tools = household_tools(HouseholdBinding(
            household=household, budget_id=link.budget_id, budgets=self.storage.budgets,
            goals=self.storage.goals, operations=operations, clock=self.clock, timezone=self.timezone,
            rates=self.rates, ledger=self.storage.ledger, statement_imports=self.storage.statement_imports,
            households=self.storage.households, members=self.storage.directory, eraser=self.storage,
            chat_id=chat_id))
        return ChatContext(chat_id, link, household, operations, tools)

    async def member(self, context: ChatContext, user_id: int) -> Member | None:
        """The user's member, only while they are in the household (a link outlives leaving)."""
        member_id = await self.storage.directory.member_of_user(context.chat_id, user_id)
        if member_id is None:
            return None
        return next((m for m in context.household.members if m.id == member_id), None)

    async def for_member(self, chat_id: int, speaker: Speaker) -> tuple[ChatContext, Member] | Reply:
        """The chat's household and the speaker as its member, or the reply that says why not."""
        context = await self.context(chat_id)
        if context is None:
            return Reply(messages.not_started_text())
        member = await self.member(context, speaker.user_id)
        if member is None:
            return Reply(messages.join_hint_text())
        return context, member

    async def outsider(self, chat_id: int, speaker: Speaker) -> list[Outcome]:
        """What a non-member hears: nothing in a chat that is no household, the join hint now
        and then otherwise (never on every message: a chatty group is not spammed)."""
        if await self.storage.directory.household_of_chat(chat_id) is None:
            return []
        return [Reply(messages.join_hint_text())] if self.should_hint(chat_id, speaker) else []

    def should_hint(self, chat_id: int, speaker: Speaker) -> bool:
        now = self.clock()
        last = self._hinted.get((chat_id, speaker.user_id))
        if last is not None and now - last < NON_MEMBER_HINT_EVERY:
            return False
        self._hinted[(chat_id, speaker.user_id)] = now
        return True

    def began(self, context: ChatContext) -> Period | None:
        """The month the household was set up (None for one set up before that was kept)."""
        return began(context.link, self.timezone)

    def month_refusal(self, context: ChatContext, month: Any) -> str | None:
        """Why `month` ("2026-06") is outside the household's sane window, or None if it is not:
        from a year before the household began to a year ahead."""
        if not isinstance(month, str | Period):
            return None
        try:
            period = month if isinstance(month, Period) else Period.parse(month)
        except DomainError:
            return None  # the tool says what is wrong with it
        last = Period.of(self.today()).plus(MONTHS_AHEAD)
        first = self.began(context)
        first = first.plus(-MONTHS_BEFORE) if first is not None else None
        if last < period or (first is not None and period < first):
            return messages.month_out_of_range_text(period, first, last)
        return None


def began(link: ChatLink, timezone: str) -> Period | None:
    """The month a household was set up, in its time zone (None when that was not kept)."""
    since = link.since
    return Period.of(since.astimezone(ZoneInfo(timezone)).date()) if since else None
