"""How much one client may ask of the server, so that one client cannot take it from everyone else.

A client is its address (`request.client.host`; behind a reverse proxy, run uvicorn with
`--proxy-headers` so that this is the player's address, not the proxy's). Every refusal says which limit
was met; `Limits(enabled=False)` turns them all off (load benchmarks).
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
    bot_games_per_client: int = 3  # games of bots only that one client's tables may play at once
    bot_games: int = 20  # games of bots only playing at once on the whole server
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
        return True


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
