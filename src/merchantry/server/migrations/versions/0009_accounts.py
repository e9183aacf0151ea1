"""Accounts (optional): a name and an argon2 hash of the password, the sessions of logged-in browsers (the
cookie's token, hashed) and the seats an account holds (server/accounts.py).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "account_seats",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("account_seats_account", "account_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("account_seats_account", "account_seats")
    op.drop_table("account_seats")
    op.drop_index("account_sessions_account", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
