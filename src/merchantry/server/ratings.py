"""Rated tables, ratings per game, profiles and leaderboards.

- A rated table is opened by an account, has a turn clock (so no hints: tables.hints_allowed), seats only
  accounts among its people, and bots only with a fixed rating. A table's terms are kept beside it.
- When a rated game ends, every account's rating in that game is updated with openskill's Plackett-Luce
  model, ranks by final score with ties sharing a rank: the arena's model (arena/tournament.py). It is done
  in the transaction that stores the game's last move (TableService.on_finish), so a game is rated once,
  whichever process plays its last move, and never if that move is not stored.
- Bots carry a fixed rating from the arena's ladder: each game's `data/bot_ratings.json`, made by
  benchmarks/bot_ratings.py from the measured win rates against greedy (README, "bot-strength"); they
  are never updated. A person's first rating therefore means something: beating `hard` moves it more
  than beating `easy`.
- A rating is shown as openskill's mu with its sigma; the leaderboard orders by the ordinal mu - 3 sigma
  (a conservative estimate: a new account with one lucky game does not top it).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from openskill.models import PlackettLuce
from sqlalchemy import Boolean, DateTime, Float, Integer, String, func, select
from sqlalchemy.orm import Mapped, mapped_column

from merchantry import games
from merchantry.server.accounts import Account, AccountRow, AccountSeatRow, name_key, players_at
from merchantry.server.db import Base, TableRow, now
from merchantry.server.tables import Refused

MODEL = PlackettLuce()
RECENT = 20  # finished games a profile lists
LEADERS = 50  # accounts a leaderboard lists


class TermsRow(Base):
    __tablename__ = "table_terms"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class RatedResultRow(Base):
    __tablename__ = "rated_results"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@cache
def bot_ratings(game: str) -> dict[str, dict[str, float]]:
    """The fixed ratings of a game's bots (its data/bot_ratings.json); {} if it has none."""
    path = games.package(game).folder / "data" / "bot_ratings.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def ranks(scores: list[float]) -> list[int]:
    """1 for the best score; tied seats share a rank (as the arena ranks)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def shown(mu: float, sigma: float) -> dict[str, float]:
    return {"mu": round(mu, 2), "sigma": round(sigma, 2), "ordinal": round(mu - 3 * sigma, 2)}


def ratings_at(db: Any, tables: list[Any]) -> dict[str, dict[int, dict[str, Any]]]:
    """Each seat's rating at these tables (TableRows with their seats) in the table's game: an account's as
    it is now (none before its first rated game there), a bot's fixed one."""
    games_of = {table.id: table.game for table in tables}
    found: dict[str, dict[int, dict[str, Any]]] = {table.id: {} for table in tables}
    if not tables:
        return found
    held = db.execute(
        select(AccountSeatRow.table_id, AccountSeatRow.seat, RatingRow.game, RatingRow.mu, RatingRow.sigma)
        .join(RatingRow, RatingRow.account_id == AccountSeatRow.account_id)
        .where(AccountSeatRow.table_id.in_(list(games_of)))
    ).all()
    for row in held:
        if row.game == games_of[row.table_id]:
            found[row.table_id][row.seat] = shown(row.mu, row.sigma)
    for table in tables:
        for seat in table.seats:
            fixed = bot_ratings(table.game).get(seat.bot or "") if seat.kind == "bot" else None
            if fixed is not None:
                found[table.id][seat.seat] = {**shown(fixed["mu"], fixed["sigma"]), "fixed": True}
    return found


