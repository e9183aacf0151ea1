"""Accounts (server/accounts.py): optional, cookies that hold a session and nothing else, CSRF on every change
made with the cookie, passwords kept only as argon2 hashes, login attempts limited, guests as before."""

from __future__ import annotations

import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, select, text

from merchantry.server.accounts import CSRF_COOKIE, SESSION_COOKIE, AccountSettings, csrf_for
from merchantry.server.app import create_app
from tests.server.conftest import POSTGRES_URL, new_table, postgres_database

# argon2id at its cheapest: the tests check the scheme, not its cost
QUICK = AccountSettings(hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
PASSWORD = "correct horse battery staple"


def app_on(database_url: str, settings: AccountSettings = QUICK):
    return create_app(database_url, bot_delay=0, accounts_settings=settings)


@pytest.fixture
def browser(database_url):
    """One browser: the test client keeps its cookies."""
    with TestClient(app_on(database_url)) as client:
        yield client


def csrf(client: TestClient) -> dict[str, str]:
    """The header the page sends: the readable CSRF cookie (fetched first, as the page does)."""
    if client.cookies.get(CSRF_COOKIE) is None:
        client.get("/api/account")
    return {"X-CSRF-Token": client.cookies[CSRF_COOKIE]}


def sign_up(client: TestClient, name: str, password: str = PASSWORD):
    response = client.post(
        "/api/account/signup", json={"name": name, "password": password}, headers=csrf(client)
    )
    assert response.status_code == 201, response.text
    return response


def log_in(client: TestClient, name: str, password: str = PASSWORD):
    return client.post("/api/account/login", json={"name": name, "password": password}, headers=csrf(client))


def create_table(client: TestClient, headers: dict[str, str] | None = None, name: str = "Typed"):
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    body = {"game": "money", "players": 3, "seats": seats, "name": name}
    return client.post("/api/tables", json=body, headers=headers or {})


def test_signing_up_logs_in_with_an_http_only_same_site_cookie(browser):
    assert browser.get("/api/account").json() == {"account": None}  # a guest
    response = sign_up(browser, "Ann")
    assert response.json() == {"account": {"name": "Ann"}}
    cookies = response.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith(f"{SESSION_COOKIE}="))
    assert "HttpOnly" in session and "SameSite=lax" in session
    assert "Secure" not in session  # served over plain http (a localhost test)
    readable = next(c for c in cookies if c.startswith(f"{CSRF_COOKIE}="))
    assert "HttpOnly" not in readable  # the page reads it to send the header
    assert browser.get("/api/account").json() == {"account": {"name": "Ann"}}
    assert browser.post("/api/account/logout", headers=csrf(browser)).json() == {"account": None}
    assert browser.get("/api/account").json() == {"account": None}
    assert log_in(browser, "ann").json() == {"account": {"name": "Ann"}}  # names are one in any case


def test_cookies_are_secure_over_https_or_when_configured(tmp_path):
    url = f"sqlite:///{tmp_path / 'secure.db'}"
    with TestClient(app_on(url), base_url="https://testserver") as client:
        response = sign_up(client, "Ann")
        assert all("Secure" in c for c in response.headers.get_list("set-cookie"))
    forced = AccountSettings(secure_cookies=True, hasher=QUICK.hasher)
    with TestClient(app_on(url, forced)) as client:
        response = client.get("/api/account")  # hands out the readable cookie, marked Secure
        cookies = response.headers.get_list("set-cookie")
        assert cookies and all("Secure" in c for c in cookies)


def test_a_name_is_taken_once_in_any_case_and_a_short_password_is_refused_without_echo(browser):
    sign_up(browser, "Ann")
    browser.post("/api/account/logout", headers=csrf(browser))
    again = browser.post(
        "/api/account/signup", json={"name": "ANN", "password": PASSWORD}, headers=csrf(browser)
    )
    assert again.status_code == 409 and "taken" in again.json()["error"]
    short = browser.post(
        "/api/account/signup", json={"name": "Bea", "password": "hunter2"}, headers=csrf(browser)
    )
    assert short.status_code == 422 and "hunter2" not in short.text


