"""What the server accepts from outside, checked before anything is done with it.

- Text must be valid Unicode: a lone surrogate (JSON allows "\\ud800") cannot be stored or sent back.
- A person's name is normalised (NFC, spaces collapsed) and refused if it has control or formatting
  characters (newlines, NUL, the direction overrides that make text read backwards) or poses as a bot
  ("greedy (bot)", "Easy bot"): the page shows bots as "Easy bot" (the platform catalogues' `seatBot_*`)
  or else as "name (bot)".
- A request body over `MAX_BODY` bytes is refused (413) before it is read into memory or parsed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from merchantry.i18n import PLATFORM_LOCALES

MAX_BODY = 64 * 1024  # bytes of one request body (the largest real one, a table's creation, is < 1 KiB)
BOT_LIKE = re.compile(r"\(\s*bot\s*\)\s*$", re.IGNORECASE)


@cache
def bot_names() -> frozenset[str]:
    """How the page names bots at a table, in every language ("easy bot", "bot simple"), case-folded."""
    names: set[str] = set()
    for path in PLATFORM_LOCALES.glob("*.json"):
        words = json.loads(path.read_text(encoding="utf-8"))["ui"]
        names |= {text.casefold() for key, text in words.items() if key.startswith("seatBot_")}
    return frozenset(names)


def valid_unicode(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (it holds a lone surrogate)") from None
    return text


def person_name(text: str) -> str:
    """The name as it will be shown, or ValueError saying what is wrong with it."""
    name = " ".join(unicodedata.normalize("NFC", valid_unicode(text)).split())
    odd = [c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")]
    if odd:
        raise ValueError(f"a name cannot hold control or formatting characters (U+{ord(odd[0]):04X})")
    if not name:
        raise ValueError("a name needs at least one visible character")
    if BOT_LIKE.search(name):
        raise ValueError("a name cannot end in '(bot)': that is how the page marks bots")
    if name.casefold() in bot_names():
        raise ValueError(f"a name cannot be {name!r}: that is how the page names a bot")
    if "<" in name or ">" in name:
        raise ValueError("a name cannot hold < or >")
    return name


Text = Annotated[str, AfterValidator(valid_unicode)]
Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(person_name)]


class BodyLimit:
    """ASGI middleware: refuse a body over `limit` bytes with 413, by its Content-Length or, without one,
    as soon as the bytes received pass the limit (a chunked upload)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self.refuse(send)
            return
        received = 0
        too_large = False

        async def counting_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    too_large = True
                    return {"type": "http.request", "body": b"", "more_body": False}  # read no further
            return message

        async def guarded_send(message: Message) -> None:
            if not too_large:
                await send(message)
            elif message["type"] == "http.response.start":  # whatever the app answered a cut-off body
                await self.refuse(send)

        await self.app(scope, counting_receive, guarded_send)

    async def refuse(self, send: Send) -> None:
        body = f'{{"error": "the request body is over {self.limit} bytes"}}'.encode()
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
