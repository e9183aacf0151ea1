"""The two builds (issue 30): the compiled engine (mypyc extensions in merchantry/_native/) runs only while
its sources are unchanged, MERCHANTRY_PURE=1 forces pure Python, and `merchantry.build` says which runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import merchantry
from merchantry import _native, engine

ROOT = Path(__file__).resolve().parent.parent


def build_in(environment: dict[str, str]) -> tuple[str, str]:
    """merchantry.build and the engine module's file, in a fresh interpreter."""
    code = "import merchantry, merchantry.engine as e; print(merchantry.build); print(e.__file__)"
    env = {**os.environ, **environment}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    build, file = out.stdout.splitlines()
    return build, file


def test_the_build_in_use_is_the_one_reported() -> None:
    compiled = engine.__file__.endswith(".so") or "_native" in engine.__file__
    assert (merchantry.build == _native.COMPILED) == compiled
    assert merchantry.build == _native.COMPILED or merchantry.build.startswith(_native.PURE + " (")


def test_merchantry_pure_forces_pure_python() -> None:
    build, file = build_in({"MERCHANTRY_PURE": "1"})
    assert build == f"{_native.PURE} (MERCHANTRY_PURE=1)"
    assert file.endswith("engine.py")


@pytest.mark.skipif(os.environ.get("MERCHANTRY_EXPECT_COMPILED") != "1", reason="the pure-Python run")
def test_the_compiled_build_runs_where_it_can_be_built() -> None:
    """`make test` sets MERCHANTRY_EXPECT_COMPILED for its second run: with a C compiler and the Python
    headers, `make setup` has built the compiled engine and these tests run on it."""
    sys.path.insert(0, str(ROOT))
    try:
        import native_build
    finally:
        sys.path.remove(str(ROOT))
    reason = native_build.why_not_buildable()
    if reason:
        pytest.skip(f"this machine cannot build it: {reason}")
    assert merchantry.build == _native.COMPILED, merchantry.build
    assert engine.__file__.endswith(".so")


def manifest_for(tmp_path: Path, source_text: bytes, recorded: bytes) -> dict[str, object]:
    import hashlib
    import sysconfig

    (tmp_path / "engine.py").write_bytes(source_text)
    return {
        "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX"),
        "modules": {
            "merchantry.engine": {"source": "engine.py", "sha256": hashlib.sha256(recorded).hexdigest()}
        },
    }


def test_an_edited_source_makes_the_compiled_modules_stale(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(_native, "HERE", tmp_path)
    assert _native._stale(manifest_for(tmp_path, b"x = 1\n", b"x = 1\n")) is None
    reason = _native._stale(manifest_for(tmp_path, b"x = 2\n", b"x = 1\n"))
    assert reason is not None and "engine.py changed" in reason and "make compiled" in reason


def test_modules_built_for_another_python_are_not_loaded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(_native, "HERE", tmp_path)
    manifest = manifest_for(tmp_path, b"x = 1\n", b"x = 1\n")
    manifest["ext_suffix"] = ".cpython-27-elsewhere.so"
    assert _native._stale(manifest) == "built for another Python"


def test_a_stale_build_runs_as_pure_python(tmp_path: Path) -> None:
    """The whole package falls back when one compiled source changed: a copy of the package whose
    manifest records another hash for the engine."""
    if not (Path(_native.__file__).parent / "_native" / "manifest.json").exists():
        pytest.skip("no compiled modules in this work tree")
    import shutil

    copy = tmp_path / "merchantry"
    shutil.copytree(Path(merchantry.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    manifest_file = copy / "_native" / "manifest.json"
    manifest = json.loads(manifest_file.read_text())
    manifest["modules"]["merchantry.engine"]["sha256"] = "0" * 64
    manifest_file.write_text(json.dumps(manifest))
    build, file = build_in({"PYTHONPATH": str(tmp_path), "MERCHANTRY_PURE": ""})
    assert build == f"{_native.PURE} (engine.py changed since it was compiled: make compiled)"
    assert file == str(copy / "engine.py")


def native_build_module():
    sys.path.insert(0, str(ROOT))
    try:
        import native_build
    finally:
        sys.path.remove(str(ROOT))
    return native_build


def test_a_games_native_txt_adds_its_modules_to_the_compiled_ones(tmp_path: Path) -> None:
    """A game lists the modules its play-outs spend their time in (issue 28); one it does not have is an
    error at build time, not a module silently left out."""
    native_build = native_build_module()
    game = tmp_path / "merchantry" / "games" / "toy"
    game.mkdir(parents=True)
    (tmp_path / "merchantry" / "engine.py").write_text("")
    for name in ("__init__", "rules", "greedy", "helpers"):
        (game / f"{name}.py").write_text("")
    (game / "native.txt").write_text("# the play-out policy\ngreedy  # and no other\n")
    sources = [str(s) for s in native_build.compiled_sources(tmp_path / "merchantry")]
    assert sources == [
        "merchantry/engine.py",
        "merchantry/games/toy/rules.py",
        "merchantry/games/toy/greedy.py",
    ]
    (game / "native.txt").write_text("greedy\nmissing\n")
    with pytest.raises(SystemExit, match="missing"):
        native_build.compiled_sources(tmp_path / "merchantry")
