"""The agent's conversations, one JSON message a row, keeping only the latest turns."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, select, update

from domain.agent.conversation import Message, last_turns
from infra.db.engine import Database
from infra.db.tables import conversations, messages
from infra.db.upsert import insert_for
from infra.db.values import dumps, loads

DEFAULT_TURNS_KEPT = 50


class SqlConversationStore:
    """The ConversationStore port over SQL. A turn starts at a user message; older turns are deleted."""

    def __init__(self, database: Database, max_turns_kept: int = DEFAULT_TURNS_KEPT) -> None:
        self._db = database
        self._max_turns_kept = max_turns_kept

    async def recent(self, conversation_id: str, turns: int) -> list[Message]:
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
        async with self._db.transaction() as unit:
            connection = unit.connection
            # Creates the conversation's row or, if it is there, locks it (an upsert that updates
            # locks the row on PostgreSQL, as SELECT ... FOR UPDATE did): two appends number their
            # messages in turn. Either way it hands back the numbering so far.
            statement = insert_for(connection.dialect.name, conversations)
            ordinal, turn = (await connection.execute(
                statement.values(id=conversation_id, last_ordinal=0, last_turn=0,
                                 updated_at=datetime.now(UTC))
                .on_conflict_do_update(index_elements=[conversations.c.id],
                                       set_={"updated_at": statement.excluded.updated_at})
                .returning(conversations.c.last_ordinal, conversations.c.last_turn))).one()
            rows = []
            for message in new:
                ordinal += 1
                if message.get("role") == "user":
                    turn += 1
                rows.append({"conversation_id": conversation_id, "ordinal": ordinal, "turn": turn,
                             "body": dumps(message)})
            await connection.execute(messages.insert(), rows)
            await connection.execute(
                update(conversations).where(conversations.c.id == conversation_id)
                .values(last_ordinal=ordinal, last_turn=turn, updated_at=datetime.now(UTC)))
            await connection.execute(
                delete(messages).where(messages.c.conversation_id == conversation_id,
                                       messages.c.turn <= turn - self._max_turns_kept))
