"""Terminal play: a person against bots, drawn with rich. Each game's drawing lives in its own package
(registered as `GamePackage.terminal`); this module runs the table and knows no game."""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

import rich._wrap
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from merchantry import bots, games
from merchantry.bots.analysis import FollowedHints, hint
from merchantry.bots.levels import LEVELS
from merchantry.engine import State, seat_label
from merchantry.errors import IllegalAction
from merchantry.i18n import Translator
from merchantry.records import Session, save

InputFn = Callable[[str], str]

NBSP = "\u00a0"  # joins what must stay on one line: a card's name with its number, a card and its worth
# rich breaks a line at any whitespace, the no-break space too (its words are `\s*\S+\s*`): at 80 columns a
# hand's card was cut in two, its name at a line's end and its number on the next. Its words end only at
# other whitespace, in printed lines and table cells alike (rich 15's wrapping, rich/_wrap.py;
# tests/test_terminal.py notices if that changes)
rich._wrap.re_word = re.compile(r"[^\S\u00a0]*[\S\u00a0]+[^\S\u00a0]*")


# the terminal's own commands; each has a word in every language too (catalogue `terminal.cmd_<command>`)
COMMANDS = ("hint", "help", "log", "board", "quit")


class Quit(Exception):
    pass


def bid_shortcut(text: str) -> list[str]:
    """'bid A B' -> 'add A', 'add B', 'bid': each card into the bid, then confirm it; any other text is one
    move.
    Games whose bids are built card by card use this as their `expand`."""
    words = text.split()
    if len(words) > 1 and words[0].lower() == "bid":
        return [f"add {code}" for code in words[1:]] + ["bid"]
    return [text]


def titled(title: str, **options: Any) -> Table:
    """A table whose title stays on one line: a narrow table (three short columns) wrapped its title
    over two or three lines at 80 columns, so the table is made at least as wide as its title (a title
    wider than the terminal wraps at the terminal's edge, between words)."""
    return Table(title=title, min_width=Text.from_markup(title).cell_len + 2, **options)


def print_log(console: Console, lines: list[str], moves: list[int] | None = None) -> None:
    """Log lines as the terminal shows them (their text is never read as rich markup); with `moves`, each
    numbered by the move that wrote it, as the replay and the analysis number moves (the deal's lines by
    none)."""
    for i, line in enumerate(lines):
        if moves is None:
            console.print(f"[dim]·[/] {escape(line)}")
            continue
        number = str(moves[i] or "") if i < len(moves) else ""
        console.print(f"[dim]{number:>4} ·[/] {escape(line)}")


def renderer_for(game: str) -> ModuleType | None:
    module = games.package(game).terminal
    return importlib.import_module(module) if module else None