def rate_finished_game(db: Any, table: Any, result: dict[str, Any]) -> None:
    """TableService.on_finish: in the transaction storing the last move, the ratings of a rated game."""
    terms = db.get(TermsRow, table.id)
    if terms is None or not terms.rated:
        return
    holders = {
        row.seat: row.account_id
        for row in db.scalars(select(AccountSeatRow).where(AccountSeatRow.table_id == table.id))
    }
    fixed = bot_ratings(table.game)
    teams, stored = [], {}
    for seat in table.seats:
        if seat.kind == "bot" and seat.bot in fixed:
            rating = MODEL.rating(mu=fixed[seat.bot]["mu"], sigma=fixed[seat.bot]["sigma"])
        elif seat.seat in holders:
            row = db.get(RatingRow, (holders[seat.seat], table.game))
            if row is None:
                row = RatingRow(account_id=holders[seat.seat], game=table.game, games=0, wins=0)
                row.mu, row.sigma = MODEL.rating().mu, MODEL.rating().sigma
                db.add(row)
            stored[seat.seat] = row
            rating = MODEL.rating(mu=row.mu, sigma=row.sigma)
        else:  # a seat handed to a bot without a fixed rating: rated as a newcomer, nothing kept
            rating = MODEL.rating()
        teams.append([rating])
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks(list(result["scores"]))])
    for seat, row in stored.items():
        after = rated[seat][0]
        db.add(
            RatedResultRow(
                table_id=table.id,
                seat=seat,
                account_id=row.account_id,
                game=table.game,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
            )
        )
        row.mu, row.sigma = after.mu, after.sigma
        row.games += 1
        row.wins += seat in result["winners"]


class RatingStore:
    """Every method runs in the server's database thread."""

    def __init__(self, sessions: Any) -> None:
        self.sessions = sessions

    def set_terms(self, table_id: str, rated: bool) -> None:
        with self.sessions() as db:
            db.add(TermsRow(table_id=table_id, rated=rated))
            db.commit()

    def is_rated(self, table_id: str) -> bool:
        with self.sessions() as db:
            terms = db.get(TermsRow, table_id)
            return bool(terms is not None and terms.rated)

    def rated_ids(self, table_ids: list[str]) -> set[str]:
        with self.sessions() as db:
            query = select(TermsRow.table_id).where(TermsRow.table_id.in_(table_ids), TermsRow.rated)
            return set(db.scalars(query))

    def profile(self, name: str) -> dict[str, Any]:
        with self.sessions() as db:
            account = db.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            if account is None:
                raise Refused(404, f"no player {name!r}")
            finished = db.execute(
                select(TableRow.id, TableRow.game, TableRow.result, TableRow.finished_at, AccountSeatRow.seat)
                .join(AccountSeatRow, AccountSeatRow.table_id == TableRow.id)
                .where(AccountSeatRow.account_id == account.id, TableRow.status == "finished")
                .order_by(TableRow.finished_at.desc())
            ).all()
            ratings = db.scalars(select(RatingRow).where(RatingRow.account_id == account.id)).all()
            rated = set(self.rated_ids([row.id for row in finished])) if finished else set()
            players = players_at(db, [row.id for row in finished[:RECENT]])
            return {
                "name": account.name,
                "games": per_game(finished, {r.game: shown(r.mu, r.sigma) for r in ratings}),
                "recent": [
                    {**recent(row, row.id in rated), "players": players.get(row.id, [])}
                    for row in finished[:RECENT]
                ],
            }

    def leaderboard(self, game: str) -> list[dict[str, Any]]:
        with self.sessions() as db:
            rows = db.execute(
                select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.wins)
                .join(RatingRow, RatingRow.account_id == AccountRow.id)
                .where(RatingRow.game == game)
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), func.lower(AccountRow.name))
                .limit(LEADERS)
            ).all()
        return [
            {"name": r.name, "rating": shown(r.mu, r.sigma), "games": r.games, "wins": r.wins} for r in rows
        ]

    def seat_ratings(self, table_id: str) -> dict[str, Any]:
        """Each seat's rating in the table's game: accounts' as they are now, bots' fixed ones; none at a
        guided first game (nothing there counts, and a newcomer has no use for "25.0 ± 2.0")."""
        with self.sessions() as db:
            table = db.get(TableRow, table_id)
            if table is None:
                raise Refused(404, f"no table {table_id!r}")
            if table.tutorial:
                return {"rated": False, "seats": {}}
            holders = dict(
                db.execute(
                    select(AccountSeatRow.seat, RatingRow)
                    .join(RatingRow, RatingRow.account_id == AccountSeatRow.account_id)
                    .where(AccountSeatRow.table_id == table_id, RatingRow.game == table.game)
                ).all()
            )
            seats: dict[int, Any] = {}
            for seat in table.seats:
                fixed = bot_ratings(table.game).get(seat.bot or "") if seat.kind == "bot" else None
                if fixed is not None:
                    seats[seat.seat] = {**shown(fixed["mu"], fixed["sigma"]), "fixed": True}
                elif seat.seat in holders:
                    seats[seat.seat] = shown(holders[seat.seat].mu, holders[seat.seat].sigma)
            terms = db.get(TermsRow, table_id)
            return {"rated": bool(terms and terms.rated), "seats": seats}


