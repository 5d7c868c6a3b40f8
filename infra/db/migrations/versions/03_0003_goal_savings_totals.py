"""goal savings: running totals per goal and currency, backfilled from the contributions

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 12:30:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0003'
down_revision: str | Sequence[str] | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('goal_savings',
    sa.Column('goal_id', sa.String(length=64), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('amount_minor', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['goal_id'], ['goals.id'], name=op.f('fk_goal_savings_goal_id_goals'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('goal_id', 'currency', name=op.f('pk_goal_savings'))
    )
    # The totals of the contributions already stored. Plain SQL that both dialects read alike
    # (PostgreSQL's SUM of a bigint is numeric: the INSERT casts it back to bigint).
    op.execute(
        "INSERT INTO goal_savings (goal_id, currency, amount_minor) "
        "SELECT goal_id, currency, SUM(amount_minor) FROM contributions GROUP BY goal_id, currency"
    )


def downgrade() -> None:
    op.drop_table('goal_savings')
