"""ENGINE principle 8: the platform around the games names no game. Everything about a game is in its
package (`src/merchantry/games/<game>/`), registered with one line in `merchantry.games`; this test reads
every platform file (Python, JavaScript, HTML, CSS, catalogues) outside `games/` and fails on any game's
name, title, class names or card words."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
from pathlib import Path

import pytest

from merchantry import games

SOURCE = Path(games.__file__).parent.parent  # src/merchantry
PLATFORM_SUFFIXES = {".py", ".js", ".html", ".css", ".json", ".mako"}


def platform_files() -> list[Path]:
    return [
        path
        for path in sorted(SOURCE.rglob("*"))
        if path.suffix in PLATFORM_SUFFIXES and not {"games", "_native"} & set(path.relative_to(SOURCE).parts)
    ]  # _native/: the compiled build's output (native_build.py), generated from the games' own modules


def game_words(name: str) -> set[str]:
    """Words only this game uses: its name and title, the classes its package defines, its card words."""
    package = games.package(name)
    words = {name, name.replace("_", " "), name.replace("_", ""), package.game.title}
    root = importlib.import_module(f"merchantry.games.{name}")
    for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
        module = importlib.import_module(info.name)
        words |= {n for n, obj in inspect.getmembers(module, inspect.isclass) if obj.__module__ == info.name}
    for catalogue in (package.folder / "locales").glob("*.json"):
        terms = json.loads(catalogue.read_text()).get("term", {})
        # card codes (cloth3, EUR20, BLUFF); plain words such as "merchant" are the project's own theme
        words |= {t for t in terms if any(c.isdigit() for c in t) or (t.isupper() and len(t) > 2)}
    return words


@pytest.mark.parametrize("name", games.names())
def test_no_platform_file_names_the_game(name):
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(game_words(name))) + r")\b", re.I)
    found = []
    for path in platform_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(SOURCE)}:{number}: {line.strip()[:80]}")
    assert not found, "platform files that name a game:\n" + "\n".join(found)


def test_the_check_sees_the_platform_files():
    names = {str(p.relative_to(SOURCE)) for p in platform_files()}
    assert {"engine.py", "bots/__init__.py", "server/app.py", "server/static/app.js"} <= names
    assert not any(n.startswith("games/") for n in names)
