"""statement imports: the lines each household imported from bank statements, unique per household

Revision ID: 0015
Revises: 0005
Create Date: 2026-12-01 15:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0015'
down_revision: str | Sequence[str] | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'statement_imports',
        sa.Column('household_id', sa.String(length=64), nullable=False),
        sa.Column('fingerprint', sa.String(length=64), nullable=False),
        sa.Column('operation_id', sa.String(length=128), nullable=False),
        sa.Column('imported_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('household_id', 'fingerprint', name=op.f('pk_statement_imports')),
    )


def downgrade() -> None:
    op.drop_table('statement_imports')
