"""Accounts, optional: a name and a password, a session cookie, and the seats an account holds.

Guests play by invite link exactly as before: nothing here is needed to play. An account is a name (shown
at the table like a guest's) and an argon2 hash of its password (argon2-cffi); the password itself is
never stored, logged or sent back. A logged-in browser holds a random session token in an HTTP-only,
SameSite=Lax cookie (Secure when served over https, or as configured); the database keeps only its hash,
so every server process knows every session and a logout ends it everywhere.

CSRF: a request that changes something and carries the session cookie must send the header X-CSRF-Token
with a value derived from the session token (`csrf_for`), which the page reads from a second, readable
cookie; another site can neither read it nor set a custom header without the server's consent (no CORS).
Before a login there is no session: signing up and logging in then use a double-submitted random token
(the readable cookie and the header must agree), so another site cannot log a browser into its account.

Login attempts are limited per name and per address, and sign-ups per address (`AccountSettings`): counted
in the database (`AttemptStore`), so that every server process counts the same attempts and several
processes together allow no more than one would; a restart forgets nothing either.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Float, ForeignKey, Index, Integer, String, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from merchantry.server.db import Base, SeatRow, TableRow, client_key, now, token_hash
from merchantry.server.inputs import Name, Text
from merchantry.server.tables import Refused

log = logging.getLogger("merchantry.server")
SESSION_COOKIE = "merchantry_session"
CSRF_COOKIE = "merchantry_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# the requests that use the double-submitted token before there is a session (see the module's text)
LOGIN_FORMS = frozenset({"/api/account/signup", "/api/account/login"})
SIGNUP_WINDOW = 3600.0  # seconds in which `AccountSettings.signups_per_address` accounts may be made
MAX_LISTED_SEATS = 200  # the account page lists the latest this many seats
MAX_LINKED_SEATS = 200  # seat tokens one request may link to an account (a browser's localStorage)
Password = Annotated[str, Field(min_length=8, max_length=256)]


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))  # as shown
    name_key: Mapped[str] = mapped_column(String(40), unique=True)  # casefolded: "Ann" and "ann" are one
    password_hash: Mapped[str] = mapped_column(String(200))  # argon2id, with its salt and parameters
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)  # the cookie's token, hashed
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountSeatRow(Base):
    __tablename__ = "account_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))


class AttemptRow(Base):
    """One login or sign-up attempt, kept for the limits' windows (the longest is an hour)."""

    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("login_attempts_key", "kind", "key", "at"),
        Index("login_attempts_at", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))  # login (per address) | failed (per name) | signup
    key: Mapped[str] = mapped_column(String(64))  # the address or the name, hashed (`attempt_key`)
    at: Mapped[float] = mapped_column(Float)  # seconds since the epoch: the same on every process


def attempt_key(kind: str, what: str) -> str:
    """An address or a name as the attempts keep it: hashed (a name typed at a login may be a password)."""
    if kind in ("login", "signup"):
        return client_key(what)
    return hashlib.sha256(f"merchantry login name {what}".encode()).hexdigest()


class AttemptStore:
    """Attempts counted in the database, the same for every process. An attempt is stored first and then
    the window is counted, its own included: of two processes' attempts at the same moment the one stored
    later sees the other, so together they allow at most the limit (when both see each other, both are
    refused: never one too many). A refused attempt is taken back, so it does not hold the window open."""

    def __init__(self, sessions: sessionmaker[Any], kept_seconds: float) -> None:
        self.sessions = sessions
        self.kept_seconds = kept_seconds  # the longest window: older attempts are deleted

    def take(self, kind: str, what: str, most: int, seconds: float) -> int | None:
        """Store one more attempt of `kind` for `what` unless that makes more than `most` in the last
        `seconds`; its id, or None when refused."""
        moment, key = time.time(), attempt_key(kind, what)
        with self.sessions() as db:
            db.execute(delete(AttemptRow).where(AttemptRow.at < moment - self.kept_seconds))
            row = AttemptRow(kind=kind, key=key, at=moment)
            db.add(row)
            db.commit()
            window = (AttemptRow.kind == kind, AttemptRow.key == key, AttemptRow.at > moment - seconds)
            made = db.scalar(select(func.count()).select_from(AttemptRow).where(*window)) or 0
            if made <= most:
                return int(row.id)
            db.execute(delete(AttemptRow).where(AttemptRow.id == row.id))
            db.commit()
            return None

    def give_back(self, attempt: int) -> None:
        """An attempt that turned out not to count (a right password: only wrong ones count per name)."""
        with self.sessions() as db:
            db.execute(delete(AttemptRow).where(AttemptRow.id == attempt))
            db.commit()