def test_csrf_token_is_required_for_every_change_made_with_the_session_cookie(browser):
    # before a session: signing up and logging in need the double-submitted token
    refused = browser.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    wrong = {"X-CSRF-Token": "not-the-cookie"}
    assert (
        browser.post(
            "/api/account/signup", json={"name": "Ann", "password": PASSWORD}, headers=wrong
        ).status_code
        == 403
    )
    sign_up(browser, "Ann")
    # with the session cookie: a table created, a seat joined, a logout, all need the session's token
    assert create_table(browser).status_code == 403
    assert create_table(browser, wrong).status_code == 403
    # the token of the browser before it logged in is no longer the one
    assert create_table(browser, {"X-CSRF-Token": "x" * 43}).status_code == 403
    assert browser.get("/api/tables").json() == []  # nothing was done
    assert browser.post("/api/account/logout").status_code == 403
    assert browser.get("/api/account").json() == {"account": {"name": "Ann"}}  # still logged in
    created = create_table(browser, csrf(browser))
    assert created.status_code == 201
    assert csrf(browser)["X-CSRF-Token"] == csrf_for(browser.cookies[SESSION_COOKIE])


def test_guests_play_by_invite_link_as_before_without_any_cookie(client):
    table = new_table(client)  # no account, no CSRF header
    invite = table["invites"][0]
    joined = client.post(
        f"/api/tables/{table['id']}/join",
        json={"seat": invite["seat"], "invite": invite["invite"], "name": "Bea"},
    )
    assert joined.status_code == 200
    assert not client.cookies  # a guest is given no cookie by playing


def test_a_session_cookie_is_one_accounts_and_no_other(database_url):
    app = app_on(database_url)
    with TestClient(app) as ann:  # the server's life; two more browsers beside it, each its own cookies
        bea, thief = TestClient(app), TestClient(app)
        sign_up(ann, "Ann")
        sign_up(bea, "Bea")
        bea_table = create_table(bea, csrf(bea)).json()
        assert ann.get("/api/account/seats").json()["seats"] == []  # Bea's seat is not Ann's
        assert [s["table_id"] for s in bea.get("/api/account/seats").json()["seats"]] == [bea_table["id"]]
        # Ann's cookie with Bea's CSRF token does nothing: a token is bound to its own session
        thief.cookies.set(SESSION_COOKIE, ann.cookies[SESSION_COOKIE])
        assert create_table(thief, {"X-CSRF-Token": bea.cookies[CSRF_COOKIE]}).status_code == 403
        # logging in as Bea in Ann's browser ends Ann's session there: the old cookie is worth nothing
        old = ann.cookies[SESSION_COOKIE]
        assert log_in(ann, "Bea").status_code == 200
        assert ann.cookies[SESSION_COOKIE] != old
        thief.cookies.set(SESSION_COOKIE, old)
        assert thief.get("/api/account").json() == {"account": None}
        # a logout ends the session on the server, not only in the browser
        kept = bea.cookies[SESSION_COOKIE]
        bea.post("/api/account/logout", headers=csrf(bea))
        thief.cookies.set(SESSION_COOKIE, kept)
        assert thief.get("/api/account").json() == {"account": None}
        assert thief.get("/api/account/seats").status_code == 401


def test_passwords_are_never_stored_or_logged_in_clear(database_url, caplog):
    with caplog.at_level(logging.DEBUG), TestClient(app_on(database_url)) as client:
        sign_up(client, "Ann")
        client.post("/api/account/logout", headers=csrf(client))
        assert log_in(client, "Ann", "wrong " + PASSWORD).status_code == 401
        assert log_in(client, "Ann").status_code == 200
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "refused a login" in logged  # the failure is logged, by name
    assert PASSWORD not in logged
    engine = create_engine(database_url)
    with engine.connect() as conn:
        stored = []
        for table in inspect(engine).get_table_names():
            stored += [repr(tuple(row)) for row in conn.execute(text(f'SELECT * FROM "{table}"'))]
        hashes = conn.execute(text("SELECT password_hash FROM accounts")).scalars().all()
        sessions = conn.execute(text("SELECT token_hash FROM account_sessions")).scalars().all()
    engine.dispose()
    assert PASSWORD not in "\n".join(stored)
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$")
    assert PasswordHasher().verify(hashes[0], PASSWORD)
    assert client.cookies[SESSION_COOKIE] not in "\n".join(stored) and len(sessions) == 1  # hashed too


