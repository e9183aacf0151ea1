"""Table chat: short text messages per table, kept with the table, sent over the table's websocket.

- Who writes: the people seated at the table (a seat's token), under the seat's name; spectators read
  and never write (while the game runs or after: a spectator has no name to answer for), nor does anyone
  not seated there.
- What: 1 to `MAX_CHARS` characters of text, spaces collapsed, no control or formatting characters; the
  page shows it as text (a DOM text node), never as HTML, so markup in a message is only characters.
- How often: at most `BURST` messages in `BURST_SECONDS` per seat, and `PER_HOUR` an hour.
- Mutes: a seated person mutes another seat ({"type": "mute", "seat": 2, "muted": true}, answered with
  the same message); that seat's messages are no longer sent to the muting seat's connections (kept with
  the table, so a reload or another browser with the seat keeps the mute).
- Several processes (PostgreSQL): a message is announced on its own channel (`CHANNEL`) when it commits;
  every other process reads it back and sends it to its own connections at that table.

Messages on the socket: the page sends {"type": "chat", "text": "..."}; every connection gets
{"type": "chat", "messages": [{"id", "seat", "name", "text", "at"}]} (the history when it connects, if
the table has one, then each new message), or a {"type": "refused", "reason": ...} for a message not taken.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Integer, String, delete, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

from merchantry.engine import seat_label
from merchantry.server.db import Base, Health, brief, now
from merchantry.server.limits import RateWindow
from merchantry.server.tables import Refused

log = logging.getLogger("merchantry.server")
CHANNEL = "merchantry_chat"
MAX_CHARS = 300
HISTORY = 100  # messages a connection is sent when it connects (the latest)
BURST, BURST_SECONDS = 5, 10.0
PER_HOUR = 120
TYPES = frozenset({"chat", "mute"})


class ChatRow(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))  # the seat's name when it was written
    text: Mapped[str] = mapped_column(String(MAX_CHARS * 4))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class MuteRow(Base):
    __tablename__ = "chat_mutes"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)  # who mutes
    muted: Mapped[int] = mapped_column(Integer, primary_key=True)  # whose messages they no longer get


class Refusal(ValueError):
    """A chat message or mute not taken, with the reason a person understands."""


def message_text(raw: Any) -> str:
    """The text as it is kept and shown, or Refusal saying what is wrong with it."""
    if not isinstance(raw, str):
        raise Refusal('send {"type": "chat", "text": "<message>"}')
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise Refusal("a message must be valid Unicode") from None
    words = " ".join(unicodedata.normalize("NFC", raw).split())
    odd = [c for c in words if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")]
    if odd:
        raise Refusal(f"a message cannot hold control or formatting characters (U+{ord(odd[0]):04X})")
    if not words:
        raise Refusal("an empty message is not sent")
    if len(words) > MAX_CHARS:
        raise Refusal(f"a message holds at most {MAX_CHARS} characters ({len(words)} sent)")
    return words


def shown(row: ChatRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.created_at.isoformat(),
    }


class ChatStore:
    """The chat's rows; every method runs in the server's database thread."""

    def __init__(self, sessions: Any, origin: str, notify: bool) -> None:
        self.sessions = sessions
        self.origin = origin
        self.notify = notify  # PostgreSQL with several processes: announce each message

    def add(self, table_id: str, seat: int, name: str, words: str) -> dict[str, Any]:
        with self.sessions() as db:
            row = ChatRow(table_id=table_id, seat=seat, name=name, text=words)
            db.add(row)
            db.flush()
            if self.notify:
                db.execute(
                    text("SELECT pg_notify(:channel, :message)"),
                    {"channel": CHANNEL, "message": f"{self.origin}:{table_id}:{row.id}"},
                )
            db.commit()
            return shown(row)

    def message(self, table_id: str, message_id: int) -> dict[str, Any] | None:
        with self.sessions() as db:
            row = db.get(ChatRow, message_id)
            return shown(row) if row is not None and row.table_id == table_id else None

    def history(self, table_id: str) -> list[dict[str, Any]]:
        with self.sessions() as db:
            rows = db.scalars(
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(HISTORY)
            ).all()
            return [shown(row) for row in reversed(rows)]

    def mutes(self, table_id: str) -> dict[int, set[int]]:
        """Seat -> the seats it has muted."""
        with self.sessions() as db:
            found: dict[int, set[int]] = {}
            for row in db.scalars(select(MuteRow).where(MuteRow.table_id == table_id)):
                found.setdefault(row.seat, set()).add(row.muted)
            return found

    def set_mute(self, table_id: str, seat: int, muted: int, on: bool) -> None:
        with self.sessions() as db:
            held = db.get(MuteRow, (table_id, seat, muted))
            if on and held is None:
                db.add(MuteRow(table_id=table_id, seat=seat, muted=muted))
            elif not on:
                db.execute(
                    delete(MuteRow).where(
                        MuteRow.table_id == table_id, MuteRow.seat == seat, MuteRow.muted == muted
                    )
                )
            db.commit()


class Chat:
    """The chat of every table: what the websocket handler asks of it (`welcome`, `handle`).

    `rooms` are the server's live connections per table (each with `seat` and `post`); `run_db` runs work
    in the database thread; `holds_its_seat(table_id, conn)` checks a connection's seat is still its own;
    `seat_names(table_id)` gives each seat's name and `players(table_id)` the number of seats."""

    def __init__(
        self,
        sessions: Any,
        run_db: Callable[..., Awaitable[Any]],
        rooms: dict[str, set[Any]],
        holds_its_seat: Callable[[str, Any], Awaitable[bool]],
        seat_names: Callable[[str], list[str | None]],
        database_url: str,
        several: bool,
        health: Health,
    ) -> None:
        self.origin = secrets.token_hex(6)
        self.store = ChatStore(sessions, self.origin, several)
        self.run_db = run_db
        self.rooms = rooms
        self.holds_its_seat = holds_its_seat
        self.seat_names = seat_names
        self.relay = Relay(database_url, self.origin, health) if several else None
        self.burst = RateWindow(BURST, BURST_SECONDS)
        self.hourly = RateWindow(PER_HOUR, 3600.0)

    async def welcome(self, table_id: str, conn: Any) -> None:
        """A new connection gets the table's chat so far (less what its seat muted); nothing at a table
        without one (a script that plays hears only states, as before)."""
        history = await self.run_db(self.store.history, table_id)
        if not history:
            return
        muted = (await self.run_db(self.store.mutes, table_id)).get(conn.seat, set())
        conn.post({"type": "chat", "messages": [m for m in history if m["seat"] not in muted]})

    async def handle(self, table_id: str, conn: Any, message: dict[str, Any]) -> dict[str, Any] | None:
        """A chat or mute message from a connection: None when taken, else the refusal to send back."""
        try:
            if conn.seat is None:
                raise Refusal("spectators read the chat but cannot write in it")
            if not await self.holds_its_seat(table_id, conn):
                conn.becomes_spectator()
                return {"type": "revoked", "reason": "this seat is no longer yours: you are watching"}
            if message["type"] == "mute":
                return await self.mute(table_id, conn, message)
            else:
                await self.say(table_id, conn.seat, message.get("text"))
        except Refusal as exc:
            return {"type": "refused", "reason": str(exc)}
        except Refused as exc:  # the database did not answer (503): nothing was kept
            return {"type": "refused", "reason": exc.reason}
        except SQLAlchemyError as exc:
            log.warning("a chat message was not kept: %s", brief(exc))
            return {"type": "refused", "reason": "the database is not answering: the message was not kept"}
        return None

    async def say(self, table_id: str, seat: int, raw: Any) -> None:
        words = message_text(raw)
        key = f"{table_id}:{seat}"
        if not self.burst.allow(key) or not self.hourly.allow(key):
            raise Refusal(f"too many messages: at most {BURST} in {BURST_SECONDS:.0f} s, {PER_HOUR} an hour")
        name = (await self.run_db(self.seat_names, table_id))[seat] or seat_label(seat)
        stored = await self.run_db(self.store.add, table_id, seat, name, words)
        await self.deliver(table_id, stored)

    async def mute(self, table_id: str, conn: Any, message: dict[str, Any]) -> dict[str, Any]:
        """A mute set or lifted; answered with the mute as it now is."""
        muted, on = message.get("seat"), message.get("muted", True)
        seats = len(await self.run_db(self.seat_names, table_id))
        if not isinstance(muted, int) or isinstance(muted, bool) or not 0 <= muted < seats:
            raise Refusal(f'send {{"type": "mute", "seat": <0 to {seats - 1}>, "muted": true or false}}')
        if muted == conn.seat or not isinstance(on, bool):
            raise Refusal("mute another seat, with muted true or false")
        await self.run_db(self.store.set_mute, table_id, conn.seat, muted, on)
        return {"type": "mute", "seat": muted, "muted": on}

    async def deliver(self, table_id: str, message: dict[str, Any]) -> None:
        """Send a stored message to this process's connections at the table, less those muting its seat."""
        room = self.rooms.get(table_id)
        if not room:
            return
        mutes = await self.run_db(self.store.mutes, table_id)
        for conn in list(room):
            if message["seat"] not in mutes.get(conn.seat, set()):
                conn.post({"type": "chat", "messages": [message]})

    # --- several processes --------------------------------------------------------------------------

    def start(self, keep: Callable[[asyncio.Task[None]], None]) -> None:
        """Listen for the other processes' messages (PostgreSQL with several processes only)."""
        if self.relay is None:
            return
        loop = asyncio.get_running_loop()

        def heard(table_id: str, message_id: int) -> None:  # in the relay's thread
            loop.call_soon_threadsafe(lambda: keep(asyncio.create_task(self.relayed(table_id, message_id))))

        self.relay.start(heard)

    async def relayed(self, table_id: str, message_id: int) -> None:
        if not self.rooms.get(table_id):
            return  # nobody here watches that table
        message = await self.run_db(self.store.message, table_id, message_id)
        if message is not None:
            await self.deliver(table_id, message)

    def stop(self) -> None:
        if self.relay is not None:
            self.relay.stop()


class Relay:
    """A thread listening on PostgreSQL's `CHANNEL` for the chat messages other processes stored."""

    def __init__(self, url: str, origin: str, health: Health) -> None:
        self.url = url
        self.origin = origin
        self.health = health
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, heard: Callable[[str, int], None]) -> None:
        self.thread = threading.Thread(target=self.listen, args=(heard,), name="chat notices", daemon=True)
        self.thread.start()

    def listen(self, heard: Callable[[str, int], None]) -> None:
        import psycopg

        conninfo = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        while not self.stopping.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=3) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    while not self.stopping.is_set():
                        for notice in connection.notifies(timeout=0.5):
                            self.read(notice.payload, heard)
            except psycopg.Error as exc:  # the database is away: listen again when it is back
                self.health.failed(exc)
                self.stopping.wait(1.0)

    def read(self, payload: str, heard: Callable[[str, int], None]) -> None:
        origin, _, rest = payload.partition(":")
        if origin == self.origin:
            return
        table_id, _, number = rest.rpartition(":")
        if table_id and number.isdigit():
            heard(table_id, int(number))
        else:  # not one of ours: any client may NOTIFY
            log.warning("ignored a chat notice that is not one: %r", payload)

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=5)
