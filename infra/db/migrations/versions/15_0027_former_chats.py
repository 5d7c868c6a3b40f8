"""former chats: the chat ids a household had before a supergroup migration, so that /apagar
erases what stayed under them (the bot's sends, a reminder, the migration's own update)

Revision ID: 0027
Revises: 0024
Create Date: 2027-01-20 10:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0027'
down_revision: str | Sequence[str] | None = '0024'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'former_chats',
        sa.Column('chat_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('household_id', sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint('chat_id', name=op.f('pk_former_chats')),
    )
    op.create_index(op.f('ix_former_chats_household_id'), 'former_chats', ['household_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_former_chats_household_id'), table_name='former_chats')
    op.drop_table('former_chats')
