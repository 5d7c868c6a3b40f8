"""group sends: the bot's recent messages to each group, for a per-group limit across workers

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 13:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: str | Sequence[str] | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'group_sends',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('chat_id', sa.BigInteger(), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_group_sends')),
    )
    with op.batch_alter_table('group_sends', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_sends_chat_id_sent_at'), ['chat_id', 'sent_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('group_sends', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_sends_chat_id_sent_at'))
    op.drop_table('group_sends')
