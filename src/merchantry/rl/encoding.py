"""How a game becomes numbers: a fixed-size observation of `view(seat)` and a fixed discrete action space.

A game's `encoding.py` defines `ENCODING`, an object with:
- `actions(players) -> list[str]`: every action the game can ever take at that player count, by its
  canonical text; the action id is the index in this list, so each id is exactly one notation string;
- `observation_size(players) -> int` and `observe(view, players) -> list[float]`: the view of one seat as
  that many numbers (documented field by field in the encoding's module);
- optionally `observer(players, seat) -> Observer`: the same numbers, encoded from the state for that seat
  (`observe(state) -> float32 array`), much faster: building `view(seat)`, a dict of lists, on every step
  cost the adapters 95% of their time (issue 30). An observer reads only what the seat may see (the parts
  of the state its view shows) and keeps what it wrote, rewriting a part only when the state's part it
  comes from is another object (the states keep tuples, replaced when they change). The tests hold every
  observer to its game's `observe(view)` on every position of seeded games, and to the seat's information
  set (a world sampled for the seat gives the same numbers). Without one, the adapters encode the view.
Every number lies in [-BOUND, BOUND] (the tests check it over many games), so that the adapters can
declare finite observation spaces. The legal-action mask is built here from `legal_actions`, the same way
for every game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Final, Protocol, cast

import numpy as np

from merchantry import games
from merchantry.engine import State

BOUND: Final = 10.0
MASKS: Final = 10_000  # masks kept per action space (each len(actions) bytes: 9 MB at most for 926 actions)


class Encoding(Protocol):
    def actions(self, players: int) -> list[str]: ...

    def observation_size(self, players: int) -> int: ...

    def observe(self, view: dict[str, Any], players: int) -> list[float]: ...


class Observer(Protocol):
    def observe(self, state: State) -> np.ndarray: ...

    def listed(self, state: State) -> list[float]: ...


class ViewObserver:
    """The observer of a game whose encoding has none: its encoding of `view(seat)`."""

    def __init__(self, encoding: Encoding, players: int, seat: int):
        self.encoding, self.players, self.seat = encoding, players, seat

    def observe(self, state: State) -> np.ndarray:
        return np.asarray(self.encoding.observe(state.view(self.seat), self.players), np.float32)

    def listed(self, state: State) -> list[float]:
        numbers: list[float] = self.observe(state).tolist()
        return numbers


def observer_of(encoding: Encoding, players: int, seat: int) -> Observer:
    """The seat's observer: the encoding's own (from the state), else one that encodes the view."""
    make = getattr(encoding, "observer", None)
    if make is None:
        return ViewObserver(encoding, players, seat)
    observer: Observer = make(players, seat)
    return observer


def encoding_of(game: str) -> Encoding:
    """The game's encoding; raises ValueError for a game that has none yet."""
    module = games.package(game).encoding
    if module is None:
        raise ValueError(f"{game} has no RL encoding yet")
    encoding: Encoding = importlib.import_module(module).ENCODING
    return encoding


