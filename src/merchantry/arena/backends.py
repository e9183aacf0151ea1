"""Where a long run's games are played: here (`local`, one process or a pool of `workers`), or on a Ray
cluster (`ray`, the optional extra `merchantry[distributed]`; a local cluster unless `address` names
one). Games are handed out in chunks and their results reported as chunks finish; which machine played a
game never changes its result, because a game depends only on its own arguments.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, TypeVar

from merchantry import bots

BACKENDS = ("local", "ray")
CHUNK = 4  # games per task handed to another process or machine
Task = TypeVar("Task")
Result = TypeVar("Result")


def chunked(indices: Sequence[int], workers: int = 1, backend: str = "local") -> list[list[int]]:
    """Game indices in tasks: one game per task in this process, CHUNK games per task elsewhere (fewer
    round trips; progress still moves every few games)."""
    size = 1 if workers <= 1 and backend == "local" else CHUNK
    return [list(indices[start : start + size]) for start in range(0, len(indices), size)]


def run_chunks(
    play: Callable[[Task], list[Result]],
    tasks: Sequence[Task],
    on_result: Callable[[Result], None],
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    bot_names: Sequence[str] = (),
) -> None:
    """Call `play` on every task (a module-level function, so that other processes can run it) and hand
    each result to `on_result` as its task finishes. Ctrl-C cancels what has not started. `bot_names`
    are the run's bots: the plug-ins among them are shipped to a Ray cluster's workers."""

    def on_results(results: list[Result]) -> None:
        for result in results:
            on_result(result)

    if backend not in BACKENDS:
        raise ValueError(f"no backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if backend == "ray":
        connect(backend, address, bot_names)
        _on_ray(play, tasks, on_results)
    elif workers <= 1:
        for task in tasks:
            on_results(play(task))
    else:
        _on_processes(play, tasks, on_results, workers)


def _on_processes(
    play: Callable[[Task], list[Result]],
    tasks: Sequence[Task],
    on_results: Callable[[list[Result]], None],
    workers: int,
) -> None:
    pool = ProcessPoolExecutor(max_workers=workers)
    waiting: Iterator[Task] = iter(tasks)
    try:
        first = itertools.islice(waiting, 2 * workers)  # two tasks per worker in flight, no more
        pending: set[Future[list[Result]]] = {pool.submit(play, task) for task in first}
        while pending:
            completed, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in completed:
                on_results(future.result())
                for task in waiting:  # one more task for the one that finished
                    pending.add(pool.submit(play, task))
                    break
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def connect(backend: str, address: str | None = None, bot_names: Sequence[str] = ()) -> None:
    """Join (or start) the Ray cluster before any game runs, so that a run fails at once and in one line
    (a ValueError) when the cluster cannot be reached; nothing to do for local processes. Once joined, the
    process stays joined (ray.shutdown() leaves)."""
    if backend != "ray":
        return
    try:
        import ray
    except ImportError:
        raise ValueError(
            "the ray backend needs the optional extra: pip install 'merchantry[distributed]'"
        ) from None
    if ray.is_initialized():
        return
    if address:
        _check_reachable(address)
        _send_token_if_any()
        # a refused token is not worth Ray's 20 one-second retries
        os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(JOIN_RETRIES))
    with _stderr_kept() as said:  # Ray's C++ core warns on stderr at every retry; the reason is kept
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
                runtime_env=_runtime_env(bot_names) or None,
            )
            return
        except Exception as exc:  # Ray raises ConnectionError, AuthenticationError, RuntimeError, ...
            problem = _connection_problem(address, exc, said())
    raise ValueError(problem)


JOIN_RETRIES = 5  # seconds a driver keeps trying to join a cluster that answers but refuses it


def _check_reachable(address: str) -> None:
    """One line at once when nothing listens at HOST:PORT (`auto` and ray:// are left to Ray)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "//" in address:
        return
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise ValueError(
            f"cannot join the Ray cluster at {address}: nothing answers there ({exc.strerror or exc}); "
            "start it with `ray start --head --port PORT` (docs/arena.md, 'Many machines')"
        ) from None


@contextlib.contextmanager
def _stderr_kept() -> Iterator[Callable[[], str]]:
    """Send this process's stderr (file descriptor 2, where Ray's C++ core logs) to a file while the
    block runs; yields a function that returns what was written."""
    with tempfile.TemporaryFile(mode="w+b") as kept:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError):  # no real stderr (some test runners): nothing to hide
            yield lambda: ""
            return
        os.dup2(kept.fileno(), 2)
        try:
            yield lambda: (kept.seek(0), kept.read().decode("utf-8", "replace"))[1]
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _token_available() -> bool:
    """Whether this machine holds a Ray token the Ray way: RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH
    names, or ~/.ray/auth_token (which `ray start --head` and a local ray.init() write)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    return Path(path).is_file()


def _send_token_if_any() -> None:
    """Ray 2.5x+ clusters started by `ray start --head` ask for a token once one exists on the head, but a
    driver joining by address sends it only in RAY_AUTH_MODE=token: where this machine has a token and
    the mode is not chosen, choose it (a cluster without authentication accepts a driver that sends one)."""
    if os.environ.get("RAY_AUTH_MODE") is not None or not _token_available():
        return
    os.environ["RAY_AUTH_MODE"] = "token"
    try:  # Ray read its configuration when imported: have it read the mode again
        from ray._raylet import Config  # type: ignore[attr-defined]

        Config.initialize("")
    except (ImportError, AttributeError):
        pass


def _runtime_env(bot_names: Sequence[str]) -> dict[str, Any]:
    """What the workers need beyond Merchantry: the modules of the run's plug-in bots (so that a bot
    need not be installed on every machine), and the `module:factory` behind each installed plug-in's
    name (the workers may not have the package's metadata)."""
    env: dict[str, Any] = {}
    modules = bots.plugin_modules(list(bot_names))
    if modules:
        env["py_modules"] = modules
    installed = bots.installed()
    specs = {name: installed[name] for name in bot_names if name in installed}
    if specs:
        env["env_vars"] = {bots.SPECS_ENV: json.dumps(specs)}
    return env


def _connection_problem(address: str | None, exc: BaseException, logged: str = "") -> str:
    """Ray's failure as one line a person can act on."""
    where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
    text = " ".join(str(exc).split()) or type(exc).__name__
    causes = [exc.__cause__, exc.__context__]
    said = " ".join([text, logged, *(f"{type(c).__name__} {c}" for c in causes if c)])
    if "InvalidAuthToken" in said or "AuthenticationError" in said or "Unauthenticated" in said:
        return (
            f"cannot join {where}: it asks for a token this machine does not have or that does not match; "
            "put the head's ~/.ray/auth_token at the same place here, or set RAY_AUTH_TOKEN "
            "(docs/arena.md, 'Many machines')"
        )
    return f"cannot join {where}: {text[:300]}"


def _on_ray(
    play: Callable[[Task], list[Result]],
    tasks: Sequence[Task],
    on_results: Callable[[list[Result]], None],
) -> None:
    import ray

    remote: Any = ray.remote(play)
    pending = [remote.remote(task) for task in tasks]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            on_results(ray.get(finished[0]))
    finally:
        for ref in pending:
            ray.cancel(ref)
