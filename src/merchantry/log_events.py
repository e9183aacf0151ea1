"""The log's read-only events. Kept out of the compiled engine (native_build.py compiles engine.py): a class
compiled by mypyc that subclasses dict does not take its methods from assignments in the class body, so
this one would accept changes there; as plain Python it refuses them in both builds."""

from __future__ import annotations

import copy
from typing import Any


class ReadOnlyEvent(dict[str, Any]):
    """A log event as the log keeps it and every view hands it out: a dict (JSON-ready, equal to a plain
    dict with the same items) that refuses changes. Views share the log's own events instead of copying
    them, which is most of what building a view cost late in a game, and no reader can change the log
    through a view. `dict(event)` is a copy to change."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a log event is read-only: change a copy, dict(event)")

    __setitem__ = _refuse
    __delitem__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy build it whole, not item by item
        return (ReadOnlyEvent, (dict(self),))

    def __copy__(self) -> ReadOnlyEvent:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ReadOnlyEvent:
        return ReadOnlyEvent(copy.deepcopy(dict(self), memo))