class TerminalTable:
    """One game at the terminal: seat `human` is the person, every other seat a bot."""

    def __init__(
        self,
        session: Session,
        human: int,
        bot_names: list[str],
        console: Console,
        read: InputFn,
        rng: random.Random,
        record_path: str | None = None,
        language: str = "en",
        save_on_quit: bool = True,
    ):
        self.session = session
        self.human = human
        self.bots = {
            seat: bots.get(bot_names[seat], session.game) for seat in range(len(bot_names)) if seat != human
        }
        self.bot_names = bot_names
        self.console = console
        self.read = read
        self.rng = rng
        self.followed = FollowedHints(most=1)  # a hinted move followed step by step: asked again, its rest
        self.record_path = record_path
        self.save_on_quit = save_on_quit
        self.renderer = renderer_for(session.game.name)
        self.translator = Translator(session.game.name, language)  # the log in the player's language
        self.log_seen = 0
        self.last_mover: int | None = None  # who made the newest move here

    @property
    def state(self) -> State:
        return self.session.state

    def say(self, key: str, **values: Any) -> str:
        """The terminal's words in the player's language (catalogue section `terminal`)."""
        return self.translator.terminal(key, **values)

    def bot_name(self, seat: int) -> str:
        """A level's name in the player's language ("Bot: mittel"); a script bot's as it is called."""
        name = self.bot_names[seat]
        return self.translator.ui(f"bot_{name}") if name in LEVELS else name

    def run(self) -> None:
        names = ", ".join(f"{seat_label(s)} {self.bot_name(s)}" for s in sorted(self.bots))
        title = self.session.game.title
        self.console.print(
            self.say("welcome", title=f"[bold]{title}[/]", seat=seat_label(self.human), bots=names)
        )
        self.show_variants()
        self.console.print(self.say("commands"))
        try:
            while not self.state.is_over():
                waiting_bots = [s for s in self.state.to_act() if s != self.human]
                if waiting_bots:
                    self.bot_turn(waiting_bots[0])
                    continue
                self.show_news()
                if not self.answered_for_you():
                    self.human_turn()
            self.show_news()
            self.show_final()
        except Quit:
            # a game kept for --resume is paused, not abandoned: one message, not two that contradict
            if not self.save_to_resume():
                self.console.print(self.say("abandoned"))
            return
        if self.record_path:
            save(self.terminal_record(), self.record_path)
            self.console.print(self.say("recordSaved", path=self.record_path))

    def bot_turn(self, seat: int) -> None:
        """One bot move, with a sign while the bot searches (a hard bot takes seconds)."""
        with self.console.status(self.say("thinking", seat=seat_label(seat), bot=self.bot_name(seat))):
            move = bots.play_turn(self.state, seat, self.bots[seat], self.rng)
        self.session.apply(seat, move)
        self.last_mover = seat

    def terminal_record(self) -> dict[str, Any]:
        """The game record, with who sat where at this terminal: what `play --resume` needs to carry on."""
        return {**self.session.record(), "terminal": {"seat": self.human, "bots": self.bot_names}}

    def save_to_resume(self) -> bool:
        """A game left unfinished is kept, so that it can be resumed (into --record's file if given);
        whether it was."""
        if not self.save_on_quit or not self.session.moves:
            return False
        path = self.record_path or f"merchantry-{self.session.game.name}-seed{self.session.seed}.json"
        save(self.terminal_record(), path)
        self.console.print(self.say("savedToResume", path=path))
        return True

    def show_variants(self) -> None:
        """The options that change the rulebook's rules, so nobody plays by rules they did not expect."""
        variants = self.state.view(self.human).get("variants") or {}
        if variants:
            self.console.print(f"[bold]{self.say('variant')}[/] {self.translator.options(variants)}")

    def show_news(self) -> None:
        """Print public log lines that appeared since the last look (from the player's own view)."""
        log = self.state.view(self.human).get("log", [])
        print_log(self.console, [self.translator.event(event) for event in log[self.log_seen :]])
        self.log_seen = len(log)

    def answered_for_you(self) -> bool:
        """A game's terminal may answer a question that leaves the player no choice (its `automatic`)."""
        automatic = getattr(self.renderer, "automatic", None)
        move = (
            automatic(self.state.view(self.human), self.state.legal_actions(self.human))
            if automatic
            else None
        )
        if move is None:
            return False
        self.session.apply(self.human, move)
        self.last_mover = self.human
        return True

    def continues_own_move(self) -> bool:
        """The person is partway through a move of their own (a bid built card by card, discards after a
        marriage) and nobody else has moved since their last step: only their part of the board changed."""
        return self.last_mover == self.human and self.state.in_decision(self.human)

    def human_turn(self) -> None:
        view = self.state.view(self.human)
        legal = self.state.legal_actions(self.human)
        draw_step = getattr(self.renderer, "draw_step", None)
        if draw_step is not None and self.continues_own_move():
            draw_step(view, self.console, self.translator)  # not the whole board again for every card
        else:
            self.draw(view)
        self.console.print(self.numbered(legal))
        while True:
            try:
                text = self.read("> ").strip()
            except EOFError:
                raise Quit() from None
            if not text:
                continue
            command = self.command_of(text)
            if command in ("quit", "exit", "q"):
                raise Quit()
            if command in ("help", "?"):
                self.console.print(self.say("commands"))
                help_text = self.translator.terminal("help") if self.renderer is not None else "help"
                if help_text != "help":
                    self.console.print(escape(help_text))
                continue
            if command == "hint":
                self.show_hint()
                continue
            if command == "board":
                self.draw(view)
                self.console.print(self.numbered(legal))
                continue
            if command == "log":
                print_log(self.console, [self.translator.event(event) for event in view.get("log", [])])
                continue
            try:
                self.play_text(text, legal)
                return
            except IllegalAction as exc:  # the game's reason in the player's language, in words only
                self.console.print(f"[red]{self.say('notAllowed')}[/] {escape(self.translator.refusal(exc))}")

    def command_of(self, text: str) -> str:
        """A command typed in English or in the player's language ("dica" is "hint" under --lang pt); any
        other text as typed, lower-cased (moves are typed in their English notation, as the list shows)."""
        typed = text.lower()
        for command in COMMANDS:
            if typed == self.say(f"cmd_{command}").lower():
                return command
        return typed

    def show_hint(self) -> None:
        """What the hard bot would play here, searched on worlds sampled for the player's seat only."""
        advice = self.followed.next_of(None, self.state, self.human, self.session.moves)
        if advice is None:
            with self.console.status(self.say("hintThinking")):
                stream = random.Random(self.rng.random())
                advice = hint(self.state, self.human, self.session.game.name, stream)
            self.followed.remember(None, advice, len(self.session.moves))
        plan = " -> ".join(advice.plan)
        words = " -> ".join(self.translator.move(step) for step in advice.plan)
        if words != plan:  # the move in words, then its notation, which is what one types
            plan = f"{words} ({self.translator.ui('notationToType')} {plan})"
        low, high = advice.low, advice.high
        chance = self.say("chance", chance=f"{advice.chance:.0%}", low=f"{low:.0%}", high=f"{high:.0%}")
        self.console.print(self.say("hint", plan=f"[bold]{escape(plan)}[/]", chance=chance))

    def play_text(self, text: str, legal: list[Any]) -> None:
        """A number from the list, a move's notation, several moves joined by "->" (as the hint writes them),
        or a game's shortcut for several moves at once."""
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                raise IllegalAction(self.say("chooseNumber", count=len(legal)))
            self.session.apply(self.human, legal[number - 1])
            self.last_mover = self.human
            return
        expand = getattr(self.renderer, "expand", None)
        # several moves in a row as the hint writes them ("buy ruby -> buy ruby -> done"; the page's "·")
        parts = [part.strip() for part in re.split(r"->|·", text) if part.strip()] or [text]
        moves = [move for part in parts for move in (expand(part) if expand else [part])]
        trial = self.state.clone()  # a several-move shortcut is applied whole or not at all
        for move in moves:
            trial.apply(self.human, move)
        for move in moves:
            self.session.apply(self.human, move)
        self.last_mover = self.human

    def numbered(self, legal: list[Any]) -> Table:
        """The moves by number, each in its notation (what one types); in another language than English the
        move in words beside it ("buy ruby (einen Rubin kaufen)"), as the page's moves panel has it."""
        table = Table(show_header=False, box=None, padding=(0, 2))
        cells = [
            f"[cyan]{i}[/] {escape(str(action))}{self.in_words(action)}" for i, action in enumerate(legal, 1)
        ]
        columns = 4
        for start in range(0, len(cells), columns):
            table.add_row(*cells[start : start + columns])
        return table

    def in_words(self, action: Any) -> str:
        if self.translator.language == "en":
            return ""
        said = self.translator.move(str(action))
        return f" [dim]({escape(said)})[/]" if said != str(action) else ""

    def draw(self, view: dict[str, Any]) -> None:
        if self.renderer is not None:
            self.renderer.draw(view, self.console, self.translator)
        else:
            self.console.print_json(json.dumps(view))

    def show_final(self) -> None:
        view = self.state.view(self.human)
        if self.renderer is not None and hasattr(self.renderer, "draw_final"):
            self.renderer.draw_final(view, self.console, self.translator)
        winners = self.state.winners()
        scores = self.state.scores()
        names = self.say("and").join(self.say("you") if w == self.human else seat_label(w) for w in winners)
        points = f"{scores[winners[0]]:g}"
        self.console.print(self.say("winner", names=f"[bold]{names}[/]", points=points, count=len(winners)))
