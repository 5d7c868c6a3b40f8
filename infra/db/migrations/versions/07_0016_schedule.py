"""schedule: scheduled sends (bill reminders, monthly closings), reminder preferences, and the
indexes that find the day's bills of every household in one query

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 15:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0016'
down_revision: str | Sequence[str] | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'scheduled_sends',
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('subject_id', sa.String(length=64), nullable=False),
        sa.Column('due_on', sa.Date(), nullable=False),
        sa.Column('chat_id', sa.BigInteger(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('claimed_by', sa.String(length=64), nullable=True),
        sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('sending', 'sent')", name=op.f('ck_scheduled_sends_status')),
        sa.PrimaryKeyConstraint('kind', 'subject_id', 'due_on', name=op.f('pk_scheduled_sends')),
    )
    with op.batch_alter_table('scheduled_sends', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_scheduled_sends_due_on'), ['due_on'], unique=False)
    op.create_table(
        'reminder_preferences',
        sa.Column('household_id', sa.String(length=64), nullable=False),
        sa.Column('enabled', sa.Boolean(), nullable=False),
        sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('household_id', name=op.f('pk_reminder_preferences')),
    )
    with op.batch_alter_table('expenses', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_expenses_billing_day'), ['billing_day'], unique=False)
    with op.batch_alter_table('chats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_chats_budget_id'), ['budget_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('chats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_chats_budget_id'))
    with op.batch_alter_table('expenses', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_expenses_billing_day'))
    op.drop_table('reminder_preferences')
    with op.batch_alter_table('scheduled_sends', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_scheduled_sends_due_on'))
    op.drop_table('scheduled_sends')
