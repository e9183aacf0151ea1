"""The errors the public API raises. All are ValueErrors so callers can catch bad input in one place."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow now, or text that is not an action. The state is unchanged.

    str() is the reason in English, with the rules clauses it cites in brackets ("... (R3, R7)"). A refusal
    by a game's rules also carries the reason in a form any language can say: `key` names it (the text
    `reason.<key>` of the game's catalogues, which cites no clause), `params` holds its values (JSON-ready;
    a seat is a number under `seat` or a name ending in `_seat`, a card or good is its notation word) and
    `clauses` the clause ids, added after the text in brackets in every language. `key` is None (and
    `params` empty) for a refusal that has only its English sentence."""

    def __init__(
        self,
        message: str,
        key: str | None = None,
        params: dict[str, Any] | None = None,
        clauses: tuple[str, ...] = (),
    ):
        super().__init__(message)
        self.key = key
        self.params: dict[str, Any] = params if params is not None else {}
        self.clauses = clauses

    def __reduce__(self) -> tuple[Any, ...]:  # a copy sent to another process keeps its key and values
        return (type(self), (str(self), self.key, self.params, self.clauses))

    def reason(self) -> dict[str, Any] | None:
        """The reason as JSON for a page to say it in its reader's language; None without a key."""
        if self.key is None:
            return None
        return {"key": self.key, "params": self.params, "clauses": list(self.clauses)}


class Reason:
    """Why the rules refuse a move, as a game's `_why_illegal` gives it: a stable `key` (the catalogues'
    `reason.<key>`), the English sentence `text` (without clause ids), the clause ids it cites, and the values
    the sentence names (`params`). Built only on the way to refusing a move, never on the legal path."""

    __slots__ = ("clauses", "key", "params", "text")

    def __init__(self, key: str, text: str, /, *clauses: str, **params: Any):
        self.key = key
        self.text = text
        self.clauses = clauses
        self.params = params

    def __str__(self) -> str:
        return f"{self.text} ({', '.join(self.clauses)})" if self.clauses else self.text

    def error(self) -> IllegalAction:
        return IllegalAction(str(self), self.key, self.params, self.clauses)


def refusal(why: str | Reason) -> IllegalAction:
    """The IllegalAction for a reason given as a sentence (English only) or as a `Reason`."""
    return why.error() if isinstance(why, Reason) else IllegalAction(why)


class UnknownGame(ValueError):
    """A game name that is not registered."""


class UnknownBot(ValueError):
    """A bot name that does not exist for the game."""


class InvalidOption(ValueError):
    """A game option that does not exist or has a bad value."""


class InvalidRecord(ValueError):
    """A game record or state dict that is malformed or does not describe a legal game."""
