"""Speed work must not change any game's course (issue 12): seeded random games, every seat's legal actions
in order at every step, the full state every few steps and every seat's final view, hashed per game and
player count and pinned in golden/course_fingerprints.json.

After a deliberate rule or format change, regenerate with `MERCHANTRY_UPDATE_GOLDEN=1 make test` and say
why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from merchantry import games
from tests.conformance.walks import game_setups, random_walk

PINNED = Path(__file__).parent / "golden" / "course_fingerprints.json"
SEEDS = (0, 1, 2)
STATE_EVERY = 15


def course_fingerprint(name: str, players: int) -> str:
    game = games.get(name)
    digest = hashlib.sha256()
    for seed in SEEDS:
        state = game.new_game(players=players, seed=seed)
        for step, (seat, action) in enumerate(random_walk(state, random.Random(seed))):
            digest.update(f"{state.to_act()}{seat}{action}".encode())
            for p in range(players):
                digest.update("|".join(map(str, state.legal_actions(p))).encode())
            if step % STATE_EVERY == 0:
                digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        for p in [None, *range(players)]:
            digest.update(json.dumps(state.view(p), sort_keys=True).encode())
        digest.update(repr(state.scores()).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("name", "players"), game_setups(0))
def test_seeded_random_games_keep_their_course(name, players):
    key = f"{name}-{players}p"
    pinned = json.loads(PINNED.read_text()) if PINNED.exists() else {}
    fingerprint = course_fingerprint(name, players)
    if os.environ.get("MERCHANTRY_UPDATE_GOLDEN"):
        pinned[key] = fingerprint
        PINNED.write_text(json.dumps(pinned, indent=1, sort_keys=True) + "\n")
    assert pinned.get(key) == fingerprint, f"{key}: the course of seeded random games changed"
