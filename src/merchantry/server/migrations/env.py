"""Alembic environment: the server passes its own connection (see db.migrate)."""

from alembic import context

from merchantry.server.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
