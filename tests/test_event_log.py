"""The log's events with an audience and the face they show everyone else (docs/engine.md, "The log")."""

from __future__ import annotations

import json
import pickle

import pytest

from merchantry.engine import EventLog
from merchantry.errors import InvalidRecord


def a_discard() -> EventLog:
    log = EventLog().add("married", seat=1)
    return log.add(
        "you_discarded", seat=1, good="dates", audience=[1], others={"type": "discarded", "seat": 1}
    )


def test_a_private_event_is_one_line_for_each_seat_its_own_or_the_face_it_shows_the_others():
    log = a_discard()
    mine = {"type": "you_discarded", "seat": 1, "good": "dates", "audience": [1]}
    assert [{k: v for k, v in e.items() if k != "others"} for e in log.visible_to(1)][1] == mine
    for seat in (0, 2, None):
        assert log.visible_to(seat) == [{"type": "married", "seat": 1}, {"type": "discarded", "seat": 1}]
        assert "dates" not in json.dumps(log.visible_to(seat))
    assert len(log.events()) == 2  # one event for the discard, not one per audience


def test_a_world_of_the_seats_log_shows_everyone_else_the_same_faces():
    world = a_discard().seen_by(1)  # a world sampled for seat 1 starts from what it has seen
    assert world.visible_to(1) == a_discard().visible_to(1)
    assert world.visible_to(0) == world.visible_to(None) == a_discard().visible_to(None)
    other = a_discard().seen_by(0)
    assert "dates" not in json.dumps(other.events())


def test_the_face_for_the_others_is_read_only_and_survives_records_and_pickles():
    log = a_discard()
    face = log.visible_to(0)[-1]
    with pytest.raises(TypeError, match="read-only"):
        face["seat"] = 2
    with pytest.raises(TypeError, match="read-only"):
        log.visible_to(1)[-1]["others"]["seat"] = 2
    again = EventLog.of(json.loads(json.dumps(log.events())))
    assert all(again.visible_to(s) == log.visible_to(s) for s in (0, 1, None))
    with pytest.raises(TypeError, match="read-only"):
        again.visible_to(0)[-1]["seat"] = 2
    pickled = pickle.loads(pickle.dumps(log))
    assert all(pickled.visible_to(s) == log.visible_to(s) for s in (0, 1, None))


@pytest.mark.parametrize(
    "entry",
    [
        {"type": "you_discarded", "seat": 1, "others": {"type": "discarded"}},  # no audience: for whom?
        {"type": "you_discarded", "audience": [1], "others": "discarded"},
        {"type": "you_discarded", "audience": [1], "others": {"seat": 1}},
    ],
)
def test_a_record_with_a_malformed_face_for_the_others_is_refused(entry):
    with pytest.raises(InvalidRecord, match="'others' must be an event with a type"):
        EventLog.of([entry])
