"""A time bank per person for the whole game beside the clock per move: the table's total, and the time each
seat's finished turns used of it (server/tables.py, "the turn clock").

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("total_seconds", sa.Integer, nullable=True))
    op.add_column("seats", sa.Column("time_used", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "time_used")
    op.drop_column("tables", "total_seconds")
