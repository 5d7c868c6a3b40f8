"""Who is in the household, and the group's life: /start, /entrar, /sair, /apagar, people leaving,
the bot removed or added back, and a group that became a supergroup."""

from __future__ import annotations

import logging

from bot.app.chats import Chats
from bot.app.outcomes import Outcome, Reply, Speaker
from bot.app.ports import Storage
from bot.app.proposals import Proposals, minted
from bot.texts import messages
from domain.budget import Budget
from domain.clock import Clock
from domain.errors import DomainError
from domain.household import Household
from domain.tools.membership import EraseHouseholdTool, JoinHouseholdTool, LeaveHouseholdTool

log = logging.getLogger(__name__)


class Membership:
    def __init__(self, storage: Storage, chats: Chats, proposals: Proposals, *, clock: Clock,
                 default_currency: str = "BRL") -> None:
        self.storage = storage
        self.chats = chats
        self.proposals = proposals
        self.clock = clock
        self.default_currency = default_currency

    async def start(self, chat_id: int, title: str | None, speaker: Speaker) -> list[Outcome]:
        """Sets the chat up as a household with the sender (once). In a chat that is a household
        already, a stranger's /start asks to join, as /entrar does."""
        context = await self.chats.context(chat_id)
        if context is None:
            household = await self._found(chat_id, title, speaker)
            if household is not None:
                founder = household.members[0].name
                return [Reply(messages.welcome_text(household.name, founder, created=True, joined=True))]
            context = await self.chats.context(chat_id)  # another /start won the race
            assert context is not None
        member = await self.chats.member(context, speaker.user_id)
        if member is not None:
            return [Reply(messages.welcome_text(context.household.name, member.name, created=False,
                                                joined=False))]
        return await self._request_join(chat_id, speaker, speaker.first_name, None)

    async def _found(self, chat_id: int, title: str | None, speaker: Speaker) -> Household | None:
        """The household with the sender as its first member, its budget and the chat's link, in
        one unit of work; None (and nothing written) when another /start linked the chat first."""
        household = Household.create(title or "Nossa casa", self.default_currency)
        budget = Budget.create(self.default_currency, household_id=household.id)
        try:
            async with self.storage.unit_of_work():
                # A person who was linked to this chat before keeps their member id.
                linked = await self.storage.directory.member_of_user(chat_id, speaker.user_id)
                founder = household.add_member(speaker.first_name, id=linked)
                await self.storage.households.save(household)
                await self.storage.budgets.save(budget)
                link = await self.storage.directory.link_chat(chat_id, household.id, budget.id,
                                                              created_at=self.clock())
                if link.household_id != household.id:
                    raise _Outrun
                if linked is None:
                    await self.storage.directory.link_member(chat_id, speaker.user_id, founder.id)
        except _Outrun:
            return None
        return household

    async def join(self, chat_id: int, speaker: Speaker, name: str | None, *,
                   operation_id: str | None = None) -> list[Outcome]:
        """/entrar: a preview that a member of the household must confirm; until then the
        sender is not a member."""
        context = await self.chats.context(chat_id)
        if context is None:
            return [Reply(messages.not_started_text())]
        member = await self.chats.member(context, speaker.user_id)
        if member is not None:
            return [Reply(messages.joined_text(member.name, joined=False))]
        return await self._request_join(chat_id, speaker, name or speaker.first_name, operation_id)

    async def _request_join(self, chat_id: int, speaker: Speaker, name: str,
                            operation_id: str | None) -> list[Outcome]:
        context = await self.chats.context(chat_id)
        assert context is not None
        outcome = await self.proposals.propose(context, JoinHouseholdTool.name,
                                               {"name": name, "userId": speaker.user_id},
                                               operation_id or minted())
        return [outcome] if outcome is not None else []

    async def leave(self, chat_id: int, speaker: Speaker, *, operation_id: str | None = None) -> list[Outcome]:
        """/sair: a preview that, confirmed, takes the sender out of the household (their
        history stays)."""
        context = await self.chats.context(chat_id)
        member = await self.chats.member(context, speaker.user_id) if context is not None else None
        if context is None or member is None:
            return [Reply(messages.not_a_member_text())]
        outcome = await self.proposals.propose(context, LeaveHouseholdTool.name,
                                               {"name": member.name, "userId": speaker.user_id},
                                               operation_id or minted())
        return [outcome] if outcome is not None else []

    async def member_left(self, chat_id: int, user_id: int) -> str | None:
        """The user left or was removed from the group: no longer a member, so no longer able
        to confirm. Returns the member's name, or None if they were not one."""
        context = await self.chats.context(chat_id)
        if context is None:
            return None
        member_id = await self.storage.directory.member_of_user(chat_id, user_id)
        for _ in range(3):
            household = await self.storage.households.load(context.link.household_id)
            member = household.remove_member(member_id) if member_id is not None else None
            if member is None:
                return None
            try:
                await self.storage.households.save(household)
            except DomainError:  # ConcurrentModification: someone else changed the household
                continue
            return member.name
        return None

    async def erase(self, chat_id: int, speaker: Speaker, *, operation_id: str | None = None) -> list[Outcome]:
        """/apagar: a preview that, confirmed by a member, deletes every record of the household."""
        found = await self.chats.for_member(chat_id, speaker)
        if isinstance(found, Reply):
            return [found]
        context, _ = found
        outcome = await self.proposals.propose(context, EraseHouseholdTool.name,
                                               {"household": context.household.name},
                                               operation_id or minted())
        return [outcome] if outcome is not None else []

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """The group became a supergroup under a new id: its household, members, pending
        previews and conversation follow it."""
        moved = await self.storage.migrate_chat(old_chat_id, new_chat_id)
        if moved:
            log.info("chat %s moved to %s", old_chat_id, new_chat_id)
        return moved

    async def bot_membership(self, chat_id: int, present: bool) -> None:
        """The bot was removed from the group (nothing more is sent there) or added back."""
        await self.storage.set_departed(chat_id, not present, now=self.clock())

    async def can_send(self, chat_id: int) -> bool:
        return not await self.storage.is_departed(chat_id)


class _Outrun(Exception):
    """Another /start made the chat a household first: this one's unit of work is rolled back."""
