"""CPU work the server does for its clients: the bots' thinking, hints, analyses. Each kind runs in a few
threads of its own (a `FairPool`), taken in turns by client, with bounds on what waits.

Python runs one thread's bytecode at a time: a search thinking for seconds takes the interpreter from the
event loop and the database thread, which every request needs. Work started on a thread per request (as it
was) let 18 tables asking for hints push another table's round trip from 2 to 97 ms at the median. So:
- **few threads**: a pool's threads are all the CPU that kind of work gets, however much is asked;
- **or processes of their own**, for a server that owns its process (`merchantry serve`): there a search
  holds its own interpreter, not the server's, at a lower priority (hints and analyses only when nothing
  else wants the CPU, SCHED_IDLE; `idle=False` is nice 19), so the server's own work comes first
  (`in_processes`; the bots' pool stays in a thread, see docs/web.md, "Limits");
- **in turns by client**: whoever asks most waits longest: each client's jobs queue on their own, and the
  pool takes the next job from the next client in turn, so one client's queue holds up another's job by at
  most one job of theirs;
- **bounded**: a client may have `per_client` jobs waiting or running, the pool `queue` waiting in all;
  beyond that the request is refused (429, with the reason), never queued without end. A job's place in
  the queue (`position`) can be told to whoever waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import queue
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from merchantry.server.refusal import Refused  # not from tables: a worker process needs no database layer

UNBOUNDED = 1 << 30


@dataclass(eq=False, repr=False)
class Job:
    client: str
    work: Callable[[], Any]
    done: asyncio.Future[Any]
    started: bool = False


@dataclass(eq=False, repr=False)
class FairPool:
    """`threads` threads doing one kind of work (named `what` in refusals), taken in turns by client."""

    what: str
    threads: int
    per_client: int = UNBOUNDED
    queue: int = UNBOUNDED
    waiting: OrderedDict[str, deque[Job]] = field(default_factory=OrderedDict)  # per client, in turn order
    running: dict[str, int] = field(default_factory=dict)  # per client
    busy: int = 0
    processes: bool = False  # in worker processes of their own (`in_processes`), not threads
    # ... at which priority (`Priority`): hints and analyses only when nothing else wants the CPU
    priority: Priority | None = None
    one: str = ""  # one job in words ("a hint"), for a refusal at a share of one: not "1 hints"

    def __post_init__(self) -> None:
        # what a job in a worker process has done so far, told through shared memory (`Progress`)
        self.progress = Progress(self.threads) if self.processes else None
        self.executor = self._new_executor()

    def _new_executor(self) -> Executor:
        if self.processes:
            executor = in_processes(self.threads, self.progress, self.priority or IDLE)
            # its worker processes started now, each readied for work (`start_worker`), not at the first job
            # a person waits for: one job each, sent together, starts them all (one starts per job while
            # none is idle)
            for _ in range(self.threads):
                executor.submit(warm_up)
            return executor
        return ThreadPoolExecutor(self.threads, thread_name_prefix=self.what.replace(" ", "-"))

    def queued(self) -> int:
        return sum(len(jobs) for jobs in self.waiting.values())

    def held_by(self, client: str) -> int:
        return len(self.waiting.get(client, ())) + self.running.get(client, 0)

    def check(self, client: str) -> None:
        """Refuse (429) a job over the client's share or the pool's queue."""
        if self.held_by(client) >= self.per_client:
            held = self.one if self.per_client == 1 and self.one else f"{self.per_client} {self.what}"
            # `why`: which limit, for a page to say in its reader's language
            why = {"key": "own_job_waiting", "params": {}, "clauses": []}
            raise Refused(429, f"you already have {held} waiting or being worked out: wait for it", why)
        if self.busy >= self.threads and self.queued() >= self.queue:
            why = {"key": "queue_full", "params": {"waiting": self.queued()}, "clauses": []}
            raise Refused(
                429, f"the server has {self.queued()} {self.what} waiting already: try again in a moment", why
            )

    def submit(self, client: str, work: Callable[..., Any], *args: Any) -> Job:
        """Queue `work(*args)` for `client` (refused with 429 over the bounds); its result comes in
        `job.done`. Must be called from the event loop."""
        self.check(client)
        job = Job(client, partial(work, *args), asyncio.get_running_loop().create_future())
        self.waiting.setdefault(client, deque()).append(job)
        job.done.add_done_callback(lambda _: self._withdraw(job))
        self._dispatch()
        return job

    async def run(self, client: str, work: Callable[..., Any], *args: Any) -> Any:
        """`work(*args)` in the pool, for `client`, once its turn comes; its result."""
        return await self.submit(client, work, *args).done

    def position(self, job: Job) -> int:
        """How many jobs will start before this one (0: it is running or next). Turns go client by client,
        in the order of `waiting`: first every client's first job, then every client's second, ..."""
        mine = self.waiting.get(job.client)
        if job.started or mine is None or job not in mine:
            return 0
        rounds = list(mine).index(job)
        ahead = 0
        for client, jobs in self.waiting.items():
            ahead += min(len(jobs), rounds)  # whole rounds before this job's
            if client != job.client and len(jobs) > rounds and self._before(client, job.client):
                ahead += 1  # and, in this job's round, the clients whose turn comes first
        return ahead

    def _before(self, client: str, other: str) -> bool:
        order = list(self.waiting)
        return order.index(client) < order.index(other)

    def _withdraw(self, job: Job) -> None:
        """A job given up on before it started (its request went away) leaves the queue."""
        if not job.started:
            jobs = self.waiting.get(job.client)
            if jobs is not None and job in jobs:
                jobs.remove(job)
                if not jobs:
                    del self.waiting[job.client]

    def _dispatch(self) -> None:
        """Start jobs while threads are free, the next client in turn first."""
        while self.busy < self.threads and self.waiting:
            client, jobs = self.waiting.popitem(last=False)
            job = jobs.popleft()
            if jobs:  # the client's next job waits for its next turn, behind everyone else's
                self.waiting[client] = jobs
            job.started = True
            self.busy += 1
            self.running[client] = self.running.get(client, 0) + 1
            running = asyncio.get_running_loop().run_in_executor(self.executor, job.work)
            running.add_done_callback(partial(self._finished, job))

    def _finished(self, job: Job, running: asyncio.Future[Any]) -> None:
        self.busy -= 1
        self.running[job.client] -= 1
        if not self.running[job.client]:
            del self.running[job.client]
        if not job.done.done():
            if running.cancelled():
                job.done.cancel()
            elif (error := running.exception()) is not None:
                if isinstance(error, BrokenProcessPool):  # a worker died (killed): the next job gets new ones
                    self.executor.shutdown(wait=False, cancel_futures=False)
                    self.executor = self._new_executor()
                job.done.set_exception(error)
            else:
                job.done.set_result(running.result())
        self._dispatch()

    def shutdown(self) -> None:
        for jobs in self.waiting.values():
            for job in jobs:
                job.done.cancel()
        self.waiting.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self.progress is not None:
            self.progress.close()


class Progress:
    """How far the job each worker process runs has got: a slot per worker (the job's number, and what
    it has done), in memory the processes share. A job in a process cannot call back into the server."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("forkserver")
        self.jobs = context.Array("q", workers, lock=False)
        self.done = context.Array("q", workers, lock=False)
        self.claimed = context.Value("i", 0)
        # what a job has found so far, as it finds it: (job number, an item), read by `drain`
        self.found: Any = context.Queue()

    def of(self, number: int) -> int:
        for slot, job in enumerate(self.jobs):
            if job == number:
                return int(self.done[slot])
        return 0

    def drain(self) -> list[tuple[int, Any]]:
        """Everything the jobs have told (`tell`) since the last drain, oldest first."""
        told = []
        while True:
            try:
                told.append(self.found.get_nowait())
            except queue.Empty:
                return told

    def close(self) -> None:
        self.found.cancel_join_thread()
        self.found.close()


