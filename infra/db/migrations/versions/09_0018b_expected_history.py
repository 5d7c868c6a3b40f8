"""expected history: an expense's expected amount from each month on, so a past month shows
the amounts it had and not the expenses registered after it

Revision ID: 0018b
Revises: 0018
Create Date: 2026-12-01 15:30:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0018b'
down_revision: str | Sequence[str] | None = '0018'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('expenses', schema=None) as batch_op:
        batch_op.add_column(sa.Column('expected_history', sa.Text(), nullable=True))


def downgrade() -> None:
    # Plain ALTER TABLE ... DROP COLUMN (SQLite has it since 3.35): a batch rebuild drops the old
    # expenses table, and ON DELETE CASCADE then deleted every expense's aliases.
    op.drop_column('expenses', 'expected_history')