@dataclass(frozen=True)
class AccountSettings:
    # the Secure flag on the cookies: None sets it when the request came over https (behind a reverse
    # proxy, run uvicorn with --proxy-headers so that the scheme is the browser's)
    secure_cookies: bool | None = None
    session_days: int = 30
    failed_logins_per_name: int = 10  # wrong passwords for one name in `login_window` seconds
    logins_per_address: int = 30  # login attempts from one address in `login_window` seconds
    login_window: float = 600.0
    signups_per_address: int = 10  # accounts one address may create in an hour
    # argon2id with argon2-cffi's defaults (RFC 9106's second recommendation: 64 MiB, 3 passes)
    hasher: PasswordHasher = field(default_factory=PasswordHasher)


@dataclass(frozen=True)
class Account:
    id: int
    name: str


class Credentials(BaseModel):
    name: Name
    password: Password


class PasswordChange(BaseModel):
    current: Password
    new: Password


class TokenOfSeat(BaseModel):
    table_id: Annotated[Text, Field(min_length=1, max_length=16)]
    token: Annotated[Text, Field(min_length=1, max_length=64)]


class LinkSeats(BaseModel):
    seats: Annotated[list[TokenOfSeat], Field(max_length=MAX_LINKED_SEATS)]


def name_key(name: str) -> str:
    return name.casefold()


def csrf_for(session_token: str) -> str:
    """The CSRF token of a session: anyone holding the session cookie can work it out, nobody else can
    (and it says nothing about the session token)."""
    return hashlib.sha256(f"merchantry csrf {session_token}".encode()).hexdigest()


