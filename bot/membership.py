"""Who belongs to a household, and its erasure: two operations only a member can confirm.

They go through the same operation log, previews and buttons as the agent's writes, but they
are the bot's, never the model's: the model is not offered them, so it can neither admit a
person nor erase a household.
"""

from __future__ import annotations

from pydantic import Field

from bot.ports import Storage
from domain.agent.operations import OperationLog
from domain.agent.previews import ErasePreview, JoinPreview
from domain.agent.tools.base import Staged, WriteArgs, WriteTool
from domain.agent.tools.registry import ERASE_HOUSEHOLD, JOIN_HOUSEHOLD
from domain.errors import DomainError, DuplicateName

JOIN = JOIN_HOUSEHOLD
ERASE = ERASE_HOUSEHOLD


class AlreadyMember(DomainError):
    def __init__(self, name: str) -> None:
        super().__init__(f"{name} já é membro da casa.")
        self.name = name


class JoinArgs(WriteArgs):
    name: str = Field(min_length=1, max_length=200)
    user_id: int


class JoinHouseholdTool(WriteTool[JoinArgs]):
    """Admits the Telegram user who asked (/entrar) as a member named `name`."""

    name = JOIN
    description = "Admit a person to the household (the bot's, never offered to the model)."
    args_model = JoinArgs
    offered = False

    def __init__(self, storage: Storage, chat_id: int, household_id: str,
                 operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.storage = storage
        self.chat_id = chat_id
        self.household_id = household_id

    async def _stage(self, args: JoinArgs) -> Staged:
        household = await self.storage.households.load(self.household_id)
        linked = await self.storage.directory.member_of_user(self.chat_id, args.user_id)
        if household.has_member(linked):
            assert linked is not None
            raise AlreadyMember(household.member_by_id(linked).name)
        # Someone who left comes back as the member they were (their link is kept).
        try:
            member = household.add_member(args.name, id=linked)
        except DuplicateName:
            raise DuplicateName(args.name, "outro membro; use /entrar <outro nome>") from None

        async def commit() -> None:
            await self.storage.households.save(household)
            if linked is None:
                await self.storage.directory.link_member(self.chat_id, args.user_id, member.id)

        return Staged(JoinPreview(member.name), commit)


class EraseArgs(WriteArgs):
    household: str = Field(min_length=1, max_length=200)


class EraseHouseholdTool(WriteTool[EraseArgs]):
    """Deletes every record of the household (LGPD): aggregates, operations, conversations,
    the chat's stored updates and its links."""

    name = ERASE
    description = "Erase every record of the household (the bot's, never offered to the model)."
    args_model = EraseArgs
    offered = False

    def __init__(self, storage: Storage, household_id: str,
                 operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.storage = storage
        self.household_id = household_id

    async def _stage(self, args: EraseArgs) -> Staged:
        household = await self.storage.households.load(self.household_id)

        async def commit() -> None:
            await self.storage.erase_household(household.id)

        return Staged(ErasePreview(household.name), commit)
