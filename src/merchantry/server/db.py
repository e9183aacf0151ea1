"""Storage: every table is its record (seed, options, moves) plus what the lobby needs.

SQLAlchemy over SQLite by default or PostgreSQL (`--database-url`); the schema is created and upgraded
by Alembic (migrations/) when the server starts.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
# how long a write on SQLite waits for a write lock held by someone else (a tool on the file) before it is
# refused as busy (503): the server's own writes never overlap (one thread does them all), and every
# request waits behind a write that waits in the database thread, so it must not wait long
SQLITE_BUSY_SECONDS = 0.05
log = logging.getLogger("merchantry.server")


def now() -> datetime:
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    """Seat and host tokens are stored hashed: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))  # a 128-bit integer, as decimal text
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(
        String(16), default="waiting"
    )  # waiting | playing | finished | closed
    turn_seconds: Mapped[int] = mapped_column(Integer, default=0)  # 0: no turn clock
    # each person's time bank for the whole game, beside the clock per move (None or 0: no total)
    total_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    # the seed of the table's bots' random stream (256 bits, hex): kept here so that a restart continues the
    # same stream, and never sent to anyone, so nobody can replay a bot's reasoning (tables.bot_stream)
    bot_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # who created it: a hash of the client's address (`client_key`), for the limits on what a client's
    # tables cost (limits.py); None for tables from before it was kept
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # a game's guided first game (server/tutorials.py): a seed and a bot stream everyone shares
    tutorial: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )
    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="table", order_by="MoveRow.number", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    invite: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the turn clock: when this person's current turn began (seconds since the epoch), so that a restarted
    # server keeps everyone's time; None when it is not their turn
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)
    # a person's seat given to a bot during the game: how many moves the table had then (the seat's moves
    # up to there are the person's, `name`, the later ones the bot's); None for a seat that had no person
    bot_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the seconds of the table's time bank (tables.total_seconds) this person's finished turns used
    time_used: Mapped[float | None] = mapped_column(Float, nullable=True)

    table: Mapped[TableRow] = relationship(back_populates="seats")


class MoveRow(Base):
    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, ... in play order
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    table: Mapped[TableRow] = relationship(back_populates="moves")


class AnalysisRow(Base):
    """A finished game's computer analysis: its judged decisions as the API sends them (each a
    bots.analysis.Decision as a dict), stored once it is complete."""

    __tablename__ = "analyses"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    decisions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def client_key(address: str) -> str:
    """A client (its address) as stored with the tables it creates: hashed, not the address itself."""
    return hashlib.sha256(f"merchantry client {address}".encode()).hexdigest()[:32]


class Health:
    """Whether the database answers, as the server last found it. An outage is logged once when it begins
    and once when it ends, however many requests and retries meet it (a warning with a traceback per try
    buried everything else in the log)."""

    def __init__(self) -> None:
        self.down_since: float | None = None
        self.failures = 0
        self.guard = threading.Lock()  # failures come from the database thread and the notices' listener

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, error: BaseException | str) -> None:
        with self.guard:
            self.failures += 1
            if self.down_since is None:
                self.down_since = time.monotonic()
                reason = brief(error)
                log.warning("the database is not answering (%s): answering 503 until it is back", reason)

    def answered(self) -> None:
        if self.down_since is None:  # the usual case, on every statement: no lock
            return
        with self.guard:
            if self.down_since is not None:
                lasted = time.monotonic() - self.down_since
                log.warning("the database is back after %.1f s (%d failed tries)", lasted, self.failures)
                self.down_since, self.failures = None, 0


def brief(error: BaseException | str) -> str:
    """The first line of an error, without SQLAlchemy's background link: one readable log line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if not isinstance(error, str) and text else str(error)


def open_database(url: str, health: Health | None = None) -> sessionmaker[Any]:
    """Upgrade the schema to the newest migration, then hand out sessions. `health` hears of every
    statement that fails and of every one that succeeds after a failure."""
    engine = create_engine(url, future=True, connect_args=_connect_args(url))
    if engine.dialect.name == "sqlite" and make_url(url).database not in (None, "", ":memory:"):
        event.listen(engine, "connect", _sqlite_write_ahead)
    migrate(engine)
    if health is not None:
        event.listen(engine, "handle_error", lambda context: health.failed(context.original_exception))
        event.listen(engine, "after_cursor_execute", lambda *_: health.answered())
    return sessionmaker(engine, expire_on_commit=False)


def _connect_args(url: str) -> dict[str, Any]:
    """On PostgreSQL a commit does not wait for the write-ahead log to reach the disk (synchronous_commit
    off), the same promise as SQLite's below: a committed move survives the server process being killed
    (PostgreSQL has it), only a crash of the database machine may lose its last moments (a fraction of a
    second), and nothing is ever corrupted or half-stored. Waiting for the disk on every move was most of a
    move's time in the database thread (benchmarks/results/load-server.txt)."""
    backend = make_url(url).get_backend_name()
    if backend == "postgresql":
        # connect_timeout: a database that does not answer at all (its machine gone) is an outage after
        # 3 s, not a request hanging for the operating system's minutes
        return {"options": "-c synchronous_commit=off", "connect_timeout": 3}
    if backend == "sqlite":
        return {"timeout": SQLITE_BUSY_SECONDS}
    return {}


def _sqlite_write_ahead(connection: Any, _record: Any) -> None:
    """A write-ahead log, synced at checkpoints rather than at every commit: a move's commit then costs a
    write, not a disk flush (measured in benchmarks/load_server.py). A committed move survives the server
    being killed (the log is in the file); only a power cut may lose the last moments, never corrupt it."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def migrate(engine: Engine) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class SingleProcess:
    """SQLite serves one process: a second server on the same file would keep its own tables in memory and
    the two would diverge. The first server holds an exclusive lock on `<file>.lock` (the operating system
    lets it go if the process dies, even by kill -9); a second one is refused with the reason. Other
    databases need no lock."""

    def __init__(self, url: str) -> None:
        self.path: Path | None = None
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            self.path = Path(f"{parsed.database}.lock")
        self.handle: Any = None

    def acquire(self) -> None:
        if self.path is None:
            return
        import fcntl

        handle = self.path.open("w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise RuntimeError(
                f"another Merchantry server already serves {self.path.with_suffix('')}: SQLite serves one "
                "process; for several, use PostgreSQL (--database-url postgresql+psycopg://...)"
            ) from None
        self.handle = handle

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing the file lets the lock go
            self.handle = None
