"""The schema, as SQLAlchemy Core tables. Money is always integer minor units plus a currency.

Aggregates reference one another by id without foreign keys (a budget names its household, a
goal its members), so each can be saved on its own; foreign keys hold an aggregate's own rows
together.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    false,
)

from infra.db.values import UtcDateTime

metadata = MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

ID = 64  # uuid4 text, or a test's short id
NAME = 200
CURRENCY = 3
PIX_KEY = 100  # the DICT's longest key is a 77-character e-mail


def _parent(name: str, target: str) -> Column[str]:
    return Column(name, String(ID), ForeignKey(target, ondelete="CASCADE"), primary_key=True)


households = Table(
    "households", metadata,
    Column("id", String(ID), primary_key=True),
    Column("name", String(NAME), nullable=False),
    Column("currency", String(CURRENCY), nullable=False),
    Column("version", Integer, nullable=False),
)

members = Table(
    "members", metadata,
    _parent("household_id", "households.id"),
    Column("id", String(ID), primary_key=True),
    Column("name", String(NAME), nullable=False),
    Column("position", Integer, nullable=False),
    # The member's Pix key as the DICT writes it (migration 0019); never logged.
    Column("pix_key", String(PIX_KEY), nullable=True),
)

budgets = Table(
    "budgets", metadata,
    Column("id", String(ID), primary_key=True),
    Column("household_id", String(ID), nullable=True, index=True),
    Column("currency", String(CURRENCY), nullable=False),
    Column("income_minor", BigInteger, nullable=True),
    Column("income_currency", String(CURRENCY), nullable=True),
    Column("version", Integer, nullable=False),
    # Migration 0019: the split rule, JSON {"kind": "fixed", "percents": {"<member id>": "60"}}
    # (NULL: equal shares), and each member's own income, JSON {"<member id>": {"name": "Ana",
    # "minor": 700000}} in the budget's currency (NULL: none).
    Column("split_rule", Text, nullable=True),
    Column("member_incomes", Text, nullable=True),
)

expenses = Table(
    "expenses", metadata,
    Column("id", String(ID), primary_key=True),
    Column("budget_id", String(ID), ForeignKey("budgets.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("name", String(NAME), nullable=False),
    Column("expected_minor", BigInteger, nullable=False),
    Column("currency", String(CURRENCY), nullable=False),
    Column("category", String(NAME), nullable=True),
    Column("billing_day", SmallInteger, nullable=True),
    Column("payment_method", String(NAME), nullable=True),
    Column("position", Integer, nullable=False),
    # The expected amount from each month on, JSON {"2026-06": 150000, ...} in minor units of
    # `currency` (migration 0018b): NULL for an expense registered before it was kept.
    Column("expected_history", Text, nullable=True),
    Column("archived", Boolean, nullable=False, server_default=false()),
    # "2026-07": the first month an archived expense is no longer shown (migration 0026); NULL for
    # one archived before it was kept, or not archived.
    Column("archived_since", String(7), nullable=True),
)

expense_aliases = Table(
    "expense_aliases", metadata,
    _parent("expense_id", "expenses.id"),
    Column("position", Integer, primary_key=True),
    Column("alias", String(NAME), nullable=False),
)

# A month's limit thresholds already said for an expense (migration 0024): 80 and 100 % of its
# expected amount, once each; an undo that takes the month below one deletes its row (re-armed).
# Saved with the budget, under its row lock, so concurrent confirmations say each once.
expense_alerts = Table(
    "expense_alerts", metadata,
    _parent("expense_id", "expenses.id"),
    Column("period", String(7), primary_key=True),
    Column("threshold", SmallInteger, primary_key=True),
)

# A household's credit cards (migration 0024), part of its budget: the day each fatura closes and
# the day it falls due; aliases as a JSON list. Spends on a card are ledger entries naming it.
cards = Table(
    "cards", metadata,
    Column("id", String(ID), primary_key=True),
    Column("budget_id", String(ID), ForeignKey("budgets.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("name", String(NAME), nullable=False),
    Column("aliases", Text, nullable=True),
    Column("closing_day", SmallInteger, nullable=False),
    Column("due_day", SmallInteger, nullable=False, index=True),
    Column("archived", Boolean, nullable=False, server_default=false()),
    Column("position", Integer, nullable=False),
)

goals = Table(
    "goals", metadata,
    Column("id", String(ID), primary_key=True),
    Column("household_id", String(ID), nullable=True, index=True),
    Column("name", String(NAME), nullable=False),
    Column("target_minor", BigInteger, nullable=False),
    Column("target_currency", String(CURRENCY), nullable=False),
    Column("created_at", Date, nullable=False),
    Column("deadline", Date, nullable=True),
    Column("version", Integer, nullable=False),
    Column("archived", Boolean, nullable=False, server_default=false()),
)

goal_members = Table(
    "goal_members", metadata,
    _parent("goal_id", "goals.id"),
    Column("position", Integer, primary_key=True),
    Column("member_id", String(ID), nullable=False),
    Column("member_name", String(NAME), nullable=False),
)

# The ledger (migration 0014): every confirmed change, one row each, never updated. An expense's
# actual for a month and a goal's savings are SUMs over it; the indexes make those sums seeks
# over the rows of one expense and month, or of one goal, whatever the length of the history.
ledger_entries = Table(
    "ledger_entries", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("household_id", String(ID), nullable=True),
    Column("scope", String(NAME), nullable=True),  # the chat whose operation log holds the operation
    Column("operation_id", String(128), nullable=True),  # None: carried over, or saved outside one
    Column("tool", String(64), nullable=True),
    Column("kind", String(16), nullable=False),
    Column("budget_id", String(ID), nullable=True),
    Column("expense_id", String(ID), nullable=True),
    Column("goal_id", String(ID), nullable=True),
    Column("subject", String(NAME), nullable=False),
    Column("amount_minor", BigInteger, nullable=True),
    Column("currency", String(CURRENCY), nullable=True),
    Column("period", String(7), nullable=True),
    Column("day", Date, nullable=True),  # a contribution's date
    Column("paid_by_id", String(ID), nullable=True),
    Column("paid_by", String(NAME), nullable=True),
    Column("confirmed_by", String(NAME), nullable=True),
    Column("undoes", String(128), nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    # A card spend (migration 0024): its card and parcela, k of N; `period` is then its fatura and
    # `day` the purchase's. A card's own entries (registered, renamed, archived) name it too.
    Column("card_id", String(ID), nullable=True),
    Column("installment", SmallInteger, nullable=True),
    Column("installments", SmallInteger, nullable=True),
    Index(None, "expense_id", "period", "currency", "amount_minor"),
    # Covering: a fatura's sums (infra/db/stores/ledger.py, `faturas`) read the index alone.
    Index("ix_ledger_entries_card_faturas", "card_id", "period", "currency", "amount_minor", "installments"),
    Index(None, "budget_id", "period"),
    Index(None, "goal_id", "kind", "currency", "amount_minor"),
    Index(None, "household_id", "id"),
    Index(None, "scope", "operation_id"),
)

# Each member's part of a shared ledger entry (migration 0019): what they paid and what they owe,
# written with the entry in the same transaction and never updated. `month` is the entry's month as
# /extrato counts it (a spend's month, an acerto's date), so a month's movement is a range of one
# index. A personal spend, or one whose payer is unknown, has none.
ledger_shares = Table(
    "ledger_shares", metadata,
    Column("entry_id", BigInteger().with_variant(Integer, "sqlite"),
           ForeignKey("ledger_entries.id", ondelete="CASCADE"), primary_key=True, autoincrement=False),
    Column("member_id", String(ID), primary_key=True),
    Column("household_id", String(ID), nullable=False),
    Column("member_name", String(NAME), nullable=False),
    Column("kind", String(16), nullable=False),  # the entry's: spend or settlement
    Column("month", String(7), nullable=False),
    Column("paid_minor", BigInteger, nullable=False),
    Column("owed_minor", BigInteger, nullable=False),
    Column("currency", String(CURRENCY), nullable=False),
    Index(None, "household_id", "member_id"),
    Index(None, "household_id", "month"),
)

# The running sum of ledger_shares per member (migration 0019): what /saldo reads instead of
# summing a household's whole history. Moved in the same transaction as the shares it sums,
# and rebuilt from them by a test (tests/integration/db/test_sql_sharing.py).
ledger_balances = Table(
    "ledger_balances", metadata,
    Column("household_id", String(ID), primary_key=True),
    Column("member_id", String(ID), primary_key=True),
    Column("currency", String(CURRENCY), primary_key=True),
    Column("member_name", String(NAME), nullable=False),
    Column("net_minor", BigInteger, nullable=False),
    Column("spends", Integer, nullable=False),
    Column("settlements", Integer, nullable=False),
)

operations = Table(
    "operations", metadata,
    Column("scope", String(NAME), primary_key=True),  # the chat: model ids ("op-1") repeat across chats
    Column("operation_id", String(128), primary_key=True),
    Column("household_id", String(ID), nullable=True),
    Column("tool", String(64), nullable=False),
    Column("arguments", Text, nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("preview", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("receipt", Text, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    Column("decided_at", UtcDateTime, nullable=True),
    Column("decided_by", String(NAME), nullable=True),
    Column("message_id", BigInteger, nullable=True),
    Column("key", String(32), nullable=False, unique=True),
    # The undo that reversed this operation (migration 0014): set once, by a conditional UPDATE.
    Column("undone_by", String(128), nullable=True),
    CheckConstraint("status IN ('pending', 'confirmed', 'cancelled', 'expired')", name="status"),
)

conversations = Table(
    "conversations", metadata,
    Column("id", String(NAME), primary_key=True),
    Column("last_ordinal", Integer, nullable=False),
    Column("last_turn", Integer, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)

messages = Table(
    "messages", metadata,
    _parent("conversation_id", "conversations.id"),
    Column("ordinal", Integer, primary_key=True),
    Column("turn", Integer, nullable=False),  # counts user messages: a turn starts at one
    Column("body", Text, nullable=False),
    Index(None, "conversation_id", "turn"),
)

chats = Table(
    "chats", metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("household_id", String(ID), nullable=False),
    Column("budget_id", String(ID), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
)

chat_members = Table(
    "chat_members", metadata,
    Column("chat_id", BigInteger, ForeignKey("chats.chat_id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("telegram_user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("member_id", String(ID), nullable=False),
)

processed_updates = Table(
    "processed_updates", metadata,
    Column("update_id", BigInteger, primary_key=True, autoincrement=False),
    Column("chat_id", BigInteger, nullable=True),
    Column("payload", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("received_at", UtcDateTime, nullable=False),
    Column("claimed_by", String(64), nullable=True),
    Column("claimed_until", UtcDateTime, nullable=True),
    Column("attempts", Integer, nullable=False),
    CheckConstraint("status IN ('queued', 'processing', 'done', 'failed')", name="status"),
    Index(None, "status", "received_at"),
    # A claim asks "is an earlier update of this chat unfinished?": with status in the index that
    # is a seek, not a walk through every update the chat ever had (migration 0005, bench/run.py).
    Index(None, "chat_id", "status", "update_id"),
)

# The bot's new messages to each group over the last minute, shared by every worker process, so
# the per-group limit holds across workers (infra/db/stores/group_sends.py). Old rows go as it moves.
group_sends = Table(
    "group_sends", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("sent_at", UtcDateTime, nullable=False),
    Index(None, "chat_id", "sent_at"),
)

# Statement lines a household has imported, by fingerprint (the bank's FITID, otherwise date,
# amount and description): the primary key is what makes a re-import or a raced confirmation
# write nothing twice. Written in the confirmation's transaction (infra/db/stores/statement_imports.py).
statement_imports = Table(
    "statement_imports", metadata,
    Column("household_id", String(ID), primary_key=True),
    Column("fingerprint", String(64), primary_key=True),
    Column("operation_id", String(128), nullable=False),
    Column("imported_at", UtcDateTime, nullable=False),
)

# Reminders find the expenses billed on a day, and the chats their budgets are linked to, in one
# indexed query for every household at once (bot/schedule.py, bench/run.py).
Index(None, expenses.c.billing_day)
Index(None, chats.c.budget_id)

# What the bot sends on its own (a bill's reminder, a month's closing): one row per message owed,
# claimed under a lease as the inbox claims an update, so that however many workers and
# `household-bot remind` run, one of them sends it, once (infra/db/stores/schedule.py).
scheduled_sends = Table(
    "scheduled_sends", metadata,
    Column("kind", String(16), primary_key=True),  # "bill", "fatura" or "closing"
    Column("subject_id", String(ID), primary_key=True),  # the expense, the card, or the household
    Column("due_on", Date, primary_key=True),  # the bill's due date, or the closing's 1st
    Column("chat_id", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("claimed_by", String(64), nullable=True),
    Column("claimed_until", UtcDateTime, nullable=True),
    Column("attempts", Integer, nullable=False),
    Column("sent_at", UtcDateTime, nullable=True),
    CheckConstraint("status IN ('sending', 'sent')", name="status"),
    Index(None, "due_on"),
)

# /lembretes on|off; a household without a row gets its reminders.
reminder_preferences = Table(
    "reminder_preferences", metadata,
    Column("household_id", String(ID), primary_key=True),
    Column("enabled", Boolean, nullable=False),
    Column("changed_at", UtcDateTime, nullable=False),
)

# The chat ids a household had before a supergroup migration moved it (migration 0027): rows
# keyed by the old id (the bot's sends there, a reminder, the migration's own update) are erased
# with the household (infra/db/stores/lifecycle.py).
former_chats = Table(
    "former_chats", metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("household_id", String(ID), nullable=False),
    Index(None, "household_id"),
)

# Groups the bot was removed from (my_chat_member: left or kicked): nothing is sent there until
# it is added back, which deletes the row (bot/lifecycle.py).
departed_chats = Table(
    "departed_chats", metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("departed_at", UtcDateTime, nullable=False),
)
