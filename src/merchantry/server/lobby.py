"""Open seats and the lobby that lists them: a table may leave person seats open, and anyone (a guest or an
account) takes one from the lobby; the host can still invite by link to every seat, open or not.

An open seat is an ordinary person's seat with an invite code: taking it from the lobby is joining with
that code, which the server looks up itself (the code is never listed). A table is listed while it waits
for players and has an open seat nobody holds.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel
from sqlalchemy import Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column, selectinload

from merchantry import games
from merchantry.engine import seat_label
from merchantry.server.accounts import Accounts, AccountSeatRow
from merchantry.server.db import Base, SeatRow, TableRow
from merchantry.server.inputs import Name
from merchantry.server.ratings import TermsRow, ratings_at
from merchantry.server.tables import Refused, seat_info

# a table whose clock gives an hour or more per move is played over days, turn by turn; shorter (or no
# clock) is played at one sitting, in real time
TURN_BASED_SECONDS = 3600
LISTED = 100  # tables the lobby lists at most (newest first)
Pace = Literal["realtime", "turn-based"]


class OpenSeatRow(Base):
    __tablename__ = "open_seats"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)


class TakeSeat(BaseModel):
    name: Name = "Guest"  # a guest's name at the table (an account sits under its own)


def pace_of(turn_seconds: int) -> Pace:
    return "turn-based" if turn_seconds >= TURN_BASED_SECONDS else "realtime"


class LobbyStore:
    """The open seats' rows; every method runs in the server's database thread."""

    def __init__(self, sessions: Any) -> None:
        self.sessions = sessions

    def open(self, table_id: str, seats: list[int]) -> None:
        with self.sessions() as db:
            db.add_all(OpenSeatRow(table_id=table_id, seat=seat) for seat in seats)
            db.commit()

    def listing(
        self, game: str | None, players: int | None, pace: Pace | None, rated: bool | None = None
    ) -> list[dict[str, Any]]:
        query = (
            select(TableRow)
            .where(TableRow.status == "waiting")
            .where(TableRow.id.in_(select(OpenSeatRow.table_id)))
            .options(selectinload(TableRow.seats))
            .order_by(TableRow.created_at.desc())
            .limit(LISTED)
        )
        if game is not None:
            query = query.where(TableRow.game == game)
        if players is not None:
            query = query.where(TableRow.players == players)
        if pace == "turn-based":
            query = query.where(TableRow.turn_seconds >= TURN_BASED_SECONDS)
        elif pace == "realtime":
            query = query.where(TableRow.turn_seconds < TURN_BASED_SECONDS)
        rated_ids = select(TermsRow.table_id).where(TermsRow.rated)
        if rated is True:
            query = query.where(TableRow.id.in_(rated_ids))
        elif rated is False:
            query = query.where(TableRow.id.not_in(rated_ids))
        with self.sessions() as db:
            rows = db.scalars(query).all()
            opened = self.open_seats_of(db, [row.id for row in rows])
            rated_here = set(db.scalars(rated_ids.where(TermsRow.table_id.in_([row.id for row in rows]))))
            rating = ratings_at(db, list(rows))
            listed = [
                {**entry(row, opened.get(row.id, set()), row.id in rated_here), "ratings": rating[row.id]}
                for row in rows
            ]
        return [table for table in listed if table["open"]]

    @staticmethod
    def open_seats_of(db: Any, table_ids: list[str]) -> dict[str, set[int]]:
        found: dict[str, set[int]] = {}
        for table_id, seat in db.execute(
            select(OpenSeatRow.table_id, OpenSeatRow.seat).where(OpenSeatRow.table_id.in_(table_ids))
        ):
            found.setdefault(table_id, set()).add(seat)
        return found

    def invite_of_open_seat(self, table_id: str, seat: int, account_id: int | None) -> str:
        """The invite code of an open seat nobody holds; refused with the reason otherwise."""
        with self.sessions() as db:
            row = db.get(SeatRow, (table_id, seat))
            if row is None or db.get(OpenSeatRow, (table_id, seat)) is None:
                raise Refused(404, f"seat {seat_label(seat)} of table {table_id!r} is not open")
            if row.token_hash is not None or row.kind != "human":
                raise Refused(409, f"seat {seat_label(seat)} is already taken")
            if account_id is not None and self.sits_at(db, table_id, account_id):
                raise Refused(409, "you already have a seat at this table")
            return str(row.invite)

    @staticmethod
    def sits_at(db: Any, table_id: str, account_id: int) -> bool:
        held = select(AccountSeatRow.seat).where(
            AccountSeatRow.table_id == table_id, AccountSeatRow.account_id == account_id
        )
        return db.scalar(held) is not None


def entry(row: TableRow, opened: set[int], rated: bool) -> dict[str, Any]:
    """A table as the lobby lists it: its seats as any page shows them, and which are open to take."""
    seats = [seat_info(s) for s in row.seats]
    return {
        "id": row.id,
        "game": row.game,
        "title": games.get(row.game).title,
        "players": row.players,
        "turn_seconds": row.turn_seconds,
        "pace": pace_of(row.turn_seconds),
        "rated": rated,
        "created_at": row.created_at.isoformat() if row.created_at else None,
        "seats": [s.public() for s in seats],
        "open": sorted(s.seat for s in seats if s.seat in opened and not s.joined and s.kind == "human"),
    }


class Lobby:
    """The lobby's routes. `run_db` runs work in the server's database thread; `seat_person(request,
    table_id, seat, invite, name)` is the server's own join (limits, locks, bots and clock started)."""

    def __init__(
        self,
        run_db: Callable[..., Awaitable[Any]],
        accounts: Accounts,
        seat_person: Callable[[Request, str, int, str, str], Awaitable[dict[str, Any]]],
    ) -> None:
        self.store = LobbyStore(accounts.store.sessions)
        self.run_db = run_db
        self.accounts = accounts
        self.seat_person = seat_person

    async def open_seats(self, created: dict[str, Any], open_flags: list[bool]) -> None:
        """After a table is created: its open seats (the host's own seat is never open)."""
        seats = [seat for seat, flag in enumerate(open_flags) if flag and seat != created["seat"]]
        if seats:
            await self.run_db(self.store.open, created["id"], seats)

    def router(self) -> APIRouter:
        router = APIRouter()
        router.add_api_route("/api/lobby", self.listing, methods=["GET"])
        router.add_api_route("/api/lobby/{table_id}/seats/{seat}", self.take, methods=["POST"])
        return router

    async def listing(
        self,
        game: Annotated[str | None, Query(max_length=32)] = None,
        players: Annotated[int | None, Query(ge=1, le=10)] = None,
        pace: Pace | None = None,
        rated: bool | None = None,
    ) -> list[dict[str, Any]]:
        """Tables waiting for players with a seat open to anyone, newest first, by game, number of players,
        pace (real time, or turn-based over days) and whether they are rated."""
        if game is not None and game not in games.names():
            raise Refused(422, f"no game {game!r}: one of {', '.join(games.names())}")
        listed: list[dict[str, Any]] = await self.run_db(self.store.listing, game, players, pace, rated)
        return listed

    async def take(self, request: Request, table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
        account = await self.accounts.current(request)
        account_id = account.id if account is not None else None
        invite = await self.run_db(self.store.invite_of_open_seat, table_id, seat, account_id)
        return await self.seat_person(request, table_id, seat, invite, body.name)