def test_login_attempts_are_limited_per_name_and_per_address(tmp_path):
    settings = AccountSettings(failed_logins_per_name=3, logins_per_address=8, hasher=QUICK.hasher)
    with TestClient(app_on(f"sqlite:///{tmp_path / 'limits.db'}", settings)) as client:
        sign_up(client, "Ann")
        sign_up(client, "Bea")
        client.post("/api/account/logout", headers=csrf(client))
        for _ in range(3):
            assert log_in(client, "Ann", "guess " + PASSWORD).status_code == 401
        blocked = log_in(client, "Ann")  # even the right password, once the name has had its guesses
        assert blocked.status_code == 429 and "wrong passwords for this name" in blocked.json()["error"]
        assert log_in(client, "Bea").status_code == 200  # another name is not held up by Ann's
        for _ in range(3):
            log_in(client, "Nobody", PASSWORD)  # names nobody has count as failures too
        # 8 attempts from this address so far: the next is refused, whatever the name
        refused = log_in(client, "Bea")
        assert refused.status_code == 429 and "your address" in refused.json()["error"]


def test_two_processes_on_one_database_together_allow_only_the_login_limits(tmp_path):
    """Two server processes (PostgreSQL when CI provides one; else SQLite, the second without its start-up,
    which SQLite's lock keeps to one process): the attempts through both count as one."""
    settings = AccountSettings(failed_logins_per_name=4, logins_per_address=13, hasher=QUICK.hasher)
    urls = postgres_database() if POSTGRES_URL else iter([f"sqlite:///{tmp_path / 'two.db'}"])
    for url in urls:
        with TestClient(app_on(url, settings)) as one:
            second = TestClient(app_on(url, settings))
            with second if POSTGRES_URL else contextlib.nullcontext():
                sign_up(one, "Ann")
                one.post("/api/account/logout", headers=csrf(one))
                wrong = "guess " + PASSWORD
                answers = [log_in(client, "Ann", wrong).status_code for client in (one, second) * 3]
                assert answers == [401] * 4 + [429] * 2  # four wrong passwords in all, not four each
                assert log_in(second, "Ann").status_code == 429  # the name waits, through either process
                with ThreadPoolExecutor(8) as pool:  # at the same moment, through both
                    guesses = [(one, second)[i % 2] for i in range(8)]
                    tries = pool.map(log_in, guesses, ["Nobody"] * 8, [wrong] * 8)
                    burst = [answer.status_code for answer in tries]
                assert burst.count(401) <= 4 and set(burst) <= {401, 429}
                # 15 attempts from this address, the last two over its 13: the next is refused, any name
                refused = log_in(one, "Bea")
                assert refused.status_code == 429 and "your address" in refused.json()["error"]
                assert log_in(second, "Bea").status_code == 429


def test_a_guest_who_signs_up_keeps_the_seats_held_in_that_browser(browser):
    table = create_table(browser).json()  # as a guest: the page keeps the seat token in localStorage
    sign_up(browser, "Ann")
    tokens = [
        {"table_id": table["id"], "token": table["token"]},
        {"table_id": table["id"], "token": "forged"},
    ]
    linked = browser.post("/api/account/seats", json={"seats": tokens}, headers=csrf(browser))
    assert linked.json() == {"linked": [{"table_id": table["id"], "seat": 0}], "skipped": 1}
    seats = browser.get("/api/account/seats").json()["seats"]
    (seat,) = seats
    assert {k: seat[k] for k in ("table_id", "seat", "game", "status", "winners")} == {
        "table_id": table["id"],
        "seat": 0,
        "game": "money",
        "status": "waiting",
        "winners": None,
    }
    assert seat["created_at"] and [p["name"] for p in seat["players"]] == ["Typed", None, None]
    assert seat["players"][2] == {"seat": 2, "kind": "bot", "bot": "greedy", "name": None}
    # the seat still plays with the token the browser holds
    view = browser.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": table["token"]}).json()
    assert view["seat"] == 0


def test_an_account_sits_under_its_name_and_no_payload_carries_more_of_it(browser):
    sign_up(browser, "Ann")
    table = create_table(browser, csrf(browser), name="Someone else").json()
    payload = browser.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": table["token"]}).json()
    assert payload["table"]["seats"][0]["name"] == "Ann"
    lobby = browser.get("/api/tables").json()
    for body in (payload, lobby):
        assert not {"account", "account_id", "name_key", "password_hash"} & set(keys_of(body))


def keys_of(body) -> list[str]:
    if isinstance(body, dict):
        return [*body, *(k for v in body.values() for k in keys_of(v))]
    if isinstance(body, list):
        return [k for v in body for k in keys_of(v)]
    return []