class CsrfGuard:
    """ASGI middleware: a request to the API that changes something and carries the session cookie needs
    X-CSRF-Token = csrf_for(session); signing up and logging in need the header to repeat the readable
    CSRF cookie. Requests without the cookie (guests, scripts) pass as before: they prove who they are by
    seat and host tokens, which another site cannot know."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            reason = self.refusal(scope)
            if reason is not None:
                await JSONResponse({"error": reason}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def refusal(scope: Scope) -> str | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        cookies = cookie_parser(headers.get("cookie", ""))
        sent = headers.get(CSRF_HEADER, "")
        session = cookies.get(SESSION_COOKIE)
        if session:
            expected = csrf_for(session)
        elif scope["path"] in LOGIN_FORMS:
            expected = cookies.get(CSRF_COOKIE, "")
        else:
            return None
        if not expected or not secrets.compare_digest(sent.encode(), expected.encode()):
            return "missing or wrong CSRF token (the page sends it as X-CSRF-Token): nothing was done"
        return None


class AccountStore:
    """The accounts' rows; every method runs in the server's database thread."""

    def __init__(self, sessions: sessionmaker[Any], session_days: int) -> None:
        self.sessions = sessions
        self.session_days = session_days

    def create(self, name: str, password_hash: str) -> Account:
        with self.sessions() as db:
            row = AccountRow(name=name, name_key=name_key(name), password_hash=password_hash)
            db.add(row)
            try:
                db.commit()
            except IntegrityError:
                raise Refused(409, f"the name {name!r} is taken: choose another, or log in") from None
            return Account(row.id, row.name)

    def password_hash_of(self, name: str) -> tuple[Account, str] | None:
        with self.sessions() as db:
            row = db.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            return None if row is None else (Account(row.id, row.name), row.password_hash)

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self.sessions() as db:
            row = db.get(AccountRow, account_id)
            if row is not None:
                row.password_hash = password_hash
                db.commit()

    def open_session(self, account: Account) -> str:
        token = secrets.token_urlsafe(32)
        expires = now() + timedelta(days=self.session_days)
        with self.sessions() as db:
            db.add(SessionRow(token_hash=token_hash(token), account_id=account.id, expires_at=expires))
            db.commit()
        return token

    def account_of_session(self, token: str) -> Account | None:
        with self.sessions() as db:
            found = db.execute(
                select(AccountRow.id, AccountRow.name, SessionRow.expires_at)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == token_hash(token))
            ).first()
        if found is None or aware(found.expires_at) <= now():
            return None
        return Account(found.id, found.name)

    def close_other_sessions(self, account: Account, kept_token: str) -> None:
        """Every session of the account but this one ends (after a password change: a stolen session too)."""
        with self.sessions() as db:
            db.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account.id, SessionRow.token_hash != token_hash(kept_token)
                )
            )
            db.commit()

    def close_session(self, token: str) -> None:
        with self.sessions() as db:
            db.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))
            db.commit()

    def link_seat(self, account: Account, table_id: str, seat: int) -> bool:
        """The seat is the account's from now on (False: another account holds it already)."""
        with self.sessions() as db:
            row = db.get(AccountSeatRow, (table_id, seat))
            if row is not None:
                return bool(row.account_id == account.id)
            db.add(AccountSeatRow(table_id=table_id, seat=seat, account_id=account.id))
            try:
                db.commit()
            except IntegrityError:  # linked meanwhile (another process)
                return False
            return True

    def seats_of(self, account: Account) -> list[dict[str, Any]]:
        """The account's seats, newest table first, each with what a person reads it by: when, with whom,
        and how it ended."""
        with self.sessions() as db:
            rows = db.execute(
                select(
                    AccountSeatRow.table_id,
                    AccountSeatRow.seat,
                    TableRow.game,
                    TableRow.status,
                    TableRow.created_at,
                    TableRow.result,
                )
                .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                .where(AccountSeatRow.account_id == account.id)
                .order_by(TableRow.created_at.desc())
                .limit(MAX_LISTED_SEATS)
            ).all()
            players = players_at(db, [r.table_id for r in rows])
        return [
            {
                "table_id": r.table_id,
                "seat": r.seat,
                "game": r.game,
                "status": r.status,
                "created_at": r.created_at.isoformat() if r.created_at else None,
                "players": players.get(r.table_id, []),
                "winners": (r.result or {}).get("winners"),
            }
            for r in rows
        ]


