"""Optional turn clock per table.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("turn_seconds", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("tables", "turn_seconds")
