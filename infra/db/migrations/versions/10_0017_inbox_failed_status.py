"""inbox: a 'failed' status for an update that failed too often, so its chat moves on

Revision ID: 0017
Revises: 0018b
Create Date: 2026-12-01 15:00:00.000000

"""
from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0017'
down_revision: str | Sequence[str] | None = '0018b'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('processed_updates', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_processed_updates_status'), type_='check')
        batch_op.create_check_constraint(
            op.f('ck_processed_updates_status'), "status IN ('queued', 'processing', 'done', 'failed')")


def downgrade() -> None:
    op.execute("UPDATE processed_updates SET status = 'done' WHERE status = 'failed'")
    with op.batch_alter_table('processed_updates', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_processed_updates_status'), type_='check')
        batch_op.create_check_constraint(
            op.f('ck_processed_updates_status'), "status IN ('queued', 'processing', 'done')")
