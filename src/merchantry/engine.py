"""The engine contract every game implements (see docs/engine.md and ../shared/ENGINE.md).

A game is a `Game` (static facts, option checking, parsing, construction) and a `State` (one position of
one game, mutated in place by `apply`). Everything that leaves a state towards a player goes through
`State.view(player)`; bots get `State.sample_hidden(seat, rng)`, never the real state.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr

from merchantry.errors import IllegalAction, InvalidOption, InvalidRecord, Reason, refusal
from merchantry.log_events import ReadOnlyEvent

# An action is any immutable, hashable value whose str() is its canonical text notation.
Action = Any
JSON = Any
T = TypeVar("T")


def load_data(package: str, name: str) -> dict[str, Any]:
    """A game's component data: the JSON file `name` in the `data/` folder of `package` (principle 6)."""
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`items` with the one at `index` replaced: states keep small per-seat and per-card tables as tuples,
    shared between clones, and replace them when they change (clone() then copies no table)."""
    # One copy through a list rather than two slices joined around the value: half the copying on a long
    # table (a board's spaces), two objects made instead of five, and compiled, native calls throughout
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def add_at(counts: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    """`counts` with `amount` added to the one at `index` (a new tuple: clones keep sharing the old one)."""
    return replace_at(counts, index, counts[index] + amount)


def without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """`items` less its first `item`, order kept (the tuple counterpart of list.remove)."""
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def seat_label(seat: int) -> str:
    """How a seat is written for people and in action notation: seat 0 is "P1"."""
    return f"P{seat + 1}"


def parse_seat_label(text: str, num_players: int) -> int:
    """Inverse of `seat_label`; raises IllegalAction for anything that is not a seat of this game."""
    label = text.strip().upper()
    if label.startswith("P") and label[1:].isdigit():
        seat = int(label[1:]) - 1
        if 0 <= seat < num_players:
            return seat
    raise IllegalAction(f"{text!r:.60} is not a seat: seats are P1..P{num_players}")


# In the compiled build (mypyc) a native class; tests' toy games and plug-ins still subclass it in Python
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One position of a game. Mutable through `apply` only; `clone` gives an independent copy."""

    game: ClassVar[Game]  # set once per game on its state class
    num_players: int
    # the class of the game's actions: `apply` refuses anything else that is not text (a plain tuple equal
    # to an action included, whose fields the rules could not read); None accepts any value (toy games)
    action_type: ClassVar[type | None] = None

    @abstractmethod
    def is_over(self) -> bool:
        """True once the final scores are fixed."""

    @abstractmethod
    def to_act(self) -> list[int]:
        """Seats that must act now: several in a simultaneous step, [] when the game is over."""

    @abstractmethod
    def legal_actions(self, player: Any) -> list[Action]:
        """The finite list of actions `player` may take now."""

    @abstractmethod
    def _apply(self, player: int, action: Action) -> None:
        """Apply an action already known to be legal for `player`."""

    @abstractmethod
    def _why_illegal(self, player: int, action: Action) -> str | Reason:
        """Why `action` is not legal for `player` now: a `Reason` (its key, English sentence, clauses and
        values, so that every language can say it), or a bare English sentence. Called only to refuse."""

    @abstractmethod
    def view(self, player: Any) -> dict[str, JSON]:
        """JSON-ready dict of everything `player` may know (None: spectators) and nothing else."""

    @abstractmethod
    def scores(self) -> list[float]:
        """One number per seat; final once `is_over()`."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (never copy.deepcopy: immutable component data is shared)."""

    @abstractmethod
    def to_dict(self) -> dict[str, JSON]:
        """The full state, hidden parts and random state included; `game.from_dict` inverts it."""

    @abstractmethod
    def sample_hidden(self, player: Any, rng: Any) -> State:
        """A full state drawn from what `player` cannot see, using only `rng`; view(player) is unchanged."""

    # --- shared behaviour -------------------------------------------------------------------------

    def apply(self, player: Any, action: Action | str) -> None:  # Any: a non-seat is refused below
        """Apply `action` for `player`, or raise IllegalAction with the reason and change nothing (a
        game's reason carries its key, values and clauses for other languages: errors.IllegalAction).

        `action` may also be given as text notation; it is parsed with `game.parse_action`.
        """
        if type(player) is not int or not 0 <= player < self.num_players:  # the common case, checked fast
            self.check_seat(player)
        if type(action) is not self.action_type:  # one check on the fast path: text, or not an action
            if isinstance(action, str):
                action = self.game.parse_action(self, player, action)
            elif self.action_type is not None:
                raise IllegalAction(self.game.not_an_action(action))
        if not self._is_legal(player, action):
            raise refusal(self._why_illegal(player, action))
        self._apply(player, action)

    def _is_legal(self, player: int, action: Action) -> bool:
        """Whether `action` is in `legal_actions(player)`; a game may answer without building the list
        (the conformance suite checks that both agree)."""
        return action in self.legal_actions(player)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """Libraries that copy with copy.deepcopy (OpenSpiel's Python states do) get `clone()`: the shared,
        immutable component data and log are not copied (principle 4)."""
        return self.clone()

    def in_decision(self, player: int) -> bool:
        """True while `player` is partway through one decision as a person makes it (ENGINE principle 5):
        its next action continues the same move (a sealed bid built card by card, a turn of buys and sells
        up to `done`), so a bot decides the whole move before anyone sees a step of it, and hints and
        analysis judge whole moves. By default every action is a decision of its own."""
        return False

    def in_turn(self, player: int) -> bool:
        """True while `player`'s whole move as the hint proposes it and the analysis judges it goes on: while
        `in_decision`, and also after a step that leaves the player at the same decision point with its move
        still to make (a sale allowed at any time, made on one's own turn before the turn's move), so that a
        move is weighed only against the other moves of the same decision point (a take against a take, never
        against a sale that would still leave the take to make). Bots decide by `in_decision`; by default
        this is `in_decision`."""
        return self.in_decision(player)

    def net_move(self, player: int, steps: list[Action]) -> list[Action]:
        """The whole move `steps` of `player` from this position as a person would say it: without the steps
        it took back (a card put into a sealed bid and taken out again), leading to the same position. The
        analysis judges and shows this move. By default the steps themselves."""
        return list(steps)

    def answers_unseen(self) -> bool:
        """True in a simultaneous step whose answers nobody sees until it ends (a sale offer that whoever
        holds the card answers by speaking up, everyone else by staying silent). The view then shows no
        seat's answer but the viewer's own, and the platform makes every answer arrive alike: a seat with one
        legal answer is answered for, and all after the same kind of pause (docs/web.md, "Timing")."""
        return False

    def winners(self) -> list[int]:
        """Seats with the best final score ([] until the game is over; several on a shared win)."""
        if not self.is_over():
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def check_seat(self, player: Any) -> None:
        """IllegalAction unless `player` is a seat number of this game (0..num_players-1; not a bool)."""
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.num_players:
            raise IllegalAction(
                f"{player!r:.40} is not a seat of this {self.num_players}-player game: seats are numbered "
                f"0 to {self.num_players - 1}"
            )

    def check_viewer(self, player: Any, rng: Any = None) -> None:
        """For `view` and `sample_hidden`: a seat or None (spectators), and where given a random.Random."""
        if player is not None:
            self.check_seat(player)
        if rng is not None and not isinstance(rng, random.Random):
            raise IllegalAction(f"sample_hidden draws from a random.Random, not {type(rng).__name__}")


