"""How much one client may ask of the server, so that one client cannot take it from everyone else.

A client is its address (`request.client.host`; behind a reverse proxy, run uvicorn with
`--proxy-headers` so that this is the player's address, not the proxy's). Every refusal says which limit
was met; `Limits(enabled=False)` turns them all off (load benchmarks).

They count what a client's requests cost the server, not how its seats are labelled: a table whose people
all play on a short turn clock plays at its bots' pace and counts as a game of bots only
(tables.SHORT_CLOCK_SECONDS); the bots' thinking, hints and analyses each run in a few threads of their own,
taken in turns by client (server/work.py), so no client's work holds up another's beyond one job.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    enabled: bool = True
    tables_per_minute: int = 20  # tables one client may create in a minute
    joins_per_minute: int = 60  # seats one client may take in a minute
    bot_games_per_client: int = 3  # games at their bots' pace that one client's tables may play at once
    bot_games: int = 20  # games at their bots' pace playing at once on the whole server
    # threads for the bots' thinking: CPU work holding the interpreter, so more threads think no faster
    # (one interpreter lock) and each one more slows every request down; tables take turns by creator
    bot_threads: int = 1
    hint_threads: int = 1  # threads working out hints
    hints_per_client: int = 1  # hints one client may have waiting or being worked out
    hint_queue: int = 4  # hints waiting on the whole server (beyond: 429)
    analysis_threads: int = 2  # analyses worked out at once (threads, or worker processes)
    analyses_per_client: int = 1  # analyses one client may have waiting or running
    analysis_queue: int = 8  # analyses waiting on the whole server (beyond: 429)
    analyses_kept: int = 32  # finished analyses kept in memory (all are stored, and read again if asked)
    sockets_per_client: int = 32  # live connections open at once from one client
    messages_per_second: float = 20.0  # on one connection (bursts up to twice that)
    idle_minutes: float = (
        10.0  # a table nobody watches or plays leaves memory after this (reloaded on demand)
    )


class RateWindow:
    """At most `count` events per key in any `seconds`-long window."""

    def __init__(self, count: int, seconds: float = 60.0) -> None:
        self.count = count
        self.seconds = seconds
        self.events: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        events = self.events[key]
        while events and events[0] <= now - self.seconds:
            events.popleft()
        if len(events) >= self.count:
            return False
        events.append(now)
        if len(self.events) > 1024:  # clients not seen for a window leave (memory stays flat)
            self.forget_quiet(now)
        return True

    def forget_quiet(self, now: float) -> None:
        quiet = [key for key, events in self.events.items() if not events or events[-1] <= now - self.seconds]
        for key in quiet:
            del self.events[key]


class TokenBucket:
    """`rate` events a second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