class ActionSpace:
    """Action ids <-> notation for one game and player count, and the mask of legal ids."""

    def __init__(self, game: str, players: int):
        self.game = games.get(game)
        self.texts: tuple[str, ...] = tuple(encoding_of(game).actions(players))
        self.ids = {text: i for i, text in enumerate(self.texts)}
        self.by_action: dict[Any, int] = {}
        self.masks: dict[tuple[int, ...], np.ndarray] = {}
        self.caching = True  # until the cache is found not to pay (`mask_of`)
        self.hits = 0  # masks found in the cache since it was last emptied
        self.no_actions = self.mask_of([])  # shared by every empty mask
        self.no_flags = self.no_actions.view(np.bool_)
        if len(self.ids) != len(self.texts):
            raise ValueError(f"{game}'s action list names an action twice")

    def __len__(self) -> int:
        return len(self.texts)

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionSpace:
        return self  # immutable, shared (OpenSpiel copies its Python states with copy.deepcopy)

    def id_of(self, action: Any) -> int:
        return self.ids[str(action)]

    def id_of_action(self, action: Any) -> int:
        """`id_of`, remembering each action object met (actions are small immutable values): playouts
        through the adapters ask for the same few actions again and again."""
        try:
            return self.by_action[action]
        except KeyError:
            action_id = self.by_action[action] = self.ids[str(action)]
            return action_id
        except TypeError:  # an unhashable action
            return self.ids[str(action)]

    def mask_of(self, ids: list[int]) -> np.ndarray:
        """The mask (int8, read-only) of these legal ids. Built from bytes, not by numpy's fancy indexing,
        which costs some 2 µs for a list of ids. Where a game meets the same lists again and again (one game
        measured met a hundred lists in all), one array per list met is kept and shared; the cache is emptied
        when it grows past MASKS, and given up for good if fewer than half of the lookups that filled it
        found their mask: a game may meet a new list in four positions out of five, and a lookup that misses
        (the list made a tuple, hashed, stored, and the cache emptied now and then) cost more than the
        mask it looked for."""
        if not self.caching:
            return self._built(ids)
        key = tuple(ids)
        mask = self.masks.get(key)
        if mask is not None:
            self.hits += 1
            return mask
        if len(self.masks) >= MASKS:
            self.caching = self.hits >= MASKS  # at least as many hits as the misses that filled it
            self.masks.clear()
            self.hits = 0
            if not self.caching:
                return self._built(ids)
        mask = self.masks[key] = self._built(ids)
        return mask

    def _built(self, ids: list[int]) -> np.ndarray:
        """A new read-only mask of these ids (over bytes)."""
        flags = bytearray(len(self.texts))
        for action_id in ids:
            flags[action_id] = 1
        return np.frombuffer(bytes(flags), np.int8)  # over bytes: read-only

    def legal_ids(self, state: State, seat: int) -> list[int]:
        """The legal action ids of `seat`, in increasing order."""
        return sorted(self.id_of_action(action) for action in state.legal_actions(seat))

    def mask(self, state: State, seat: int) -> list[int]:
        """1 for each legal action id of `seat`, else 0."""
        out = [0] * len(self.texts)
        for action_id in self.legal_ids(state, seat):
            out[action_id] = 1
        return out

    def action(self, state: State, seat: int, action_id: int) -> Any:
        """The game's action for an id (parsed from its notation)."""
        return self.game.parse_action(state, seat, self.texts[action_id])


class Numbers:
    """An observation's numbers, written one at a time into the observer's float32 array `out` (through a
    memoryview: a number written costs a tenth of numpy's item write, and an observer writes only the few
    that changed), and a list of the same floats kept beside it for `listed`: OpenSpiel's tensors are lists,
    and turning a thousand numbers into one cost some 5 µs a step (`tolist()`, or finding what changed),
    more than an engine step. A write only notes its index; `listed` brings the list up to date from the
    array (as float32 holds each number, as `tolist()` gives it), then copies it. Past `len(out)` writes
    noted, it stops noting: `listed` then rebuilds the list whole (an observer never asked for lists, as
    in PettingZoo and Gymnasium, keeps a bounded note)."""

    __slots__ = ("out", "view", "values", "written")

    def __init__(self, out: np.ndarray):
        self.out = out
        # typed Any: typeshed types a memoryview's items as ints (these are float32)
        self.view: Any = memoryview(out)  # type: ignore[arg-type]
        self.values: list[float] = out.tolist()
        self.written: list[int] = []  # indices written since `values` was last brought up to date

    def __setitem__(self, index: int, value: float, /) -> None:
        self.view[index] = value
        written = self.written
        if len(written) < len(self.values):
            written.append(index)

    def __getitem__(self, index: int, /) -> float:
        value: float = self.view[index]
        return value

    def listed(self) -> list[float]:
        """The numbers as a new list of floats."""
        written = self.written
        if written:
            if len(written) >= len(self.values):
                self.values = self.out.tolist()
            else:
                values, view = self.values, self.view
                for index in written:
                    values[index] = view[index]
            self.written = []
        return list(self.values)


