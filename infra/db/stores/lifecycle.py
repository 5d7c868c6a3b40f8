"""A household's life beyond its aggregates: erasing every record of it (LGPD), following its
group to a new chat id (supergroup migration), the groups the bot was removed from, and the
rows that are only kept for a while (finished inbox updates, expired previews).

Every household-scoped table is listed once in `ERASED`: adding a table is one line there, and a
test fails while a table of the schema is in neither `ERASED` nor `NOT_HOUSEHOLD_DATA`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Table, delete, insert, select, update

from infra.db.engine import Database
from infra.db.tables import (
    budgets,
    cards,
    chat_members,
    chats,
    conversations,
    departed_chats,
    expense_alerts,
    expense_aliases,
    expenses,
    former_chats,
    goal_members,
    goals,
    group_sends,
    households,
    ledger_balances,
    ledger_entries,
    ledger_shares,
    members,
    messages,
    operations,
    processed_updates,
    reminder_preferences,
    scheduled_sends,
    statement_imports,
)
from infra.db.upsert import insert_for


def chat_scope(chat_id: int) -> str:
    """The operation log's scope and the conversation's id of a chat (bot.service._scope)."""
    return f"chat:{chat_id}"


@dataclass(frozen=True)
class HouseholdKeys:
    """Everything a household's rows are keyed by: its chat ids are every one it ever had (the
    current one and those a supergroup migration left behind)."""

    household_id: str
    chat_ids: tuple[int, ...]
    budget_ids: tuple[str, ...]

    @property
    def scopes(self) -> list[str]:
        return [chat_scope(chat_id) for chat_id in self.chat_ids]


Where = Callable[[HouseholdKeys], ColumnElement[bool]]


def by_household(column: Any) -> Where:
    return lambda keys: column == keys.household_id


def by_chat(column: Any) -> Where:
    return lambda keys: column.in_(keys.chat_ids)


def by_scope(column: Any) -> Where:
    return lambda keys: column.in_(keys.scopes)


def by_budget(column: Any) -> Where:
    return lambda keys: column.in_(keys.budget_ids)


def by_expense(column: Any) -> Where:
    return lambda keys: column.in_(select(expenses.c.id).where(expenses.c.budget_id.in_(keys.budget_ids)))


def by_goal(column: Any) -> Where:
    return lambda keys: column.in_(select(goals.c.id).where(goals.c.household_id == keys.household_id))


def by_subject(column: Any) -> Where:
    """What a scheduled send is about: one of the household's expenses (a bill) or cards (a
    fatura), or the household (a closing). Read before the expenses and cards go."""
    return lambda keys: column.in_(select(expenses.c.id).where(expenses.c.budget_id.in_(keys.budget_ids))) \
        | column.in_(select(cards.c.id).where(cards.c.budget_id.in_(keys.budget_ids))) \
        | (column == keys.household_id)


# In order. The operations go first: on PostgreSQL their DELETE waits for a confirmation that
# holds one of them, so every later DELETE sees what that confirmation wrote; a confirmation
# that comes after finds no operation and writes nothing. Children before their parents.
ERASED: list[tuple[Table, Where]] = [
    (operations, by_scope(operations.c.scope)),
    (ledger_shares, by_household(ledger_shares.c.household_id)),
    (ledger_balances, by_household(ledger_balances.c.household_id)),
    # An entry names its household, and its budget or goal (entries carried over by a migration
    # may only name the latter).
    (ledger_entries, lambda keys: by_household(ledger_entries.c.household_id)(keys)
     | by_budget(ledger_entries.c.budget_id)(keys) | by_goal(ledger_entries.c.goal_id)(keys)),
    (messages, by_scope(messages.c.conversation_id)),
    (conversations, by_scope(conversations.c.id)),
    # Whichever chat a reminder went to, and whatever it was about.
    (scheduled_sends, lambda keys: by_chat(scheduled_sends.c.chat_id)(keys)
     | by_subject(scheduled_sends.c.subject_id)(keys)),
    (expense_aliases, by_expense(expense_aliases.c.expense_id)),
    (expense_alerts, by_expense(expense_alerts.c.expense_id)),
    (expenses, by_budget(expenses.c.budget_id)),
    (cards, by_budget(cards.c.budget_id)),
    (budgets, by_household(budgets.c.household_id)),
    (goal_members, by_goal(goal_members.c.goal_id)),
    (goals, by_household(goals.c.household_id)),
    (statement_imports, by_household(statement_imports.c.household_id)),
    (reminder_preferences, by_household(reminder_preferences.c.household_id)),
    (group_sends, by_chat(group_sends.c.chat_id)),
    (departed_chats, by_chat(departed_chats.c.chat_id)),
    # Finished updates only: an unfinished one (this very press) is still being worked off, and
    # the retention purge takes it once done.
    (processed_updates, lambda keys: processed_updates.c.chat_id.in_(keys.chat_ids)
     & (processed_updates.c.status == "done")),
    (chat_members, by_chat(chat_members.c.chat_id)),
    (chats, by_household(chats.c.household_id)),
    (former_chats, by_household(former_chats.c.household_id)),
    (members, by_household(members.c.household_id)),
    (households, lambda keys: households.c.id == keys.household_id),
]

# Tables that hold no household's data (none yet).
NOT_HOUSEHOLD_DATA: frozenset[str] = frozenset()


async def erase_household(database: Database, household_id: str) -> int:
    """Deletes every record of the household; joins the caller's transaction (a confirmation's).
    Returns the number of rows deleted."""
    async with database.transaction() as unit:
        connection = unit.connection
        chat_ids = tuple((await connection.execute(
            select(chats.c.chat_id).where(chats.c.household_id == household_id)
            .union(select(former_chats.c.chat_id).where(former_chats.c.household_id == household_id))))
            .scalars())
        budget_ids = tuple((await connection.execute(
            select(budgets.c.id).where(budgets.c.household_id == household_id))).scalars())
        keys = HouseholdKeys(household_id, chat_ids, budget_ids)
        deleted = 0
        for table, where in ERASED:
            result = await connection.execute(delete(table).where(where(keys)))
            deleted += max(0, result.rowcount or 0)
    return deleted


async def migrate_chat(database: Database, old: int, new: int) -> bool:
    """Moves a group's household, members, operations and conversation from chat id `old` to
    `new` (a supergroup migration). Idempotent, in either order of Telegram's two messages:
    True only for the call that moved something."""
    if old == new:
        return False
    async with database.transaction() as unit:
        connection = unit.connection
        moved = await connection.execute(select(chats).where(chats.c.chat_id == old).with_for_update())
        row = moved.one_or_none()
        taken = (await connection.execute(select(chats.c.chat_id).where(chats.c.chat_id == new))).first()
        if row is None or taken is not None:
            return False
        await connection.execute(insert(chats).values(
            chat_id=new, household_id=row.household_id, budget_id=row.budget_id, created_at=row.created_at))
        # Remembered for /apagar: what stays under the old id (the bot's sends there, a reminder,
        # this very update once it is done) is the household's too.
        await connection.execute(insert_for(connection.dialect.name, former_chats)
                                 .values(chat_id=old, household_id=row.household_id)
                                 .on_conflict_do_nothing(index_elements=[former_chats.c.chat_id]))
        await connection.execute(update(chat_members).where(chat_members.c.chat_id == old).values(chat_id=new))
        await connection.execute(update(operations).where(operations.c.scope == chat_scope(old))
                                 .values(scope=chat_scope(new)))
        conversation = (await connection.execute(
            select(conversations).where(conversations.c.id == chat_scope(old)))).one_or_none()
        if conversation is not None:
            await connection.execute(insert(conversations).values(
                id=chat_scope(new), last_ordinal=conversation.last_ordinal,
                last_turn=conversation.last_turn, updated_at=conversation.updated_at))
            await connection.execute(update(messages).where(messages.c.conversation_id == chat_scope(old))
                                     .values(conversation_id=chat_scope(new)))
            await connection.execute(delete(conversations).where(conversations.c.id == chat_scope(old)))
        # Finished updates follow (for /apagar); unfinished ones keep their chat's order.
        await connection.execute(update(processed_updates).where(
            processed_updates.c.chat_id == old, processed_updates.c.status == "done").values(chat_id=new))
        await connection.execute(delete(chats).where(chats.c.chat_id == old))
    return True


async def mark_departed(database: Database, chat_id: int, departed: bool, *, now: datetime) -> None:
    """The bot was removed from the group (`departed`) or added back."""
    async with database.transaction() as unit:
        connection = unit.connection
        if departed:
            await connection.execute(
                insert_for(connection.dialect.name, departed_chats)
                .values(chat_id=chat_id, departed_at=now)
                .on_conflict_do_nothing(index_elements=[departed_chats.c.chat_id]))
        else:
            await connection.execute(delete(departed_chats).where(departed_chats.c.chat_id == chat_id))


async def is_departed(database: Database, chat_id: int) -> bool:
    async with database.reading() as connection:
        found = (await connection.execute(
            select(departed_chats.c.chat_id).where(departed_chats.c.chat_id == chat_id))).first()
    return found is not None


async def purge_inbox(database: Database, *, now: datetime, retention: timedelta) -> int:
    """Deletes finished updates received more than `retention` ago; returns how many."""
    async with database.transaction() as unit:
        result = await unit.connection.execute(delete(processed_updates).where(
            processed_updates.c.status == "done", processed_updates.c.received_at < now - retention))
    return max(0, result.rowcount or 0)


@dataclass(frozen=True)
class ExpiredPreview:
    """A preview the sweep closed: its chat's message to edit, if it was posted."""

    chat_id: int | None
    message_id: int | None
    tool: str
    preview: dict[str, Any]


async def expire_previews(database: Database, *, now: datetime, ttl: timedelta) -> list[ExpiredPreview]:
    """Closes every pending operation older than `ttl` (as a late press would) and returns them."""
    from infra.db.values import loads

    cutoff = now - ttl
    async with database.transaction() as unit:
        rows = (await unit.connection.execute(
            update(operations).where(operations.c.status == "pending", operations.c.created_at < cutoff)
            .values(status="expired", decided_at=now)
            .returning(operations.c.scope, operations.c.message_id, operations.c.tool,
                       operations.c.preview))).all()
    return [ExpiredPreview(_chat_of_scope(row.scope), row.message_id, row.tool, loads(row.preview))
            for row in rows]


def _chat_of_scope(scope: str) -> int | None:
    prefix, _, rest = scope.partition(":")
    try:
        return int(rest) if prefix == "chat" else None
    except ValueError:
        return None


def utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
