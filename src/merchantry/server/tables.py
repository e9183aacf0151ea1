"""Tables: the game platform's rules, independent of HTTP.

A table is a game (its record: seed, options, moves) with seats that are humans (each held by a secret
token) or bots. Every accepted move is committed to the database before anyone is told about it, so a
server killed at any moment has lost no accepted move; a restarted server rebuilds each table by
replaying its record. Everything a seat is shown is built from `state.view(seat)` (ENGINE principle 1).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, exists, func, or_, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import selectinload, sessionmaker

from merchantry import bots, games, records
from merchantry.bots.analysis import made_no_move, view_key, without_idle_steps
from merchantry.bots.worlds import sampled_world
from merchantry.engine import seat_label
from merchantry.errors import IllegalAction
from merchantry.server import tutorials
from merchantry.server.cluster import Solo
from merchantry.server.db import AnalysisRow, Health, MoveRow, SeatRow, TableRow, now, token_hash
from merchantry.server.refusal import Refused as Refused  # (light, for the worker processes: work.py)

log = logging.getLogger("merchantry.server")

WAITING, PLAYING, FINISHED, CLOSED = (
    "waiting",
    "playing",
    "finished",
    "closed",
)  # closed: abandoned by its host
SEATS_CHANGED = -1  # a change notice for a table whose seats or status changed (not a move)
REPLAY_CACHE = 512  # replay steps kept (a step of a finished game never changes)
SEED_BITS = 128  # a shorter seed can be brute-forced from the cards revealed so far (ENGINE principle 2)
MOVE_STEPS = 100  # a bot's whole move is cut after this many steps (one that never ends its bid)
MAX_DETOURS = 3  # a bot's move that ends where it began is thought again this many times at most
# a step whose answers nobody sees (State.answers_unseen: a sale offer, say) waits this long for a person
# who has a choice to answer, then a bot answers for them: nobody stalls the table in another's turn
UNSEEN_ANSWER_SECONDS = 30.0
# at a table with people, a step whose answers are unseen stays open at least this long (times a random
# factor in [1, 5/3]) before the server's answers close it: a person who holds the card and answers within it
# is not told apart from nobody holding it (docs/web.md, "Timing")
UNSEEN_WINDOW_SECONDS = 3.0
BOT_DELAY = 0.4  # seconds a bot's move waits at least, so people can follow (the server's default)
THINKING_KEPT = 30  # the pause before publishing keeps above the longest of this many latest thinking times
THINKING_MARGIN = 1.5  # ... times this margin
PAUSE_STRETCH = 1.15  # the pause is stretched by a random factor in [1, PAUSE_STRETCH]
# a table whose people all play on a turn clock shorter than this plays at the bots' pace, not theirs: it
# costs what a table of bots only does (limits.py)
SHORT_CLOCK_SECONDS = 30
JS_SAFE_INTEGER = 2**53 - 1  # larger integers are not exact in a browser (JavaScript numbers)
TUTORIAL_FINISH_PAUSE = 0.1  # seconds between bot moves once a guided first game is left to a bot
# two turn starts of one seat this close (seconds) are one: a process closing a turn whose stored start is
# another is behind (the seat's next turn began through another process), and leaves the stored time alone
SAME_TURN_START = 0.25


class StaleTable(Exception):
    """Another server process stored this table's next move first: this one's copy is behind."""


@dataclass
class SeatInfo:
    seat: int
    kind: str  # human | bot
    bot: str | None
    name: str | None
    joined: bool
    # the seat's token, hashed (None: nobody holds it); kept with the live table, which is reloaded
    # whenever a seat changes hands, so a move's token check needs no query
    token_hash: str | None = field(default=None, repr=False)
    # a person's seat a bot finished: the moves played before the bot took it (SeatRow.bot_from)
    bot_from: int | None = None

    def public(self, lesson_levels: dict[str, str] | None = None) -> dict[str, Any]:
        """`lesson_levels`: the lobby's levels a guided first game's bots are named by (tutorials.py)."""
        level = (lesson_levels or {}).get(self.bot or "") if self.kind == "bot" else None
        return {
            "seat": self.seat,
            "label": seat_label(self.seat),
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "joined": self.joined,
            "bot_from": self.bot_from,
            **({"level": level} if level else {}),
        }


@dataclass
class LiveTable:
    id: str
    game: str
    status: str
    seats: list[SeatInfo]
    session: records.Session
    result: dict[str, Any] | None = None
    turn_seconds: int = 0  # 0: no turn clock
    clock_started: dict[int, float] | None = None  # seat -> when its turn began (monotonic seconds)
    total_seconds: int = 0  # each person's time bank for the whole game (0: none), beside the clock per move
    time_used: dict[int, float] = field(default_factory=dict)  # seat -> seconds its finished turns used
    round_starts: list[int] | None = None  # finished games: after how many moves each round's log begins
    # finished games: per seat viewing (None: spectators), the move that wrote each line of its log
    log_moves: dict[int | None, list[int]] = field(default_factory=dict)
    # a game in play: the same numbers, as far as each viewer could count the moves itself (LogNumbers)
    live_numbers: records.LogNumbers | None = None
    timeouts: list[int] = field(default_factory=list)  # the seat, each time its time ran out
    # the seed of the bots' random stream, never sent (`bot_stream`)
    bot_secret: str = field(default_factory=lambda: secrets.token_hex(32), repr=False)
    # a step whose answers are unseen: when this process saw it open (monotonic seconds), so that a person's
    # time to answer is counted from its start, and how long it stays open at least (UNSEEN_WINDOW_SECONDS)
    unseen_since: float | None = None
    unseen_window: float = 0.0
    players: dict[tuple[int, str], Any] = field(default_factory=dict)  # (seat, bot name) -> its bot
    # how long the server's latest moves took to think out (seconds): the pause before a move is published
    # stays above them, so a move that takes longer to think (more cards to bid) does not arrive later
    thinking: deque[float] = field(default_factory=lambda: deque(maxlen=THINKING_KEPT))
    creator: str | None = None  # db.client_key of who created it (None: not known, an older table)
    # a guided first game (server/tutorials.py): its bots' course is the one its steps describe
    tutorial: bool = False
    touched: float = field(default_factory=time.monotonic)  # when it was last asked for

    def bot_for(self, seat: int, name: str) -> Any:
        """The bot playing `seat`, kept for the whole game: a search bot plans a multi-step move once."""
        key = (seat, name)
        if key not in self.players:
            self.players[key] = bots.get(name, self.game)
        return self.players[key]

    @property
    def state(self) -> Any:
        return self.session.state

    def plays_by_itself(self) -> bool:
        """Bots at work with nobody to wait for: no person, or every person on a short turn clock (the
        clock moves them). Such a table costs what a game of bots only does (limits.py)."""
        return plays_by_itself([s.kind for s in self.seats], self.turn_seconds)

    def bank_left(self, seat: int, now_seconds: float) -> float | None:
        """Seconds left of the seat's time bank for the whole game, its current turn counted (None: no
        total at this table)."""
        if not self.total_seconds:
            return None
        began = (self.clock_started or {}).get(seat)
        running = 0.0 if began is None else now_seconds - began
        return self.total_seconds - self.time_used.get(seat, 0.0) - running

    def out_of_time(self, seat: int) -> bool:
        """The seat's finished turns used its whole time bank: a bot moves for it to the end of the game."""
        return bool(self.total_seconds) and self.time_used.get(seat, 0.0) >= self.total_seconds

    def waiting_for(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human" and not s.joined]

    def answered_by_server(self) -> list[int]:
        """The seats the server answers for now: the bots to act, the people out of time for the game (a
        bot moves for them to the end) and, in a step whose answers are unseen, every person with only one
        answer (a sale offer for a card they do not hold): nobody's answer then comes faster than anyone's
        (docs/web.md, "Timing")."""
        if self.status != PLAYING:
            return []
        state = self.state
        unseen = state.answers_unseen()
        return [
            int(seat)
            for seat in state.to_act()
            if self.seats[seat].kind == "bot"
            or self.out_of_time(seat)
            or (unseen and len(state.legal_actions(seat)) == 1)
        ]

    def server_has_work(self) -> bool:
        """Seats the server answers for, or a step whose answers are unseen waiting for people (whom a bot
        answers for once its time is up)."""
        if self.answered_by_server():
            return True
        # a guided first game never answers for its person (no clock at a lesson): their answer starts the
        # bots again
        return self.status == PLAYING and self.state.answers_unseen() and not self.tutorial

    def publishing_pause(self, bot_delay: float, thought: float) -> float:
        """How long after the server began thinking its moves are published, once they took `thought`
        seconds to think out: `bot_delay` so people can follow, plus the longest a bot at this table may
        think for a whole move (its recipe's budget, which the steps of a move share), and at least
        THINKING_MARGIN times the longest of the latest thinking times (a loaded machine thinks slowly),
        stretched by a random factor. It does not depend on what this move holds, so the time a move arrives
        tells nothing unless its thinking outlasts all that (docs/web.md, "Timing"); 0 when `bot_delay` is 0
        (tests)."""
        recent = max(self.thinking, default=0.0)
        self.thinking.append(thought)
        if bot_delay <= 0:
            return 0.0
        if self.tutorial and all(s.kind == "bot" for s in self.seats):
            # a guided first game the person left to a bot: nobody follows it, and its deal is no secret
            return min(bot_delay, TUTORIAL_FINISH_PAUSE)
        return publishing_pause(bot_delay, self.longest_budget(), recent)

    def longest_budget(self) -> float:
        """The longest time budget per whole move of a bot at this table (0 for bots without one): public,
        since who sits at the table is."""
        budgets = [
            getattr(getattr(self.bot_for(s.seat, s.bot or "random"), "config", None), "seconds", None) or 0.0
            for s in self.seats
            if s.kind == "bot"
        ]
        return max(budgets, default=0.0)

    def bot_stream(self, seat: int) -> random.Random:
        """The random stream of the bot deciding for `seat` now: from the table's secret and the moves played
        (a restart continues it), so a bot's world and choices cannot be recomputed from public facts.

        At a guided first game the stream counts the seat's own moves, not everyone's: the course must not
        depend on whether the person's hidden steps came before or after a bot's (its secret is the
        tutorial's, the same at every such table, and nothing there is secret)."""
        moves = len(self.session.moves)
        if self.tutorial:
            moves = sum(1 for mover, _ in self.session.moves if mover == seat)
        message = f"{seat}:{moves}".encode()
        digest = hmac.new(bytes.fromhex(self.bot_secret), message, hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest))


