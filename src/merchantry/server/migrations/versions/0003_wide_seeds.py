"""Seeds of 128 bits: the seed column becomes text (a 31-bit seed could be brute-forced by a spectator).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.BigInteger,
            type_=sa.String(40),
            existing_nullable=False,
            postgresql_using="seed::text",
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.String(40),
            type_=sa.BigInteger,
            existing_nullable=False,
            postgresql_using="seed::bigint",
        )
