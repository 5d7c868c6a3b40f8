"""cards: credit cards with their closing and due days, spends on a card with their parcela, and
the limit thresholds already said for each expense and month

Adds cards (part of a budget), the ledger entries' card_id, installment and installments (a card
spend's `period` is its fatura's month), and expense_alerts. Nothing stored before changes.

Revision ID: 0024
Revises: 0019
Create Date: 2027-02-01 10:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0024'
down_revision: str | Sequence[str] | None = '0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('cards',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('budget_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('aliases', sa.Text(), nullable=True),
    sa.Column('closing_day', sa.SmallInteger(), nullable=False),
    sa.Column('due_day', sa.SmallInteger(), nullable=False),
    sa.Column('archived', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['budget_id'], ['budgets.id'], name=op.f('fk_cards_budget_id_budgets'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cards'))
    )
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cards_budget_id'), ['budget_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_cards_due_day'), ['due_day'], unique=False)

    op.create_table('expense_alerts',
    sa.Column('expense_id', sa.String(length=64), nullable=False),
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('threshold', sa.SmallInteger(), nullable=False),
    sa.ForeignKeyConstraint(['expense_id'], ['expenses.id'], name=op.f('fk_expense_alerts_expense_id_expenses'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('expense_id', 'period', 'threshold', name=op.f('pk_expense_alerts'))
    )
    # Plain ALTER TABLE ... ADD COLUMN: no batch rebuild of the ledger on SQLite.
    op.add_column('ledger_entries', sa.Column('card_id', sa.String(length=64), nullable=True))
    op.add_column('ledger_entries', sa.Column('installment', sa.SmallInteger(), nullable=True))
    op.add_column('ledger_entries', sa.Column('installments', sa.SmallInteger(), nullable=True))
    op.create_index('ix_ledger_entries_card_faturas', 'ledger_entries',
                    ['card_id', 'period', 'currency', 'amount_minor', 'installments'], unique=False)


def downgrade() -> None:
    # A card's own entries are a kind the older schema cannot read; its spends stay spends.
    op.execute("DELETE FROM ledger_entries WHERE kind = 'card'")
    op.drop_index('ix_ledger_entries_card_faturas',
                  table_name='ledger_entries')
    op.drop_column('ledger_entries', 'installments')
    op.drop_column('ledger_entries', 'installment')
    op.drop_column('ledger_entries', 'card_id')
    op.drop_table('expense_alerts')
    with op.batch_alter_table('cards', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cards_due_day'))
        batch_op.drop_index(batch_op.f('ix_cards_budget_id'))
    op.drop_table('cards')
