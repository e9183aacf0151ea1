"""A request the platform turns down (`Refused`): in a module of its own, importing nothing, so that the
worker processes (server/work.py) start without the database layer that server/tables.py brings
(sqlalchemy and alembic: about 3 s of CPU on a busy machine, which a person's first hint waited for)."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request the platform turns down, with the HTTP status and a reason a person understands (in
    English); `why`, for a move a game's rules refuse, the reason for a page to say in its reader's language
    (errors.IllegalAction.reason(): its key, values and clause ids)."""

    def __init__(self, status: int, reason: str, why: dict[str, Any] | None = None):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.why = why

    def body(self) -> dict[str, Any]:
        """As the page is told it: {"error": the English reason} (and "why" where the rules gave one)."""
        return {"error": self.reason} | ({"why": self.why} if self.why is not None else {})
