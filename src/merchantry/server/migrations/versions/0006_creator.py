"""Who created each table (a hash of the client's address), so that what a client's tables cost the server
is counted from the database: by every process, and after a restart (server/limits.py).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("tables_creator_status", "tables", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("tables_creator_status", "tables")
    op.drop_column("tables", "creator")
