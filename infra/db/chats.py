"""Which household and budget a Telegram chat runs, and which member each Telegram user is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Generic, TypeVar

from sqlalchemy import select

from infra.db.engine import Database
from infra.db.tables import chat_members, chats
from infra.db.upsert import insert_for

K = TypeVar("K")
V = TypeVar("V")

CACHED_LINKS = 10_000  # per kind and process: a few MB at most


@dataclass(frozen=True)
class ChatLink:
    """A chat's household and budget (the chat's goals are the household's)."""

    household_id: str
    budget_id: str
    # When the chat became a household (None where unknown): months before it are refused.
    since: datetime | None = field(default=None, compare=False)


class _Links(Generic[K, V]):
    """Committed links, which never change once made: the oldest is forgotten past `size`."""

    def __init__(self, size: int = CACHED_LINKS) -> None:
        self._size = size
        self._items: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        if key not in self._items and len(self._items) >= self._size:
            del self._items[next(iter(self._items))]
        self._items[key] = value

    def forget(self, keep: Callable[[K], bool]) -> None:
        for key in [key for key in self._items if not keep(key)]:
            del self._items[key]


class ChatDirectory:
    """Links are made once: the first link of a chat (or of a user in a chat) is the one kept,
    so two /start or /entrar racing each other end on the same household or member.

    A committed link is kept in this process's memory and every later update of the chat finds
    it without a query. Only links that exist are kept (a chat not linked yet may be linked by
    another worker at any moment), and only committed ones: a link read or made inside a write
    transaction could still roll back. A member's link outlives their leaving (they are taken out
    of the household, which every update loads afresh, and come back under the same member id);
    a chat's links go only when its household is erased or the group moves to a new chat id,
    and a worker that still remembers them finds the household gone and calls `forget_chat`.
    """

    def __init__(self, database: Database) -> None:
        self._db = database
        self._chats: _Links[int, ChatLink] = _Links()
        self._members: _Links[tuple[int, int], str] = _Links()

    async def link_chat(self, chat_id: int, household_id: str, budget_id: str,
                        *, created_at: datetime | None = None) -> ChatLink:
        """Links the chat if it has no household yet (at `created_at`, now by default); returns
        the link that holds."""
        own = self._db.current is None  # committed when the block ends, unless joined to another
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
        link = ChatLink(row.household_id, row.budget_id, row.created_at)
        if own:
            self._chats.put(chat_id, link)
        return link

    async def household_of_chat(self, chat_id: int) -> ChatLink | None:
        cached = self._chats.get(chat_id)
        if cached is not None:
            return cached
        committed = self._db.current is None
        async with self._db.reading() as connection:
            row = (await connection.execute(
                select(chats.c.household_id, chats.c.budget_id, chats.c.created_at)
                .where(chats.c.chat_id == chat_id))).one_or_none()
        if row is None:
            return None
        link = ChatLink(row.household_id, row.budget_id, row.created_at)
        if committed:
            self._chats.put(chat_id, link)
        return link

    def forget_chat(self, chat_id: int) -> None:
        """Drops what this process remembers of the chat (its household was erased or moved)."""
        self._chats.forget(lambda key: key != chat_id)
        self._members.forget(lambda key: key[0] != chat_id)

    async def link_member(self, chat_id: int, user_id: int, member_id: str) -> str:
        """Links the user to a member of the chat's household unless already linked; returns
        the member id that holds. The chat must be linked first."""
        own = self._db.current is None
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
        if own:
            self._members.put((chat_id, user_id), linked)
        return linked

    async def member_of_user(self, chat_id: int, user_id: int) -> str | None:
        cached = self._members.get((chat_id, user_id))
        if cached is not None:
            return cached
        committed = self._db.current is None
        async with self._db.reading() as connection:
            member_id: str | None = (await connection.execute(
                select(chat_members.c.member_id).where(
                    chat_members.c.chat_id == chat_id,
                    chat_members.c.telegram_user_id == user_id))).scalar_one_or_none()
        if member_id is not None and committed:
            self._members.put((chat_id, user_id), member_id)
        return member_id