@dataclass(frozen=True)
class Allowed:
    """The values a game option accepts, and how a person would say so ("an integer from 1 to 200")."""

    text: str
    accepts: Callable[[Any], bool]
    low: int | None = None  # a whole number's bounds, where it has them: a form's number field shows them
    high: int | None = None


def integers(low: int, high: int) -> Allowed:
    """An option taking a whole number from `low` to `high` (bools are not numbers here)."""
    return Allowed(
        f"an integer from {low} to {high}",
        lambda value: type(value) is int and low <= value <= high,
        low,
        high,
    )


def one_of(*values: Any) -> Allowed:
    """An option taking one of a few values."""
    return Allowed(
        "one of " + ", ".join(repr(v) for v in values),
        lambda value: type(value) in (int, str) and value in values,
    )


# In the compiled build (mypyc) a native class; tests' toy games and plug-ins still subclass it in Python
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """Static facts about one game and the ways to build its states."""

    name: str
    title: str
    min_players: int
    max_players: int

    @abstractmethod
    def options(self) -> dict[str, tuple[Any, str]]:
        """{option: (default, one-line description)}."""

    def option_values(self) -> dict[str, Allowed]:
        """{option: the values it accepts}: every option declares one (tests check), and `resolve_options`
        refuses anything else before a game is built."""
        return {}

    def variants(self) -> tuple[str, ...]:
        """The options that change the rulebook's rules, for designers to study (`merchantry balance
        --compare`): each defaults to the rulebook, so a game without options is the game as published."""
        return ()

    def not_an_action(self, action: Any) -> str:
        """Why `action` (neither an action of this game nor text) cannot be applied."""
        return (
            f"{action!r:.40} ({type(action).__name__}) is not a {self.title} action: pass one from "
            "legal_actions(), or its text"
        )

    def recorded_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a state's to_dict() writes: every option that is not a variant, and the variants
        that differ from the rulebook. A game at the rulebook's rules keeps the state dict it had before
        its variants existed (pinned states and course fingerprints stay valid)."""
        variants, known = self.variants(), self.options()
        return {k: v for k, v in options.items() if k not in variants or v != known[k][0]}

    def variants_in_play(self, options: dict[str, Any]) -> dict[str, Any]:
        """The variants of `options` that differ from the rulebook: what a view shows as "variants"."""
        known = self.options()
        return {k: options[k] for k in self.variants() if k in options and options[k] != known[k][0]}

    @abstractmethod
    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        """Build the initial state from already checked options."""

    state_version: int = 1  # the "version" a game's to_dict() writes

    def from_dict(self, data: Any) -> State:  # Any: a malformed record is refused below, not by a type check
        """Rebuild a state from `State.to_dict()`; malformed data raises InvalidRecord (one line)."""
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise InvalidRecord(f"not a {self.title} state: 'game' must be {self.name!r}")
        if data.get("version") != self.state_version:
            raise InvalidRecord(
                f"{self.title} state version {data.get('version')!r} is not {self.state_version}"
            )
        players = data.get("players")
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not self.min_players <= players <= self.max_players
        ):
            raise InvalidRecord(f"players must be {self.min_players}-{self.max_players}, not {players!r:.40}")
        try:
            return self._from_dict(data, players)
        except InvalidRecord:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InvalidRecord(f"not a {self.title} state: {type(exc).__name__} {exc}") from None

    @abstractmethod
    def _from_dict(self, data: dict[str, JSON], players: int) -> State:
        """Build a state from a dict whose game, version and player count are checked; check the rest."""

    @abstractmethod
    def parse_action(self, state: State, player: Any, text: Any) -> Action:
        """Text notation -> action. Bad text raises IllegalAction listing what moves look like."""

    def new_game(self, players: Any, seed: Any = 0, **options: Any) -> State:
        """A new game; the same seed and options always give the same game."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOption(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players!r:.40}"
            )
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidOption(f"seed must be an integer, not {seed!r:.40}")
        return self._new_game(players, seed, self.resolve_options(options))

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill in defaults; reject unknown option names and values outside an option's declared range."""
        if not isinstance(options, dict):
            raise InvalidOption(f"options must be a dict of name: value, not {type(options).__name__}")
        known = self.options()
        unknown = sorted(map(str, set(options) - set(known)))
        if unknown:
            listed = ", ".join(known) if known else f"none ({self.title} has no options)"
            raise InvalidOption(
                f"unknown option(s) {', '.join(unknown)} for {self.name}; options are: {listed}"
            )
        allowed = self.option_values()
        for name, value in options.items():
            if name in allowed and not allowed[name].accepts(value):
                raise InvalidOption(
                    f"{self.name} option {name} must be {allowed[name].text}, not {value!r:.40}"
                )
        return {name: options.get(name, default) for name, (default, _) in known.items()}

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


