"""What the bot sends on its own: finding what is due, and claiming each message once.

Every household's due bills come from one indexed query (expenses by billing day, joined to
their chats), never a loop over households. A message is claimed before it is sent, as the
inbox claims an update: the first claim inserts its row (INSERT ... ON CONFLICT DO NOTHING
decides a race between workers), a claim whose lease lapsed (its worker died before sending)
can be taken over, and a send marks the row sent. A claim that keeps failing gives up after
MAX_ATTEMPTS, so a group that removed the bot is not tried all day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, delete, exists, or_, select, update

from domain.clock import BillingDays
from domain.money import Money
from infra.db.engine import Database
from infra.db.tables import cards, chats, expenses, goals, reminder_preferences, scheduled_sends
from infra.db.upsert import insert_for
from infra.db.values import money_from_minor

BILL, CLOSING, FATURA = "bill", "closing", "fatura"
SENDING, SENT = "sending", "sent"
MAX_ATTEMPTS = 5


@dataclass(frozen=True)
class DueBill:
    expense_id: str
    chat_id: int
    household_id: str
    name: str
    expected_minor: int
    currency: str
    payment_method: str | None

    @property
    def expected(self) -> Money:
        # Built when the reminder is written, not for every row found (bench/run.py: on the
        # last day of a month, ten thousand rows).
        return money_from_minor(self.expected_minor, self.currency)


@dataclass(frozen=True)
class DueCard:
    """A card whose due day falls on the reminder's date (which of its faturas is due, and for how
    much, the caller reads: domain.cards, the ledger)."""

    card_id: str
    chat_id: int
    name: str
    closing_day: int
    due_day: int


@dataclass(frozen=True)
class DueClosing:
    household_id: str
    budget_id: str
    chat_id: int


@dataclass(frozen=True)
class Claim:
    kind: str
    subject_id: str
    due_on: date


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _owed(kind: str, subject: Any, due_on: date, now: datetime) -> ColumnElement[bool]:
    """No message is owed for `subject` any more: sent, claimed under a live lease, or given up."""
    return exists().where(
        scheduled_sends.c.kind == kind, scheduled_sends.c.subject_id == subject,
        scheduled_sends.c.due_on == due_on,
        or_(scheduled_sends.c.status == SENT, scheduled_sends.c.claimed_until >= now,
            scheduled_sends.c.attempts >= MAX_ATTEMPTS))


def due_bills_query(due_on: date, days: BillingDays, now: datetime) -> Select[Any]:
    """Expenses billed on `days`, joined to their chats (indexes on expenses.billing_day and
    chats.budget_id), without muted households or reminders already sent or being sent."""
    now = _utc(now)
    day = expenses.c.billing_day
    billed = or_(day == days.day, day > days.day) if days.and_later else day == days.day
    muted = exists().where(reminder_preferences.c.household_id == chats.c.household_id,
                           reminder_preferences.c.enabled.is_(False))
    return (select(expenses.c.id, expenses.c.name, expenses.c.expected_minor, expenses.c.currency,
                   expenses.c.payment_method, chats.c.chat_id, chats.c.household_id)
            .join(chats, chats.c.budget_id == expenses.c.budget_id)
            .where(billed, ~muted, ~_owed(BILL, expenses.c.id, due_on, now)))


def due_cards_query(due_on: date, days: BillingDays, now: datetime) -> Select[Any]:
    """Active cards due on `days` (index on cards.due_day), joined to their chats, without muted
    households or fatura reminders already sent or being sent."""
    now = _utc(now)
    day = cards.c.due_day
    due = or_(day == days.day, day > days.day) if days.and_later else day == days.day
    muted = exists().where(reminder_preferences.c.household_id == chats.c.household_id,
                           reminder_preferences.c.enabled.is_(False))
    return (select(cards.c.id, cards.c.name, cards.c.closing_day, cards.c.due_day, chats.c.chat_id)
            .join(chats, chats.c.budget_id == cards.c.budget_id)
            .where(due, cards.c.archived.is_(False), ~muted, ~_owed(FATURA, cards.c.id, due_on, now)))


class ScheduleStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    # -- what is due ---------------------------------------------------------------------------

    async def due_bills(self, due_on: date, days: BillingDays, now: datetime) -> list[DueBill]:
        """The expenses falling due on `due_on`, in households whose reminders are on, whose
        reminder is neither sent nor being sent: one query for every household."""
        async with self._db.reading() as connection:
            rows = (await connection.execute(due_bills_query(due_on, days, now))).all()
        return [DueBill(row.id, row.chat_id, row.household_id, row.name, row.expected_minor, row.currency,
                        row.payment_method) for row in rows]

    async def due_cards(self, due_on: date, days: BillingDays, now: datetime) -> list[DueCard]:
        """The cards whose due day falls on `due_on` and whose reminder is owed: one query."""
        async with self._db.reading() as connection:
            rows = (await connection.execute(due_cards_query(due_on, days, now))).all()
        return [DueCard(row.id, row.chat_id, row.name, row.closing_day, row.due_day) for row in rows]

    async def due_closings(self, first_day: date, opened_before: datetime, now: datetime) -> list[DueClosing]:
        """Households with something to sum up (an expense or a goal), set up before the month
        ended, whose closing for the month before `first_day` is neither sent nor being sent."""
        now = _utc(now)
        has_something = or_(exists().where(expenses.c.budget_id == chats.c.budget_id),
                            exists().where(goals.c.household_id == chats.c.household_id))
        query = (select(chats.c.household_id, chats.c.budget_id, chats.c.chat_id)
                 .where(chats.c.created_at < _utc(opened_before), has_something,
                        ~_owed(CLOSING, chats.c.household_id, first_day, now))
                 .order_by(chats.c.chat_id))
        async with self._db.reading() as connection:
            rows = (await connection.execute(query)).all()
        return [DueClosing(row.household_id, row.budget_id, row.chat_id) for row in rows]

    # -- claiming ------------------------------------------------------------------------------

    async def claim(self, claim: Claim, chat_id: int, owner: str, now: datetime, lease: timedelta) -> bool:
        """Whether `owner` now holds the message: a first claim, or one whose lease lapsed."""
        now = _utc(now)
        key = self._key(claim)
        async with self._db.transaction() as unit:
            connection = unit.connection
            inserted = await connection.execute(
                insert_for(connection.dialect.name, scheduled_sends)
                .values(kind=claim.kind, subject_id=claim.subject_id, due_on=claim.due_on, chat_id=chat_id,
                        status=SENDING, claimed_by=owner, claimed_until=now + lease, attempts=1,
                        sent_at=None)
                .on_conflict_do_nothing(index_elements=[scheduled_sends.c.kind, scheduled_sends.c.subject_id,
                                                        scheduled_sends.c.due_on]))
            if inserted.rowcount == 1:
                return True
            taken = await connection.execute(
                update(scheduled_sends)
                .where(key, scheduled_sends.c.status == SENDING, scheduled_sends.c.claimed_until < now,
                       scheduled_sends.c.attempts < MAX_ATTEMPTS)
                .values(claimed_by=owner, claimed_until=now + lease, chat_id=chat_id,
                        attempts=scheduled_sends.c.attempts + 1))
        return bool(taken.rowcount == 1)

    async def sent(self, claim: Claim, owner: str, now: datetime) -> bool:
        """Marks `owner`'s claimed message sent; False if the claim was no longer `owner`'s."""
        async with self._db.transaction() as unit:
            result = await unit.connection.execute(
                update(scheduled_sends)
                .where(self._key(claim), scheduled_sends.c.claimed_by == owner,
                       scheduled_sends.c.status == SENDING)
                .values(status=SENT, sent_at=_utc(now), claimed_until=None))
        return bool(result.rowcount == 1)

    async def release(self, claim: Claim, owner: str) -> None:
        """A send failed: the message may be claimed again at once (up to MAX_ATTEMPTS)."""
        async with self._db.transaction() as unit:
            await unit.connection.execute(
                update(scheduled_sends)
                .where(self._key(claim), scheduled_sends.c.claimed_by == owner,
                       scheduled_sends.c.status == SENDING)
                .values(claimed_until=datetime(1970, 1, 1, tzinfo=UTC)))

    async def purge(self, before: date) -> int:
        """Forgets the scheduled messages due before `before` (housekeeping)."""
        async with self._db.transaction() as unit:
            result = await unit.connection.execute(
                delete(scheduled_sends).where(scheduled_sends.c.due_on < before))
        return int(result.rowcount or 0)

    @staticmethod
    def _key(claim: Claim) -> ColumnElement[bool]:
        return and_(scheduled_sends.c.kind == claim.kind, scheduled_sends.c.subject_id == claim.subject_id,
                    scheduled_sends.c.due_on == claim.due_on)

    # -- /lembretes ----------------------------------------------------------------------------

    async def set_reminders(self, household_id: str, enabled: bool, now: datetime) -> None:
        async with self._db.transaction() as unit:
            connection = unit.connection
            statement = insert_for(connection.dialect.name, reminder_preferences).values(
                household_id=household_id, enabled=enabled, changed_at=_utc(now))
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[reminder_preferences.c.household_id],
                set_={"enabled": statement.excluded.enabled, "changed_at": statement.excluded.changed_at}))

    async def reminders_enabled(self, household_id: str) -> bool:
        async with self._db.reading() as connection:
            enabled = (await connection.execute(
                select(reminder_preferences.c.enabled)
                .where(reminder_preferences.c.household_id == household_id))).scalar_one_or_none()
        return enabled is not False
