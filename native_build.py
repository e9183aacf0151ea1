"""Build the compiled engine: mypyc compiles the engine, each game's rules modules and the modules a game
lists in its native.txt (the policies its play-outs run) into C extensions.

    .venv/bin/python native_build.py [--into DIR]      (`make compiled`; `make setup` runs it)

The extensions go to `src/merchantry/_native/` (DIR), never beside the sources, with a manifest naming each
compiled module, its file and the SHA-256 of the source it was compiled from. At import, `merchantry`
loads them only when every listed source still has that hash (`merchantry/_native.py`), so an edit is
never hidden behind a stale extension: it runs as pure Python until the next build. The wheel build
(hatch_build.py) puts the same folder into the wheel.

Where no C compiler or no Python headers exist, nothing is built and merchantry runs as pure Python; a
failing compilation on a machine that has both is an error, and so is a missing compiler with --require or
MERCHANTRY_REQUIRE_COMPILED=1 (CI). MERCHANTRY_PURE=1 skips the build.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "merchantry"
# Modules compiled in every game package (when it has them), besides the engine: the forward model and
# the game's RL encoding.
GAME_MODULES = ("rules", "actions", "components", "game", "scoring", "encoding")
# A game may list more of its modules here, one per line ('#' starts a comment): what its play-outs spend
# their time in (issue 28: a whole-game analysis is mostly play-outs by the greedy policy). Only modules
# with no class that an uncompiled module subclasses: mypyc refuses interpreted subclasses of its classes.
MORE_MODULES = "native.txt"
# The RL adapters' step path beside it (issue 30): the tables, episodes and observers run once per step.
RL_MODULES = ("encoding", "episode", "table")
GROUP = "merchantry_native"  # mypyc's shared library: merchantry_native__mypyc
SETUP = """
from setuptools import setup
from mypyc.build import mypycify

setup(name="merchantry-native", ext_modules=mypycify({sources!r}, opt_level="3", group_name={group!r}))
"""


def compiled_sources(package: Path = PACKAGE) -> list[Path]:
    """The sources to compile, relative to the folder holding the package."""
    sources = [package / "engine.py"]
    sources += [path for name in RL_MODULES if (path := package / "rl" / f"{name}.py").exists()]
    for game in sorted(p for p in (package / "games").iterdir() if (p / "__init__.py").exists()):
        sources += [game / f"{name}.py" for name in GAME_MODULES if (game / f"{name}.py").exists()]
        sources += [game / f"{name}.py" for name in more_modules(game)]
    return [source.relative_to(package.parent) for source in sources]


def more_modules(game: Path) -> list[str]:
    """The further modules a game package asks to have compiled (its MORE_MODULES file), each checked."""
    listing = game / MORE_MODULES
    if not listing.exists():
        return []
    names = [line.split("#")[0].strip() for line in listing.read_text(encoding="utf-8").splitlines()]
    for name in filter(None, names):
        if not (game / f"{name}.py").exists():
            raise SystemExit(f"{listing}: no module {name}.py in {game.name}")
    return [name for name in names if name]


def module_name(source: Path) -> str:
    return ".".join(source.with_suffix("").parts)


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def why_not_buildable() -> str | None:
    """None when this machine can compile C extensions for this Python, else the reason."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(compiler):
        return f"no C compiler ({compiler})"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"no Python headers ({include}; Debian: apt-get install python3-dev)"
    return None


def build(into: Path) -> None:
    """Compile a copy of the package (the sources are never touched) and put the extensions into `into`."""
    sources = compiled_sources()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder)
        shutil.copytree(PACKAGE, copy / "merchantry", ignore=shutil.ignore_patterns("__pycache__", "_native"))
        setup = copy / "setup_native.py"
        setup.write_text(SETUP.format(sources=[str(source) for source in sources], group=GROUP))
        command = [sys.executable, str(setup), "build_ext", "--inplace", f"--parallel={os.cpu_count() or 1}"]
        done = subprocess.run(command, cwd=copy, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-20000:] + done.stderr[-20000:])
            raise SystemExit("mypyc failed: the compiled engine was not built")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        staging = Path(tempfile.mkdtemp(dir=into.parent, prefix=".native-"))
        modules = {}
        for source in sources:
            name = module_name(source)
            shutil.copy2(copy / source.with_suffix(suffix), staging / f"{name}{suffix}")
            modules[name] = {
                "file": f"{name}{suffix}",
                "source": str(source.relative_to("merchantry")),
                "sha256": source_hash(copy / source),
            }
        group = f"{GROUP}__mypyc"
        shutil.copy2(copy / f"{group}{suffix}", staging / f"{group}{suffix}")
        manifest = {
            "ext_suffix": suffix,
            "python": sys.version.split()[0],
            "group": {"name": group, "file": f"{group}{suffix}"},
            "modules": modules,
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        (staging / ".gitignore").write_text("*\n")
        if into.exists():
            shutil.rmtree(into)
        staging.rename(into)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--into", type=Path, default=PACKAGE / "_native")
    parser.add_argument("--require", action="store_true", help="fail where the build is impossible")
    args = parser.parse_args()
    if os.environ.get("MERCHANTRY_PURE") == "1":
        print("MERCHANTRY_PURE=1: the compiled engine is not built")
        return
    reason = why_not_buildable()
    if reason:
        if args.require or os.environ.get("MERCHANTRY_REQUIRE_COMPILED") == "1":
            raise SystemExit(f"cannot build the compiled engine: {reason}")
        print(f"the compiled engine is not built ({reason}): merchantry runs as pure Python")
        return
    build(args.into.resolve())
    print(f"compiled engine built into {args.into}")


if __name__ == "__main__":
    main()