# This module compiled (mypyc: its file is the extension): a write through `Numbers` is a native call. In
# pure Python it would be a Python call, slower than the memoryview's own item write, so the observers write
# through a bare memoryview there and their lists are made by `tolist()` (`listed`).
COMPILED: Final = __file__.endswith((".so", ".pyd"))


def numbers_of(out: np.ndarray) -> Numbers:
    """`out`'s numbers to write one by one (compiled: with the list beside them)."""
    if COMPILED:
        return Numbers(out)
    return cast(Numbers, memoryview(out))  # type: ignore[arg-type]  # a memoryview writes the same


def listed(numbers: Numbers, out: np.ndarray) -> list[float]:
    """The numbers of `out`, written through `numbers` (`numbers_of(out)`), as a new list of floats."""
    if isinstance(numbers, Numbers):
        return numbers.listed()
    values: list[float] = out.tolist()
    return values


class Counts:
    """A part of an observation that counts indices (cards by code, ...) in `size` numbers, each count /
    `divisor`: rewritten from a new list of indices, touching only the numbers whose count changed (a card
    moved from a hand to a bid changes one number of each). The counts live in two fixed lists of ints (as
    last written, and a scratch list kept at zero between writes), not in dicts: a dict per write cost
    the observers a fifth of their time."""

    __slots__ = ("numbers", "start", "divisor", "last", "count", "present")

    def __init__(self, numbers: Numbers, start: int, divisor: float, size: int):
        self.numbers, self.start, self.divisor = numbers, start, divisor
        self.last = [0] * size  # index -> count, as last written
        self.count = [0] * size  # the new counts while writing, all 0 between writes
        self.present: list[int] = []  # the indices counted last (each once)

    def write(self, indices: Iterable[int]) -> None:
        # Each list item read once where it can be: compiled, an item read or written is most of the cost.
        numbers, start, divisor = self.numbers, self.start, self.divisor
        count, last = self.count, self.last
        present: list[int] = []
        for index in indices:
            counted = count[index]
            if counted == 0:
                present.append(index)
            count[index] = counted + 1
        for index in present:  # counted now: written if the count changed, kept as the last count
            counted = count[index]
            if counted != last[index]:
                numbers[start + index] = counted / divisor
                last[index] = counted
        for index in self.present:
            if count[index] == 0:  # counted before, not now
                numbers[start + index] = 0.0
                last[index] = 0
        for index in present:
            count[index] = 0
        self.present = present


class Scaled:
    """A part of an observation holding a tuple of numbers (counts per code, ...), each / `divisor`:
    rewritten by the numbers that differ from the tuple written last."""

    __slots__ = ("numbers", "start", "divisor", "last")

    def __init__(self, numbers: Numbers, start: int, divisor: float):
        self.numbers, self.start, self.divisor = numbers, start, divisor
        self.last: tuple[int, ...] | None = None

    def write(self, values: tuple[int, ...]) -> None:
        last = self.last
        if values is last:
            return
        numbers, start, divisor = self.numbers, self.start, self.divisor
        for index, value in enumerate(values):
            if last is None or value != last[index]:
                numbers[start + index] = value / divisor
        self.last = values


class OneHot:
    """A one-hot part of an observation, rewritten by moving its 1 (None or out of range: all 0)."""

    __slots__ = ("numbers", "start", "size", "last")

    def __init__(self, numbers: Numbers, start: int, size: int):
        self.numbers, self.start, self.size = numbers, start, size
        self.last: int | None = None

    def write(self, index: int | None) -> None:
        if index is not None and not 0 <= index < self.size:
            index = None
        if index == self.last:
            return
        if self.last is not None:
            self.numbers[self.start + self.last] = 0.0
        if index is not None:
            self.numbers[self.start + index] = 1.0
        self.last = index


def one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def relative(seat: int, viewer: int, players: int) -> int:
    """A seat as seen from the viewer: 0 is the viewer, 1 the next seat clockwise, ..."""
    return (seat - viewer) % players


def padded(values: Sequence[float], size: int) -> list[float]:
    return [*values[:size], *[0.0] * (size - len(values))]


@cache
def action_space(game: str, players: int) -> ActionSpace:
    return ActionSpace(game, players)