_progress: tuple[Progress, int] | None = None  # in a worker process: the shared slots and its own


@dataclass(frozen=True)
class Priority:
    """How a worker process is scheduled beside the server. `idle`: only when nothing else wants the CPU
    (Linux's SCHED_IDLE). Otherwise SCHED_BATCH at `nice`: a fair share of the CPU, never starved, but the
    scheduler takes it for work that waits, not for a person: a process waking up (the server, for a
    request) is run before it, and it does not push the running server aside when it wakes."""

    idle: bool = False
    nice: int = 0
    batch: bool = True


IDLE = Priority(idle=True)


def in_processes(
    count: int, progress: Progress | None = None, priority: Priority = IDLE
) -> ProcessPoolExecutor:
    """`count` worker processes for CPU work, started by a fork server (not forked from the server, whose
    threads may hold locks), scheduled at `priority`. The work and its arguments travel pickled: a bot's
    move to think out is a few KiB (0.1 ms)."""
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(
        count, mp_context=context, initializer=start_worker, initargs=(progress, priority)
    )


def start_worker(progress: Progress | None, priority: Priority) -> None:
    """A worker process at `priority`, holding its own slot of `progress`, with what its work needs loaded
    (`ready_for_work`) before its first job comes."""
    global _progress
    if priority.idle:
        lowest_priority()
    else:
        batch_priority(priority.nice, priority.batch)
    if progress is not None:
        with progress.claimed.get_lock():
            _progress = (progress, progress.claimed.value % len(progress.jobs))
            progress.claimed.value += 1
    ready_for_work()


