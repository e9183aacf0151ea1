"""Several server processes on one PostgreSQL: how they hear of each other's changes and share the work.

- **One truth.** A table's moves are serialised by the database: the move number is part of the moves
  table's key, so of two processes storing move n of a table, one commits and the other is refused and
  catches up (tables.StaleTable).
- **Change notices.** Every commit that changes a table sends `NOTIFY merchantry_tables` with
  "<origin>:<table id>:<moves>" (PostgreSQL delivers it when, and only if, the transaction commits); a
  move's notice carries the move too ("...:<moves>:<seat>:<move>"), so that a process holding the table
  plays it without asking the database for it (a query and its Session cost more than the move). A move
  is stored and announced in one statement that is its own transaction: one round trip to the database, not
  four (begin, insert, notify, commit), which is most of a move's time in the database thread. Each
  process listens in a thread of its own and, for a table it holds in memory, catches up and tells its
  live connections.
- **Owners.** A table's bots and turn clock run in one process at a time: the one holding the table's
  advisory lock (`pg_try_advisory_lock` on a connection kept for that). The lock goes with the connection,
  so when a process dies, even by kill -9, its tables are free again, and the others take them over
  within `SWEEP_SECONDS`.

SQLite serves one process (db.SingleProcess), which owns every table and needs no notices: `Solo`.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, cast

from sqlalchemy import Connection, Engine, Table, bindparam, func, insert, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session as DbSession

from merchantry.server.db import Health, MoveRow

log = logging.getLogger("merchantry.server")
CHANNEL = "merchantry_tables"
LOCK_SPACE = 7_470_727  # the first key of every table lock: Merchantry's own space of advisory locks
SWEEP_SECONDS = 2.0  # how often a process looks for tables whose owner is gone

# one compiled INSERT, not the ORM's unit of work: it runs on every move
STORE_MOVE = insert(cast(Table, MoveRow.__table__))
# ... and on PostgreSQL the same INSERT with its change notice, one statement built once (building it per
# move was a tenth of the database thread's time); the notice is sent only if the row is stored
STORE_AND_ANNOUNCE_MOVE = select(func.pg_notify(CHANNEL, bindparam("message"))).select_from(
    STORE_MOVE.values(
        {column: bindparam(column) for column in ("table_id", "number", "seat", "text", "created_at")}
    )
    .returning(MoveRow.number)
    .cte("stored")
)


class Notice(NamedTuple):
    """Another process changed a table: it now has `moves` moves (tables.SEATS_CHANGED: its seats or
    status changed), the last of them `move` ((seat, text)) when the change was that move."""

    table_id: str
    moves: int
    move: tuple[int, str] | None = None

    def message(self) -> str:
        """What `parse` reads back (the sending process's origin goes in front)."""
        if self.move is None:
            return f"{self.table_id}:{self.moves}"
        return f"{self.table_id}:{self.moves}:{self.move[0]}:{self.move[1]}"

    @classmethod
    def parse(cls, message: str) -> Notice:
        """From "<table id>:<moves>", or "<table id>:<moves>:<seat>:<move>" (a move's text may hold ":")."""
        parts = message.split(":", 3)
        move = (int(parts[2]), parts[3]) if len(parts) == 4 else None
        return cls(parts[0], int(parts[1]), move)


class Solo:
    """One process: it owns every table; nobody else needs telling."""

    origin = "solo"
    several = False
    owned: set[str] = set()  # with several processes: the tables this one owns

    def announce(self, db: DbSession, table_id: str, moves: int) -> None:
        pass

    def store_move(self, connection: Connection, move: dict[str, Any]) -> None:
        """Insert `move` (the moves table's columns) and announce it (see `announce`)."""
        connection.execute(STORE_MOVE, move)

    def claim(self, table_id: str) -> bool:
        return True

    def release(self, table_id: str) -> None:
        pass

    def orphans(self) -> list[str]:
        return []

    def listen(self, heard: Callable[[Notice], None], missed: Callable[[], None] = lambda: None) -> None:
        pass

    def stop(self) -> None:
        pass


class Postgres(Solo):
    """One of several processes on one PostgreSQL database."""

    several = True

    def __init__(self, engine: Engine, url: str, health: Health | None = None) -> None:
        self.engine = engine
        self.url = url
        self.health = health or Health()
        self.origin = secrets.token_hex(6)  # this process, in its notices (its own are not news)
        self.owned: set[str] = set()
        self.locks: Any = None  # the connection that holds this process's table locks
        self.stopping = threading.Event()
        self.listener: threading.Thread | None = None

    # --- notices -----------------------------------------------------------------------------------------

    def announce(self, db: DbSession, table_id: str, moves: int) -> None:
        """Tell the other processes, when `db` commits, that the table changed (it now has `moves`)."""
        db.execute(
            text("SELECT pg_notify(:channel, :message)"),
            {"channel": CHANNEL, "message": f"{self.origin}:{Notice(table_id, moves).message()}"},
        )

    def store_move(self, connection: Connection, move: dict[str, Any]) -> None:
        """Insert `move` and notify in one statement (the notice is sent only if the insert commits)."""
        notice = Notice(move["table_id"], move["number"], (move["seat"], move["text"]))
        message = f"{self.origin}:{notice.message()}"
        connection.execute(STORE_AND_ANNOUNCE_MOVE, {**move, "message": message})

    def listen(self, heard: Callable[[Notice], None], missed: Callable[[], None] = lambda: None) -> None:
        """Call `heard(notice)` (from a thread of its own) for every change another process made, and
        `missed()` when listening starts again after the connection was lost: notices sent meanwhile were
        missed, so every copy in memory may be behind."""
        self.listener = threading.Thread(
            target=self._listen, args=(heard, missed), name="notices", daemon=True
        )
        self.listener.start()

    def _listen(self, heard: Callable[[Notice], None], missed: Callable[[], None]) -> None:
        import psycopg

        conninfo = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        lost = False
        while not self.stopping.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=3) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    if lost:
                        log.info("listening to change notices again")
                        missed()
                        lost = False
                    while not self.stopping.is_set():
                        for notice in connection.notifies(timeout=0.5):
                            origin, _, message = notice.payload.partition(":")
                            if origin == self.origin:
                                continue
                            try:
                                parsed = Notice.parse(message)
                            except (ValueError, IndexError):  # not one of ours: any client may NOTIFY
                                log.warning("ignored a change notice that is not one: %r", notice.payload)
                                continue
                            heard(parsed)
            except psycopg.Error as exc:  # the database is away: listen again when it is back
                self.health.failed(exc)  # one warning per outage, not one a second
                lost = True
                self.stopping.wait(1.0)

    def stop(self) -> None:
        self.stopping.set()
        if self.listener is not None:
            self.listener.join(timeout=5)
        if self.locks is not None:
            # closed for real, not returned to the pool (where the locks would stay held): they go at once
            self.locks.invalidate()
            self.locks.close()
            self.locks = None

    # --- owners ------------------------------------------------------------------------------------------

    def _lock_connection(self) -> Any:
        if self.locks is None:
            self.locks = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            self.owned = set()  # a new connection holds no locks (a lost one took them with it)
        return self.locks

    def _locked(self, statement: str, **params: Any) -> Any:
        try:
            return self._lock_connection().execute(text(statement), params)
        except SQLAlchemyError:
            if self.locks is not None:
                self.locks.invalidate()
                self.locks = None
            self.owned = set()
            raise

    def claim(self, table_id: str) -> bool:
        """Own the table's bots and clock, if no other process does; True if this process owns them."""
        if table_id in self.owned and self.locks is not None:
            return True
        got = self._locked(
            "SELECT pg_try_advisory_lock(:space, hashtext(:table))", space=LOCK_SPACE, table=table_id
        ).scalar()
        if got:
            self.owned.add(table_id)
        return bool(got)

    def release(self, table_id: str) -> None:
        """A finished or closed table needs no owner."""
        if table_id in self.owned:
            self.owned.discard(table_id)
            unlock = "SELECT pg_advisory_unlock(:space, hashtext(:table))"
            self._locked(unlock, space=LOCK_SPACE, table=table_id)

    def orphans(self) -> list[str]:
        """Tables being played that have bots or a clock and no owner (it died): this process takes them."""
        rows = self._locked(
            """
            WITH candidates AS MATERIALIZED (
                SELECT t.id FROM tables t
                WHERE t.status = 'playing'
                  AND (t.turn_seconds > 0 OR EXISTS (
                        SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'bot'))
                  AND NOT (t.id = ANY(:owned))
            )
            SELECT id FROM candidates WHERE pg_try_advisory_lock(:space, hashtext(id))
            """,
            owned=sorted(self.owned),
            space=LOCK_SPACE,
        ).scalars()
        taken = list(rows)
        self.owned.update(taken)
        return taken


def cluster_for(engine: Engine, url: str, health: Health | None = None) -> Solo:
    return Postgres(engine, url, health) if engine.dialect.name == "postgresql" else Solo()
