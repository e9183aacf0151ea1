"""When each person's current turn began, for a turn clock that survives a restart.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("turn_started", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "turn_started")
