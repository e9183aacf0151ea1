"""Turn-based play: the "your turn" list of a logged-in account, every table where one of its seats is to
act now, with the time its clock leaves. The clock itself is the tables' turn clock (tables.py), which
takes hours or days per move as well as seconds: when it runs out a bot plays the move, said in the log.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import select

from merchantry.server.accounts import Account, Accounts, AccountSeatRow
from merchantry.server.db import TableRow
from merchantry.server.tables import Refused, TableService

MAX_TURN_SECONDS = 14 * 86400  # the longest turn clock: two weeks a move
MAX_TOTAL_SECONDS = 120 * 86400  # the largest time bank per person for a whole game: four months


def check_total(turn_seconds: int, total_seconds: int) -> None:
    """A time bank for the game needs a clock per move and at least one move's time (ValueError: a 422)."""
    if total_seconds and not turn_seconds:
        raise ValueError("a total time per player needs a turn clock (turn_seconds) as well")
    if total_seconds and total_seconds < turn_seconds:
        raise ValueError(
            f"the total time per player ({total_seconds} s) must be at least one move's time "
            f"({turn_seconds} s)"
        )


class Turns:
    def __init__(
        self, run_db: Callable[..., Awaitable[Any]], accounts: Accounts, service: TableService
    ) -> None:
        self.run_db = run_db
        self.accounts = accounts
        self.service = service

    def router(self) -> APIRouter:
        router = APIRouter()
        router.add_api_route("/api/account/turns", self.your_turns, methods=["GET"])
        return router

    async def your_turns(self, request: Request) -> dict[str, Any]:
        """Every table where the logged-in account is to act now, the least time left first."""
        account = await self.accounts.current(request)
        if account is None:
            raise Refused(401, "log in first")
        turns: list[dict[str, Any]] = await self.run_db(self.turns_of, account)
        return {"turns": turns, "count": len(turns)}

    def turns_of(self, account: Account) -> list[dict[str, Any]]:
        with self.service.sessions() as db:
            held = db.execute(
                select(AccountSeatRow.table_id, AccountSeatRow.seat)
                .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                .where(AccountSeatRow.account_id == account.id, TableRow.status == "playing")
            ).all()
        turns = []
        for table_id, seat in held:
            table = self.service.table(table_id)
            if table.status != "playing" or seat not in table.state.to_act():
                continue
            left = self.service.clock(table_id, time.monotonic()).get(seat)
            turns.append(
                {
                    "table_id": table_id,
                    "game": table.game,
                    "title": table.session.game.title,
                    "seat": seat,
                    "seconds_left": None if left is None else round(left),
                }
            )
        return sorted(turns, key=lambda t: (t["seconds_left"] is None, t["seconds_left"] or 0))
