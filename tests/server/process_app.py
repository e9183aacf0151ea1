"""The app of a server process started by the tests: as `merchantry serve` builds it, without per-client
limits (the tests' requests all come from one address, many more than a person makes)."""

from __future__ import annotations

import os

from fastapi import FastAPI

from merchantry.server.app import create_app
from merchantry.server.limits import Limits


def app() -> FastAPI:
    delay = float(os.environ.get("MERCHANTRY_BOT_DELAY", "0"))
    return create_app(os.environ["MERCHANTRY_DATABASE_URL"], bot_delay=delay, limits=Limits(enabled=False))