def ready_for_work() -> None:
    """Load what a hint, an analysis or a bot's move needs, every game with its bots and its search: a worker
    started by the pool's warm-up (FairPool) does it while nobody waits, instead of a person's first hint
    (its worker imported the whole database layer and then the game, 3-4 s of CPU on a busy machine)."""
    from merchantry import games
    from merchantry.bots.analysis import analysis_recipe, calibration
    from merchantry.bots.ismcts import searcher

    for name in games.names():
        info = games.get(name)
        searcher(name, analysis_recipe(name))
        calibration(name, info.min_players)


def warm_up() -> None:
    """Nothing: a job that makes the pool start a worker process (readied by `start_worker`)."""


def batch_priority(nice: int, batch: bool = True) -> None:
    """SCHED_BATCH at `nice` (see Priority); where that is not offered, only the nice value."""
    with contextlib.suppress(AttributeError, OSError):
        if batch:
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    if nice:
        os.nice(nice)


def lowest_priority() -> None:
    """The process runs only when nothing else wants the CPU (Linux's SCHED_IDLE): a request the server
    answers, or a person's browser on the same machine, takes the core from it at once. Where that is not
    offered, the lowest nice."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def report(number: int, done: int) -> None:
    """In a worker process: job `number` has done `done` (read by `Progress.of` in the server)."""
    if _progress is not None:
        shared, slot = _progress
        shared.jobs[slot], shared.done[slot] = number, done


def tell(number: int, item: Any) -> None:
    """In a worker process: job `number` has found `item` (read by `Progress.drain` in the server)."""
    if _progress is not None:
        _progress[0].found.put((number, item))


def analyse(number: int, record: Any, config: Any) -> list[dict[str, Any]]:
    """A finished game's analysis in a worker process (merchantry.bots.analysis): its decisions as the API
    sends them (`decision_body`), each told as soon as it is judged (`tell`), and its progress (`report`)."""
    from merchantry.bots.analysis import analyze

    decisions = []
    for decision in analyze(record, config, progress=lambda done, _: report(number, done)):
        decisions.append(decision_body(decision))
        tell(number, decisions[-1])
    return decisions


def decision_body(decision: Any) -> dict[str, Any]:
    """A judged decision (bots.analysis.Decision) as the API sends and the database keeps it."""
    return {**asdict(decision), "loss": round(decision.loss, 3)}


def think_all(turns: list[Any]) -> list[list[Any]]:
    """Think out every bot move of `turns` (tables.BotTurn): a function of the module, so that a worker
    process can be handed it."""
    return [turn.think() for turn in turns]
