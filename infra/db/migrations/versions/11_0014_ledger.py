"""ledger: every confirmed change an entry; actuals and goal savings become sums over it

Carries today's totals over, nothing lost: each stored monthly actual becomes one `opening`
entry of its expense and month, each contribution one `contribution` entry (in its order, with
who paid and when), and a goal whose running total in goal_savings differs from its
contributions (it never should) gets the difference as one more contribution entry. Then the
actuals, contributions and goal_savings tables go. Adds the archive flags and the undo marker.

Revision ID: 0014
Revises: 0017
Create Date: 2026-12-01 15:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0014'
down_revision: str | Sequence[str] | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NOW = "CURRENT_TIMESTAMP"


def upgrade() -> None:
    op.create_table('ledger_entries',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('household_id', sa.String(length=64), nullable=True),
    sa.Column('scope', sa.String(length=200), nullable=True),
    sa.Column('operation_id', sa.String(length=128), nullable=True),
    sa.Column('tool', sa.String(length=64), nullable=True),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('budget_id', sa.String(length=64), nullable=True),
    sa.Column('expense_id', sa.String(length=64), nullable=True),
    sa.Column('goal_id', sa.String(length=64), nullable=True),
    sa.Column('subject', sa.String(length=200), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=True),
    sa.Column('currency', sa.String(length=3), nullable=True),
    sa.Column('period', sa.String(length=7), nullable=True),
    sa.Column('day', sa.Date(), nullable=True),
    sa.Column('paid_by_id', sa.String(length=64), nullable=True),
    sa.Column('paid_by', sa.String(length=200), nullable=True),
    sa.Column('confirmed_by', sa.String(length=200), nullable=True),
    sa.Column('undoes', sa.String(length=128), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_entries'))
    )
    with op.batch_alter_table('ledger_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_entries_budget_id_period'), ['budget_id', 'period'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_entries_expense_id_period_currency_amount_minor'), ['expense_id', 'period', 'currency', 'amount_minor'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_entries_goal_id_kind_currency_amount_minor'), ['goal_id', 'kind', 'currency', 'amount_minor'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_entries_household_id_id'), ['household_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_entries_scope_operation_id'), ['scope', 'operation_id'], unique=False)

    # Plain SQL both dialects read alike. The ORDER BY gives the entries the contributions' order.
    op.execute(
        "INSERT INTO ledger_entries (household_id, kind, budget_id, expense_id, subject, amount_minor,"
        " currency, period, created_at) "
        f"SELECT b.household_id, 'opening', e.budget_id, a.expense_id, e.name, a.amount_minor, a.currency,"
        f" a.period, {NOW} FROM actuals a JOIN expenses e ON e.id = a.expense_id"
        " JOIN budgets b ON b.id = e.budget_id WHERE a.amount_minor <> 0"
        " ORDER BY e.budget_id, a.period, e.position")
    op.execute(
        "INSERT INTO ledger_entries (household_id, kind, goal_id, subject, amount_minor, currency, day,"
        " paid_by_id, paid_by, created_at) "
        f"SELECT g.household_id, 'contribution', c.goal_id, g.name, c.amount_minor, c.currency, c.date,"
        f" c.member_id, c.member_name, {NOW} FROM contributions c JOIN goals g ON g.id = c.goal_id"
        " ORDER BY c.goal_id, c.position")
    op.execute(
        "INSERT INTO ledger_entries (household_id, kind, goal_id, subject, amount_minor, currency, day,"
        " created_at) "
        "SELECT g.household_id, 'contribution', s.goal_id, g.name,"
        " s.amount_minor - COALESCE((SELECT SUM(c.amount_minor) FROM contributions c"
        "  WHERE c.goal_id = s.goal_id AND c.currency = s.currency), 0),"
        f" s.currency, g.created_at, {NOW} FROM goal_savings s JOIN goals g ON g.id = s.goal_id"
        " WHERE s.amount_minor <> COALESCE((SELECT SUM(c.amount_minor) FROM contributions c"
        "  WHERE c.goal_id = s.goal_id AND c.currency = s.currency), 0)")

    op.drop_table('goal_savings')
    op.drop_table('contributions')
    op.drop_table('actuals')

    # Plain ALTER TABLE ... ADD COLUMN (SQLite has it): a batch rebuild of expenses or goals on
    # SQLite would drop the old table, and its aliases or members with it (ON DELETE CASCADE).
    op.add_column('expenses', sa.Column('archived', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('goals', sa.Column('archived', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('operations', sa.Column('undone_by', sa.String(length=128), nullable=True))


def downgrade() -> None:
    op.create_table('actuals',
    sa.Column('expense_id', sa.String(length=64), nullable=False),
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.ForeignKeyConstraint(['expense_id'], ['expenses.id'], name=op.f('fk_actuals_expense_id_expenses'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('expense_id', 'period', name=op.f('pk_actuals'))
    )
    op.create_table('contributions',
    sa.Column('goal_id', sa.String(length=64), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('member_id', sa.String(length=64), nullable=False),
    sa.Column('member_name', sa.String(length=200), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('date', sa.Date(), nullable=False),
    sa.ForeignKeyConstraint(['goal_id'], ['goals.id'], name=op.f('fk_contributions_goal_id_goals'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('goal_id', 'position', name=op.f('pk_contributions'))
    )
    op.create_table('goal_savings',
    sa.Column('goal_id', sa.String(length=64), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['goal_id'], ['goals.id'], name=op.f('fk_goal_savings_goal_id_goals'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('goal_id', 'currency', name=op.f('pk_goal_savings'))
    )
    # The totals back; a contribution's history before 0014 had no undo, so undone ones (negative
    # entries) fold into the sums rather than into rows of their own.
    op.execute(
        "INSERT INTO actuals (expense_id, period, amount_minor, currency) "
        "SELECT l.expense_id, l.period, SUM(l.amount_minor), l.currency FROM ledger_entries l"
        " JOIN expenses e ON e.id = l.expense_id WHERE l.period IS NOT NULL"
        " GROUP BY l.expense_id, l.period, l.currency HAVING SUM(l.amount_minor) <> 0")
    op.execute(
        "INSERT INTO goal_savings (goal_id, currency, amount_minor) "
        "SELECT l.goal_id, l.currency, SUM(l.amount_minor) FROM ledger_entries l"
        " JOIN goals g ON g.id = l.goal_id WHERE l.kind = 'contribution'"
        " GROUP BY l.goal_id, l.currency HAVING SUM(l.amount_minor) <> 0")
    op.execute(
        "INSERT INTO contributions (goal_id, position, member_id, member_name, amount_minor, currency, date) "
        "SELECT l.goal_id, (SELECT COUNT(*) FROM ledger_entries p WHERE p.goal_id = l.goal_id"
        "  AND p.kind = 'contribution' AND p.amount_minor > 0 AND p.id < l.id),"
        " COALESCE(l.paid_by_id, '-'), COALESCE(l.paid_by, '-'), l.amount_minor, l.currency,"
        " COALESCE(l.day, g.created_at) FROM ledger_entries l JOIN goals g ON g.id = l.goal_id"
        " WHERE l.kind = 'contribution' AND l.amount_minor > 0")

    # Plain ALTER TABLE ... DROP COLUMN (SQLite has it since 3.35), as the upgrade adds them: a
    # batch rebuild drops the old goals and expenses tables, and ON DELETE CASCADE then deleted
    # their members and aliases, and the totals just put back (tests/integration/db/test_migrations.py).
    op.drop_column('operations', 'undone_by')
    op.drop_column('goals', 'archived')
    op.drop_column('expenses', 'archived')
    op.drop_table('ledger_entries')
