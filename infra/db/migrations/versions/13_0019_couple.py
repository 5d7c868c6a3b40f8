"""couple: who paid each spend and each member's share, the running balance, the split rule,
each member's own income and Pix key

Spends recorded before this keep an unknown payer: they get no share rows and stay outside the
balance (README). Adds ledger_shares (one row per member of a shared entry) and ledger_balances
(their running sum per member), the budget's split rule and members' incomes, a member's Pix key.

Revision ID: 0019
Revises: 0026
Create Date: 2027-01-10 10:00:00.000000

"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0019'
down_revision: str | Sequence[str] | None = '0026'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('ledger_shares',
    sa.Column('entry_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=False, nullable=False),
    sa.Column('member_id', sa.String(length=64), nullable=False),
    sa.Column('household_id', sa.String(length=64), nullable=False),
    sa.Column('member_name', sa.String(length=200), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('month', sa.String(length=7), nullable=False),
    sa.Column('paid_minor', sa.BigInteger(), nullable=False),
    sa.Column('owed_minor', sa.BigInteger(), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['ledger_entries.id'], name=op.f('fk_ledger_shares_entry_id_ledger_entries'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('entry_id', 'member_id', name=op.f('pk_ledger_shares'))
    )
    with op.batch_alter_table('ledger_shares', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_shares_household_id_member_id'), ['household_id', 'member_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_shares_household_id_month'), ['household_id', 'month'], unique=False)

    op.create_table('ledger_balances',
    sa.Column('household_id', sa.String(length=64), nullable=False),
    sa.Column('member_id', sa.String(length=64), nullable=False),
    sa.Column('currency', sa.String(length=3), nullable=False),
    sa.Column('member_name', sa.String(length=200), nullable=False),
    sa.Column('net_minor', sa.BigInteger(), nullable=False),
    sa.Column('spends', sa.Integer(), nullable=False),
    sa.Column('settlements', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('household_id', 'member_id', 'currency', name=op.f('pk_ledger_balances'))
    )
    # Plain ALTER TABLE ... ADD COLUMN: a batch rebuild of budgets on SQLite would drop the old
    # table, and its expenses with it (ON DELETE CASCADE).
    op.add_column('budgets', sa.Column('split_rule', sa.Text(), nullable=True))
    op.add_column('budgets', sa.Column('member_incomes', sa.Text(), nullable=True))
    op.add_column('members', sa.Column('pix_key', sa.String(length=100), nullable=True))


def downgrade() -> None:
    # Acertos, split changes and Pix keys change no total the older schema keeps; their entries
    # would be unreadable kinds there.
    op.execute("DELETE FROM ledger_entries WHERE kind IN ('settlement', 'split', 'pix')")
    op.drop_column('members', 'pix_key')
    op.drop_column('budgets', 'member_incomes')
    op.drop_column('budgets', 'split_rule')
    op.drop_table('ledger_balances')
    with op.batch_alter_table('ledger_shares', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_shares_household_id_month'))
        batch_op.drop_index(batch_op.f('ix_ledger_shares_household_id_member_id'))
    op.drop_table('ledger_shares')