def per_game(finished: list[Any], ratings: dict[str, dict[str, float]]) -> dict[str, Any]:
    played: dict[str, dict[str, Any]] = {}
    for row in finished:
        entry = played.setdefault(row.game, {"played": 0, "won": 0})
        entry["played"] += 1
        entry["won"] += bool(row.result and row.seat in row.result.get("winners", []))
    for game, rating in ratings.items():
        played.setdefault(game, {"played": 0, "won": 0})["rating"] = rating
    return played


def recent(row: Any, rated: bool) -> dict[str, Any]:
    result = row.result or {}
    return {
        "table_id": row.id,
        "game": row.game,
        "seat": row.seat,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "won": row.seat in result.get("winners", []),
        "score": (result.get("scores") or [None] * (row.seat + 1))[row.seat],
        "scores": result.get("scores"),
        "table": f"/table/{row.id}",
        "rated": rated,
        "replay": f"/replay/{row.id}",
        "analysis": f"/replay/{row.id}#analysis",
    }


class Ratings:
    """What the table routes ask (`check_create`, `check_seat`, `terms`) and the routes of profiles and
    leaderboards. `run_db` runs work in the server's database thread."""

    def __init__(self, sessions: Any, run_db: Callable[..., Awaitable[Any]]) -> None:
        self.store = RatingStore(sessions)
        self.run_db = run_db

    @staticmethod
    def check_create(
        game: str, rated: bool, turn_seconds: int, bots: list[str | None], account: Account | None
    ) -> None:
        if not rated:
            return
        if account is None:
            raise Refused(401, "log in to open a rated table: its players are rated by account")
        if turn_seconds <= 0:
            raise Refused(422, "a rated table has a turn clock (and so no hints): set turn_seconds")
        fixed = bot_ratings(game) if game in games.names() else {}
        unrated = sorted({bot or "" for bot in bots} - set(fixed))
        if unrated:
            known = ", ".join(fixed) or "none"
            raise Refused(
                422, f"a rated table seats only bots with a fixed rating ({known}), not {unrated[0]!r}"
            )

    async def terms(self, table_id: str, rated: bool) -> None:
        if rated:
            await self.run_db(self.store.set_terms, table_id, True)

    async def check_seat(self, table_id: str, account: Account | None) -> None:
        if account is None and await self.run_db(self.store.is_rated, table_id):
            raise Refused(401, "this table is rated: log in (or sign up) to take a seat")

    def router(self) -> APIRouter:
        router = APIRouter()
        router.add_api_route("/api/players/{name}", self.profile, methods=["GET"])
        router.add_api_route("/api/leaderboard/{game}", self.leaderboard, methods=["GET"])
        router.add_api_route("/api/tables/{table_id}/ratings", self.seat_ratings, methods=["GET"])
        router.add_api_route("/api/bot-ratings/{game}", self.fixed, methods=["GET"])
        return router

    async def profile(self, name: Annotated[str, Path(max_length=40)]) -> dict[str, Any]:
        """A player's games played and won per game, rating per game, and latest finished games."""
        found: dict[str, Any] = await self.run_db(self.store.profile, name)
        return found

    async def leaderboard(
        self, game: str, limit: Annotated[int, Query(ge=1, le=LEADERS)] = LEADERS
    ) -> dict[str, Any]:
        if game not in games.names():
            raise Refused(404, f"no game {game!r}")
        leaders = await self.run_db(self.store.leaderboard, game)
        fixed = [{"bot": bot, "rating": shown(r["mu"], r["sigma"])} for bot, r in bot_ratings(game).items()]
        return {"game": game, "leaders": leaders[:limit], "bots": fixed}

    async def seat_ratings(self, table_id: Annotated[str, Path(max_length=16)]) -> dict[str, Any]:
        found: dict[str, Any] = await self.run_db(self.store.seat_ratings, table_id)
        return found

    async def fixed(self, game: str) -> dict[str, Any]:
        if game not in games.names():
            raise Refused(404, f"no game {game!r}")
        return {bot: shown(r["mu"], r["sigma"]) for bot, r in bot_ratings(game).items()}
