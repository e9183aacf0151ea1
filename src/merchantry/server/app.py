"""The web platform: FastAPI routes, the live websocket and server-side bots.

    merchantry serve [--host 127.0.0.1] [--port 8000] [--database-url sqlite:///merchantry.db]

REST: /api/games, /api/tables (list, create), /api/tables/{id} (view, join, act, bot seat, replay, record).
Live: /ws/tables/{id} (the seat token in the X-Seat-Token header or a "token.<token>" subprotocol, never
in the address) sends each connection its own payload after every change and takes
{"type": "act", "action": "..."}; a refused action or an odd message is answered with its reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import importlib
import itertools
import json
import logging
import random
import re
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import orjson
from fastapi import FastAPI, Header, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, model_validator
from sqlalchemy.exc import SQLAlchemyError

from merchantry import bots, games
from merchantry.arena.statistics import wilson
from merchantry.bots.analysis import (
    MARKS,
    WORLDS,
    Decision,
    FollowedHints,
    analysis_recipe,
    analyze,
    hint,
    moments,
    position_key,
    summary,
)
from merchantry.bots.ismcts import SearchConfig, win_shares
from merchantry.engine import seat_label
from merchantry.i18n import PLATFORM_LOCALES, Translator, load_catalogue, without_clause_ids
from merchantry.package import LANGUAGES
from merchantry.server import tuning, tutorials
from merchantry.server import work as work_in_process
from merchantry.server.accounts import Accounts, AccountSettings, CsrfGuard
from merchantry.server.chat import TYPES as CHAT_TYPES
from merchantry.server.chat import Chat
from merchantry.server.cluster import SWEEP_SECONDS, Notice, cluster_for
from merchantry.server.db import Health, SingleProcess, brief, client_key, open_database
from merchantry.server.inputs import BodyLimit, Name, Text
from merchantry.server.limits import Limits, RateWindow, TokenBucket
from merchantry.server.lobby import Lobby
from merchantry.server.ratings import Ratings, bot_ratings, rate_finished_game
from merchantry.server.tables import (
    BOT_DELAY,
    SEATS_CHANGED,
    UNSEEN_ANSWER_SECONDS,
    UNSEEN_WINDOW_SECONDS,
    Refused,
    TableService,
    plays_by_itself,
)
from merchantry.server.turns import MAX_TOTAL_SECONDS, MAX_TURN_SECONDS, Turns, check_total
from merchantry.server.work import FairPool, Priority, decision_body, think_all

log = logging.getLogger("merchantry.server")
STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 2048  # bytes of one websocket message
# how uvicorn serves the websockets, for `merchantry serve` and the load benchmark alike:
# - a message over 64 KiB is refused by the server itself (close 1009), before it is read whole;
# - no per-message compression: updates are small JSON deltas, and compressing them took a fifth of the
#   event loop's time under load and a compressor per socket (benchmarks/results/load-server.txt)
WEBSOCKET_SETTINGS: dict[str, Any] = {"ws_max_size": 64 * 1024, "ws_per_message_deflate": False}
OUTBOX = 64  # messages waiting for one connection before it counts as not reading
SEND_TIMEOUT = 10.0  # seconds one message may take to be sent before the connection counts as not reading
CLOCK_TICK = 0.5  # seconds between looks at the turn clock
# a hint is worked out again where the seat's position changed meanwhile, at most this many times in all
# (bots bidding one after another); the last is sent, and the page says when it is for a position gone
HINT_ATTEMPTS = 3
DEFAULT_LIMITS = Limits()
UNAVAILABLE = "the database is not answering: nothing was changed; please try again in a moment"
Result = TypeVar("Result")
Token = Annotated[Text, Field(min_length=1, max_length=64)]


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"]
    bot: Annotated[Text, Field(max_length=32)] | None = None
    open: bool = False  # a person's seat anyone may take from the lobby (server/lobby.py)


class CreateTable(BaseModel):
    game: Annotated[Text, Field(max_length=32)]
    players: Annotated[int, Field(ge=1, le=10)]
    options: Annotated[
        dict[Annotated[Text, Field(max_length=32)], int | Annotated[Text, Field(max_length=64)]],
        Field(max_length=10),
    ] = {}
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=10)]
    name: Name = "Host"
    rated: bool = False  # accounts only, a clock, no hints (server/ratings.py)
    # 0: no turn clock; up to days a move for turn-based play (server/turns.py)
    turn_seconds: Annotated[int, Field(ge=0, le=MAX_TURN_SECONDS)] = 0
    # 0: none; else each person's time bank for the whole game, beside the clock per move
    total_seconds: Annotated[int, Field(ge=0, le=MAX_TOTAL_SECONDS)] = 0

    @model_validator(mode="after")
    def total_needs_a_clock(self) -> CreateTable:
        check_total(self.turn_seconds, self.total_seconds)
        return self


class Join(BaseModel):
    seat: Annotated[int, Field(ge=0, le=9)]
    invite: Token
    name: Name


class Act(BaseModel):
    action: Annotated[Text, Field(min_length=1, max_length=200)]


class HandToBot(BaseModel):
    host_token: Token
    bot: Annotated[Text, Field(max_length=32)] = "greedy"


class HostOnly(BaseModel):
    host_token: Token


class StartTutorial(BaseModel):
    name: Name = "Host"


class ActMessage(BaseModel):
    type: Literal["act"]
    action: Annotated[Text, Field(min_length=1, max_length=200)]


@dataclass(eq=False)
class Connection:
    """One live websocket at a table: who it speaks for (None: a spectator), the token that proves it, what
    it was last sent (it hears of a change only when its own payload changed), and its outbox.

    Messages go through the outbox, written by the connection's own task, so a reader that does not read
    never holds up a table: when its outbox is full it is dropped (it may reconnect and get the state)."""

    ws: WebSocket
    seat: int | None
    token: str | None
    last_sent: dict[str, Any] | None = None
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    dropped: bool = False
    writer: asyncio.Task[None] | None = None  # the task that sends the outbox, while connected
    client: str = ""  # the address it came from (limits.sockets_per_client)
    pace: TokenBucket = field(default_factory=lambda: TokenBucket(20.0, 40.0))  # messages it may send

    def becomes_spectator(self) -> None:
        self.seat, self.token, self.last_sent = None, None, None

    def post(self, message: dict[str, Any]) -> None:
        """Queue a message; a full outbox means the reader fell behind, and it is dropped."""
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            log.warning("dropped a connection that did not read its messages")

    async def write(self) -> None:
        """Send what is posted, in order, until the connection closes or is dropped."""
        try:
            while not self.dropped:
                message = await self.outbox.get()
                try:
                    text = encode_message(message)
                except orjson.JSONEncodeError as exc:  # a bug: said once, and the page told, not looping
                    log.error("a message could not be encoded (%s): the connection is closed", exc)
                    reason = "this table cannot be shown (a server error): it has been logged"
                    await self.ws.send_text(encode_message({"type": "error", "reason": reason}))
                    await self.ws.close(code=4500, reason="a server error")
                    self.dropped = True
                    return
                # a reader that takes longer than this for one message is not reading: drop it
                async with asyncio.timeout(SEND_TIMEOUT):
                    await self.ws.send_text(text)
        except Exception:  # a closed socket, or a send that timed out: this connection is over
            self.dropped = True

    async def close_dropped(self) -> None:
        """Free a dropped connection: stop its writer and close the socket (without waiting long)."""
        if self.writer is not None:
            self.writer.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code=1013), timeout=1)


@contextlib.asynccontextmanager
async def nothing() -> AsyncIterator[None]:
    yield


def encode_message(message: dict[str, Any]) -> str:
    """A websocket message as JSON text, by orjson: the standard library's encoder was a tenth of a busy
    server's time (keys that are not text, such as seat numbers, become text as json.dumps makes them)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Outage:
    """Background work that meets a database outage: how long to wait before trying again (doubling from
    0.5 s to 10 s). The outage itself is logged once for the whole process (db.Health), not per table or
    per try: with a thousand tables at work, one line each would bury the log."""

    def __init__(self, what: str, health: Health) -> None:
        self.what = what
        self.health = health
        self.failures = 0

    def failed(self, reason: str) -> float:
        self.failures += 1
        self.health.failed(reason)
        return float(min(10.0, 0.5 * 2 ** (self.failures - 1)))

    def over(self) -> None:
        self.failures = 0


