"""Tables that are a game's guided first game (server/tutorials.py): their bots' random stream is fixed by
the tutorial, so every newcomer meets the same course the tutorial's steps describe.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("tutorial", sa.Boolean(), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "tutorial")
