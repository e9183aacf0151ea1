"""Where a long run's games are played: here (`local`, one process or a pool of `workers`), or on a Ray
cluster (`ray`, the optional extra `merchantry[distributed]`; a local cluster unless `address` names
one). Games are handed out in chunks and their results reported as chunks finish; which machine played a
game never changes its result, because a game depends only on its own arguments.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

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
) -> None:
    """Call `play` on every task (a module-level function, so that other processes can run it) and hand
    each result to `on_result` as its task finishes. Ctrl-C cancels what has not started."""

    def on_results(results: list[Result]) -> None:
        for result in results:
            on_result(result)

    if backend not in BACKENDS:
        raise ValueError(f"no backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if backend == "ray":
        _on_ray(play, tasks, on_results, address)
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


def _on_ray(
    play: Callable[[Task], list[Result]],
    tasks: Sequence[Task],
    on_results: Callable[[list[Result]], None],
    address: str | None,
) -> None:
    try:
        import ray
    except ImportError:
        raise ValueError(
            "the ray backend needs the optional extra: pip install 'merchantry[distributed]'"
        ) from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    remote: Any = ray.remote(play)
    pending = [remote.remote(task) for task in tasks]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            on_results(ray.get(finished[0]))
    finally:
        for ref in pending:
            ray.cancel(ref)
