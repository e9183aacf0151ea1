"""Game records: `{"game", "players", "seed", "options", "moves": [[seat, "text"], ...]}`.

A record is the whole story of a game; `replay(record)` rebuilds the state exactly. Records hold every
move, sealed ones included, so they are for the table's owner and for finished games, not for players
of a game in progress (who see `view(seat)` only).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from merchantry import games
from merchantry.engine import Action, State, seat_label
from merchantry.errors import IllegalAction, InvalidRecord

Record = dict[str, Any]
RECORD_KEYS = {"game", "players", "seed", "options", "moves"}


class Session:
    """A state together with the record of how it was reached: what the terminal, the simulator and the
    server drive. `apply` only records moves that the state accepted."""

    def __init__(self, game: str, players: int, seed: int = 0, options: dict[str, Any] | None = None):
        self.game = games.get(game)
        self.options = dict(options or {})
        self.state: State = self.game.new_game(players=players, seed=seed, **self.options)
        self.seed = seed
        self.moves: list[list[Any]] = []

    @classmethod
    def resumed(cls, record: Any) -> Session:
        """A session carrying on from `record` (checked, every move replayed): raises InvalidRecord."""
        replay(record)  # the reason, naming the move, if the record does not hold
        session = cls(record["game"], record["players"], record["seed"], record["options"])
        for seat, text in record["moves"]:
            session.apply(seat, text)
        return session

    def apply(self, seat: int, action: Action | str) -> Action:
        if isinstance(action, str):
            self.state.check_seat(seat)
            action = self.game.parse_action(self.state, seat, action)
        self.state.apply(seat, action)
        self.moves.append([seat, str(action)])
        return action

    def record(self) -> Record:
        return {
            "game": self.game.name,
            "players": self.state.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "moves": [move[:] for move in self.moves],
        }


def check_record(record: Any) -> Record:
    """Raise InvalidRecord with a one-line reason unless `record` has the shape of a game record."""
    if not isinstance(record, dict):
        raise InvalidRecord(f"a record must be a JSON object, not {type(record).__name__}")
    missing = sorted(RECORD_KEYS - set(record))
    if missing:
        raise InvalidRecord(f"record is missing {', '.join(missing)}")
    if not isinstance(record["game"], str):
        raise InvalidRecord("record 'game' must be a game name")
    for key in ("players", "seed"):
        if not isinstance(record[key], int) or isinstance(record[key], bool):
            raise InvalidRecord(f"record '{key}' must be an integer, not {record[key]!r}")
    if not isinstance(record["options"], dict):
        raise InvalidRecord("record 'options' must be an object")
    moves = record["moves"]
    if not isinstance(moves, list):
        raise InvalidRecord("record 'moves' must be a list of [seat, move] pairs")
    for i, move in enumerate(moves, 1):
        if not (
            isinstance(move, list)
            and len(move) == 2
            and isinstance(move[0], int)
            and isinstance(move[1], str)
        ):
            raise InvalidRecord(f'move {i} must be [seat, "move text"], not {move!r:.60}')
    return record


def replay(record: Any, upto: int | None = None) -> State:
    """Rebuild the state a record describes (after its first `upto` moves, or all of them).

    Raises InvalidRecord (naming the move) for a malformed record or a move the rules refuse, and
    UnknownGame for a game that does not exist.
    """
    check_record(record)
    game = games.get(record["game"])
    try:
        state = game.new_game(players=record["players"], seed=record["seed"], **record["options"])
    except ValueError as exc:
        raise InvalidRecord(f"record cannot start a game: {exc}") from None
    for i, (seat, text) in enumerate(record["moves"][:upto], 1):
        try:
            state.apply(seat, text)
        except IllegalAction as exc:
            raise InvalidRecord(f"move {i} ({seat_label(seat)} {text!r}) is refused: {exc}") from None
    return state


def log_moves(record: Any, seat: int | None = None) -> list[int]:
    """For each line of the log `seat` reads at the record's end, the number of the move that wrote it
    (1-based, as a replay's "move N" counts the record's moves; 0 for the lines before the first move,
    such as the deal). The log, the replay and the analysis name a move by this one number."""
    check_record(record)
    game = games.get(record["game"])
    state = game.new_game(players=record["players"], seed=record["seed"], **record["options"])
    numbers = [0] * len(state.view(seat).get("log", []))
    for number, (mover, text) in enumerate(record["moves"], 1):
        state.apply(mover, text)
        numbers += [number] * (len(state.view(seat).get("log", [])) - len(numbers))
    return numbers


class LogNumbers:
    """The move that wrote each line of every viewer's log (None: spectators), followed move by move while a
    game is played, numbered as `log_moves` numbers a finished game's (move N is the record's Nth move).

    A viewer's lines are numbered only while it could have counted the moves itself: while every move so far
    changed what it sees. A move it does not see (another seat's card put into a sealed bid, a silent answer
    to an offer) ends its numbering until the game is over, for the number of its next line would tell how
    many such moves were made; the lines numbered before keep their numbers."""

    def __init__(self, game: str, players: int, seed: int, options: dict[str, Any]):
        self.state = games.get(game).new_game(players=players, seed=seed, **options)
        self.done = 0  # the record's moves followed so far
        viewers: list[int | None] = [None, *range(players)]
        self.views = {viewer: self.state.view(viewer) for viewer in viewers}
        self.numbers = {viewer: [0] * len(view.get("log", [])) for viewer, view in self.views.items()}
        self.counting = set(viewers)  # the viewers who have seen every move so far

    def follow(self, moves: list[list[Any]]) -> None:
        """Bring the numbers up to the record's `moves` (those followed before are the same moves)."""
        for number, (mover, text) in enumerate(moves[self.done :], self.done + 1):
            self.state.apply(mover, text)  # each was accepted once: it replays
            self.done = number
            for viewer in list(self.counting):
                view = self.state.view(viewer)
                if view == self.views[viewer]:
                    self.counting.discard(viewer)  # a move it did not see: it can no longer count them
                    continue
                self.views[viewer] = view
                lines, numbers = len(view.get("log", [])), self.numbers[viewer]
                self.numbers[viewer] = numbers[:lines] + [number] * (lines - len(numbers))

    def of(self, viewer: int | None) -> list[int]:
        """The numbers of the first lines of `viewer`'s log: all of them while it counts, else those it
        had when it stopped (the lines after are unnumbered)."""
        return list(self.numbers[viewer])


def load(path: str | Path, game: int | None = None) -> Record:
    """Read a record from a JSON file, or game number `game` of a JSON Lines file of records (as
    `simulate --records` and `tournament --records` write them); raises InvalidRecord with a one-line
    reason."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidRecord(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise InvalidRecord(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
        return check_record(_one_of_many(path, lines, game))
    if game is not None:
        raise InvalidRecord(f"{path} holds one game: leave out the game number")
    return check_record(data)


def _one_of_many(path: str | Path, lines: list[str], game: int | None) -> Any:
    """Game `game` of a JSON Lines file: a line is a record, or a game result holding one ("record")."""
    if game is None:
        raise InvalidRecord(
            f"{path} holds {len(lines)} games: choose one, 0..{len(lines) - 1} (replay --game N)"
        )
    for number, line in enumerate(lines):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run
        if entry.get("index", number) == game if isinstance(entry, dict) else False:
            return entry.get("record", entry)
    raise InvalidRecord(f"{path} has no game number {game}")


def save(record: Record, path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
