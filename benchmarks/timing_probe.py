"""What a seat can read from *when* it hears of the bots' moves (issue 27): an opponent's probe.

    .venv/bin/python benchmarks/timing_probe.py --tables 6 --delay 0.3
    .venv/bin/python benchmarks/timing_probe.py --tables 6 --delay 0.3 --repo /path/to/an/older/checkout

It starts a server process (bots at `--delay`, from this checkout or `--repo`'s), sits a probe in seat P1,
and times every message the probe's websocket receives, as an opponent could:
- **Money** (P2-P4 greedy bots): for each bot's sealed bid, the time from the previous seal (or the round's
  start) to the message that shows it sealed; after the reveal, the bid's card count.
- **Samarkand** (P2 a person, played by a script as a page would be: it answers "keep" at once when that is
  all it may say, thinks 0.5-2.5 s when it holds the card, then sells or keeps at random; P3 a greedy bot):
  for each sale offer that closes without a sale (a sale says who held the card), the time until each seat's
  answer shows (if it ever does) and until the offer closes; after the game, who held the card (from the
  record, public once the game is over).
Each guess is made from the timings alone, by the nearest mean of the other samples (leave one out), and
compared with chance: always guessing the commonest answer; for Money also the rank correlation of time
and card count. The probe answers its own decisions at once (an empty sealed bid, "keep", a random move in
its turn), so its own timing tells nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


def probe_app() -> Any:
    """The server under test: bots at MERCHANTRY_BOT_DELAY, per-client limits off (one address)."""
    from merchantry.server.app import create_app
    from merchantry.server.limits import Limits

    url, delay = os.environ["MERCHANTRY_DATABASE_URL"], float(os.environ["MERCHANTRY_BOT_DELAY"])
    return create_app(url, bot_delay=delay, limits=Limits(enabled=False))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(repo: Path, delay: float, folder: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": f"{repo / 'src'}:{HERE}",
        "MERCHANTRY_DATABASE_URL": f"sqlite:///{folder}/probe.db",
        "MERCHANTRY_BOT_DELAY": str(delay),
    }
    command = [sys.executable, "-m", "uvicorn", "timing_probe:probe_app", "--factory", "--port", str(port)]
    server = subprocess.Popen([*command, "--log-level", "warning"], env=env, cwd=folder)
    base = f"127.0.0.1:{port}"
    for _ in range(1200):  # up to a minute: a busy machine imports slowly
        if server.poll() is not None:
            break
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return server, base
        time.sleep(0.05)
    raise RuntimeError("the server did not start")


@dataclass
class Table:
    """One table as the probe in seat P1 knows it: the latest view, its legal moves, the log so far."""

    id: str
    token: str
    view: dict[str, Any] = field(default_factory=dict)
    legal: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    status: str = "playing"


async def play(base: str, game: str, watch: Any, seconds: float) -> Table:
    """Create a table (P1 the probe; in Samarkand P2 a scripted person; the rest greedy bots), play P1 at
    once, and hand every message with its arrival time to `watch(table, now)` until the game ends or
    `seconds` pass."""
    import httpx

    players = 4 if game == "money" else 3
    people = 1 if game == "money" else 2
    seats = [{"kind": "human"}] * people + [{"kind": "bot", "bot": "greedy"}] * (players - people)
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        body = {"game": game, "players": players, "seats": seats, "name": "probe"}
        created = (await http.post("/api/tables", json=body)).json()
        table = Table(created["id"], created["token"])
        others = []
        for invite in created["invites"]:
            joined = {"seat": invite["seat"], "invite": invite["invite"], "name": "person"}
            token = (await http.post(f"/api/tables/{table.id}/join", json=joined)).json()["token"]
            others.append(asyncio.create_task(follow(base, http, Table(table.id, token), person, seconds)))
        await follow(base, http, table, lambda t, now: watch(t, now) or own_move(t), seconds)
        for task in others:
            task.cancel()
        if table.status == "finished":
            table.view["record"] = (await http.get(f"/api/tables/{table.id}/record")).json()
    return table


async def follow(base: str, http: Any, table: Table, decide: Any, seconds: float) -> None:
    """Read `table`'s websocket until the game ends; after each message, `decide(table, now)` may give a
    move, sent at once, or (seconds, move), sent after that much thought."""
    import websockets

    url = f"ws://{base}/ws/tables/{table.id}"
    protocols = ["merchantry", f"token.{table.token}"]
    deadline = time.monotonic() + seconds
    headers = {"X-Seat-Token": table.token}
    thinking: list[asyncio.Task[None]] = []
    async with websockets.connect(url, subprotocols=protocols) as ws:  # type: ignore[list-item]
        while time.monotonic() < deadline and table.status == "playing":
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            now = time.monotonic()
            message = json.loads(raw)
            if message.get("type") != "state":
                continue
            start = message.get("log_from", 0)
            table.log = table.log[:start] + list(message["view"].get("log", []))
            table.view, table.legal = message["view"], message["legal"]
            table.status = message["table"]["status"]
            move = decide(table, now)
            if isinstance(move, tuple):
                thinking.append(asyncio.create_task(send_later(http, table, headers, *move)))
            elif move is not None:
                await http.post(f"/api/tables/{table.id}/act", json={"action": move}, headers=headers)
    for task in thinking:
        task.cancel()


async def send_later(http: Any, table: Table, headers: dict[str, str], seconds: float, move: str) -> None:
    await asyncio.sleep(seconds)
    await http.post(f"/api/tables/{table.id}/act", json={"action": move}, headers=headers)


def own_move(table: Table) -> str | None:
    """The probe's own answer, given at once: an empty sealed bid, "keep", else a random move."""
    legal = table.legal
    if not legal:
        return None
    for quick in ("bid", "keep"):
        if quick in legal:
            return quick
    return random.choice(legal)


