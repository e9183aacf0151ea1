"""How the rules pages' pictures are made: each game played a little in Debian's chromium against a live
server (one person, bots in the other seats), then the table photographed on the person's turn.

    .venv/bin/python examples/rules_pictures.py        # writes src/merchantry/games/<game>/images/board.png

The person's moves are drawn at random from the legal moves the page offers, seeded, so a run gives the
same pictures as long as the games and the page do not change.
"""

from __future__ import annotations

import random
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from merchantry import games
from merchantry.server.app import create_app

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1100, "height": 900}
TALL = {"samarkand": 1250}  # the whole map, under the hand
# the person's moves before the picture: far enough in for a board with something on it
MOVES_BEFORE = {"money": 10, "byzanz": 14, "grand_bazaar": 10, "samarkand": 16}
SEATS = {"money": 4, "byzanz": 4, "grand_bazaar": 3, "samarkand": 4}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(database: Path) -> tuple[str, uvicorn.Server]:
    app = create_app(f"sqlite:///{database}", bot_delay=0.02)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def create_table(page: Page, base: str, game: str, players: int) -> None:
    page.goto(base + "/")
    page.select_option("#game", game)
    page.dispatch_event("#game", "change")
    page.fill("#name", "Ann")
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    for seat in range(1, players):
        page.select_option(f"select[data-seat='{seat}']", "bot:greedy")
    page.click("#create button[type=submit]")


def play_until(page: Page, moves: int, rng: random.Random) -> None:
    """The person plays `moves` random legal moves (never taking a card back), then waits for their turn."""
    deadline, played = time.time() + 180, 0
    while time.time() < deadline:
        legal = page.locator(".moves-panel [data-move]").evaluate_all("ns => ns.map(n => n.dataset.move)")
        if legal:
            if played >= moves:
                return
            forward = [m for m in legal if m.split()[0] not in ("pass", "remove")]
            choice = rng.choice(forward or legal)
            page.locator(f'.moves-panel [data-move="{choice}"]').evaluate("node => node.click()")
            played += 1
        page.wait_for_timeout(300)
    raise RuntimeError("the game did not reach the position in time")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, server = serve(Path(folder) / "pictures.db")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for game in games.names():
            page = browser.new_page(viewport={**VIEWPORT, "height": TALL.get(game, VIEWPORT["height"])})
            page.on("dialog", lambda dialog: dialog.accept())
            create_table(page, base, game, SEATS[game])
            play_until(page, MOVES_BEFORE[game], random.Random(game))
            page.wait_for_timeout(400)
            target = games.package(game).folder / "images" / "board.png"
            target.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(target))
            print(f"{game}: {target}")
            page.close()
        browser.close()
        server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
