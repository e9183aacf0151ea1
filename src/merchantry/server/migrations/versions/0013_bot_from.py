"""A person's seat given to a bot during the game remembers from which move the bot played it, so that the
person's own moves stay credited to them in the record, the replay and the analysis.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("bot_from", sa.Integer, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "bot_from")