@dataclass
class BotTurn:
    """A bot's whole move (ENGINE principle 5), prepared under the table's lock and thought out outside it:
    nobody sees a step of it before the whole move is decided."""

    seat: int
    moves: int  # moves played when it was prepared
    seen: Any  # the seat's view then: if it has changed when the move is played, the bot thinks again
    position: Any  # a copy of the real state; the bot sees only worlds sampled from it, never it
    bot: Any  # None: the seat has one legal answer, given for it
    rng: random.Random

    def think(self) -> list[Any]:
        """The steps of the move, each chosen in a world sampled for the seat from the position after the
        steps before it (a card drawn on the way is the seat's own to see), up to the end of the decision.
        Steps that end back where the move began, the seat still to decide (a card put into a bid and taken
        out again), are no move: they are dropped and the bot thinks again, up to `MAX_DETOURS` times (a
        medium bot published "put a card into the bid, take it back", which an analysis then showed as a move
        of nothing)."""
        start, seat = self.position, self.seat
        for _ in range(MAX_DETOURS):
            position = start.clone()
            steps = self._steps_from(position)
            still_to_decide = not position.is_over() and seat in position.to_act()
            if not (still_to_decide and made_no_move(start, seat, steps)):
                break
        # and without the steps that change nothing but the log, as a hint says a move: a bot's "put a card
        # into the bid, pass" is its pass (the log said "passes"; an analysis quoted the card)
        return without_idle_steps(start, seat, steps)

    def _steps_from(self, position: Any) -> list[Any]:
        seat = self.seat
        steps: list[Any] = []
        while len(steps) < MOVE_STEPS:
            if self.bot is None:
                action = position.legal_actions(seat)[0]
            else:
                action = self.bot.choose(sampled_world(position, seat, self.rng), seat, self.rng)
            position.apply(seat, action)
            steps.append(action)
            if position.is_over() or seat not in position.to_act() or not position.in_decision(seat):
                break
        return steps


def publishing_pause(
    bot_delay: float, longest_budget: float, recent: float, stretch: float | None = None
) -> float:
    """The pause before a bot's move is published (LiveTable.publishing_pause): `bot_delay` plus the longest
    budget per move at the table, at least THINKING_MARGIN times the `recent` longest thinking time, times
    `stretch` (default: drawn from [1, PAUSE_STRETCH] by the system's generator, which nobody can predict)."""
    if stretch is None:
        stretch = random.SystemRandom().uniform(1.0, PAUSE_STRETCH)
    return max(bot_delay + longest_budget, THINKING_MARGIN * recent) * stretch