THOUGHT_OF: set[str] = set()  # the offers the scripted person has begun to think about


def person(table: Table, now: float) -> str | tuple[float, str] | None:
    """A person at a page: "keep" at once when that is all they may say (as the page of the main of
    2026-11-30 did), 0.5-2.5 s of thought when they hold the card (then sell or keep at random), and a
    random move in their own turn."""
    legal = table.legal
    if not legal:
        return None
    offer = table.view.get("offer")
    if offer and any(move.startswith("sell") for move in legal):
        key = f"{table.id}:{table.view.get('turn')}:{offer['good']}"
        if key in THOUGHT_OF:
            return None
        THOUGHT_OF.add(key)
        return random.uniform(0.5, 2.5), random.choice(legal)
    return own_move(table)


# --- Money: sealed-bid sizes ----------------------------------------------------------------------------


@dataclass
class MoneyWatch:
    samples: list[tuple[float, int]] = field(default_factory=list)  # (time since the previous seal, cards)
    pending: dict[int, float] = field(default_factory=dict)  # seat -> its time, until the reveal
    last: float | None = None
    sealed: set[int] = field(default_factory=set)
    seen_log: int = 0

    def __call__(self, table: Table, now: float) -> None:
        view = table.view
        sealed = {row["seat"] for row in view.get("seats", []) if row.get("sealed")}
        round_starts = view.get("phase") == "bidding" and not sealed - {0}
        if round_starts and (self.last is None or self.sealed):
            self.last, self.sealed = now, set()
        for seat in sorted(sealed - self.sealed - {0}):
            self.pending[seat] = now - (self.last or now)
            self.last = now
        self.sealed = sealed
        for event in table.log[self.seen_log :]:
            if event["type"] in ("bid", "sits_out") and event["seat"] in self.pending:
                cards = len(event.get("cards", []))
                self.samples.append((self.pending.pop(event["seat"]), cards))
        self.seen_log = len(table.log)


# --- Samarkand: who holds the card on offer --------------------------------------------------------------


@dataclass
class SamarkandWatch:
    offers: list[dict[str, Any]] = field(default_factory=list)  # per offer: good, when each answer showed

    def __call__(self, table: Table, now: float) -> None:
        offer = table.view.get("offer")
        current = self.offers[-1] if self.offers and "closed" not in self.offers[-1] else None
        if offer and current is None:
            current = {"good": offer["good"], "opened": now, "answered": {}, "log": len(table.log)}
            self.offers.append(current)
        if current is None:
            return
        if not offer or offer["good"] != current["good"]:
            current["closed"] = now - current["opened"]
            current["sold"] = any(event["type"] == "sold" for event in table.log[current["log"] :])
            return
        for seat in range(1, table.view["players"]):  # an answer shows where the view lists who waits
            if "waiting" in offer and seat not in offer["waiting"]:
                current["answered"].setdefault(seat, now - current["opened"])


