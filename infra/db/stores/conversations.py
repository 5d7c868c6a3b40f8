"""The agent's conversations, one JSON message a row, keeping only the latest turns."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, select

from domain.agent.conversation import Message, last_turns
from infra.db.engine import Database
from infra.db.tables import conversations, messages
from infra.db.upsert import insert_for
from infra.db.values import dumps, loads

DEFAULT_TURNS_KEPT = 50
# Older turns are deleted when an append crosses a multiple of this many turns, not on every append:
# a member's message waits for one statement less, and a conversation holds at most this many more.
PRUNE_EVERY = 10


class SqlConversationStore:
    """The ConversationStore port over SQL. A turn starts at a user message; older turns are deleted."""

    def __init__(self, database: Database, max_turns_kept: int = DEFAULT_TURNS_KEPT) -> None:
        self._db = database
        self._max_turns_kept = max_turns_kept

    async def recent(self, conversation_id: str, turns: int) -> list[Message]:
        turns = min(turns, self._max_turns_kept)  # a turn past the limit waits for its pruning
        if turns <= 0:
            return []
        async with self._db.reading() as connection:
            last_turn = (await connection.execute(
                select(conversations.c.last_turn).where(conversations.c.id == conversation_id)
            )).scalar_one_or_none()
            if last_turn is None:
                return []
            rows = await connection.execute(
                select(messages.c.body)
                .where(messages.c.conversation_id == conversation_id,
                       messages.c.turn > last_turn - turns)
                .order_by(messages.c.ordinal))
            kept = [loads(body) for body, in rows]
        return last_turns(kept, turns)

    async def append(self, conversation_id: str, new: list[Message]) -> None:
        if not new:
            return
        count, users = len(new), sum(1 for message in new if message.get("role") == "user")
        async with self._db.transaction() as unit:
            connection = unit.connection
            # Creates the conversation's row or, if it is there, moves its numbering on and so locks
            # it (an upsert that updates locks the row on PostgreSQL, as SELECT ... FOR UPDATE did):
            # two appends number their messages in turn. It hands back the numbering after this one.
            statement = insert_for(connection.dialect.name, conversations)
            now = datetime.now(UTC)
            last_ordinal, last_turn = (await connection.execute(
                statement.values(id=conversation_id, last_ordinal=count, last_turn=users, updated_at=now)
                .on_conflict_do_update(index_elements=[conversations.c.id], set_={
                    "last_ordinal": conversations.c.last_ordinal + count,
                    "last_turn": conversations.c.last_turn + users,
                    "updated_at": statement.excluded.updated_at})
                .returning(conversations.c.last_ordinal, conversations.c.last_turn))).one()
            ordinal, turn = last_ordinal - count, last_turn - users
            first_turn = turn
            rows = []
            for message in new:
                ordinal += 1
                if message.get("role") == "user":
                    turn += 1
                rows.append({"conversation_id": conversation_id, "ordinal": ordinal, "turn": turn,
                             "body": dumps(message)})
            await connection.execute(messages.insert(), rows)
            if turn // PRUNE_EVERY != first_turn // PRUNE_EVERY:
                await connection.execute(
                    delete(messages).where(messages.c.conversation_id == conversation_id,
                                           messages.c.turn <= turn - self._max_turns_kept))
