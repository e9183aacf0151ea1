"""What a mypyc build of the rules would gain (issue 12, item 2): compile a copy, measure both in one run.

    .venv/bin/python benchmarks/mypyc_trial.py [--seconds S] [--players N]

Copies today's `src/merchantry` to a temporary folder, makes the three changes mypyc needs (the engine's
State and Game may be subclassed by interpreted classes such as the tests' toy games; `State.game` is a
ClassVar; Samarkand's slot list is spelled out where to_dict reads it), compiles the engine and every
game's rules, actions, components and game modules with mypyc (needs a C compiler and the Python headers),
then runs benchmarks/bench_engine.py's worker on the compiled copy and on the working tree, one after the
other, per game. Nothing of the build is kept or shipped: see docs/benchmarks.md for the figures and why.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_engine import COLUMNS, ROOT, cell, machine, run_worker

GAMES = ("byzanz", "grand_bazaar", "money", "samarkand")
MODULES = ("rules", "actions", "components", "game")


def prepare(copy: Path) -> None:
    engine = copy / "merchantry" / "engine.py"
    text = engine.read_text()
    text = text.replace(
        "from merchantry.errors import",
        "from mypy_extensions import mypyc_attr\n\nfrom merchantry.errors import",
        1,
    )
    for name in ("State", "Game"):
        text = text.replace(
            f"class {name}(ABC):", f"@mypyc_attr(allow_interpreted_subclasses=True)\nclass {name}(ABC):"
        )
    text = text.replace("    game: Game\n", "    game: ClassVar[Game]\n")
    text = text.replace("from typing import Any, TypeVar", "from typing import Any, ClassVar, TypeVar")
    engine.write_text(text)
    rules = copy / "merchantry" / "games" / "samarkand" / "rules.py"
    text = rules.read_text()
    slots = re.search(r"    __slots__ = \((.*?)\n    \)", text, re.S)
    assert slots, "Samarkand's __slots__ moved: update this trial"
    text = text.replace("SamarkandState.__slots__", "_SLOTS")
    text = text.replace(
        "class SamarkandState(State):", f"_SLOTS = ({slots.group(1)}\n)\n\n\nclass SamarkandState(State):"
    )
    rules.write_text(text)


def compile_copy(copy: Path) -> None:
    modules = ["merchantry/engine.py", "merchantry/games/money/scoring.py"]
    modules += [f"merchantry/games/{game}/{module}.py" for game in GAMES for module in MODULES]
    mypyc = Path(sys.executable).parent / "mypyc"
    subprocess.run([str(mypyc), *modules], cwd=copy, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    from rich.console import Console
    from rich.table import Table

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "src"
        shutil.copytree(ROOT / "src", copy, ignore=shutil.ignore_patterns("__pycache__"))
        prepare(copy)
        compile_copy(copy)
        table = Table(title=f"mypyc build against today's pure Python — {machine()}, {args.players} players")
        for heading in ("game", "build", *(title for _, title, _, _ in COLUMNS)):
            table.add_column(heading, justify="right")
        for game in GAMES:
            worker_args = (game, str(args.players), str(args.seconds))
            compiled = run_worker(copy, *worker_args)
            pure = run_worker(None, *worker_args)
            table.add_row(game, "mypyc", *(cell(column, compiled, pure) for column in COLUMNS))
            table.add_row("", "pure", *(form.format(pure[key]) for key, _, form, _ in COLUMNS), style="dim")
        Console(width=160).print(table)


if __name__ == "__main__":
    main()
