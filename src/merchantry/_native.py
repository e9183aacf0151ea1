"""Which build runs: the compiled engine (mypyc extensions in `_native/`) or pure Python.

`native_build.py` (`make compiled`, run by `make setup` and by the wheel build) compiles the engine and the
games' rules modules into `_native/`, beside a manifest of each module's source hash. `activate()` runs
first thing when `merchantry` is imported: it puts a finder in front of Python's own that loads those
extensions, but only when every compiled module's source still has the hash it was compiled from; one
edited source and the whole package runs as pure Python (the compiled modules call each other's native
code directly, so they go together or not at all). MERCHANTRY_PURE=1 forces pure Python.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "_native"
COMPILED = "compiled (mypyc)"
PURE = "pure Python"


class _NativeFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules listed in the manifest, each at its file in `_native/`."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def _stale(manifest: dict[str, object]) -> str | None:
    """Why the compiled modules may not be used with these sources, or None."""
    if manifest.get("ext_suffix") != sysconfig.get_config_var("EXT_SUFFIX"):
        return "built for another Python"
    modules = manifest["modules"]
    assert isinstance(modules, dict)
    for entry in modules.values():
        source = HERE / entry["source"]
        if not source.exists() or hashlib.sha256(source.read_bytes()).hexdigest() != entry["sha256"]:
            return f"{entry['source']} changed since it was compiled: make compiled"
    return None


def activate() -> str:
    """Install the finder when the compiled build may run; returns which build runs, and why."""
    if os.environ.get("MERCHANTRY_PURE") == "1":
        return f"{PURE} (MERCHANTRY_PURE=1)"
    try:
        manifest = json.loads((FOLDER / "manifest.json").read_text())
    except (OSError, ValueError):
        return f"{PURE} (no compiled modules: make compiled)"
    reason = _stale(manifest)
    if reason:
        return f"{PURE} ({reason})"
    files = {name: FOLDER / entry["file"] for name, entry in manifest["modules"].items()}
    files[manifest["group"]["name"]] = FOLDER / manifest["group"]["file"]
    sys.meta_path.insert(0, _NativeFinder(files))
    return COMPILED
