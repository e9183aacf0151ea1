"""Table chat: each table's messages and the mutes of its seats (server/chat.py).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("chat_messages_table", "chat_messages", ["table_id", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("muted", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("chat_messages_table", "chat_messages")
    op.drop_table("chat_messages")
