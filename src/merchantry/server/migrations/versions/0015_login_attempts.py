"""Login and sign-up attempts, counted in the database so that every server process counts the same
(server/accounts.py, AttemptStore).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("login_attempts_key", "login_attempts", ["kind", "key", "at"])
    op.create_index("login_attempts_at", "login_attempts", ["at"])


def downgrade() -> None:
    op.drop_index("login_attempts_at", "login_attempts")
    op.drop_index("login_attempts_key", "login_attempts")
    op.drop_table("login_attempts")
