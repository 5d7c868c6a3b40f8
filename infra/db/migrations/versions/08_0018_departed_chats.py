"""departed chats: groups the bot was removed from, where nothing is sent until it is added back

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-01 15:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0018'
down_revision: str | Sequence[str] | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'departed_chats',
        sa.Column('chat_id', sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column('departed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('chat_id', name=op.f('pk_departed_chats')),
    )


def downgrade() -> None:
    op.drop_table('departed_chats')
