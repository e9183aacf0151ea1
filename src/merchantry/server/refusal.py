"""A request the platform turns down (`Refused`): in a module of its own, importing nothing, so that the
worker processes (server/work.py) start without the database layer that server/tables.py brings
(sqlalchemy and alembic: about 3 s of CPU on a busy machine, which a person's first hint waited for)."""

from __future__ import annotations


class Refused(Exception):
    """A request the platform turns down, with the HTTP status and a reason a person understands."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason
