"""Plug-in bots (issue 34): the example package in examples/ installs, and its bot plays tournaments by its
entry-point name and as module:factory, on local worker processes and on a Ray cluster started with
`ray start --head` (with token authentication, as Ray 2.5x+ sets it up), joined with --address."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from merchantry import bots, cli, games
from merchantry.arena import local_ray
from merchantry.errors import UnknownBot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "merchantry-example-bot"
VENV_BIN = Path(sys.executable).parent
FACTORY = "merchantry_example_bot:make"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The example package installed (uv pip, as the project installs packages) into a folder of its own:
    the project's venv stays as it is, and the folder goes on PYTHONPATH for the commands that use it.
    Its build backend (hatchling, the project's own) comes from uv's cache, or the registry."""
    target = tmp_path_factory.mktemp("site")
    install = [str(VENV_BIN / "uv"), "pip", "install", "--quiet", "--no-deps", "--target", str(target)]
    install += ["--python", sys.executable, str(EXAMPLE)]
    done = subprocess.run([*install, "--offline"], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        done = subprocess.run(install, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (target / "merchantry_example_bot" / "__init__.py").is_file()
    return target


def merchantry(*argv: str, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(VENV_BIN / "merchantry"), *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )


def with_path(folder: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(folder), "COLUMNS": "200", **extra}


def test_a_module_factory_bot_plays_a_tournament_on_two_workers(monkeypatch, tmp_path, capsys):
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))  # on the path, not installed: by module:factory
    argv = ["tournament", "money", "--players", "3", "--bots", f"{FACTORY},greedy", "--games", "8"]
    assert cli.main([*argv, "--workers", "2", "--report", str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    assert FACTORY in out and "greedy" in out
    assert (tmp_path / "report" / "win_rate_by_bot.png").is_file()


def test_the_installed_package_offers_its_bot_by_name(installed):
    env = with_path(installed)
    listed = merchantry("games", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "lookahead" in listed.stdout
    played = merchantry(
        "tournament", "byzanz", "--players", "3", "--bots", "lookahead,greedy", "--games", "4",
        "--workers", "2", env=env,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "lookahead" in played.stdout


def test_plugins_stay_off_unless_enabled(monkeypatch):
    """The server and other library users name bots from requests: no module is imported for them."""
    monkeypatch.setattr(bots, "_plugins_enabled", False)
    monkeypatch.delenv(bots.PLUGINS_ENV, raising=False)
    with pytest.raises(UnknownBot, match="no bot 'os:system'"):
        bots.get("os:system", "money")
    with pytest.raises(UnknownBot, match="cannot import"):
        bots.get("no_such_module_anywhere:make", "money", plugins=True)
    with pytest.raises(UnknownBot, match="has no 'nothing'"):
        bots.get("merchantry.bots:nothing", "money", plugins=True)
    with pytest.raises(UnknownBot, match="no choose"):
        bots.get("builtins:str", "money", plugins=True)


def test_bad_plug_in_bots_are_one_line_errors_before_any_game(capsys):
    assert cli.main(["simulate", "money", "--bots", "nowhere.at.all:make", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot import 'nowhere.at.all'" in err


# --- a real Ray cluster, started and stopped here -------------------------------------------------------


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    """`ray start --head` on 127.0.0.1 with free ports, token authentication on, its own HOME (Ray writes
    ~/.ray/auth_token) and temp folder; stopped (every process it left) at the end."""
    pytest.importorskip("ray")
    home = tmp_path_factory.mktemp("rayhome")
    temp = Path(f"/tmp/ray-{os.getpid()}-{time.monotonic_ns() % 10**6}")  # sockets: keep the path short
    env = {**os.environ, "HOME": str(home), "RAY_AUTH_MODE": "token", "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    subprocess.run(
        [str(VENV_BIN / "ray"), "get-auth-token", "--generate"], env=env, check=True, capture_output=True
    )
    try:
        cluster = local_ray.start(VENV_BIN / "ray", env, str(temp), timeout=240)
    except local_ray.ClusterFailed as failed:
        pytest.fail(str(failed))
    try:
        yield {"address": cluster.address, "home": home}
    finally:
        local_ray.stop(cluster.session)
        subprocess.run(["rm", "-rf", str(temp)], check=False)


def test_plug_in_bots_play_on_a_ray_cluster_joined_by_address(ray_cluster, installed, tmp_path):
    """By name (entry point, the package installed on the driver only: the workers get its module and
    the name's module:factory) and by module:factory, in one tournament (each driver pays Ray's start-up
    once), the driver finding the token the Ray way; the same games as on local processes."""
    env = with_path(installed, HOME=str(ray_cluster["home"]))
    env.pop("RAY_AUTH_MODE", None)  # as a person's shell: the driver must find and send the token itself
    contest = ["--bots", f"lookahead,{FACTORY},greedy", "--players", "3", "--games", "6"]
    records = tmp_path / "records"
    on_cluster = merchantry(
        "tournament", "money", *contest, "--backend", "ray", "--address", ray_cluster["address"],
        "--records", str(records), env=env,
    )  # fmt: skip
    assert on_cluster.returncode == 0, on_cluster.stderr[-3000:]
    assert "lookahead" in on_cluster.stdout and FACTORY in on_cluster.stdout
    on_ray = [json.loads(line) for line in (records / "games.jsonl").read_text().splitlines()]
    here = tmp_path / "here"
    local = merchantry("tournament", "money", *contest, "--workers", "2", "--records", str(here), env=env)
    assert local.returncode == 0, local.stderr[-3000:]
    on_processes = [json.loads(line) for line in (here / "games.jsonl").read_text().splitlines()]
    by_index = {r["index"]: r["scores"] for r in on_processes}
    assert len(by_index) == 6
    assert {r["index"]: r["scores"] for r in on_ray} == by_index  # the same games wherever they ran


def test_a_driver_without_the_token_fails_in_one_line_before_any_game(ray_cluster, tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"}  # a machine that never saw the token
    env.pop("RAY_AUTH_MODE", None)
    refused = merchantry(
        "simulate", "money", "--players", "3", "--games", "2", "--backend", "ray",
        "--address", ray_cluster["address"], env=env,
    )  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0, refused.stderr[-2000:]
    assert "token" in refused.stderr and refused.stdout == ""


def test_nothing_listening_is_one_line_too(tmp_path):
    pytest.importorskip("ray")
    (port,) = local_ray.free_ports(1)
    env = {**os.environ, "HOME": str(tmp_path)}
    refused = merchantry(
        "tournament", "money", "--bots", "random,greedy", "--backend", "ray",
        "--address", f"127.0.0.1:{port}", env=env,
    )  # fmt: skip
    assert refused.returncode == 2 and "nothing answers" in refused.stderr
    assert refused.stderr.strip().count("\n") == 0, refused.stderr


def test_every_game_lists_installed_plugins_only_when_asked(installed, monkeypatch):
    monkeypatch.syspath_prepend(str(installed))
    import importlib

    importlib.invalidate_caches()
    monkeypatch.setattr(bots, "_plugins_enabled", False)
    monkeypatch.delenv(bots.PLUGINS_ENV, raising=False)
    for name in games.names():
        assert "lookahead" not in bots.names(name)
        assert "lookahead" in bots.names(name, plugins=True)
    monkeypatch.setenv(bots.PLUGINS_ENV, "1")  # the server operator's opt-in: names, never module:factory
    assert "lookahead" in bots.names("money")
    assert bots.get("lookahead", "money").name == "lookahead"
    with pytest.raises(UnknownBot):
        bots.get(FACTORY, "money")


@pytest.fixture(autouse=True)
def plugins_as_they_were():
    """cli.main enables plug-ins for the rest of its process: put the flag back for the other tests."""
    before = bots._plugins_enabled
    yield
    bots._plugins_enabled = before