def timeout_bot(game: str) -> str:
    """The bot that moves for a person whose time ran out: greedy where the game has one."""
    return "greedy" if "greedy" in bots.names(game) else "random"


def all_seated(rows: list[SeatRow]) -> bool:
    """Every seat is a bot or a person who has joined: the game can start."""
    return all(row.kind == "bot" or row.token_hash for row in rows)


def plays_by_itself(kinds: Sequence[str], turn_seconds: int) -> bool:
    """A table with these seats and this clock plays at its bots' pace (see LiveTable.plays_by_itself)."""
    short_clock = 0 < turn_seconds < SHORT_CLOCK_SECONDS
    return "bot" in kinds and ("human" not in kinds or short_clock)


def check_options_can_be_sent(options: dict[str, Any]) -> None:
    """Refuse (422) an option every payload could not carry: a value orjson cannot encode would close every
    websocket of the table, and an integer beyond 2**53 is not exact in a browser."""
    for name, value in options.items():
        too_big = isinstance(value, int) and not -JS_SAFE_INTEGER <= value <= JS_SAFE_INTEGER
        try:
            orjson.dumps(value)
        except (TypeError, orjson.JSONEncodeError):
            too_big = True
        if too_big:
            raise Refused(422, f"option {name} is out of range: at most {JS_SAFE_INTEGER} in size")


def seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(row.seat, row.kind, row.bot, row.name, bool(row.token_hash), row.token_hash, row.bot_from)


def check_bot(name: str | None, game: str) -> None:
    """Refuse a bot name the game does not have (422, listing the bots that exist)."""
    try:
        bots.get(name or "", game)
    except ValueError as exc:
        raise Refused(422, str(exc)) from None