def problem(error: dict[str, Any]) -> str:
    """One validation error as 'field: what is wrong'."""
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body") or "body"
    return f"{where}: {error.get('msg')}"


def without_clock(payload: dict[str, Any]) -> dict[str, Any]:
    """A payload less what changes by itself with time (the turn clock's, the time banks' and a decision
    deadline's seconds left): a message sent only because seconds went by would tell a seat that something
    happened its view does not show."""
    ticking = ("clock", "time_banks", "decision_deadline")
    return {**payload, "table": {k: v for k, v in payload["table"].items() if k not in ticking}}


def with_new_log_only(payload: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """The payload as a connection is sent it: its view's log holds only the entries the connection has
    not had yet, from index `log_from` on (a long game's log is not sent again with every move). The whole
    log (`log_from` 0) goes to a new connection, and whenever what it had is no longer where the log
    starts (a seat's view of the past can change: cards shown at the end)."""
    log = payload["view"].get("log")
    if not isinstance(log, list):
        return payload
    had = before["view"].get("log") if before is not None else None
    start = 0
    if isinstance(had, list) and len(had) <= len(log) and log[: len(had)] == had:
        start = len(had)
    return {**payload, "view": {**payload["view"], "log": log[start:]}, "log_from": start}


def catalogue_file(folder: Path, lang: str) -> FileResponse:
    """A translation catalogue; only the languages the platform speaks (no path tricks)."""
    if lang not in LANGUAGES or not (folder / f"{lang}.json").is_file():
        raise HTTPException(404, f"no catalogue for {lang!r}")
    return FileResponse(folder / f"{lang}.json", media_type="application/json")


RULES_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body>
<nav id="bar"><a class="brand" href="/">Merchantry</a><a href="/">{lobby}</a>{learn}\
<span class="spacer"></span><select id="lang" aria-label="Language">{languages}</select></nav>
<main class="rules-page">
{body}</main>
<script type="module" src="/static/rules.js"></script>
</body>
</html>
"""
LANGUAGE_NAMES = {
    "en": "English",
    "pt": "Português",
    "de": "Deutsch",
    "fr": "Français",
}  # as i18n.js names them


def rules_document(
    title: str,
    page: Path,
    learn: str | None = None,
    numbers: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
) -> str:
    """A game's rules page (a fragment in its folder, `rules/<lang>.html`) inside the platform's frame, its
    `<!-- numbers:NAME -->` places filled with the game's tables (package.rules_numbers); `learn`: the
    address of its guided first game, linked from the bar in the page's language; `labels`: each variant's
    name as the lobby's Options say it, in the page's language."""
    words = {**load_catalogue(PLATFORM_LOCALES, "en").get("ui", {})}
    words.update(load_catalogue(PLATFORM_LOCALES, page.stem).get("ui", {}))
    link = ""
    if learn is not None:
        link = f'<a href="{html.escape(learn)}">{html.escape(words["learnToPlay"])}</a>'
    body = name_variants(fill_numbers(page.read_text(encoding="utf-8"), numbers or {}), labels or {})
    # its picture says it is one: a screenshot of the board is not the board
    label = html.escape(words["rulesPicture"], quote=True)
    body = body.replace(
        '<figure class="rules-picture">', f'<figure class="rules-picture" data-label="{label}">'
    )
    languages = "".join(
        f'<option value="{code}"{" selected" if code == page.stem else ""}>{html.escape(name)}</option>'
        for code, name in LANGUAGE_NAMES.items()
        if code in LANGUAGES
    )
    return RULES_PAGE.format(
        lang=page.stem,
        title=html.escape(title),
        body=body,
        learn=link,
        lobby=html.escape(words["lobby"]),
        languages=languages,
    )


def name_variants(body: str, labels: dict[str, str]) -> str:
    """A variant's paragraph opens with its name as the lobby's Options label it ("Hand limit"), not its
    option's id (`hand_limit`), which a newcomer found nowhere on the create form; the id stays where it
    is typed (`--option hand_limit=N`)."""

    def named(match: re.Match[str]) -> str:
        label = labels.get(match.group(2))
        if not label:
            return match.group(0)
        return f"{match.group(1)}“{html.escape(label[:1].upper() + label[1:])}”"

    return VARIANT_OPENING.sub(named, body)


VARIANT_OPENING = re.compile(
    r'(<p class="variant" data-option="([\w-]+)">\s*<strong>[^<]*</strong>\s*)<code>\2</code>'
)
NUMBERS_PLACE = re.compile(r"<!--\s*numbers:([\w-]+)\s*-->")


def fill_numbers(body: str, numbers: dict[str, str]) -> str:
    def table(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in numbers:
            raise KeyError(f"the rules page asks for numbers {name!r}, which the game does not make")
        return numbers[name]

    return NUMBERS_PLACE.sub(table, body)


def rules_numbers(game: str, language: str) -> dict[str, str]:
    """The tables of the game's rules page, and its labelled picture (`<!-- numbers:picture -->`)."""
    made: dict[str, str] = {}
    module = games.package(game).rules_numbers
    if module:
        made.update(importlib.import_module(module).numbers(language))
    picture = rules_picture(game, language)
    if picture is not None:
        made["picture"] = picture
    return made


def board_picture(game: str, language: str) -> Path | None:
    """The game's board drawn in `language` (images/board-<language>.png), else in English; None without."""
    folder = games.package(game).folder / "images"
    for drawn_in in (language, "en"):
        if (folder / f"board-{drawn_in}.png").exists():
            return folder / f"board-{drawn_in}.png"
    return None


def rules_picture(game: str, language: str) -> str | None:
    """The game's board as a picture with numbered parts, drawn in the page's language (board_picture,
    made with its labels.json by tools/rules_pictures.py) and, under it, the list naming each numbered part
    in that language."""
    folder = games.package(game).folder / "images"
    board = board_picture(game, language)
    if not (folder / "labels.json").exists() or board is None:
        return None
    spec = json.loads((folder / "labels.json").read_text(encoding="utf-8"))

    def words(entry: dict[str, str]) -> str:
        return entry.get(language) or entry["en"]

    width, height = png_size(board)
    parts = "".join(f"<li>{html.escape(words(label))}</li>" for label in spec["labels"])
    caption = html.escape(words(spec["caption"]))
    named = "; ".join(f"{n}. {words(label)}" for n, label in enumerate(spec["labels"], 1))
    alt = html.escape(f"{words(spec['caption'])} {named}", quote=True)
    address = f"/games/{html.escape(game)}/images/{board.name}"
    # the picture is shrunk to the screen's width, whole (on a phone it was cut off at the right edge, its
    # rest scrolled out of sight); a link opens it at its full size, where its numbers read large
    full = html.escape(
        load_catalogue(PLATFORM_LOCALES, language).get("ui", {}).get("rulesPictureFull")
        or load_catalogue(PLATFORM_LOCALES, "en")["ui"]["rulesPictureFull"]
    )
    return (
        f'<figure class="rules-picture"><img src="{address}" alt="{alt}"'
        f' width="{width}" height="{height}" style="max-width:100%;height:auto">'
        f'<a class="rules-picture-full" href="{address}" target="_blank">{full}</a>'
        f'<figcaption>{caption}<ol class="rules-picture-parts">{parts}</ol></figcaption></figure>'
    )


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header (the page reserves the picture's place before it loads)."""
    header = path.read_bytes()[:24]
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def declared_options(game: str) -> dict[str, dict[str, Any]]:
    """A game's options as a form asks for them: the default, the one-line help (in words: without the rules
    spec's clause ids, which mean nothing in the lobby), the values accepted in words and, for a whole
    number, its bounds (the server refuses anything else with a 422)."""
    allowed = games.get(game).option_values()
    declared = {}
    for name, (default, help_text) in games.get(game).options().items():
        values = allowed.get(name)
        declared[name] = {
            "default": default,
            "help": without_clause_ids(help_text),
            "allowed": values.text if values else None,
            "low": values.low if values else None,
            "high": values.high if values else None,
        }
    return declared


def measured_levels(game: str) -> dict[str, dict[str, float]]:
    """Each bot level's measured strength (its win rate against three greedy bots, with its 95% interval:
    data/bot_ratings.json, made by benchmarks/bot_ratings.py), for the lobby to say what a level means."""
    measured = {}
    for bot, rating in bot_ratings(game).items():
        if "win_rate_vs_greedy" not in rating:
            continue
        rate, played = float(rating["win_rate_vs_greedy"]), int(rating["games"])
        low, high = wilson(rate * played, played)
        measured[bot] = {"win_rate": rate, "low": round(low, 3), "high": round(high, 3), "games": played}
    return measured


class ShuttingDown(Exception):
    """The server is stopping: an analysis in progress gives up."""


@dataclass
class Analysis:
    """A finished game's computer analysis, worked out in the background (merchantry.bots.analysis) and,
    once complete, stored with the game's record (db.AnalysisRow)."""

    total: int
    status: str = "queued"  # queued | running | done | failed
    done: int = 0
    # the decisions judged so far, as sent (work.decision_body): the page's chart fills in as they come
    decisions: list[dict[str, Any]] = field(default_factory=list)
    number: int = 0  # in a worker process: the job's number, by which it tells its progress (work.Progress)

    @classmethod
    def stored(cls, decisions: list[dict[str, Any]], total: int) -> Analysis | None:
        """A completed analysis as the database keeps it; None if its decisions no longer read as this
        version's (then it is worked out again)."""
        kept = cls(total=total, status="done", done=total, decisions=decisions)
        try:
            kept.judged()
        except (TypeError, KeyError):
            return None
        return kept

    def judged(self) -> list[Decision]:
        return decisions_of(self.decisions)

    def to_dict(self, result: list[float], taught: set[int] | None = None) -> dict[str, Any]:
        """As sent; `result`: each seat's share of the win at the game's end, where every seat's line of
        the chart ends and its last turning point may fall to (analysis.turning_points). `taught`: the
        moves a guided first game's lesson asked for, whose decisions are shown unmarked (`lesson_moves`)."""
        players = len(result)
        body: dict[str, Any] = {"status": self.status, "done": self.done, "total": self.total}
        body["decisions"] = [
            as_taught(d) if taught and taught.issuperset(d["moves"]) else d for d in self.decisions
        ]
        body["result"] = result
        if self.status == "done":
            judged = decisions_of(body["decisions"])
            # the lesson's moves are not judged: counted neither among the decisions nor in the mean loss
            # (issue 32, sixteenth pass: a mean loss of 0.4 was the lesson's two moves' alone)
            body["summary"] = summary([d for d in judged if not d.taught], players)
            body["moments"] = moments(judged, players, result)
            body["marks"] = {name: threshold for threshold, name in MARKS}
        return body


def decisions_of(bodies: list[dict[str, Any]]) -> list[Decision]:
    """Decisions as sent or stored (`work.decision_body`) read back: the fields a Decision has."""
    names = {f.name for f in fields(Decision)}
    return [Decision(**{k: v for k, v in d.items() if k in names}) for d in bodies]


def as_taught(decision: dict[str, Any]) -> dict[str, Any]:
    """A decision a lesson asked for, as sent: its chances kept (the chart's line), no mark."""
    return {**decision, "mark": None, "taught": True}


def bot_pool(threads: int, priority: Priority | None) -> FairPool:
    """The bots' thinking: in threads of the server by default; with a `priority`, in worker processes
    scheduled at it (work.Priority). Why the default is a thread: docs/web.md, "Limits"."""
    if priority is None:
        return FairPool("bot moves", threads)
    return FairPool("bot moves", threads, processes=True, priority=priority)


def create_app(
    database_url: str = "sqlite:///merchantry.db",
    bot_delay: float = BOT_DELAY,
    hint_search: SearchConfig | None = None,
    analysis_search: SearchConfig | None = None,
    limits: Limits = DEFAULT_LIMITS,
    tune_process: bool = False,
    unseen_answer_seconds: float = UNSEEN_ANSWER_SECONDS,
    unseen_window_seconds: float | None = None,
    cpu_processes: bool | None = None,
    bot_priority: Priority | None = None,
    accounts_settings: AccountSettings | None = None,
) -> FastAPI:
    """`hint_search` and `analysis_search` replace the analysis' search (tests make them quick); by default
    both are `analysis_recipe` (a share of the hard bot's iterations, no time cap), so a hinted move is the
    move the analysis of that position prefers.
    `tune_process`: the app is the process's own (`merchantry serve`), so it may tune the process's garbage
    collector and thread switching for many live tables (server/tuning.py). `unseen_answer_seconds`: how
    long a step whose answers are unseen waits for a person with a choice (tables.UNSEEN_ANSWER_SECONDS);
    `unseen_window_seconds`: how long it stays open at least at a table with people (default
    tables.UNSEEN_WINDOW_SECONDS, none when `bot_delay` is 0). `cpu_processes`: bots, hints and analyses
    think in worker processes of their own (server/work.py); by default when `tune_process`; the bots only
    with a `bot_priority` for their processes (else in a thread of the server).
    `accounts_settings`: the accounts' cookies, login limits and password hashing (server/accounts.py)."""
    health = Health()  # whether the database answers: one warning when an outage starts, one when it ends
    sessions = open_database(database_url, health)
    cluster = cluster_for(sessions.kw["bind"], database_url, health)  # other processes, same database
    if unseen_window_seconds is None:
        unseen_window_seconds = UNSEEN_WINDOW_SECONDS if bot_delay > 0 else 0.0
    service = TableService(sessions, cluster, unseen_answer_seconds, unseen_window_seconds, health)
    single = SingleProcess(database_url)
    creations = RateWindow(limits.tables_per_minute)
    joins = RateWindow(limits.joins_per_minute)
    hinting: set[str] = set()  # tables with a hint being worked out: one at a time per table
    # each seat's last hinted move, step by step (per process: asked of another, a hint is searched anew)
    followed = FollowedHints()
    # CPU work, each kind in threads of its own, taken in turns by client (server/work.py)
    # a server owning its process thinks in worker processes (work.in_processes); tests in threads
    processes = tune_process if cpu_processes is None else cpu_processes
    # bounded already: one move per table at a time
    thinking = bot_pool(limits.bot_threads, bot_priority if processes else None)
    hints = FairPool(
        "hints",
        limits.hint_threads,
        limits.hints_per_client,
        limits.hint_queue,
        processes=processes,
        one="a hint",
    )
    analyst = FairPool(
        "analyses",
        limits.analysis_threads,
        limits.analyses_per_client,
        limits.analysis_queue,
        processes=processes,
        one="an analysis",
    )
    analysis_numbers = itertools.count(1)  # each analysis in a worker process, for its progress
    analysing: dict[int, Analysis] = {}  # the analyses in worker processes, by number, until they end
    if not limits.enabled:
        hints.per_client = hints.queue = analyst.per_client = analyst.queue = 1 << 30
    # the analyses queued or running, and the latest `limits.analyses_kept` finished (all are stored)
    analyses: OrderedDict[str, Analysis] = OrderedDict()
    analysis_jobs: dict[str, Any] = {}  # table id -> its analysis's place in the pool, until it ends
    # every call of the service (the database and the tables in memory) runs in this one thread: the event
    # loop goes on accepting connections and sending while a commit waits for the disk, and the service
    # stays single-threaded as it was written
    database = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database")
    stopping = threading.Event()
    locks: dict[str, asyncio.Lock] = {}
    # held from counting a creator's tables at their bots' pace to storing the one that takes a share, so
    # two requests at once cannot both take the last share
    share_lock = asyncio.Lock()
    rooms: dict[str, set[Connection]] = {}  # live connections per table
    closing: set[asyncio.Task[None]] = set()  # background tasks (closes, change notices), kept until done
    runners: dict[str, asyncio.Task[None]] = {}
    clocks: dict[str, asyncio.Task[None]] = {}

    async def lock_for(table_id: str) -> asyncio.Lock:
        """The table's lock, made only once the table is known to exist (a 404 otherwise): a flood of
        requests for tables that do not exist leaves nothing behind. Dropped when the table leaves memory."""
        lock = locks.get(table_id)
        if lock is None:
            if table_id not in service.live:
                await db(service.table, table_id)  # Refused(404) for no such table
            lock = locks.setdefault(table_id, asyncio.Lock())
        return lock

    async def db(work: Callable[..., Result], *args: Any) -> Result:
        """`work(*args)` in the database thread (see `database`), without holding up the event loop."""
        return await asyncio.get_running_loop().run_in_executor(database, partial(work, *args))

    def post_if_changed(conn: Connection, payload: dict[str, Any]) -> None:
        """Post a connection its payload if that differs from what it last got: a seat must not learn that
        something happened which its view does not show (another seat adding a card to a sealed bid)."""
        compared = without_clock(payload)
        if compared == conn.last_sent:
            return
        before, conn.last_sent = conn.last_sent, compared
        conn.post(with_new_log_only(payload, before))

    def payloads_for(table_id: str, seats: set[int | None]) -> dict[int | None, dict[str, Any]]:
        return {seat: service.payload(table_id, seat) for seat in seats}

    async def broadcast(table_id: str) -> None:
        """Post every connection at the table its own seat's payload, where it changed; never waits for a
        connection to read (see Connection)."""
        room = rooms.get(table_id, set())
        payloads = await db(payloads_for, table_id, {conn.seat for conn in room})
        for conn in list(room):
            if not conn.dropped and conn.seat in payloads:
                post_if_changed(conn, payloads[conn.seat])
            if conn.dropped:  # it did not read: let it go (its own handler closes it)
                room.discard(conn)
                keep(asyncio.create_task(conn.close_dropped()))

    def keep(task: asyncio.Task[None]) -> None:
        """Hold a background task until it is done (the loop keeps only a weak reference)."""
        closing.add(task)
        task.add_done_callback(closing.discard)

    def lesson_moves(table_id: str) -> set[int]:
        """At a guided first game, the numbers of the person's moves its lesson asked for."""
        table = service.table(table_id)
        if not table.tutorial or not tutorials.has_tutorial(table.game):
            return set()
        return tutorials.taught_moves(tutorials.tutorial(table.game), table.session.moves)

    def result_at(table_id: str) -> list[float]:
        """Each seat's share of the win in a finished game (the winners share it)."""
        state = service.table(table_id).state
        return win_shares(state.winners(), state.num_players)

    async def revoke(table_id: str, seat: int) -> None:
        """A seat handed to a bot: its former holder's open connections turn into spectators, told why."""
        lesson = await db(lambda: service.table(table_id).tutorial)
        for conn in list(rooms.get(table_id, set())):
            if conn.seat != seat:
                continue
            conn.becomes_spectator()
            reason = f"the host gave seat {seat_label(seat)} to a bot: you are now watching as a spectator"
            conn.post({"type": "revoked", "seat": seat, "reason": reason, "to_bot": True, "tutorial": lesson})

    async def through_outages(table_id: str, outage: Outage, work: Callable[[], bool]) -> bool:
        """`work()` under the table's lock; False after a database outage (having waited before the next
        try, longer each time)."""
        try:
            async with await lock_for(table_id):
                result = await db(work)
        except Refused as exc:
            if exc.status != 503:
                raise
            await asyncio.sleep(outage.failed(exc.reason))
            return False
        except SQLAlchemyError as exc:  # the table could not be read back (it had left memory)
            await asyncio.sleep(outage.failed(brief(exc)))
            return False
        outage.over()
        return result

    async def run_bots(table_id: str) -> None:
        """Bots play whole moves, each published at once after a pause that does not depend on what they
        hold or think (LiveTable.publishing_pause); in a step whose answers are unseen, every answer the
        server gives is published together, and people who have not answered in time are answered for.
        A move the database could not store is tried again after a growing pause (0.5 s up to 10 s): bots
        outlive an outage."""
        loop = asyncio.get_running_loop()
        outage = Outage(f"bots at table {table_id}", health)
        try:
            while True:
                try:
                    if not await db(server_has_work, table_id):
                        break
                    began = loop.time()
                    async with await lock_for(table_id):
                        turns = await db(service.next_bot_turns, table_id)
                    if not turns:  # people still to answer a step whose answers are unseen
                        left = await db(service.unseen_answers_left, table_id, time.monotonic())
                        if left is None:
                            break
                        if left > 0:
                            await asyncio.sleep(min(left, CLOCK_TICK))
                            continue
                        work = partial(service.answer_for_the_absent, table_id, time.monotonic())
                        if await through_outages(table_id, outage, work):
                            await broadcast(table_id)
                        continue
                    # a search bot thinks for up to seconds: in the bots' threads, in turn with other
                    # creators' tables (work.py): the server goes on serving, no client's bots crowd out
                    # another's
                    moves = await thinking.run(await db(creator_of, table_id), think_all, turns)
                    pause = await db(publishing_pause, table_id, loop.time() - began)
                    window = await db(service.unseen_window_left, table_id, time.monotonic())
                    await asyncio.sleep(max(0.0, pause - (loop.time() - began), window))
                    moved = await through_outages(
                        table_id, outage, partial(service.play_bot_turns, table_id, turns, moves)
                    )
                    if moved:
                        await broadcast(table_id)
                except SQLAlchemyError as exc:  # the table could not be read: wait, as for a move
                    await asyncio.sleep(outage.failed(brief(exc)))
        except Refused as exc:  # not the database: a move the rules refuse is a bug, said once
            log.error("bots at table %s stopped: %s", table_id, exc.reason)
        finally:
            runners.pop(table_id, None)
            await release_if_over(table_id)

    def creator_of(table_id: str) -> str:
        return service.table(table_id).creator or "unknown"

    def server_has_work(table_id: str) -> bool:
        return service.table(table_id).server_has_work()

    def publishing_pause(table_id: str, thought: float) -> float:
        return service.table(table_id).publishing_pause(bot_delay, thought)

    async def owns(table_id: str) -> bool:
        """This process runs the table's bots and clock (with several processes, one owns each table)."""
        return not cluster.several or await db(cluster.claim, table_id)

    async def kick_bots(table_id: str) -> None:
        if table_id in runners or not await db(server_has_work, table_id) or not await owns(table_id):
            return
        if table_id not in runners:  # (another kick may have started them while this one waited)
            runners[table_id] = asyncio.create_task(run_bots(table_id))

    async def release_if_over(table_id: str) -> None:
        """A table no longer played needs no owner: let another process's sweep not find it either."""
        with contextlib.suppress(Exception):
            if cluster.several and await db(status_of, table_id) != "playing":
                await db(cluster.release, table_id)

    def status_of(table_id: str) -> str:
        return service.table(table_id).status

    async def watch_clock(table_id: str) -> None:
        """The optional turn clock: a bot plays the turn of a person whose time ran out. It runs while the
        game is played (not while a table waits for its players) and outlives a database outage."""
        outage = Outage(f"the turn clock at table {table_id}", health)
        try:
            while True:
                try:
                    if await db(status_of, table_id) != "playing":
                        break
                    await asyncio.sleep(CLOCK_TICK)
                    played = await through_outages(
                        table_id, outage, lambda: service.play_timed_out_turns(table_id, time.monotonic())
                    )
                    if played:
                        await broadcast(table_id)
                        await kick_bots(table_id)
                except SQLAlchemyError as exc:
                    await asyncio.sleep(outage.failed(brief(exc)))
        finally:
            clocks.pop(table_id, None)
            await release_if_over(table_id)

    async def forget_idle_tables() -> None:
        """Every minute, tables nobody watches or plays leave memory (finished games above all)."""
        while True:
            await asyncio.sleep(60)
            busy = {tid for tid, conns in rooms.items() if conns} | set(runners) | set(clocks)
            for table_id in await db(service.forget_idle, busy, limits.idle_minutes * 60):
                forget_lock(table_id)

    def forget_lock(table_id: str) -> None:
        lock = locks.get(table_id)
        if lock is not None and not lock.locked():
            del locks[table_id]
        if not rooms.get(table_id, True):
            del rooms[table_id]

    def client_of(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "unknown"

    async def check_bot_share(creator: str) -> None:
        """Refuse (429) one more table at its bots' pace (tables.plays_by_itself: bots only, or people on a
        short clock) for a creator who has their share playing, or when the server has all it takes."""
        if not limits.enabled:
            return
        if await db(service.tables_playing_by_themselves, creator) >= limits.bot_games_per_client:
            most = limits.bot_games_per_client
            raise Refused(
                429,
                f"your address already has {most} games playing at their bots' pace (bots only, or people "
                "on a short turn clock): wait for one to end",
            )
        if await db(service.tables_playing_by_themselves) >= limits.bot_games:
            raise Refused(
                429, "the server is playing as many games at their bots' pace as it takes: try again later"
            )

    async def check_creation(request: Request, body: CreateTable) -> str:
        """Refuse (429) a table over the client's limits; returns the client's key (db.client_key)."""
        creator = client_key(client_of(request))
        if not limits.enabled:
            return creator
        if not creations.allow(creator):
            raise Refused(
                429, f"too many tables created from your address: at most {limits.tables_per_minute} a minute"
            )
        return creator

    async def check_creation_share(creator: str, body: CreateTable) -> None:
        kinds = [spec.kind for spec in body.seats]
        if plays_by_itself(kinds, body.turn_seconds) and kinds.count("human") <= 1:  # it starts at once
            await check_bot_share(creator)

    async def after_change(table_id: str, clock: bool = True) -> None:
        """What follows a stored change: connections told, bots and the clock started. The change is
        stored, so an outage now must not make its request look refused (a seat joined would be lost):
        what fails here is done when the database is back (the bots' and clocks' retries, the next notice)."""
        try:
            await broadcast(table_id)
            await kick_bots(table_id)
            if clock:  # the clock starts when the game does (the last seat taken)
                await start_clock(table_id)
        except SQLAlchemyError as exc:
            health.failed(exc)

    def share_needed(table_id: str, joining: int | None = None, to_bot: int | None = None) -> str | None:
        """The creator whose share of tables at their bots' pace this change would take (a seat joined or
        given to a bot making the table start, or play, at its bots' pace); None if it takes none."""
        table = service.table(table_id)
        if table.plays_by_itself() and table.status == "playing":
            return None  # counted already
        kinds = [s.kind for s in table.seats]
        seated = [s.kind == "bot" or s.joined or s.seat == joining for s in table.seats]
        if to_bot is not None and 0 <= to_bot < len(kinds):
            kinds[to_bot], seated[to_bot] = "bot", True
        starts = table.status == "playing" or (table.status == "waiting" and all(seated))
        return (table.creator or "unknown") if starts and plays_by_itself(kinds, table.turn_seconds) else None

    def needs_clock(table_id: str) -> bool:
        table = service.table(table_id)
        return bool(table.turn_seconds) and table.status == "playing"

    async def start_clock(table_id: str) -> None:
        if table_id in clocks or not await db(needs_clock, table_id) or not await owns(table_id):
            return
        if table_id not in clocks:
            clocks[table_id] = asyncio.create_task(watch_clock(table_id))

    async def heard(notice: Notice) -> None:
        """Another process changed a table: connections here see it; bots and clock go on if owned here."""
        table_id = notice.table_id
        try:
            if await db(service.catch_up, table_id, notice.moves, notice.move):
                await broadcast(table_id)
        except (SQLAlchemyError, Refused) as exc:  # it is read again when next asked for
            if isinstance(exc, SQLAlchemyError):
                health.failed(exc)
            return
        if table_id in cluster.owned:
            await kick_bots(table_id)
            await start_clock(table_id)

    async def catch_up_everything() -> None:
        """Notices were missed (the database was away): every table held here is read again, and its
        connections are told what changed meanwhile."""
        for table_id in list(service.live):
            with contextlib.suppress(Exception):
                await heard(Notice(table_id, SEATS_CHANGED))

    async def take_over_orphans() -> None:
        """Tables whose owning process died get a new owner here (their bots and clock go on)."""
        outage = Outage("looking for tables without an owner", health)
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                taken = await db(cluster.orphans)
            except Exception as exc:  # the database is away: look again later
                await asyncio.sleep(outage.failed(str(exc)))
                continue
            outage.over()
            for table_id in taken:
                log.info("took over the bots and clock of table %s", table_id)
                await db(service.catch_up, table_id, SEATS_CHANGED)  # rebuilt from the database
                await kick_bots(table_id)
                await start_clock(table_id)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        single.acquire()  # refuses to start beside another server on the same SQLite file
        for table_id in await db(service.playing_table_ids):  # a restarted server resumes bots and clocks
            await kick_bots(table_id)
            await start_clock(table_id)
        sweeper = asyncio.create_task(forget_idle_tables())
        background = [sweeper]
        settings_before = None
        if tune_process:
            settings_before = tuning.tune()
            background.append(asyncio.create_task(tuning.collect_fully()))
        if cluster.several:
            loop = asyncio.get_running_loop()

            def on_notice(notice: Notice) -> None:  # in the listening thread
                loop.call_soon_threadsafe(lambda: keep(asyncio.create_task(heard(notice))))

            def on_missed() -> None:  # in the listening thread, when it listens again after an outage
                loop.call_soon_threadsafe(lambda: keep(asyncio.create_task(catch_up_everything())))

            cluster.listen(on_notice, on_missed)
            chat.start(keep)  # the other processes' chat messages
            background.append(asyncio.create_task(take_over_orphans()))
        yield
        for task in background:
            task.cancel()
        for task in [*runners.values(), *clocks.values()]:
            task.cancel()
        stopping.set()  # an analysis in progress stops at its next move
        chat.stop()
        single.release()
        for pool in (analyst, hints, thinking):
            pool.shutdown()
        await db(cluster.stop)  # its locks go: the other processes take its tables over
        await db(service.stop)
        database.shutdown(wait=True)
        if settings_before is not None:
            tuning.restore(settings_before)

    app = FastAPI(title="Merchantry", lifespan=lifespan)
    app.add_middleware(BodyLimit)  # a huge body is refused before it is read
    app.add_middleware(CsrfGuard)  # a change made with the session cookie needs its CSRF token
    accounts = Accounts(
        sessions, db, service.seat_for_token, accounts_settings or AccountSettings(), limits.enabled
    )
    app.include_router(accounts.router())
    ratings = Ratings(sessions, db)
    service.on_finish.append(rate_finished_game)
    app.include_router(ratings.router())
    app.include_router(Turns(db, accounts, service).router())
    lobby = Lobby(db, accounts, lambda *args: seat_person(*args))  # (defined with the routes below)
    app.include_router(lobby.router())
    chat = Chat(
        sessions,
        db,
        rooms,
        lambda table_id, conn: holds_its_seat(table_id, conn),  # (defined with the socket's handler below)
        lambda table_id: [s.name for s in service.table(table_id).seats],
        database_url,
        cluster.several,
        health,
    )
    app.state.service = service
    # a service call from outside the server (tests, tools), in the database thread: one at a time with
    # the server's own, never beside them
    app.state.in_database = lambda work, *args: database.submit(work, *args).result()
    app.state.rooms = rooms
    app.state.locks = locks
    app.state.analyses = analyses
    app.state.runners = runners
    app.state.clocks = clocks

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """A malformed request: what is wrong, field by field, without echoing the input back (it may not
        even be encodable, e.g. a lone surrogate)."""
        problems = [problem(error) for error in exc.errors()]
        return JSONResponse({"error": "; ".join(problems), "detail": problems}, status_code=422)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(SQLAlchemyError)
    async def database_away(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        """The database did not answer: 503, said once in the log per outage (db.Health), not a 500 with
        a traceback per request."""
        health.failed(exc)
        return JSONResponse({"error": UNAVAILABLE}, status_code=503, headers={"Retry-After": "2"})

    # --- pages --------------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    @app.get("/table/{table_id}", include_in_schema=False)
    @app.get("/replay/{table_id}", include_in_schema=False)
    @app.get("/learn/{game}", include_in_schema=False)
    @app.get("/account", include_in_schema=False)
    @app.get("/player/{name}", include_in_schema=False)
    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def page(table_id: str | None = None, game: str | None = None, name: str = "") -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)  # asked for by browsers on any page without a link
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules(game: str, lang: str = "en") -> HTMLResponse:
        page = games.package(game).rules_page(lang) if game in games.names() else None
        if page is None:
            raise HTTPException(404, f"no rules page for {game!r}")
        learn = f"/learn/{game}" if tutorials.has_tutorial(game) else None
        numbers = rules_numbers(game, page.stem)
        tr = Translator(game, page.stem)
        labels = {name: tr.option(name) for name in games.get(game).variants()}
        return HTMLResponse(rules_document(tr.ui("gameTitle"), page, learn, numbers, labels))

    @app.get("/locales/{lang}.json", include_in_schema=False)
    async def platform_catalogue(lang: str) -> FileResponse:
        return catalogue_file(PLATFORM_LOCALES, lang)

    @app.get("/games/{game}/locales/{lang}.json", include_in_schema=False)
    async def game_catalogue(game: str, lang: str) -> FileResponse:
        if game not in games.names():
            raise HTTPException(404, f"no game {game!r}")
        return catalogue_file(games.package(game).folder / "locales", lang)

    for name in games.names():  # each game's drawing (ES module + CSS) is served from its own package,
        for part in ("static", "data", "images"):  # its public component data (cards, maps), pictures
            folder = games.package(name).folder / part
            if folder.is_dir():
                app.mount(f"/games/{name}/{part}", StaticFiles(directory=folder), name=f"{part}-{name}")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- API ----------------------------------------------------------------------------------------

    def asset_url(game: str, file: str) -> str | None:
        return f"/games/{game}/static/{file}" if games.package(game).file("static", file) else None

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return [
            {
                "name": name,
                "title": games.get(name).title,
                # in each language, from the game's catalogue (a subtitle is translated)
                "titles": {lang: Translator(name, lang).ui("gameTitle") for lang in LANGUAGES},
                "min_players": games.get(name).min_players,
                "max_players": games.get(name).max_players,
                "options": declared_options(name),
                "bots": bots.names(name),
                "levels": measured_levels(name),
                "rules": f"/rules/{name}" if games.package(name).rules_page("en") else None,
                "drawing": asset_url(name, "drawing.js"),
                "style": asset_url(name, "drawing.css"),
                "tutorial": tutorials.has_tutorial(name),
            }
            for name in games.names()
        ]

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        return await db(service.tables)

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        creator = await check_creation(request, body)
        account = await accounts.current(request)  # a logged-in host plays under the account's name
        name = account.name if account is not None else body.name
        bots_at = [spec.bot for spec in body.seats if spec.kind == "bot"]
        ratings.check_create(body.game, body.rated, body.turn_seconds, bots_at, account)
        seats = [spec.model_dump(exclude={"open"}) for spec in body.seats]
        options, turn_seconds = dict(body.options), body.turn_seconds
        async with share_lock if plays_by_itself([s.kind for s in body.seats], turn_seconds) else nothing():
            await check_creation_share(creator, body)
            created = await db(
                service.create,
                body.game,
                body.players,
                options,
                seats,
                name,
                turn_seconds,
                creator,
                None,
                body.total_seconds,
            )
        await accounts.link(account, created["id"], created["seat"])
        await ratings.terms(created["id"], body.rated)
        await lobby.open_seats(created, [spec.kind == "human" and spec.open for spec in body.seats])
        await after_change(created["id"])
        return created

    def tutorial_of(game: str) -> dict[str, Any]:
        if not tutorials.has_tutorial(game):
            raise Refused(404, f"no guided first game for {game!r}")
        return tutorials.tutorial(game)

    @app.get("/api/tutorials/{game}")
    async def tutorial_script(game: str) -> dict[str, Any]:
        """A game's guided first game: its steps, for the page's tutorial runner (static/tutorial.js)."""
        return tutorial_of(game)

    @app.post("/api/tutorials/{game}", status_code=201)
    async def start_tutorial(request: Request, game: str, body: StartTutorial) -> dict[str, Any]:
        """A new table of the game's guided first game: its fixed deal, the person in the first seat and
        the tutorial's bots in the others (as `POST /api/tables` answers)."""
        lesson = tutorials.lesson_table(game, tutorial_of(game))
        spec = CreateTable.model_validate(
            {"game": game, "players": lesson["players"], "seats": lesson["seats"], "name": body.name}
        )
        await check_creation(request, spec)  # the same limit on tables created a minute
        created = await db(
            partial(service.create, game, name=body.name, creator=client_key(client_of(request)), **lesson)
        )
        await after_change(created["id"])
        return created

    @app.get("/api/tables/{table_id}")
    async def table_view(
        table_id: str, x_seat_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        seat = await db(service.seat_for_token, table_id, x_seat_token)
        return await db(service.payload, table_id, seat)

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: Join) -> dict[str, Any]:
        return await seat_person(request, table_id, body.seat, body.invite, body.name)

    async def seat_person(
        request: Request, table_id: str, seat: int, invite: str, typed: str
    ) -> dict[str, Any]:
        """A person takes a seat with its invite (an invite link, or the lobby's open seat)."""
        if limits.enabled and not joins.allow(client_of(request)):
            raise Refused(
                429, f"too many seats taken from your address: at most {limits.joins_per_minute} a minute"
            )
        account = await accounts.current(request)  # a logged-in player sits under the account's name
        name = account.name if account is not None else typed
        await ratings.check_seat(table_id, account)
        async with await lock_for(table_id):
            if (creator := await db(share_needed, table_id, seat)) is not None:
                async with share_lock:
                    await check_bot_share(creator)
                    token = await db(service.join, table_id, seat, invite, name)
            else:
                token = await db(service.join, table_id, seat, invite, name)
        await accounts.link(account, table_id, seat)
        await after_change(table_id)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/act")
    async def act(table_id: str, body: Act, x_seat_token: Annotated[str, Header()]) -> dict[str, Any]:
        # the token is checked under the lock: a seat handed over stays so
        async with await lock_for(table_id):
            seat = await db(service.seat_for_token, table_id, x_seat_token)
            if seat is None:
                raise Refused(403, "spectators cannot act")
            await db(service.act, table_id, seat, body.action)
        await after_change(table_id, clock=False)
        return await db(service.payload, table_id, seat)

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def seat_to_bot(table_id: str, seat: int, body: HandToBot) -> dict[str, Any]:
        async with await lock_for(table_id):
            await db(service.check_host, table_id, body.host_token)
            if (creator := await db(share_needed, table_id, None, seat)) is not None:
                async with share_lock:
                    await check_bot_share(creator)
                    await db(service.hand_to_bot, table_id, body.host_token, seat, body.bot)
            else:
                await db(service.hand_to_bot, table_id, body.host_token, seat, body.bot)
            await revoke(table_id, seat)
        await after_change(table_id)  # the seat may have been the last one the game waited for
        return await db(service.payload, table_id, None)

    @app.post("/api/tables/{table_id}/close")
    async def close_table(table_id: str, body: HostOnly) -> dict[str, Any]:
        async with await lock_for(table_id):
            await db(service.close, table_id, body.host_token)
        await after_change(table_id)
        return await db(service.payload, table_id, None)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        table_id: str,
        upto: Annotated[int, Query(ge=0, le=100_000)] = 0,
        seat: Annotated[int | None, Query(ge=0, le=16)] = None,
    ) -> dict[str, Any]:
        return await db(service.replay, table_id, upto, seat)

    @app.post("/api/tables/{table_id}/hint")
    async def ask_hint(
        request: Request, table_id: str, x_seat_token: Annotated[str, Header()]
    ) -> dict[str, Any]:
        """What the hard bot would play for the asking seat, from that seat's sampled worlds only; worked
        out in the hints' threads, in turn with other clients' (429 over the client's share or the queue).
        The hint is for the position as the seat knows it when the answer is sent: where another seat acted
        meanwhile (a sealed bid changes no log line, yet what the seat knows), it is worked out again, so
        that a person following it plays the move the analysis judges from that position."""
        seat, position, taught, moves = await hint_position_of(table_id, x_seat_token)
        if not taught and (rest := followed.next_of((table_id, seat), position, seat, moves)) is not None:
            return dict(rest.to_dict())  # the hinted move being followed: its next steps, not a new search
        if table_id in hinting:
            raise Refused(429, "a hint is already being worked out at this table: wait for it")
        hinting.add(table_id)
        try:
            game = (await db(service.table, table_id)).game
            config = hint_search or analysis_recipe(game)
            client = client_key(client_of(request))
            for _ in range(HINT_ATTEMPTS):
                advice = await hints.run(
                    client, hint, position, seat, game, random.Random(), config, WORLDS, taught
                )
                seat, position, taught, moves = await hint_position_of(table_id, x_seat_token)
                if position_key(position, seat) == advice.position:
                    followed.remember((table_id, seat), advice, len(moves))
                    break
        finally:
            hinting.discard(table_id)
        return dict(advice.to_dict())

    async def hint_position_of(table_id: str, token: str) -> tuple[int, Any, list[str] | None, list[Any]]:
        """The asking seat, a copy of its position, the moves a lesson's step asks of it there, and the game's
        moves so far (409 once it is no longer to act)."""
        async with await lock_for(table_id):
            seat = await db(service.seat_for_token, table_id, token)
            if seat is None:
                raise Refused(403, "spectators get no hints")
            position = await db(service.hint_position, table_id, seat)
            taught = await db(service.lesson_asks, table_id, seat)
            moves = await db(service.moves_so_far, table_id)
        return seat, position, taught, moves

    async def analysis_of(table_id: str, client: str) -> Analysis:
        """The game's analysis: in memory, or stored, or else queued now (429 over the limits)."""
        record = await db(service.record, table_id)  # 409 until the game is over
        if table_id in analyses or await analysis_stored(table_id, len(record["moves"])):
            return analyses[table_id]
        analyst.check(client)  # 429 over the client's share or the server's queue (work.py)
        job = analyses[table_id] = Analysis(total=len(record["moves"]))
        config = analysis_search or analysis_recipe(record["game"])
        queue_analysis(table_id, client, job, record, config)
        return job

    async def analysis_stored(table_id: str, total: int) -> bool:
        """Whether the database has the game's completed analysis (then it is held in memory too)."""
        stored = await db(service.stored_analysis, table_id)
        kept = None if stored is None else Analysis.stored(stored, total)
        if kept is not None and table_id not in analyses:  # (unless a request meanwhile queued one)
            analyses[table_id] = kept
            forget_old_analyses()
        return table_id in analyses

    def queue_analysis(table_id: str, client: str, job: Analysis, record: Any, config: Any) -> None:
        """An analysis waits its turn in the analyses' pool (work.py), in a worker process when the server
        owns its process; each decision is added to it as soon as it is judged."""
        if analyst.processes:
            job.number = next(analysis_numbers)
            analysing[job.number] = job
            queued = analyst.submit(client, work_in_process.analyse, job.number, record, config)
        else:
            queued = analyst.submit(client, partial(analyse_in_thread, job, record, config))
        analysis_jobs[table_id] = queued
        queued.done.add_done_callback(partial(analysed, table_id, job))
        forget_old_analyses()

    def analyse_in_thread(job: Analysis, record: Any, config: Any) -> list[dict[str, Any]]:
        job.status = "running"

        def progressed(done: int, _total: int) -> None:
            if stopping.is_set():
                raise ShuttingDown
            job.done = done

        for decision in analyze(record, config, progress=progressed):
            job.decisions.append(decision_body(decision))
        return list(job.decisions)

    def forget_old_analyses() -> None:
        """Only the latest `limits.analyses_kept` finished analyses stay in memory, the oldest leaving
        first: they are stored, and read again when asked for."""
        finished = [tid for tid, job in analyses.items() if job.status in ("done", "failed")]
        for old in finished[: max(0, len(finished) - limits.analyses_kept)]:
            del analyses[old]

    def analysed(table_id: str, job: Analysis, done: asyncio.Future[Any]) -> None:
        """An analysis ended: stored if complete, else marked failed (and the reason logged)."""
        analysis_jobs.pop(table_id, None)
        told_progress()
        analysing.pop(job.number, None)
        error = None if done.cancelled() else done.exception()
        if done.cancelled() or error is not None:
            if error is not None and not isinstance(error, ShuttingDown) and not stopping.is_set():
                log.error("the analysis of table %s failed: %s", table_id, brief(error))
            job.status = "failed"
            return
        job.decisions, job.done, job.status = done.result(), job.total, "done"
        keep(asyncio.create_task(store_analysis(table_id, job)))
        forget_old_analyses()

    async def store_analysis(table_id: str, job: Analysis) -> None:
        try:
            await db(service.store_analysis, table_id, job.decisions)
        except SQLAlchemyError:  # an outage (logged once by Health): it is kept in memory meanwhile
            log.info("the analysis of table %s is not stored: the database is away", table_id)

    def told_progress() -> None:
        """What the worker processes have told of their analyses since last asked: their decisions."""
        if analyst.progress is None:
            return
        for number, decision in analyst.progress.drain():
            job = analysing.get(number)
            if job is not None and job.status != "done":
                job.decisions.append(decision)

    async def analysis_body(table_id: str) -> dict[str, Any]:
        """An analysis as sent: its progress and the decisions judged so far and, while it waits, how many
        analyses start before it."""
        job = analyses[table_id]
        told_progress()
        queued = analysis_jobs.get(table_id)
        if job.number and analyst.progress is not None and queued is not None and queued.started:
            job.status, job.done = "running", analyst.progress.of(job.number)  # (a process cannot say)
        body = job.to_dict(await db(result_at, table_id), await db(lesson_moves, table_id))
        if queued is not None and body["status"] == "queued":
            body["position"] = analyst.position(queued)
        return body

    @app.post("/api/tables/{table_id}/analysis", status_code=202)
    async def start_analysis(request: Request, table_id: str) -> dict[str, Any]:
        """Start (or look at) a finished game's computer analysis; GET the same address for progress."""
        await analysis_of(table_id, client_key(client_of(request)))
        return await analysis_body(table_id)

    @app.get("/api/tables/{table_id}/analysis")
    async def get_analysis(table_id: str) -> dict[str, Any]:
        if table_id not in analyses:
            record = await db(service.record, table_id)
            if not await analysis_stored(table_id, len(record["moves"])):
                # none asked for yet is an answer, not an error: the replay page asks every time it opens
                return {"status": "none"}
        return await analysis_body(table_id)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        return await db(service.record, table_id)

    # --- live ---------------------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def live(ws: WebSocket, table_id: str) -> None:
        """A table's live updates. The seat token comes in the X-Seat-Token header or, from a browser
        (which cannot set headers), as the subprotocol "token.<token>" beside "merchantry": never in the
        address, which access logs keep."""
        offered = ws.scope.get("subprotocols") or []
        await ws.accept(subprotocol="merchantry" if "merchantry" in offered else None)
        if "token" in ws.query_params:
            reason = (
                "send the seat token in the X-Seat-Token header or a 'token.' subprotocol, not the address"
            )
            await ws.send_text(encode_message({"type": "error", "reason": reason}))
            await ws.close(code=4400, reason="token in the address")
            return
        token = ws.headers.get("x-seat-token") or next(
            (p.removeprefix("token.") for p in offered if p.startswith("token.")), None
        )
        try:
            seat = await db(service.seat_for_token, table_id, token)
        except Refused as exc:
            # 403: the database says the token holds no seat here: "revoked", and the page forgets it
            kind = "revoked" if exc.status == 403 else "error"
            await ws.send_text(encode_message({"type": kind, "reason": exc.reason}))
            await ws.close(code=4404 if exc.status == 404 else 4403, reason=exc.reason[:100])
            return
        except SQLAlchemyError as exc:  # an outage: the token may be good; the page keeps it and comes back
            health.failed(exc)
            await ws.send_text(encode_message({"type": "error", "reason": UNAVAILABLE}))
            await ws.close(code=1013, reason="the database is not answering")
            return
        client = client_of(ws)
        open_here = sum(1 for conns in rooms.values() for c in conns if c.client == client)
        if limits.enabled and open_here >= limits.sockets_per_client:
            reason = f"too many connections from your address (at most {limits.sockets_per_client})"
            await ws.send_text(encode_message({"type": "error", "reason": reason}))
            await ws.close(code=1013, reason=reason[:100])
            return
        conn = Connection(ws, seat, token if seat is not None else None, client=client)
        conn.pace = TokenBucket(limits.messages_per_second, 2 * limits.messages_per_second)
        rooms.setdefault(table_id, set()).add(conn)
        conn.writer = asyncio.create_task(conn.write())
        try:
            try:
                post_if_changed(conn, await db(service.payload, table_id, conn.seat))
            except SQLAlchemyError as exc:  # it left memory and cannot be read back now
                health.failed(exc)
                conn.post({"type": "error", "reason": UNAVAILABLE})
                await asyncio.sleep(0.1)  # (the writer sends it) then closed: the page comes back
                await ws.close(code=1013, reason="the database is not answering")
                return
            await chat.welcome(table_id, conn)
            await kick_bots(table_id)
            while not conn.dropped:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:  # a binary frame
                    conn.post({"type": "refused", "reason": "send text frames holding JSON, not binary ones"})
                    continue
                if limits.enabled and not conn.pace.allow():
                    conn.post({"type": "refused", "reason": "too many messages: slow down"})
                    continue
                reply = await handle_message(table_id, conn, text)
                if reply is not None:
                    conn.post(reply)  # after the updates already posted: replies keep their order
        except WebSocketDisconnect:
            pass
        finally:
            room = rooms.get(table_id)
            if room is not None:
                room.discard(conn)
                if not room:
                    del rooms[table_id]
            conn.writer.cancel()

    async def holds_its_seat(table_id: str, conn: Connection) -> bool:
        """Every action is checked against the seat's holder now, not at connect time (an outage raises
        Refused(503): the seat may well be the connection's still)."""
        try:
            holder = await db(service.seat_for_token, table_id, conn.token)
            return conn.seat is not None and holder == conn.seat
        except Refused as exc:
            if exc.status != 403:
                raise
            return False
        except SQLAlchemyError as exc:
            health.failed(exc)
            raise Refused(503, UNAVAILABLE) from None

    async def handle_message(table_id: str, conn: Connection, text: str) -> dict[str, Any] | None:
        if len(text.encode()) > MAX_MESSAGE:
            return {"type": "refused", "reason": f"message too large (over {MAX_MESSAGE} bytes)"}
        try:
            data = json.loads(text)
            if isinstance(data, dict) and data.get("type") in CHAT_TYPES:  # table chat (server/chat.py)
                return await chat.handle(table_id, conn, data)
            message = ActMessage.model_validate(data)
        except (ValueError, TypeError, RecursionError):  # RecursionError: JSON nested thousands deep
            return {"type": "refused", "reason": 'send {"type": "act", "action": "<move>"}'}
        if conn.seat is None:
            log.warning("refused an action from a spectator at table %s", table_id)
            return {"type": "refused", "reason": "spectators cannot act"}
        try:
            async with await lock_for(table_id):
                if not await holds_its_seat(table_id, conn):
                    conn.becomes_spectator()
                    return {"type": "revoked", "reason": "this seat is no longer yours: you are watching"}
                await db(service.act, table_id, conn.seat, message.action)
        except Refused as exc:  # "why": the rules' reason, for the page to say in its reader's language
            body = exc.body()
            return {"type": "refused", "reason": body.pop("error")} | body
        except SQLAlchemyError as exc:  # the table could not be read back from the database
            health.failed(exc)
            return {"type": "refused", "reason": UNAVAILABLE}
        await after_change(table_id, clock=False)
        return None

    return app


def app_from_environment() -> FastAPI:
    """The app of one of `merchantry serve --workers N`'s processes (uvicorn builds one per process)."""
    import os

    return create_app(
        os.environ["MERCHANTRY_DATABASE_URL"],
        bot_delay=float(os.environ.get("MERCHANTRY_BOT_DELAY", str(BOT_DELAY))),
        tune_process=True,
    )
