"""Who belongs to a household, and its erasure: operations only a member can confirm (joining,
leaving, erasing).

They go through the same operation log, previews and buttons as every write, but they are the
bot's, never the model's: the model is not offered them (`offered = False`), so it can neither
admit a person nor erase a household.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from domain.errors import DomainError, DuplicateName
from domain.operations.log import OperationLog
from domain.operations.previews import Preview
from domain.ports import HouseholdEraser, HouseholdRepository, MemberLinks
from domain.tools.base import HouseholdBinding, Staged, WriteArgs, WriteTool


@dataclass(frozen=True)
class JoinPreview(Preview):
    """joinHousehold: the person who asked to join, by the name they will have."""

    name: str


@dataclass(frozen=True)
class LeavePreview(Preview):
    """leaveHousehold: the member who asked to leave (/sair)."""

    name: str


@dataclass(frozen=True)
class ErasePreview(Preview):
    """eraseHousehold: the household whose every record goes."""

    household: str


class AlreadyMember(DomainError):
    def __init__(self, name: str) -> None:
        super().__init__(f"{name} já é membro da casa.")
        self.name = name


class JoinArgs(WriteArgs):
    name: str = Field(min_length=1, max_length=200)
    user_id: int


class _MemberTool(WriteTool[Any]):
    """A tool about one Telegram user's place in the household (joining, leaving): the bot's,
    never offered to the model."""

    offered = False
    undoable = False

    def __init__(self, households: HouseholdRepository, members: MemberLinks, chat_id: int,
                 household_id: str, operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.households = households
        self.members = members
        self.chat_id = chat_id
        self.household_id = household_id

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> Any:
        if binding.households is None or binding.members is None or binding.chat_id is None:
            return None
        return cls(binding.households, binding.members, binding.chat_id, binding.household.id,
                   binding.operations)


class JoinHouseholdTool(_MemberTool):
    """Admits the Telegram user who asked (/entrar) as a member named `name`."""

    name = "joinHousehold"
    description = "Admit a person to the household (the bot's, never offered to the model)."
    args_model = JoinArgs
    preview_type = JoinPreview

    async def _stage(self, args: JoinArgs) -> Staged:
        household = await self.households.load(self.household_id)
        linked = await self.members.member_of_user(self.chat_id, args.user_id)
        if household.has_member(linked):
            assert linked is not None
            raise AlreadyMember(household.member_by_id(linked).name)
        # Someone who left comes back as the member they were (their link is kept).
        try:
            member = household.add_member(args.name, id=linked)
        except DuplicateName:
            raise DuplicateName(args.name, "outro membro; use /entrar <outro nome>") from None

        async def commit() -> None:
            await self.households.save(household)
            if linked is None:
                await self.members.link_member(self.chat_id, args.user_id, member.id)

        return Staged(JoinPreview(member.name), commit)


class NotAMember(DomainError):
    def __init__(self) -> None:
        super().__init__("Você não é membro desta casa.")


class LeaveArgs(WriteArgs):
    name: str = Field(min_length=1, max_length=200)
    user_id: int


class LeaveHouseholdTool(_MemberTool):
    """Takes the Telegram user who asked (/sair) out of the household; their history stays, and
    /entrar brings them back as the member they were."""

    name = "leaveHousehold"
    description = "Take a member out of the household (the bot's, never offered to the model)."
    args_model = LeaveArgs
    preview_type = LeavePreview

    async def _stage(self, args: LeaveArgs) -> Staged:
        household = await self.households.load(self.household_id)
        linked = await self.members.member_of_user(self.chat_id, args.user_id)
        member = household.remove_member(linked) if linked is not None else None
        if member is None:
            raise NotAMember()
        return Staged(LeavePreview(member.name), lambda: self.households.save(household))


class EraseArgs(WriteArgs):
    household: str = Field(min_length=1, max_length=200)


class EraseHouseholdTool(WriteTool[EraseArgs]):
    """Deletes every record of the household (LGPD): aggregates, operations, conversations,
    the chat's stored updates and its links."""

    name = "eraseHousehold"
    description = "Erase every record of the household (the bot's, never offered to the model)."
    args_model = EraseArgs
    preview_type = ErasePreview
    offered = False
    undoable = False

    def __init__(self, households: HouseholdRepository, eraser: HouseholdEraser, household_id: str,
                 operations: OperationLog | None = None) -> None:
        super().__init__(operations)
        self.households = households
        self.eraser = eraser
        self.household_id = household_id

    @classmethod
    def bound(cls, binding: HouseholdBinding) -> EraseHouseholdTool | None:
        if binding.households is None or binding.eraser is None:
            return None
        return cls(binding.households, binding.eraser, binding.household.id, binding.operations)

    async def _stage(self, args: EraseArgs) -> Staged:
        household = await self.households.load(self.household_id)

        async def commit() -> None:
            await self.eraser.erase_household(household.id)

        return Staged(ErasePreview(household.name), commit)
