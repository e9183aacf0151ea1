"""What a game brings to the platform, registered once in the game's own `__init__.py`.

The platform (bots, terminal, server, records, simulate) reaches a game only through `merchantry.games`
and this record, so it never names a game: adding a game is one folder and one line in the registry.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from merchantry.bots.ismcts import SearchConfig
from merchantry.engine import Game, State

LANGUAGES = ("en", "pt", "de", "fr")  # the languages of the rulebooks; English is the fallback


@dataclass(frozen=True)
class PlayOutCut:
    """How an analysis' play-outs of a game stop short of its end: after `actions` actions the world is
    judged by the game's evaluation, each seat taking the share exp(evaluation / spread) of the seats' sum
    (a seat `spread` points ahead weighs e times as much as the other; the shares add up to 1). The game's
    calibration map (data/calibration.json) then says what such a share has meant, so it must be fitted on
    play-outs cut the same way. For a game whose play-outs to the end cost too much for an analysis in
    seconds."""

    actions: int
    spread: float

    def __post_init__(self) -> None:
        if self.actions < 1 or self.spread <= 0:
            raise ValueError(f"a play-out cut needs actions >= 1 and spread > 0, not {self}")


@dataclass(frozen=True)
class GamePackage:
    """A game and its parts. Files live in `folder`:

    - `static/drawing.js` (+ `drawing.css`): the browser drawing, an ES module exporting `render`;
    - `rules/<lang>.html`: the rules page per language (English at least), the body of the page only: the
      server puts it in the platform's frame;
    - `locales/<lang>.json`: the translation catalogue (i18next JSON: log templates, card names, UI words);
    - `images/`: pictures for the rules page (served at /games/<game>/images/).
    """

    game: Game
    folder: Path
    bots: Mapping[str, Callable[[], Any]] = field(default_factory=dict)  # per-game bots, by name
    # module with draw(view, console, translator), draw_final (the same), HELP, expand, automatic; its words
    # come from the catalogues' `terminal` section, in the player's language
    terminal: str | None = None
    encoding: str | None = None  # module with ENCODING: the game as numbers for RL (merchantry.rl.encoding)
    # how far each seat is ahead in an unfinished game (search bots judge a cut-short rollout by it); None:
    # the game's scores()
    evaluate: Callable[[State], list[float]] | None = None
    # the search recipe of each difficulty level ("easy", "medium", "hard") where the game needs its own;
    # the others come from merchantry.bots.levels
    levels: Mapping[str, SearchConfig] = field(default_factory=dict)
    # module with numbers(language) -> {name: HTML}: the tables of the game's numbers, made from its data
    # files, that fill the rules page's `<!-- numbers:NAME -->` places (so the page cannot drift from them)
    rules_numbers: str | None = None
    # fields of the state's `to_dict()` that only record what seats have learnt (a card seen in a bid taken
    # back): two moves that end alike but for them are one move that reveals less, and a hint proposes it
    knowledge: tuple[str, ...] = ()
    # where an analysis' play-outs stop and how the world is judged there (None: played out to the end)
    analysis_cut: PlayOutCut | None = None
    # where the play-outs that measure a chance (hints, analyses) are played by the greedy bot for every seat:
    # a part of the game whose choices no player gets wrong (a final sale of every set one holds), where a
    # random play-out throws points away in one line and not in another that made the same choice earlier
    greedy_ending: Callable[[State], bool] | None = None
    # the searches' model of what the others chose unseen (merchantry.bots.worlds.sampled_world): applied, in
    # place, to each world sampled for a seat (`hidden_model(world, seat, rng)`), where `sample_hidden`'s
    # uniform draw of such a choice does not match how the play-outs play the others (a sealed bid)
    hidden_model: Callable[[State, int, random.Random], None] | None = None

    def file(self, *parts: str) -> Path | None:
        """A file of the package, or None if it has none (a missing drawing, rules page, ...)."""
        path = self.folder.joinpath(*parts)
        return path if path.is_file() else None

    def rules_page(self, language: str) -> Path | None:
        return self.file("rules", f"{language}.html") or self.file("rules", "en.html")
