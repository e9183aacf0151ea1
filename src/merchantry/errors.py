"""The errors the public API raises. All are ValueErrors so callers can catch bad input in one place."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now, or text that is not an action. The state is unchanged."""


class UnknownGame(ValueError):
    """A game name that is not registered."""


class UnknownBot(ValueError):
    """A bot name that does not exist for the game."""


class InvalidOption(ValueError):
    """A game option that does not exist or has a bad value."""


class InvalidRecord(ValueError):
    """A game record or state dict that is malformed or does not describe a legal game."""
