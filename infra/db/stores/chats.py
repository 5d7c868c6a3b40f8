"""Which household and budget a Telegram chat runs, and which member each Telegram user is."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select

from infra.db.engine import Database
from infra.db.tables import chat_members, chats
from infra.db.upsert import insert_for


@dataclass(frozen=True)
class ChatLink:
    """A chat's household and budget (the chat's goals are the household's)."""

    household_id: str
    budget_id: str
    # When the chat became a household (None where unknown): months before it are refused.
    since: datetime | None = field(default=None, compare=False)


class ChatDirectory:
    """Links are made once: the first link of a chat (or of a user in a chat) is the one kept,
    so two /start or /entrar racing each other end on the same household or member.

    A member's link outlives their leaving (they are taken out of the household, which every
    update loads afresh, and come back under the same member id); a chat's links go only when its
    household is erased or the group moves to a new chat id.
    """

    def __init__(self, database: Database) -> None:
        self._db = database

    async def link_chat(self, chat_id: int, household_id: str, budget_id: str,
                        *, created_at: datetime | None = None) -> ChatLink:
        """Links the chat if it has no household yet (at `created_at`, now by default); returns
        the link that holds."""
        async with self._db.transaction() as unit:
            connection = unit.connection
            await connection.execute(
                insert_for(connection.dialect.name, chats)
                .values(chat_id=chat_id, household_id=household_id, budget_id=budget_id,
                        created_at=created_at or datetime.now(UTC))
                .on_conflict_do_nothing(index_elements=[chats.c.chat_id]))
            row = (await connection.execute(
                select(chats.c.household_id, chats.c.budget_id, chats.c.created_at)
                .where(chats.c.chat_id == chat_id))).one()
        return ChatLink(row.household_id, row.budget_id, row.created_at)

    async def household_of_chat(self, chat_id: int) -> ChatLink | None:
        async with self._db.reading() as connection:
            row = (await connection.execute(
                select(chats.c.household_id, chats.c.budget_id, chats.c.created_at)
                .where(chats.c.chat_id == chat_id))).one_or_none()
        if row is None:
            return None
        return ChatLink(row.household_id, row.budget_id, row.created_at)

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> str:
        """Links the user to a member of the chat's household unless already linked; returns
        the member id that holds. The chat must be linked first."""
        async with self._db.transaction() as unit:
            connection = unit.connection
            await connection.execute(
                insert_for(connection.dialect.name, chat_members)
                .values(chat_id=chat_id, telegram_user_id=user_id, member_id=member_id)
                .on_conflict_do_nothing(
                    index_elements=[chat_members.c.chat_id, chat_members.c.telegram_user_id]))
            linked: str = (await connection.execute(
                select(chat_members.c.member_id).where(
                    chat_members.c.chat_id == chat_id,
                    chat_members.c.telegram_user_id == user_id))).scalar_one()
        return linked

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        async with self._db.reading() as connection:
            member_id: str | None = (await connection.execute(
                select(chat_members.c.member_id).where(
                    chat_members.c.chat_id == chat_id,
                    chat_members.c.telegram_user_id == user_id))).scalar_one_or_none()
        return member_id
