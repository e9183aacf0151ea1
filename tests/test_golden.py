"""Seeded games pinned as text: a rule or view change shows up as a diff of these files.

After a deliberate change, regenerate with `MERCHANTRY_UPDATE_GOLDEN=1 make test` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from merchantry.playthrough import playthrough

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("money", 3, 1, "greedy,random,greedy"),
    ("money", 4, 7, "greedy,random,random,random"),
    ("money", 5, 42, "greedy,greedy,random,greedy,random"),
    ("byzanz", 3, 4, "greedy,random,greedy"),
    ("byzanz", 6, 9, "greedy,random,random,greedy,random,greedy"),
    ("grand_bazaar", 2, 3, "greedy,random"),
    ("grand_bazaar", 5, 8, "greedy,random,greedy,random,random"),
    ("samarkand", 2, 5, "greedy,random"),
    ("samarkand", 4, 11, "greedy,random,greedy,random"),
]


@pytest.mark.parametrize(("game", "players", "seed", "lineup"), CASES)
def test_playthrough_matches_golden_file(game, players, seed, lineup):
    path = GOLDEN / f"{game}-{players}p-seed{seed}.txt"
    text = "\n".join(playthrough(game, players, seed, lineup.split(","))) + "\n"
    if os.environ.get("MERCHANTRY_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run with MERCHANTRY_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(), f"{path.name} changed; if intended, regenerate and review the diff"
