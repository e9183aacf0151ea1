"""Run a benchmark script with every wall-time clock counted in CPU time, for comparisons on a shared machine
that must hold for code from before MERCHANTRY_SEARCH_CLOCK existed (issue 32's strength runs):

    PYTHONPATH=/path/to/checkout/src nice -n 10 .venv/bin/python benchmarks/cpu_clock_run.py \
        benchmarks/bot_strength.py --games 12 --workers 1 --level hard --game grand_bazaar

`time.perf_counter` becomes this process's CPU time (and its forked workers'), so a search's wall-time cap
counts CPU seconds, whoever else loads the machine (bot_strength's "minutes" column then counts the CPU
minutes of the run, with --workers 1 all of it). NO_REUSE=1: a search bot's later steps of a move start a
fresh tree (what the tree gone on from wins back).
"""

from __future__ import annotations

import os
import runpy
import sys
import time
from typing import Any

time.perf_counter = time.process_time
if os.environ.get("NO_REUSE") == "1":
    from merchantry.bots import ismcts

    original = ismcts.Search.run

    def run(self: Any, world: Any, seat: int, rng: Any, deadline: Any = None, root: Any = None) -> Any:
        return original(self, world, seat, rng, deadline, None)

    ismcts.Search.run = run  # type: ignore[method-assign]
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
