"""expense archived since: the first month an archived expense is no longer shown, so what was
spent in the month it was archived stays in that month's summary (issue 26)

Revision ID: 0026
Revises: 0014
Create Date: 2026-12-20 10:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0026'
down_revision: str | Sequence[str] | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN (SQLite has it): a batch rebuild of expenses would drop the
    # old table, and ON DELETE CASCADE then deleted every expense's aliases (see 0018b).
    op.add_column('expenses', sa.Column('archived_since', sa.String(length=7), nullable=True))


def downgrade() -> None:
    op.drop_column('expenses', 'archived_since')
