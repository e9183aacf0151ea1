"""The rules pages' pictures: each game's board as the browser draws it now, with numbered callouts on its
parts, made again by running

    .venv/bin/python tools/rules_pictures.py            # every game; or name some: ... money samarkand

Each game's `images/labels.json` says what is shown: `moves`, how many of the person's moves are played
first (the greedy bot's, on the fixed deal of the game's guided first game, against its bots: the same
picture every run while the game and the page stay as they are), `height`, the window's height (1280 px
wide), and `labels`, the parts numbered on the picture (a selector each, and its words in every language,
which the rules page lists under the picture; `"side": "right"` puts a part's number on its right).
Writes `images/board-<language>.png` for every language the platform speaks, the page drawn in that
language (a German rules page showed an English board), at most 1280 px wide and reduced to a palette of 256
colours (a screenshot of flat colours loses nothing to the eye). Each picture says in its PNG text which
language it was drawn in and what its first numbered part read (`language`, `words`), so a test can tell a
picture from the English one.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Page, sync_playwright

from merchantry import bots, games
from merchantry.package import LANGUAGES
from merchantry.server import tutorials
from merchantry.server.app import create_app

CHROMIUM = "/usr/bin/chromium"
WIDTH = 1280
# numbered discs on the parts, drawn over the page for the picture only
CALLOUTS = """labels => {
  // the lesson's own panel, its ring and the lesson's options line are not part of a table's board
  const style = document.createElement('style');
  style.textContent = '#tutorial, #table-options { display: none !important } '
    + '.tutorial-target { outline: none !important; animation: none !important }';
  document.head.append(style);
  labels.forEach((label, i) => {
    const part = document.querySelector(label.point);
    if (!part) throw new Error(`no ${label.point} on the page`);
    const box = part.getBoundingClientRect();
    if (box.top < 0 || box.top + 20 > window.innerHeight) throw new Error(`${label.point}: not in it`);
    const disc = document.createElement('div');
    disc.textContent = String(i + 1);
    Object.assign(disc.style, {
      // clear of the part's words: left of a thin part (a line of text) at its middle, else on a box's
      // top left corner, outside its padding; right of a part whose label says `"side": "right"` (a button
      // with a neighbour on its left)
      position: 'absolute',
      left: `${label.side === 'right' ? box.right + window.scrollX + 8
        : Math.max(box.left + window.scrollX - (box.height < 60 ? 34 : 13), 0)}px`,
      top: `${Math.max(box.top + window.scrollY + (box.height < 60 ? box.height / 2 : 0) - 13, 0)}px`,
      width: '26px', height: '26px',
      borderRadius: '50%', background: '#b3261e', color: '#fff', font: 'bold 15px/26px sans-serif',
      textAlign: 'center', boxShadow: '0 0 0 3px #fff, 0 2px 6px #0008', zIndex: 100,
    });
    document.body.append(disc);
    part.style.outline = '2px solid #b3261e';
    part.style.outlineOffset = '1px';
  });
}"""


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """`app` served on a free local port in a thread; its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def labels_of(game: str) -> dict[str, Any]:
    path = games.package(game).folder / "images" / "labels.json"
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def person_move(service: Any, table_id: str, rng: random.Random) -> str | None:
    """The greedy bot's move for the person's seat when it is to act (run on the server's database thread)."""
    live = service.table(table_id)
    if live.status != "playing" or 0 not in live.state.to_act() or live.answered_by_server():
        return None
    return str(bots.get("greedy", live.game).choose(live.state.sample_hidden(0, rng), 0, rng))


def play(page: Page, base: str, app: Any, game: str, moves: int, language: str) -> str:
    """A table of the game's fixed deal, the person's first `moves` moves played; its address, in
    `language`."""
    created = page.request.post(f"{base}/api/tutorials/{game}", data={"name": "Ann"}).json()
    table_id, token = created["id"], created["token"]
    rng, played, deadline = random.Random(game), 0, time.time() + 300
    while played < moves and time.time() < deadline:
        move = app.state.in_database(person_move, app.state.service, table_id, rng)
        if move is None:
            time.sleep(0.05)
            continue
        page.request.post(
            f"{base}/api/tables/{table_id}/act", headers={"X-Seat-Token": token}, data={"action": move}
        )
        played += 1
    while app.state.in_database(person_move, app.state.service, table_id, rng) is None:  # the person's turn
        time.sleep(0.05)
    page.goto(f"{base}/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`merchantry:table:${id}`, JSON.stringify({ seat: 0, token }))",
        [table_id, token],
    )
    return f"{base}/table/{table_id}?lang={language}"


def picture(page: Page, base: str, app: Any, game: str, language: str) -> Path:
    spec = labels_of(game)
    page.set_viewport_size({"width": WIDTH, "height": spec["height"]})
    page.goto(play(page, base, app, game, spec["moves"], language))
    page.wait_for_selector(spec["labels"][0]["point"], timeout=30_000)
    page.wait_for_timeout(500)
    drawn_in = page.evaluate("document.documentElement.lang")
    if drawn_in != language:
        raise RuntimeError(f"{game}: the page was drawn in {drawn_in!r}, not {language!r}")
    words = page.inner_text(spec["labels"][0]["point"]).strip()
    page.evaluate(CALLOUTS, spec["labels"])
    target = games.package(game).folder / "images" / f"board-{language}.png"
    page.screenshot(path=str(target))
    small(target, {"language": language, "words": words})
    return target


def small(path: Path, text: dict[str, str]) -> None:
    """At most WIDTH px wide, in a palette of 256 colours, optimised; `text` kept in the PNG's text."""
    from PIL import Image, PngImagePlugin  # (matplotlib's own dependency)

    image = Image.open(path).convert("RGB")
    if image.width > WIDTH:
        image = image.resize((WIDTH, round(image.height * WIDTH / image.width)))
    info = PngImagePlugin.PngInfo()
    for key, value in text.items():
        info.add_itxt(key, value)  # (international text: the words are in the page's language)
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True, pnginfo=info)


def main(names: list[str]) -> int:
    chosen = names or [game for game in games.names() if tutorials.has_tutorial(game)]
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        app = create_app(f"sqlite:///{Path(folder) / 'pictures.db'}", bot_delay=0.02)
        with serving(app) as base:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            for game in chosen:
                for language in LANGUAGES:
                    page = browser.new_page()
                    target = picture(page, base, app, game, language)
                    print(f"{game}: {target} ({target.stat().st_size // 1024} KB)")
                    page.close()
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
