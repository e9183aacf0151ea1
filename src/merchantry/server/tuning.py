"""How a server process is tuned for many live tables: Python's garbage collector and the interval at
which threads take turns. Figures: docs/web.md (the load benchmark at 1,000 tables, before and after).

- **The collector.** A full collection walks every object the process holds. With 1,000 live tables that is
  about half a million objects (their logs, records and views) and takes 0.3-0.4 s on the 2-core VM, during
  which nothing else runs: under load such pauses came every few seconds and made the 99th percentile
  round trip 0.4-2 s while the server used 40% of a core. Almost nothing a table holds is ever part of a
  reference cycle (reference counting frees it when the table leaves memory), so walking it again and again
  finds nothing. So: what the process built before serving (modules, classes, catalogues) is frozen, never
  walked again; the young generations are collected as usual (cheap: they hold only what was made lately);
  the oldest is never collected on its own, and `collect_fully` does it every `FULL_EVERY` seconds, so
  cycles that got old are still freed, in one pause every ten minutes instead of dozens.
- **Turns between threads.** Every move goes to the database thread and back several times; a thread
  waiting for the interpreter gets it after at most the switch interval, 5 ms by default, and under load
  those waits add up (p95 67 ms). At `SWITCH_INTERVAL` the hand-overs are prompt (p95 18 ms).
"""

from __future__ import annotations

import asyncio
import gc
import sys
from dataclasses import dataclass

FULL_EVERY = 600.0  # seconds between full collections
NEVER = 1_000_000_000  # a threshold the collector never reaches on its own
SWITCH_INTERVAL = 0.001  # seconds a thread may hold the interpreter while another waits


@dataclass(frozen=True)
class Settings:
    thresholds: tuple[int, int, int]
    switch_interval: float


def tune() -> Settings:
    """Freeze what exists now, stop automatic full collections, shorten the switch interval; returns the
    settings before, for `restore`."""
    before = Settings(gc.get_threshold(), sys.getswitchinterval())
    gc.collect()
    gc.freeze()
    gc.set_threshold(before.thresholds[0], before.thresholds[1], NEVER)
    sys.setswitchinterval(SWITCH_INTERVAL)
    return before


def restore(before: Settings) -> None:
    gc.unfreeze()
    gc.set_threshold(*before.thresholds)
    sys.setswitchinterval(before.switch_interval)


async def collect_fully(every: float = FULL_EVERY) -> None:
    """A full collection every `every` seconds, for as long as the server runs."""
    while True:
        await asyncio.sleep(every)
        gc.collect()