Event = dict[str, Any]  # {"type": "bid", "seat": 2, "cards": [...], ...}; see docs/engine.md, "The log"


class EventLog:
    """A game's log of structured events, immutable and shared between clones: adding an event makes a new
    log that points at the old one, so `clone()` costs nothing for it however long the game has run.

    An event is a JSON-ready dict with a "type" and its arguments; text comes from the game's catalogue
    where it is shown. An event only some seats may see carries "audience": [seats]; `visible_to` leaves
    it out for everyone else, or, when it carries "others": {event}, hands everyone else that event in its
    place (one discard is one event: its seat reads the card, the others "a card face down"; one line in
    every seat's log). The first event of a round carries "new_round": n.

    The oldest node of a log is its root: empty for a new game, or the events one seat has seen of another
    log (`seen_by`), which is where a world sampled for that seat starts."""

    __slots__ = ("_event", "_type", "_lead", "_arguments", "_previous", "_root", "_all", "_visible", "size")

    def __init__(
        self,
        event: Event | None = None,
        previous: EventLog | None = None,
        root: tuple[Event, ...] = (),
        event_type: str = "",
        arguments: dict[str, Any] | None = None,
        lead: tuple[str, Any] | None = None,
    ):
        # A node added by `add` keeps its event as given (type and arguments) and builds the read-only dict
        # the first time anyone reads it: random playouts and searches add events that nobody reads.
        self._event = event
        self._type = event_type
        self._lead = lead  # a field (key, value) that comes before the arguments (add_fields), when built
        self._arguments = arguments
        self._previous = previous  # None only for a root
        self._root = root  # a root node's events (it has no event of its own)
        self._all: tuple[Event, ...] | None = None  # every event up to here, once someone asked
        self._visible: dict[int | None, tuple[Event, ...]] | None = None  # the same, per seat that asked
        self.size: int = len(root) if previous is None else previous.size + 1

    def add(self, event_type: str, **arguments: Any) -> EventLog:
        return EventLog(None, self, (), event_type, arguments)

    def add_fields(
        self, event_type: str, arguments: dict[str, Any], lead: tuple[str, Any] | None = None
    ) -> EventLog:
        """`add` with the arguments as a dict (which the log keeps: not to be changed after). Compiled, a
        call with keyword arguments into `add` goes through CPython's generic call (a tuple, a dict and the
        wrapper's parsing: some 3,000 instructions); this one is a native call. `lead`: a field (key,
        value) to put before the arguments, as `add(event_type, key=value, **arguments)`, merged only if the
        event is ever read (a pair, not a dict: no dict is made for an event nobody reads)."""
        return EventLog(None, self, (), event_type, arguments, lead)

    def _built(self) -> Event:
        """This node's event (not a root's), made the first time it is read and kept: the same dict, in the
        same key order (its type first), as if it had been made when added."""
        event = self._event
        if event is None:
            fields: dict[str, Any] = {"type": self._type}
            lead = self._lead
            if lead is not None:
                fields[lead[0]] = lead[1]
            fields.update(self._arguments or {})
            event = self._event = _event(fields)
            self._lead = self._arguments = None
        return event

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as one root of every event (the same events, the same per-seat views): pickling the chain
        node by node recursed once per event, past Python's limit in a long game sent to a worker process."""
        return (EventLog, (None, None, self._events()))

    def seen_by(self, seat: int | None) -> EventLog:
        """A new log holding only the events `seat` may see, for a world sampled for that seat: it must not
        carry the others' private events (ENGINE principle 2). Costs one tuple of references, remembered
        per seat as `visible_to` is."""
        return EventLog(root=self._seen(seat))

    @property
    def last(self) -> Event | None:
        """The newest event (None in an empty log), without building the whole list."""
        if self._previous is None:
            return self._root[-1] if self._root else None
        return self._built()

    def last_field(self, key: str) -> Any:
        """`last.get(key)` (None in an empty log), read off the newest event as it was added: a game asking
        about it on many moves does not build the read-only event, which nobody may ever read."""
        if self._previous is None:
            event = self._root[-1] if self._root else None
            return None if event is None else event.get(key)
        if self._event is not None:
            return self._event.get(key)
        arguments, lead = self._arguments, self._lead
        if key == "others" or arguments is None:  # "others" is made read-only when built
            return self._built().get(key)
        if key in arguments:  # the arguments come last in the event: theirs is the value
            return arguments[key]
        if lead is not None and key == lead[0]:
            return lead[1]
        return self._type if key == "type" else None

    def _events(self) -> tuple[Event, ...]:
        """Every event up to this one, remembered: views ask for the log again and again."""
        if self._all is None:
            newer: list[Event] = []
            node: EventLog = self
            previous = node._previous
            while previous is not None and node._all is None:  # back to a node that knows, or the root
                newer.append(node._built())
                node, previous = previous, previous._previous
            older: tuple[Event, ...]
            if node._all is not None:
                older, node._all = node._all, None  # only the newest node keeps a copy: memory stays O(n)
            else:
                older = node._root
            newer.reverse()
            self._all = (*older, *newer)
        return self._all

    def events(self) -> list[Event]:
        """Every event, hidden ones included (for `to_dict`)."""
        return list(self._events())

    def visible_to(self, seat: int | None) -> list[Event]:
        """The events `seat` may see (None: spectators): a new list of the log's own read-only events."""
        return list(self._seen(seat))

    def _seen(self, seat: int | None) -> tuple[Event, ...]:
        """`visible_to`, remembered per seat and extended by the events added since, as `_events` is: a
        server builds every seat's view after every move."""
        known = self._visible
        if known is not None and seat in known:
            return known[seat]
        newer: list[Event] = []
        node: EventLog = self
        previous = node._previous
        while previous is not None and not (node._visible and seat in node._visible):
            newer.append(node._built())
            node, previous = previous, previous._previous
        older: tuple[Event, ...] = ()
        if node._visible and seat in node._visible:
            older = node._visible.pop(seat)  # only the newest node keeps it: memory stays O(n)
        else:
            newer.extend(reversed(node._root))
        newer.reverse()
        seen = (*older, *faces_for(newer, seat))
        if self._visible is None:
            self._visible = {}
        self._visible[seat] = seen
        return seen

    @classmethod
    def of(cls, events: list[Any]) -> EventLog:
        """Rebuild a log from `events()`; anything that is not an event raises InvalidRecord."""
        log = cls()
        for event in events:
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise InvalidRecord(f"a log entry must be an event with a type, not {event!r:.60}")
            others = event.get("others")
            if others is not None and not (
                "audience" in event and isinstance(others, dict) and isinstance(others.get("type"), str)
            ):
                raise InvalidRecord(f"an event's 'others' must be an event with a type: {event!r:.60}")
            log = EventLog(_event(event), log)
        return log


def _event(fields: dict[str, Any]) -> ReadOnlyEvent:
    """A log event, read-only, and so is the event it hands the seats outside its audience."""
    others = fields.get("others")
    if others is not None:
        fields = {**fields, "others": ReadOnlyEvent(others)}
    return ReadOnlyEvent(fields)


def faces_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """What `seat` reads of `events`: an event with an audience only if the seat is in it, else the event it
    carries for everyone else ("others"), if any; every other event as it is."""
    seen: list[Event] = []
    for event in events:
        audience = event.get("audience")
        if audience is None or seat in audience:
            seen.append(event)
        elif "others" in event:
            seen.append(event["others"])
    return seen
