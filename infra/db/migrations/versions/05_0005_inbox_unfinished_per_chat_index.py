"""inbox: index (chat_id, status, update_id) for the per-chat order check of a claim

With (chat_id, update_id) the check "is an earlier update of this chat unfinished?" read every
done update the chat ever had; with status in the index it is a seek.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 13:10:00.000000

"""
from collections.abc import Sequence

from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: str | Sequence[str] | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('processed_updates', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_processed_updates_chat_id_update_id'))
        batch_op.create_index(batch_op.f('ix_processed_updates_chat_id_status_update_id'),
                              ['chat_id', 'status', 'update_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('processed_updates', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_processed_updates_chat_id_status_update_id'))
        batch_op.create_index(batch_op.f('ix_processed_updates_chat_id_update_id'),
                              ['chat_id', 'update_id'], unique=False)