def players_at(db: Any, table_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Who sits at each of these tables, by seat: a person's display name or a bot's name (nothing else of
    an account: the names are what every seat sees at the table)."""
    found: dict[str, list[dict[str, Any]]] = {}
    if not table_ids:
        return found
    rows = db.execute(
        select(SeatRow.table_id, SeatRow.seat, SeatRow.kind, SeatRow.bot, SeatRow.name)
        .where(SeatRow.table_id.in_(table_ids))
        .order_by(SeatRow.table_id, SeatRow.seat)
    ).all()
    for row in rows:
        who = {"seat": row.seat, "kind": row.kind, "bot": row.bot, "name": row.name}
        found.setdefault(row.table_id, []).append(who)
    return found


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored as UTC): make them comparable with now()."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=now().tzinfo)


class Accounts:
    """The account routes and what the table routes ask of them (`current`, `link`).

    `run_db(work, *args)` runs `work` in the server's database thread; password hashes are worked out in
    other threads (argon2 takes tens of milliseconds of CPU by design, and must not hold up the moves)."""

    def __init__(
        self,
        sessions: sessionmaker[Any],
        run_db: Callable[..., Awaitable[Any]],
        seat_for_token: Callable[[str, str], int | None],
        settings: AccountSettings,
        limits_enabled: bool = True,
    ) -> None:
        self.store = AccountStore(sessions, settings.session_days)
        self.run_db = run_db
        self.seat_for_token = seat_for_token
        self.settings = settings
        self.limits_enabled = limits_enabled
        self.attempts = AttemptStore(sessions, max(settings.login_window, SIGNUP_WINDOW))
        # verifying a password for a name nobody has takes as long as for a real one: the time of a
        # refusal does not say whether the name exists (made at the first such login, not at start-up)
        self.unknown_name_hash: str | None = None

    async def current(self, request: Request) -> Account | None:
        """The logged-in account of a request; None for a guest (or an ended or expired session)."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        account: Account | None = await self.run_db(self.store.account_of_session, token)
        return account

    async def link(self, account: Account | None, table_id: str, seat: int | None) -> None:
        if account is not None and seat is not None:
            await self.run_db(self.store.link_seat, account, table_id, seat)

    # --- the routes ---------------------------------------------------------------------------------

    def router(self) -> APIRouter:
        router = APIRouter()
        router.add_api_route("/api/account", self.me, methods=["GET"])
        router.add_api_route("/api/account/signup", self.signup, methods=["POST"], status_code=201)
        router.add_api_route("/api/account/login", self.login, methods=["POST"])
        router.add_api_route("/api/account/logout", self.logout, methods=["POST"])
        router.add_api_route("/api/account/password", self.change_password, methods=["POST"])
        router.add_api_route("/api/account/seats", self.seats, methods=["GET"])
        router.add_api_route("/api/account/seats", self.link_seats, methods=["POST"])
        return router

    async def me(self, request: Request, response: Response) -> dict[str, Any]:
        """Who is logged in (`account`: null for a guest). Gives a browser without one the readable CSRF
        cookie that signing up and logging in repeat."""
        account = await self.current(request)
        if account is None and request.cookies.get(SESSION_COOKIE):
            self.forget_session_cookies(request, response)  # ended or expired: the page is a guest's
        if not request.cookies.get(CSRF_COOKIE) or (account is None and request.cookies.get(SESSION_COOKIE)):
            self.set_cookie(request, response, CSRF_COOKIE, secrets.token_urlsafe(32), http_only=False)
        return {"account": None if account is None else {"name": account.name}}

    async def signup(self, request: Request, response: Response, body: Credentials) -> dict[str, Any]:
        most = self.settings.signups_per_address
        if not await self.take("signup", client_of(request), most, SIGNUP_WINDOW):
            raise Refused(429, f"too many accounts created from your address: at most {most} an hour")
        password_hash = await asyncio.to_thread(self.settings.hasher.hash, body.password)
        account = await self.run_db(self.store.create, body.name, password_hash)
        log.info("account %d (%s) signed up", account.id, account.name)
        await self.start_session(request, response, account)
        return {"account": {"name": account.name}}

    async def login(self, request: Request, response: Response, body: Credentials) -> dict[str, Any]:
        window, settings = self.settings.login_window, self.settings
        if not await self.take("login", client_of(request), settings.logins_per_address, window):
            raise Refused(429, "too many login attempts from your address: wait a few minutes")
        # counted as a wrong password until it proves right (so that logins at once through several
        # processes cannot all be checked before any is counted)
        failure = await self.take("failed", name_key(body.name), settings.failed_logins_per_name, window)
        if not failure:
            raise Refused(429, "too many wrong passwords for this name: wait a few minutes")
        found = await self.run_db(self.store.password_hash_of, body.name)
        stored = found[1] if found is not None else await self.hash_for_unknown_names()
        if not await asyncio.to_thread(self.verified, stored, body.password) or found is None:
            log.warning("refused a login for %r: wrong name or password", body.name)
            raise Refused(401, "wrong name or password")
        if failure is not True:
            await self.run_db(self.attempts.give_back, failure)
        account = found[0]
        if self.settings.hasher.check_needs_rehash(stored):  # stronger parameters since it was stored
            new_hash = await asyncio.to_thread(self.settings.hasher.hash, body.password)
            await self.run_db(self.store.set_password_hash, account.id, new_hash)
        await self.start_session(request, response, account)
        return {"account": {"name": account.name}}

    async def change_password(self, request: Request, body: PasswordChange) -> dict[str, Any]:
        """A new password, given the current one (a session left open on a shared computer cannot change
        it). A wrong current password counts as a wrong password for the name, under the logins' limit;
        every other session of the account ends."""
        account = await self.logged_in(request)
        window, most = self.settings.login_window, self.settings.failed_logins_per_name
        failure = await self.take("failed", name_key(account.name), most, window)
        if not failure:
            raise Refused(429, "too many wrong passwords for this name: wait a few minutes")
        found = await self.run_db(self.store.password_hash_of, account.name)
        if found is None or not await asyncio.to_thread(self.verified, found[1], body.current):
            log.warning("refused a password change for account %d: wrong current password", account.id)
            raise Refused(403, "the current password is wrong: nothing was changed")
        if failure is not True:
            await self.run_db(self.attempts.give_back, failure)
        new_hash = await asyncio.to_thread(self.settings.hasher.hash, body.new)
        await self.run_db(self.store.set_password_hash, account.id, new_hash)
        await self.run_db(self.store.close_other_sessions, account, request.cookies.get(SESSION_COOKIE, ""))
        log.info("account %d (%s) changed its password", account.id, account.name)
        return {"changed": True}

    async def hash_for_unknown_names(self) -> str:
        if self.unknown_name_hash is None:
            made = await asyncio.to_thread(self.settings.hasher.hash, secrets.token_urlsafe(16))
            self.unknown_name_hash = made
        return self.unknown_name_hash

    async def take(self, kind: str, what: str, most: int, seconds: float) -> int | bool:
        """One attempt counted (its id), or False when it is one too many; True when limits are off."""
        if not self.limits_enabled:
            return True
        attempt: int | None = await self.run_db(self.attempts.take, kind, what, most, seconds)
        return False if attempt is None else attempt

    def verified(self, stored: str, password: str) -> bool:
        try:
            return bool(self.settings.hasher.verify(stored, password))
        except (VerificationError, InvalidHashError):
            return False

    async def logout(self, request: Request, response: Response) -> dict[str, Any]:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await self.run_db(self.store.close_session, token)
        self.forget_session_cookies(request, response)
        self.set_cookie(request, response, CSRF_COOKIE, secrets.token_urlsafe(32), http_only=False)
        return {"account": None}

    async def seats(self, request: Request) -> dict[str, Any]:
        account = await self.logged_in(request)
        return {"seats": await self.run_db(self.store.seats_of, account)}

    async def link_seats(self, request: Request, body: LinkSeats) -> dict[str, Any]:
        """A guest who signs up or logs in keeps the seats held in that browser: the page sends each seat
        token it keeps; every one that holds a seat now makes that seat the account's. Tokens that hold
        none (handed to a bot, forged) are skipped and counted."""
        account = await self.logged_in(request)
        linked, skipped = [], 0
        for item in body.seats:
            seat = await self.seat_of(item.table_id, item.token)
            if seat is not None and await self.run_db(self.store.link_seat, account, item.table_id, seat):
                linked.append({"table_id": item.table_id, "seat": seat})
            else:
                skipped += 1
        return {"linked": linked, "skipped": skipped}

    async def seat_of(self, table_id: str, token: str) -> int | None:
        try:
            seat: int | None = await self.run_db(self.seat_for_token, table_id, token)
            return seat
        except Refused:
            return None

    async def logged_in(self, request: Request) -> Account:
        account = await self.current(request)
        if account is None:
            raise Refused(401, "log in first")
        return account

    # --- cookies ------------------------------------------------------------------------------------

    async def start_session(self, request: Request, response: Response, account: Account) -> None:
        """A new session for every login (a token planted before it is never the one used after)."""
        old = request.cookies.get(SESSION_COOKIE)
        if old:
            await self.run_db(self.store.close_session, old)
        token = await self.run_db(self.store.open_session, account)
        log.info("account %d (%s) logged in", account.id, account.name)
        self.set_cookie(request, response, SESSION_COOKIE, token, http_only=True)
        self.set_cookie(request, response, CSRF_COOKIE, csrf_for(token), http_only=False)

    def set_cookie(
        self, request: Request, response: Response, name: str, value: str, http_only: bool
    ) -> None:
        response.set_cookie(
            name,
            value,
            max_age=self.settings.session_days * 86400,
            path="/",
            secure=self.secure(request),
            httponly=http_only,
            samesite="lax",
        )

    def forget_session_cookies(self, request: Request, response: Response) -> None:
        response.delete_cookie(
            SESSION_COOKIE, path="/", secure=self.secure(request), httponly=True, samesite="lax"
        )

    def secure(self, request: Request) -> bool:
        if self.settings.secure_cookies is not None:
            return self.settings.secure_cookies
        return request.url.scheme == "https"


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"