def test_accounts_and_sessions_survive_a_restart(database_url):
    with TestClient(app_on(database_url)) as first:
        sign_up(first, "Ann")
        table = create_table(first, csrf(first)).json()
        cookie = first.cookies[SESSION_COOKIE]
    with TestClient(app_on(database_url)) as second:
        second.cookies.set(SESSION_COOKIE, cookie)
        assert second.get("/api/account").json() == {"account": {"name": "Ann"}}
        assert second.get("/api/account/seats").json()["seats"][0]["table_id"] == table["id"]
        second.post("/api/account/logout", headers={"X-CSRF-Token": csrf_for(cookie)})
    with TestClient(app_on(database_url)) as third:
        assert log_in(third, "Ann").status_code == 200
        third.cookies.set(SESSION_COOKIE, cookie)
        assert third.get("/api/account").json() == {"account": None}


def test_the_accounts_migration_adds_its_tables(database_url):
    with TestClient(app_on(database_url)):
        pass
    engine = create_engine(database_url)
    names = set(inspect(engine).get_table_names())
    with engine.connect() as conn:
        version = conn.execute(select(text("version_num")).select_from(text("alembic_version"))).scalar()
    engine.dispose()
    assert {"accounts", "account_sessions", "account_seats"} <= names
    assert version >= "0009"


@pytest.mark.skipif(not POSTGRES_URL, reason="MERCHANTRY_TEST_POSTGRES_URL not set")
def test_a_session_opened_through_one_process_works_through_another_and_ends_in_both():
    for url in postgres_database():
        with TestClient(app_on(url)) as one, TestClient(app_on(url)) as two:
            sign_up(one, "Ann")
            two.cookies.set(SESSION_COOKIE, one.cookies[SESSION_COOKIE])
            assert two.get("/api/account").json() == {"account": {"name": "Ann"}}
            made = create_table(two, {"X-CSRF-Token": csrf_for(two.cookies[SESSION_COOKIE])})
            assert made.status_code == 201  # the CSRF token is the session's, whichever process checks it
            assert [s["table_id"] for s in one.get("/api/account/seats").json()["seats"]] == [
                made.json()["id"]
            ]
            one.post("/api/account/logout", headers=csrf(one))
            assert two.get("/api/account").json() == {"account": None}


def test_a_password_change_needs_the_current_password_csrf_and_a_session_and_ends_the_others(
    tmp_path, caplog
):
    settings = AccountSettings(failed_logins_per_name=3, hasher=QUICK.hasher)
    new = "a brand new password"
    with TestClient(app_on(f"sqlite:///{tmp_path / 'change.db'}", settings)) as ann:
        change = {"current": PASSWORD, "new": new}
        assert ann.post("/api/account/password", json=change, headers=csrf(ann)).status_code == 401  # a guest
        sign_up(ann, "Ann")
        elsewhere = TestClient(ann.app)  # another browser logged in as Ann
        assert log_in(elsewhere, "Ann").status_code == 200
        assert ann.post("/api/account/password", json=change).status_code == 403  # no CSRF token
        wrong = {"current": "not " + PASSWORD, "new": new}
        refused = ann.post("/api/account/password", json=wrong, headers=csrf(ann))
        assert refused.status_code == 403 and "current password is wrong" in refused.json()["error"]
        too_short = ann.post(
            "/api/account/password", json={"current": PASSWORD, "new": "short"}, headers=csrf(ann)
        )
        assert too_short.status_code == 422
        with caplog.at_level(logging.DEBUG):
            assert ann.post("/api/account/password", json=change, headers=csrf(ann)).json() == {
                "changed": True
            }
        assert new not in caplog.text and PASSWORD not in caplog.text
        assert ann.get("/api/account").json() == {"account": {"name": "Ann"}}  # this session goes on
        assert elsewhere.get("/api/account").json() == {"account": None}  # every other one ended
        assert log_in(elsewhere, "Ann").status_code == 401  # the old password no longer opens it
        assert log_in(elsewhere, "Ann", new).status_code == 200
        for _ in range(2):  # wrong current passwords count as wrong passwords for the name
            ann.post("/api/account/password", json=wrong, headers=csrf(ann))
        limited = ann.post("/api/account/password", json={"current": new, "new": PASSWORD}, headers=csrf(ann))
        assert limited.status_code == 429