def holders(record: dict[str, Any]) -> list[int | None]:
    """Per sale offer of a finished game, the seat whose hand held the card (None: nobody's)."""
    from merchantry import records

    session = records.Session(record["game"], record["players"], record["seed"], record["options"])
    found: list[int | None] = []
    was_open = False
    for seat, text in record["moves"]:
        session.apply(seat, text)
        state = session.state
        is_open = state.phase == "offer"
        if is_open and not was_open:
            good = state.offer_good
            found.append(next((p for p in range(state.num_players) if good in state.hands[p]), None))
        was_open = is_open
    return found


def offer_features(offer: dict[str, Any], players: int) -> list[float]:
    close = offer.get("closed", 0.0)
    return [close, *(offer["answered"].get(seat, close) for seat in range(1, players))]


# --- guessing from timings alone --------------------------------------------------------------------------


def rank_correlation(pairs: list[tuple[float, int]]) -> float:
    """Spearman's rank correlation of the pairs (ties take their mean rank)."""

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    if len(pairs) < 3:
        return float("nan")
    xs, ys = ranks([p[0] for p in pairs]), ranks([float(p[1]) for p in pairs])
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    var = (sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) ** 0.5
    return cov / var if var else float("nan")


def nearest_mean_accuracy(samples: list[tuple[list[float], Any]]) -> tuple[float, float]:
    """Leave-one-out: each sample's answer guessed as the answer whose other samples' mean timing is
    nearest; and chance, the share of the commonest answer."""
    if len(samples) < 3:
        return float("nan"), float("nan")
    right = 0
    for index, (features, answer) in enumerate(samples):
        others = [s for i, s in enumerate(samples) if i != index]
        means = {}
        for label in {a for _, a in others}:
            rows = [f for f, a in others if a == label]
            means[label] = [sum(column) / len(rows) for column in zip(*rows, strict=True)]
        guess = min(means, key=lambda a: sum((x - y) ** 2 for x, y in zip(features, means[a], strict=True)))
        right += guess == answer
    commonest = Counter(a for _, a in samples).most_common(1)[0][1]
    return right / len(samples), commonest / len(samples)


async def run(base: str, tables: int, seconds: float) -> dict[str, Any]:
    money, samarkand = MoneyWatch(), SamarkandWatch()
    offers: list[tuple[list[float], Any]] = []
    for _ in range(tables):
        await play(base, "money", money, seconds)
        before = len(samarkand.offers)
        table = await play(base, "samarkand", samarkand, seconds)
        record = table.view.get("record")
        if record:
            mine = samarkand.offers[before:]
            for offer, holder in zip(mine, holders(record), strict=False):
                # the probe knows when it holds the card itself, and a sale tells everyone who held it
                if holder != 0 and "closed" in offer and not offer["sold"]:
                    offers.append((offer_features(offer, 3), holder))
    money_samples = [([t], n) for t, n in money.samples]
    return {
        "money": (len(money_samples), *nearest_mean_accuracy(money_samples)),
        "samarkand": (len(offers), *nearest_mean_accuracy(offers)),
        "money_rank_correlation": rank_correlation(money.samples),
        "money_mean_time_by_cards": sorted(
            (n, round(sum(t for t, m in money.samples if m == n) / c, 3))
            for n, c in Counter(n for _, n in money.samples).items()
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--tables", type=int, default=6, help="games of each (default 6)")
    parser.add_argument("--delay", type=float, default=0.3, help="the server's bot delay (default 0.3 s)")
    parser.add_argument("--seconds", type=float, default=600, help="at most this long per game")
    parser.add_argument("--repo", type=Path, default=HERE.parent, help="the checkout whose server to probe")
    args = parser.parse_args()
    commit = subprocess.run(  # the code the server runs, read before it starts
        ["git", "-C", str(args.repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        server, base = start_server(args.repo.resolve(), args.delay, folder)
        try:
            found = asyncio.run(run(base, args.tables, args.seconds))
        finally:
            server.terminate()
            server.wait()
    print(f"timing probe: server {commit} ({args.repo}), bot delay {args.delay} s, {args.tables} games each;")
    print(f"  {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"{'what is guessed':42} {'samples':>8} {'from timing':>12} {'chance':>8}")
    rows = [
        ("Money: a bot's sealed-bid card count", "money"),
        ("Samarkand: who holds the card on offer", "samarkand"),
    ]
    for label, key in rows:
        count, accuracy, chance = found[key]
        print(f"{label:42} {count:>8} {accuracy:>11.0%} {chance:>8.0%}")
    print(f"Money: rank correlation of time and card count {found['money_rank_correlation']:+.2f}")
    print("Money, mean seconds from the previous seal by card count:", found["money_mean_time_by_cards"])


if __name__ == "__main__":
    main()