class TableService:
    """Creates tables, seats people, applies moves and lets bots play; storage through SQLAlchemy."""

    def __init__(
        self,
        sessions: sessionmaker[DbSession],
        cluster: Solo | None = None,
        unseen_answer_seconds: float = UNSEEN_ANSWER_SECONDS,
        unseen_window_seconds: float = UNSEEN_WINDOW_SECONDS,
        health: Health | None = None,
    ):
        self.sessions = sessions
        self.health = health or Health()  # whether the database answers (one warning per outage)
        self.unseen_answer_seconds = unseen_answer_seconds
        self.unseen_window_seconds = unseen_window_seconds
        self.cluster = cluster or Solo()  # the other server processes on the same database, if any
        self.live: dict[str, LiveTable] = {}
        # a connection kept for storing moves, in autocommit: a move is one statement on it. Checking a
        # connection out of the pool and a Session's unit of work around it cost the server more CPU than
        # the statement itself (benchmarks/results/load-server.txt). Used from the one thread the service
        # runs in; dropped after any database error, and opened again for the next move.
        self.mover: Connection | None = None
        self.replays: OrderedDict[tuple[str, int, int | None], dict[str, Any]] = OrderedDict()  # LRU
        # called with (the database session, the table, its result) in the transaction that stores a
        # game's last move, before it commits: what must happen exactly once when a game ends (ratings)
        self.on_finish: list[Callable[[DbSession, LiveTable, dict[str, Any]], None]] = []

    # --- creating and joining -----------------------------------------------------------------------

    def create(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        name: str,
        turn_seconds: int = 0,
        creator: str | None = None,
        tutorial: tuple[int, str] | None = None,
        total_seconds: int = 0,
    ) -> dict[str, Any]:
        """A new table; the creator (db.client_key of their address) is its host and sits in the first
        human seat (if any). Options out of the game's ranges are refused with the reason (422).
        `tutorial`: a guided first game's seed and bot secret (server/tutorials.py), else both are drawn."""
        check_options_can_be_sent(options)
        seed, bot_secret = tutorial or (secrets.randbits(SEED_BITS), secrets.token_hex(32))
        try:
            session = records.Session(game, players, seed=seed, options=options)
        except ValueError as exc:  # InvalidOption among them: the game says what is allowed
            raise Refused(422, str(exc)) from None
        check_options_can_be_sent(session.options)
        if len(seats) != players:
            raise Refused(422, f"give one seat description per player ({players}), not {len(seats)}")
        for spec in seats:
            if spec["kind"] == "bot":
                check_bot(spec["bot"], game)
        table_id = secrets.token_urlsafe(6)
        host_token = secrets.token_urlsafe(24)
        rows = [
            SeatRow(seat=i, kind=spec["kind"], bot=spec.get("bot"), invite=secrets.token_urlsafe(9))
            for i, spec in enumerate(seats)
        ]
        creator_token = None
        humans = [row for row in rows if row.kind == "human"]
        if humans:
            creator_token = secrets.token_urlsafe(24)
            humans[0].name = name
            humans[0].token_hash = token_hash(creator_token)
        status = PLAYING if all_seated(rows) else WAITING
        with self.sessions() as db:
            db.add(
                TableRow(
                    id=table_id,
                    game=game,
                    players=players,
                    seed=str(session.seed),
                    options=session.options,
                    status=status,
                    turn_seconds=turn_seconds,
                    total_seconds=total_seconds or None,
                    host_token_hash=token_hash(host_token),
                    bot_secret=bot_secret,
                    creator=creator,
                    tutorial=tutorial is not None or None,
                    seats=rows,
                )
            )
            self.cluster.announce(db, table_id, 0)
            db.commit()
        self.live.pop(table_id, None)
        return {
            "id": table_id,
            "host_token": host_token,
            "seat": humans[0].seat if humans else None,
            "token": creator_token,
            "invites": [{"seat": r.seat, "invite": r.invite} for r in rows if r.kind == "human"][1:],
        }

    def join(self, table_id: str, seat: int, invite: str, name: str) -> str:
        """Claim an empty human seat with its invite code; returns the seat's secret token."""
        with self.sessions() as db:
            row = db.get(SeatRow, (table_id, seat))
            if row is None or row.kind != "human" or not secrets.compare_digest(row.invite, invite):
                log.warning("refused join: table %s seat %s with a wrong invite", table_id, seat)
                raise Refused(403, "this invite link is not valid for that seat")
            if row.token_hash:
                raise Refused(409, f"seat {seat_label(seat)} is already taken")
            token = secrets.token_urlsafe(24)
            row.name = name
            row.token_hash = token_hash(token)
            table = db.get(TableRow, table_id)
            assert table is not None
            if table.status == WAITING and all_seated(table.seats):
                table.status = PLAYING
            self.cluster.announce(db, table_id, SEATS_CHANGED)
            db.commit()
        self.live.pop(table_id, None)  # reload seats and status
        return token

    def hand_to_bot(self, table_id: str, host_token: str, seat: int, bot: str) -> None:
        """The host gives a seat (an absent player's, or one nobody joined) to a bot. The seat's token stops
        working at once; a finished game's seats stay with whoever played them."""
        table = self.table(table_id)
        self.check_host(table_id, host_token)
        if not 0 <= seat < len(table.seats):
            raise Refused(422, f"no seat {seat}")
        if table.status == FINISHED:
            raise Refused(409, "the game is over: its seats can no longer be handed over")
        check_bot(bot, table.game)
        with self.sessions() as db:
            row = db.get(SeatRow, (table_id, seat))
            assert row is not None
            if row.kind == "human" and row.name is not None and table.status == PLAYING:
                row.bot_from = len(table.session.moves)  # the moves so far stay the person's
            row.kind, row.bot, row.token_hash = "bot", bot, None
            table_row = db.get(TableRow, table_id)
            assert table_row is not None
            if table_row.status == WAITING and all_seated(table_row.seats):
                table_row.status = PLAYING
            self.cluster.announce(db, table_id, SEATS_CHANGED)
            db.commit()
        self.live.pop(table_id, None)

    def close(self, table_id: str, host_token: str) -> None:
        """The host closes an abandoned table: nobody may move any more, bots and the clock stop, the lobby
        says "closed". A finished game stays as it ended."""
        table = self.table(table_id)
        self.check_host(table_id, host_token)
        if table.status == FINISHED:
            raise Refused(409, "the game is over: a finished table stays in the lobby with its result")
        if table.status == CLOSED:
            return
        with self.sessions() as db:
            row = db.get(TableRow, table_id)
            assert row is not None
            row.status = CLOSED
            self.cluster.announce(db, table_id, SEATS_CHANGED)
            db.commit()
        table.status = CLOSED
        table.clock_started = None

    # --- identities -----------------------------------------------------------------------------------

    def seat_for_token(self, table_id: str, token: str | None) -> int | None:
        """The seat a token holds; None for no token (a spectator). A wrong token is refused and logged."""
        table = self.table(table_id)
        if not token:
            return None
        digest = token_hash(token)
        seat = holder_of(table, digest)
        if seat is None and self._token_stored(table_id, digest):
            # the copy is behind: a seat was taken through another process, whose notice is on its way
            self.live.pop(table_id, None)
            seat = holder_of(self.table(table_id), digest)
        if seat is None:  # the database says so: the token holds no seat here (forged, or handed over)
            log.warning("refused a forged or stale seat token at table %s", table.id)
            raise Refused(403, "this seat token is not valid at this table")
        return seat

    def _token_stored(self, table_id: str, digest: str) -> bool:
        """Whether the database has a seat of the table held by this token hash. Asked only when the copy
        in memory does not know the token; an outage raises (the refusal is then 503, not 403: the token
        may well be good, and a page forgets a token only when the server says it is not)."""
        with self.sessions() as db:
            held = select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.token_hash == digest)
            return db.scalar(held) is not None

    def check_host(self, table_id: str, host_token: str) -> None:
        with self.sessions() as db:
            row = db.get(TableRow, table_id)
            if row is None or not secrets.compare_digest(row.host_token_hash, token_hash(host_token or "")):
                log.warning("refused a host action with a wrong host token at table %s", table_id)
                raise Refused(403, "only the table's host may do that")

    # --- loading --------------------------------------------------------------------------------------

    def table(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from its record if this process has not seen it yet."""
        if table_id in self.live:
            live = self.live[table_id]
            live.touched = time.monotonic()
            return live
        with self.sessions() as db:
            row = db.scalars(
                select(TableRow)
                .where(TableRow.id == table_id)
                .options(selectinload(TableRow.seats), selectinload(TableRow.moves))
            ).first()
            if row is None:
                raise Refused(404, f"no table {table_id!r}")
            session = records.Session(row.game, row.players, seed=int(row.seed), options=dict(row.options))
            for move in row.moves:
                session.apply(move.seat, move.text)  # a stored move was accepted once: it replays
            seats = [seat_info(s) for s in row.seats]
            live = LiveTable(row.id, row.game, row.status, seats, session, row.result, row.turn_seconds or 0)
            live.creator = row.creator
            live.total_seconds = row.total_seconds or 0
            live.time_used = {s.seat: s.time_used for s in row.seats if s.time_used}
            live.tutorial = bool(row.tutorial)
            if row.bot_secret:
                live.bot_secret = row.bot_secret
            # the turn clock goes on where it was: stored wall-clock starts, as this process's monotonic time
            started = {s.seat: s.turn_started for s in row.seats if s.turn_started is not None}
            if started and live.turn_seconds:
                offset = time.monotonic() - time.time()
                live.clock_started = {seat: when + offset for seat, when in started.items()}
        self.live[table_id] = live
        return live

    def tables(self) -> list[dict[str, Any]]:
        """The lobby: every table, newest first, with seats and (when finished) the result."""
        with self.sessions() as db:
            rows = db.scalars(
                select(TableRow)
                .options(selectinload(TableRow.seats))
                .order_by(TableRow.created_at.desc())
                .limit(200)
            ).all()
            return [
                {
                    "id": row.id,
                    "game": row.game,
                    "title": games.get(row.game).title,
                    "players": row.players,
                    "status": row.status,
                    "created_at": row.created_at.isoformat() if row.created_at else None,
                    "seats": [
                        seat_info(s).public(tutorials.lesson_levels(row.game, bool(row.tutorial)))
                        for s in row.seats
                    ],
                    "result": row.result,
                    "tutorial": bool(row.tutorial),
                }
                for row in rows
            ]

    def tables_playing_by_themselves(self, creator: str | None = None) -> int:
        """Tables being played at their bots' pace (LiveTable.plays_by_itself): `creator`'s, or all. Counted
        in the database, so every process and a restarted one count the same."""
        people = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human")
        bots_at = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "bot")
        short_clock = (TableRow.turn_seconds > 0) & (TableRow.turn_seconds < SHORT_CLOCK_SECONDS)
        query = select(func.count()).where(TableRow.status == PLAYING, bots_at, or_(~people, short_clock))
        if creator is not None:
            query = query.where(TableRow.creator == creator)
        with self.sessions() as db:
            return int(db.scalar(query) or 0)

    def playing_table_ids(self) -> list[str]:
        with self.sessions() as db:
            return list(db.scalars(select(TableRow.id).where(TableRow.status == PLAYING)).all())

    # --- playing ----------------------------------------------------------------------------------------

    def act(self, table_id: str, seat: int, text: str) -> None:
        """Apply a move for a seat, commit it, and only then make it the table's state. If another process
        stored a move first, catch up and judge the move again on the table as it now is."""
        try:
            self._act(table_id, seat, text)
            return
        except StaleTable:
            pass
        except Refused:
            if not self._behind(table_id):
                raise
        self.live.pop(table_id, None)  # judged on a copy another process had moved past: rebuild it
        try:
            self._act(table_id, seat, text)
        except StaleTable:
            raise Refused(409, "the table moved on while your move was made: look again") from None

    def _behind(self, table_id: str) -> bool:
        """The copy in memory lacks moves the database has (another process stored them). False when the
        database cannot say (an outage): the refusal that asked stands."""
        live = self.live.get(table_id)
        if live is None:
            return False
        try:
            with self.sessions() as db:
                count = select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id)
                stored = db.scalar(count)
                status = db.scalar(select(TableRow.status).where(TableRow.id == table_id))
        except SQLAlchemyError:
            return False
        return bool(stored != len(live.session.moves) or status != live.status)

    def _act(self, table_id: str, seat: int, text: str) -> None:
        table = self.table(table_id)
        if table.status == WAITING:
            waiting = ", ".join(seat_label(s) for s in table.waiting_for())
            raise Refused(409, f"the game has not started: waiting for {waiting} to join")
        if table.status == FINISHED:
            raise Refused(409, "the game is over")
        if table.status == CLOSED:
            raise Refused(409, "the host closed this table")
        if table.out_of_time(seat):
            raise Refused(409, f"{seat_label(seat)}'s time for the game has run out: a bot plays its moves")
        trial = table.state.clone()
        try:
            action = table.session.game.parse_action(trial, seat, text)
            trial.apply(seat, action)
        except IllegalAction as exc:
            raise Refused(409, str(exc), exc.reason()) from None
        self._commit_move(table, seat, str(action), trial)

    def bot_move(self, table_id: str) -> bool:
        """Let the server's seats make their next moves (a bot's whole move; in a step whose answers are
        unseen, every answer the server gives); False if none is to act."""
        turns = self.next_bot_turns(table_id)
        return bool(turns) and self.play_bot_turns(table_id, turns, [turn.think() for turn in turns])

    def next_bot_turns(self, table_id: str) -> list[BotTurn]:
        """The moves the server has to make for its seats, each to be thought out without holding the table
        (a search bot thinks for seconds): the whole move of the first bot to act or, in a step whose
        answers are unseen, every answer the server gives, to be published together. [] if none."""
        table = self.table(table_id)
        seats = table.answered_by_server()
        if not table.state.answers_unseen():
            seats = seats[:1]
        return [self._turn_for(table, seat, self._bot_of(table, seat)) for seat in seats]

    def play_bot_turns(self, table_id: str, turns: list[BotTurn], moves: list[list[Any]]) -> bool:
        """Play the moves thought out for `turns`, each a whole move, unless what its seat sees changed while
        it was thought out (then it is left out: asked again). True if anything was played."""
        played = False
        for turn, steps in zip(turns, moves, strict=True):
            table = self.table(table_id)
            if table.status != PLAYING or turn.seat not in table.state.to_act():
                continue
            if len(table.session.moves) != turn.moves and table.state.view(turn.seat) != turn.seen:
                continue
            try:
                played |= self._play_steps(table, turn.seat, steps)
            except StaleTable:  # another process played first: catch up, then the bot thinks again
                self.live.pop(table_id, None)
                return played
        return played

    def _play_steps(self, table: LiveTable, seat: int, steps: list[Any]) -> bool:
        """Store a whole move step by step; it stops at a step the table no longer allows."""
        played = False
        for action in steps:
            trial = table.state.clone()
            try:
                trial.apply(seat, action)
            except IllegalAction:
                break
            self._commit_move(table, seat, str(action), trial)
            played = True
        return played

    @staticmethod
    def _bot_of(table: LiveTable, seat: int) -> Any:
        """The seat's bot (for a person out of time, the clock's); None for a person the server answers for
        (their only answer)."""
        info = table.seats[seat]
        if info.kind == "bot":
            return table.bot_for(seat, info.bot or "random")
        return table.bot_for(seat, timeout_bot(table.game)) if table.out_of_time(seat) else None

    def _turn_for(self, table: LiveTable, seat: int, bot: Any) -> BotTurn:
        """A whole move for `seat` to think out, on a copy of the position taken now (the table's own state
        may move on meanwhile)."""
        state, moves = table.state, len(table.session.moves)
        return BotTurn(seat, moves, state.view(seat), state.clone(), bot, table.bot_stream(seat))

    def _play_for(self, table: LiveTable, seat: int, bot_name: str) -> None:
        turn = self._turn_for(table, seat, table.bot_for(seat, bot_name))
        self.play_bot_turns(table.id, [turn], [turn.think()])

    def catch_up(self, table_id: str, moves: int, move: tuple[int, str] | None = None) -> bool:
        """Another process changed the table (it now has `moves` moves, the last of them `move` if known, or
        its seats changed): a copy in memory that is behind plays the move it was told of, or the moves
        stored since, or (seats changed, or that fails) is dropped, to be rebuilt from the database when next
        asked for. True if this process held a copy that was behind (its connections are to be told)."""
        live = self.live.get(table_id)
        if live is None or (moves != SEATS_CHANGED and len(live.session.moves) >= moves):
            return False
        if move is not None and moves == len(live.session.moves) + 1 and self._play_told_move(live, move):
            return True
        if moves == SEATS_CHANGED or not self._play_stored_moves(live):
            del self.live[table_id]
        return True

    def _play_told_move(self, live: LiveTable, move: tuple[int, str]) -> bool:
        """The next move, as another process stored it (it was accepted once: it replays); False if it ended
        the game, whose result is then read from the database with the moves stored since (none)."""
        try:
            live.session.apply(*move)
        except IllegalAction:
            return False
        return not live.state.is_over()

    def _play_stored_moves(self, live: LiveTable) -> bool:
        """Bring a copy up to date with the moves stored since (each was accepted once: it replays);
        False if that cannot be done, and the copy is to be rebuilt instead."""
        try:
            with self.sessions() as db:
                row = db.get(TableRow, live.id)
                stored = db.scalars(
                    select(MoveRow)
                    .where(MoveRow.table_id == live.id, MoveRow.number > len(live.session.moves))
                    .order_by(MoveRow.number)
                ).all()
                for move in stored:
                    live.session.apply(move.seat, move.text)
        except (SQLAlchemyError, IllegalAction):
            return False
        if row is None:
            return False
        live.status, live.result = row.status, row.result
        return True

    def forget_idle(self, busy: set[str], idle_seconds: float) -> list[str]:
        """Let tables nobody has asked for in `idle_seconds` leave memory (they are rebuilt from the database
        when asked for again), except the `busy` ones (watched, or with bots or a clock at work)."""
        cutoff = time.monotonic() - idle_seconds
        gone = [tid for tid, live in self.live.items() if tid not in busy and live.touched <= cutoff]
        for table_id in gone:
            del self.live[table_id]
        return gone

    # --- hints -------------------------------------------------------------------------------------------

    def hints_allowed(self, table: LiveTable) -> bool:
        """Hints are on at a table with bots and without a turn clock (a timed game is a contest)."""
        return not table.turn_seconds and any(s.kind == "bot" for s in table.seats)

    def hint_position(self, table_id: str, seat: int) -> Any:
        """A copy of the position for a hint to `seat` (the search samples that seat's worlds from it)."""
        table = self.table(table_id)
        if table.status != PLAYING:
            raise Refused(409, "hints are for games in progress")
        if not self.hints_allowed(table):
            reason = "a table with a turn clock" if table.turn_seconds else "a table without bots"
            raise Refused(409, f"hints are off at {reason}")
        if seat not in table.state.to_act():
            raise Refused(409, f"it is not {seat_label(seat)}'s turn: a hint is for a decision you face")
        return table.state.clone()

    def moves_so_far(self, table_id: str) -> list[tuple[int, str]]:
        """The game's moves so far, each (seat, notation), for the server's own use (never sent: a seat may
        not count the sealed steps of others): a hinted move followed step by step is told by them."""
        return [(seat, text) for seat, text in self.table(table_id).session.moves]

    def lesson_asks(self, table_id: str, seat: int) -> list[str] | None:
        """At a guided first game, the moves its step asks of the person (`seat`, the first) here, which the
        hint proposes; None at any other table, or once the person plays on their own."""
        table = self.table(table_id)
        if not table.tutorial or seat != 0 or not tutorials.has_tutorial(table.game):
            return None
        played = [text for mover, text in table.session.moves if mover == seat]
        asked = tutorials.asked_next(tutorials.tutorial(table.game), played)
        if not asked or asked[0] not in map(str, table.state.legal_actions(seat)):
            return None  # (not yet the step's moment: the hint is the search's)
        return asked

    # --- the turn clock -------------------------------------------------------------------------------

    def clock(self, table_id: str, now_seconds: float) -> dict[int, float]:
        """Seconds left for each person whose turn it is (empty without a clock): the clock per move or,
        at a table with a total, what is left of the seat's time bank if that is less. A seat's time starts
        when it comes to act and is kept while it stays to act. A step whose answers are unseen has its own
        time, the same for everyone (`unseen_answers_left`): a clock running for some would say who."""
        table = self.table(table_id)
        if not table.turn_seconds or table.status != PLAYING:
            table.clock_started = None
            return {}
        started = table.clock_started or {}
        acting = [] if table.state.answers_unseen() else table.state.to_act()
        acting = [s for s in acting if table.seats[s].kind == "human"]
        table.clock_started = {s: started.get(s, now_seconds) for s in acting}
        ended = {s: t for s, t in started.items() if s not in table.clock_started}
        begun = [s for s in table.clock_started if s not in started]
        if ended or begun:
            self._settle_turns(table, ended, begun, now_seconds)
        return {s: self._time_left(table, s, now_seconds) for s in table.clock_started}

    @staticmethod
    def _time_left(table: LiveTable, seat: int, now_seconds: float) -> float:
        assert table.clock_started is not None
        left = table.turn_seconds - (now_seconds - table.clock_started[seat])
        bank = table.bank_left(seat, now_seconds)
        return left if bank is None else min(left, bank)

    def _settle_turns(
        self, table: LiveTable, ended: dict[int, float], begun: list[int], now_seconds: float
    ) -> None:
        """Store when each person's turn began and, for each turn that ended, the time it used of the seat's
        bank, so that a restart or another process goes on with everyone's time. The stored rows decide:
        a turn is added to the time used once, by the process that finds its own start stored (a process
        that is behind finds the seat's next turn there and takes the time used as stored), and a turn
        begun through another process keeps that one's start. If the database is away the clock runs on
        from memory."""
        offset = time.time() - now_seconds  # this process's monotonic seconds to wall-clock seconds
        assert table.clock_started is not None
        try:
            with self.sessions() as db:
                query = select(SeatRow).where(SeatRow.table_id == table.id).with_for_update()
                rows = {row.seat: row for row in db.scalars(query)}
                for seat, began in ended.items():
                    row = rows[seat]
                    stored = row.turn_started
                    if stored is not None and abs(stored - (began + offset)) < SAME_TURN_START:
                        row.time_used = (row.time_used or 0.0) + max(0.0, now_seconds - began)
                        row.turn_started = None
                    table.time_used[seat] = row.time_used or 0.0
                for seat in begun:
                    row = rows[seat]
                    if row.turn_started is None:
                        row.turn_started = now_seconds + offset
                    else:  # begun through another process: its start holds
                        table.clock_started[seat] = row.turn_started - offset
                db.commit()
        except SQLAlchemyError as exc:
            self.health.failed(exc)
            for seat, began in ended.items():
                table.time_used[seat] = table.time_used.get(seat, 0.0) + max(0.0, now_seconds - began)

    def play_timed_out_turns(self, table_id: str, now_seconds: float) -> bool:
        """A bot finishes the turn of every person whose time ran out (the turn's, or the whole game's);
        True if anything was played."""
        played = False
        for seat, left in self.clock(table_id, now_seconds).items():
            if left > 0:
                continue
            table = self.table(table_id)
            bot_name = timeout_bot(table.game)
            bank = table.bank_left(seat, now_seconds)
            what = "time for the game" if bank is not None and bank <= 0 else "turn"
            label = seat_label(seat)
            log.info("turn clock: %s's %s ran out: a %s bot plays at %s", label, what, bot_name, table_id)
            table.timeouts.append(seat)
            played |= self._finish_for(table, seat, bot_name)
            self._end_turn(table, seat, now_seconds)
        return played

    def _end_turn(self, table: LiveTable, seat: int, now_seconds: float) -> None:
        """The seat's turn is over (a bot played it): its time is used, and a next turn starts afresh."""
        began = (table.clock_started or {}).pop(seat, None)
        if began is not None:
            self._settle_turns(table, {seat: began}, [], now_seconds)

    def _finish_for(self, table: LiveTable, seat: int, bot_name: str) -> bool:
        """A bot finishes the decision a person has left (a turn may be several moves: a bid, then more)."""
        played = False
        for _ in range(MOVE_STEPS):
            if table.status != PLAYING or seat not in table.state.to_act():
                break
            before = len(table.session.moves)
            self._play_for(table, seat, bot_name)
            played = True
            if len(table.session.moves) == before or table.state.answers_unseen():
                break
        return played

    # --- steps whose answers are unseen -----------------------------------------------------------------

    def unseen_answers_left(self, table_id: str, now_seconds: float) -> float | None:
        """Seconds left for the people who have a choice in a step whose answers are unseen (the same for
        every seat, from when the step opened); None when no such step is open."""
        table = self.table(table_id)
        state = table.state
        if table.status != PLAYING or not state.answers_unseen():
            table.unseen_since = None
            return None
        if table.unseen_since is None:
            table.unseen_since = now_seconds
            people = any(s.kind == "human" for s in table.seats)
            stretch = random.SystemRandom().uniform(1.0, 5 / 3)
            table.unseen_window = self.unseen_window_seconds * stretch if people else 0.0
        return self.unseen_answer_seconds - (now_seconds - table.unseen_since)

    def unseen_window_left(self, table_id: str, now_seconds: float) -> float:
        """How much longer the server holds back its answers in a step whose answers are unseen (0: none)."""
        if self.unseen_answers_left(table_id, now_seconds) is None:
            return 0.0
        table = self.table(table_id)
        assert table.unseen_since is not None
        return max(0.0, table.unseen_since + table.unseen_window - now_seconds)

    def answer_for_the_absent(self, table_id: str, now_seconds: float) -> bool:
        """Once a step whose answers are unseen has waited its time, a bot answers for each person who has
        not: a person away never stalls the table in another's turn. Nobody is told who it answered for."""
        left = self.unseen_answers_left(table_id, now_seconds)
        table = self.table(table_id)
        if left is None or left > 0 or table.tutorial:  # a lesson waits for its person, however long
            return False
        bot_name = timeout_bot(table.game)
        played = False
        for seat in table.state.to_act():
            if table.seats[seat].kind == "human" and table.state.answers_unseen():
                log.info("unseen answers: a %s bot answers for a person at table %s", bot_name, table_id)
                self._play_for(table, seat, bot_name)
                played = True
        return played

    def _commit_move(self, table: LiveTable, seat: int, text: str, new_state: Any) -> None:
        """Store the move (and the result, if it ends the game); only once that is committed does the table
        in memory change. A failed commit changes nothing anyone can see."""
        number = len(table.session.moves) + 1
        result = None
        if new_state.is_over():
            result = {"scores": new_state.scores(), "winners": new_state.winners()}
        move = {"table_id": table.id, "number": number, "seat": seat, "text": text, "created_at": now()}
        try:
            if result is None:  # one statement, its own transaction: one round trip (cluster.py)
                self.cluster.store_move(self._mover(), move)
            else:  # the last move and the result together
                with self.sessions() as db:
                    self.cluster.store_move(db.connection(), move)
                    row = db.get(TableRow, table.id)
                    assert row is not None
                    row.status, row.finished_at, row.result = FINISHED, now(), result
                    for finish in self.on_finish:
                        finish(db, table, result)
                    db.commit()
        except IntegrityError:  # move `number` is taken: another process stored it (the key serialises)
            raise StaleTable(table.id) from None
        except SQLAlchemyError as exc:
            self.health.failed(exc)  # one warning per outage, not a traceback per try
            self._drop_mover()
            raise Refused(503, "the move could not be saved, so it was not made: please try again") from None
        table.session.state = new_state
        table.session.moves.append([seat, text])
        if result is not None:
            table.status, table.result = FINISHED, result

    def _mover(self) -> Connection:
        if self.mover is None:
            with self.sessions() as db:  # the engine the sessions are bound to
                bind = db.get_bind()
            engine = bind if isinstance(bind, Engine) else bind.engine
            self.mover = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        return self.mover

    def _drop_mover(self) -> None:
        if self.mover is not None:
            mover, self.mover = self.mover, None
            with contextlib.suppress(SQLAlchemyError):  # a broken one has nothing to give back
                mover.close()

    def stop(self) -> None:
        """Give back the connection kept for moves (when the server stops)."""
        self._drop_mover()

    # --- what a seat sees ---------------------------------------------------------------------------

    def payload(self, table_id: str, seat: int | None) -> dict[str, Any]:
        """Everything a seat (None: a spectator) is sent: the table, its own view, its legal moves. No move
        counter: it would tick with the sealed moves of others (a bid built card by card)."""
        table = self.table(table_id)
        state = table.state
        view = state.view(seat)
        legal = []
        if seat is not None and table.status == PLAYING:
            legal = [str(a) for a in state.legal_actions(seat)]
        return {
            "type": "state",
            "table": {
                "id": table.id,
                "game": table.game,
                "title": table.session.game.title,
                "players": state.num_players,
                "status": table.status,
                "seats": [s.public(tutorials.lesson_levels(table.game, table.tutorial)) for s in table.seats],
                "waiting_for": table.waiting_for(),
                "result": table.result,
                "turn_seconds": table.turn_seconds,
                "clock": self._clock_shown(table, time.monotonic()),
                "total_seconds": table.total_seconds,
                "time_banks": self._banks_shown(table, time.monotonic()),
                "out_of_time": [s.seat for s in table.seats if table.out_of_time(s.seat)],
                "banks_running": sorted(table.clock_started or {}) if table.total_seconds else [],
                "timeouts": [{"seat": s} for s in table.timeouts],  # no move count: it ticks with sealed ones
                "hints": self.hints_allowed(table),
                "decision_deadline": self._decision_deadline(table, time.monotonic()),
                # the whole time such a step waits, for a page to say from the start (clock or none)
                "decision_seconds": None if table.tutorial else self.unseen_answer_seconds,
                "tutorial": table.tutorial,
                # the options it is played with: the page says in words those off the defaults
                "options": dict(table.session.options),
                "defaults": {k: d for k, (d, _) in table.session.game.options().items()},
            },
            "seat": seat,
            "view": view,
            # what the seat knows, as a digest: a hint holds while it is the same (no move counter above)
            "position": view_key(view) if seat is not None else None,
            "legal": legal,
            # the move that wrote each line of the log, numbered as the replay and the analysis number moves
            # (the lines past the list's end are unnumbered: see `log_numbers`)
            "log_moves": self.log_numbers(table, seat),
            # the seat is to act but the server answers for it (a sale offer for a card it does not hold, its
            # time bank spent): its page says it waits, not "your turn"; only the seat itself is told
            "answered_for_you": seat is not None and seat in table.answered_by_server(),
        }

    def log_numbers(self, table: LiveTable, seat: int | None) -> list[int]:
        """The move numbers of `seat`'s log lines: a finished game's all of them (its record is public); a
        game in play's as far as the seat could count the moves itself, never a count of moves it did not
        see (records.LogNumbers). Followed move by move, so worked out once per move."""
        if table.status == FINISHED:
            if seat not in table.log_moves:
                table.log_moves[seat] = records.log_moves(table.session.record(), seat)
            return table.log_moves[seat]
        session = table.session
        numbers = table.live_numbers
        if numbers is None or numbers.done > len(session.moves):  # new, or the moves were rebuilt
            numbers = table.live_numbers = records.LogNumbers(
                session.game.name, table.state.num_players, session.seed, session.options
            )
        numbers.follow(session.moves)
        return numbers.of(seat)

    def _decision_deadline(self, table: LiveTable, now_seconds: float) -> float | None:
        """Seconds left before the server answers, with a bot, for every person who has not answered a step
        whose answers are unseen (a sale offer, say): the same for every seat and spectator, so it says
        nothing of who holds what; None when no such step is open, and in a guided first game, which waits
        for its person."""
        if table.tutorial:
            return None
        left = self.unseen_answers_left(table.id, now_seconds)
        return None if left is None else round(max(0.0, left), 1)

    def _clock_shown(self, table: LiveTable, now_seconds: float) -> dict[str, float]:
        """The clock as every seat sees it: each person's turn clock or, in a step whose answers are unseen,
        the step's time left, the same for every person. A guided first game has no clock: a lesson is read
        at the person's own pace."""
        if table.tutorial:
            return {}
        unseen_left = self.unseen_answers_left(table.id, now_seconds)
        if unseen_left is not None:
            people = [s.seat for s in table.seats if s.kind == "human"]
            return {str(s): round(max(0.0, unseen_left), 1) for s in people}
        return {str(s): round(left, 1) for s, left in self.clock(table.id, now_seconds).items()}

    @staticmethod
    def _banks_shown(table: LiveTable, now_seconds: float) -> dict[str, float]:
        """What is left of every person's time bank for the game, as every seat sees it (the one on turn
        counting down); empty at a table without a total. Called after `_clock_shown`, which brings the
        turns' starts up to date."""
        if not table.total_seconds:
            return {}
        people = [s.seat for s in table.seats if s.kind == "human"]
        return {str(s): round(max(0.0, table.bank_left(s, now_seconds) or 0.0), 1) for s in people}

    def replay(self, table_id: str, upto: int, seat: int | None = None) -> dict[str, Any]:
        """A finished game after `upto` moves, as spectators saw it or, once it is over, as any seat saw it
        (its cards included: the whole record is public after the end)."""
        table = self.table(table_id)
        if table.status != FINISHED:
            raise Refused(409, "replays are for finished games")
        if seat is not None and not 0 <= seat < table.state.num_players:
            raise Refused(400, f"seat must be 0..{table.state.num_players - 1}, not {seat}")
        total = len(table.session.moves)
        upto = max(0, min(upto, total))
        key = (table_id, upto, seat)
        if key in self.replays:  # a finished game never changes: each step is worked out once
            self.replays.move_to_end(key)
            return self.replays[key]
        state = records.replay(table.session.record(), upto=upto)
        move = table.session.moves[upto - 1] if upto else None
        if table.round_starts is None:
            table.round_starts = round_starts(table.session.record())
        if seat not in table.log_moves:  # a finished game's lines never change: worked out once a seat
            table.log_moves[seat] = records.log_moves(table.session.record(), seat)
        view = state.view(seat)
        step = {
            "id": table.id,
            "game": table.game,
            "moves": total,
            "at": upto,
            "move": {"seat": move[0], "text": move[1]} if move else None,
            "rounds": table.round_starts,
            "seat": seat,
            "view": view,
            # the move that wrote each line of the log: its lines are numbered by move, as the replay is
            "log_moves": table.log_moves[seat][: len(view.get("log", []))],
        }
        self.replays[key] = step
        if len(self.replays) > REPLAY_CACHE:
            self.replays.popitem(last=False)
        return step

    def record(self, table_id: str) -> dict[str, Any]:
        table = self.table(table_id)
        if table.status != FINISHED:
            raise Refused(
                409, "the record of a game in progress holds sealed moves: it opens when the game ends"
            )
        return table.session.record()

    # --- analyses -------------------------------------------------------------------------------------

    def stored_analysis(self, table_id: str) -> list[dict[str, Any]] | None:
        """The decisions of the game's finished analysis, as stored; None if it was never completed."""
        with self.sessions() as db:
            row = db.get(AnalysisRow, table_id)
            return None if row is None else list(row.decisions)

    def store_analysis(self, table_id: str, decisions: list[dict[str, Any]]) -> None:
        """Keep a finished game's completed analysis with its record (once: another process that analysed
        the same record at the same time may have stored its own first)."""
        with self.sessions() as db:
            db.add(AnalysisRow(table_id=table_id, decisions=decisions))
            try:
                db.commit()
            except IntegrityError:  # stored already, by another process that analysed it at the same time
                db.rollback()


def holder_of(table: LiveTable, digest: str) -> int | None:
    """The seat whose token hashes to `digest`, as the copy in memory knows it."""
    for info in table.seats:
        if info.token_hash and secrets.compare_digest(info.token_hash, digest):
            return info.seat
    return None


def round_starts(record: records.Record) -> list[int]:
    """For a replay that jumps by round, and the analysis chart's round marks: the number of moves after
    which each round begins. Where the public view has a round number, when it changes, as the status line
    and the analysis' rounds (`analysis.round_of`) count them: a log may open a round only at its first
    public event (sealed bids are revealed after they are made), and the chart marked a round's start
    after its bids, so that a move the analysis said was in round 4 stood in the chart's round 3. Else
    where the round's first event (one marked "new_round", engine.EventLog) is in the log."""
    session = records.Session(record["game"], record["players"], record["seed"], record["options"])
    starts: list[int] = []
    seen, current = 0, None
    for count in range(len(record["moves"]) + 1):
        if count:
            session.apply(*record["moves"][count - 1])
        view = session.state.view(None)
        events = view["log"]
        if isinstance(view.get("round"), int):
            if view["round"] != current and not (view.get("phase") == "over" and current is not None):
                starts.append(count)
            current = view["round"]
        elif any("new_round" in event for event in events[seen:]):
            starts.append(count)
        seen = len(events)
    return starts
