"""Each table's secret for its bots' random stream (never sent): nobody can replay a bot's reasoning.

Revision ID: 0005
Revises: 0004
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("bot_secret", sa.String(64), nullable=True))
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("bot_secret", sa.String))
    bind = op.get_bind()
    for (table_id,) in bind.execute(sa.select(tables.c.id)).all():  # tables made before: a secret each
        bind.execute(tables.update().where(tables.c.id == table_id).values(bot_secret=secrets.token_hex(32)))


def downgrade() -> None:
    op.drop_column("tables", "bot_secret")
