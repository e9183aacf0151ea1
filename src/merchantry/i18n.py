"""Text in the rulebooks' languages from i18next-style JSON catalogues, the same files the browser reads.

One catalogue per language for the platform (`merchantry/locales/<lang>.json`) and one per game
(`games/<game>/locales/<lang>.json`). Sections: `ui` (interface words), `term` (card, good and gem names),
`event` (log templates; `<type>__<list>` says a list argument of an event in its own words, pluralised by its
length), `reason` (why the rules refuse a move: errors.IllegalAction's key; read as an
event is). Placeholders are `{{name}}`; a template with a count has plural forms `key_one`, `key_other`,
... chosen by CLDR's rules (Babel), and `key_zero` when the count is 0, as i18next does. An event's
arguments read by name: `seat` / `*_seat` is a seat, `*_seats` a list of seats, `scores` one number per
seat; every list is joined as the language joins one ("tea, myrrh and olives":
`ui.listSeparator` between its items, `list.last` before the last one; an empty one reads `ui.nothing`),
the same for every game; a word is looked up in `term` (the word itself when the catalogue has no
translation). A name can have forms a template asks for by the placeholder `{{name_form}}`: section
`termForm` (`termOf`, `termInto`), keyed as `term` is, says the name with what comes before it as the language
bends it ("d'Italie", "au Portugal", "vom Rhein"); the plain name where the language's own catalogue has no
such form. Every language has the same sections; a form placeholder stands for the same value as its name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel.core import Locale

from merchantry import games
from merchantry.engine import Event, seat_label
from merchantry.package import LANGUAGES

PLATFORM_LOCALES = Path(__file__).parent / "locales"
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")
Catalogue = dict[str, Any]
# a rules spec's clause id ("XX-A1"): a developer's reference, meaningless to a player without the spec
CLAUSE_ID = re.compile(r"\b[A-Z]{2}-[A-Z][0-9]+\b")


def without_clause_ids(text: str) -> str:
    """A text as a player reads it: the rules spec's clause ids ("variant of XX-A1: ...", "XX-A1: ...",
    "(XX-A1, XX-B2)") left out; the errors and the logs keep them for developers."""
    text = re.sub(r"\bvariant of " + CLAUSE_ID.pattern + r":\s*", "variant: ", text)
    text = re.sub(r"^" + CLAUSE_ID.pattern + r":\s*", "", text)
    text = re.sub(r"\s*\((?:" + CLAUSE_ID.pattern + r"(?:,\s*)?)+\)", "", text)
    return CLAUSE_ID.sub("", text).strip()


@cache
def load_catalogue(folder: Path, language: str) -> Catalogue:
    path = folder / f"{language}.json"
    if not path.is_file():
        return {}
    data: Catalogue = json.loads(path.read_text(encoding="utf-8"))
    return data


FORM_SECTION = re.compile(r"term([A-Z]\w*)")


def name_form(section: str) -> str | None:
    """The form a catalogue section holds ("termOf" -> "of"), or None for another section."""
    found = FORM_SECTION.fullmatch(section)
    return found.group(1).lower() if found else None


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"no language {language!r}; languages are: {', '.join(LANGUAGES)}")
    return language


def interpolate(text: str, values: dict[str, Any]) -> str:
    return PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), "")), text)


# The CLDR locale whose plural rules a language's words follow, where its bare code names another variety:
# "pt" alone is Brazilian Portuguese, where 0 is singular ("0 carta"); the words here are European
# Portuguese, where only 1 is ("0 cartas"). static/i18n.js keeps the same table.
PLURAL_LOCALE = {"pt": "pt_PT"}


class Translator:
    """A game's text in one language: its own catalogue, then the platform's, then English."""

    def __init__(self, game: str | None, language: str = "en"):
        self.language = check_language(language)
        folders = ([games.package(game).folder / "locales"] if game else []) + [PLATFORM_LOCALES]
        chain = [language] if language == "en" else [language, "en"]
        self.catalogues = [load_catalogue(folder, lang) for lang in chain for folder in folders]
        # a name's forms are the language's own: never another language's preposition
        self.forms: dict[str, dict[str, str]] = {}
        for catalogue in reversed(self.catalogues[: len(folders)]):
            for section, names in catalogue.items():
                if form := name_form(section):
                    self.forms.setdefault(form, {}).update(names)
        self.plural = Locale.parse(PLURAL_LOCALE.get(language, language)).plural_form

    def _find(self, key: str, count: Any = None) -> str | None:
        """The text of `section.name`, in its plural form for `count` if it has one."""
        section, _, name = key.partition(".")
        names = [name]
        if isinstance(count, int) and not isinstance(count, bool):
            zero = [f"{name}_zero"] if count == 0 else []
            names = [*zero, f"{name}_{self.plural(count)}", f"{name}_other", name]
        for catalogue in self.catalogues:
            entries = catalogue.get(section, {})
            for candidate in names:
                text = entries.get(candidate)
                if isinstance(text, str):
                    return text
        return None

    def ui(self, key: str, **values: Any) -> str:
        text = self._find(f"ui.{key}", values.get("count"))
        return key if text is None else interpolate(text, values)

    def terminal(self, key: str, **values: Any) -> str:
        """Words of the terminal (section `terminal`): the game's catalogue first, then the platform's."""
        text = self._find(f"terminal.{key}", values.get("count"))
        return key if text is None else interpolate(text, values)

    def move(self, text: str) -> str:
        """A move's notation in words (section `move`): the template `verb_arg` (take_right), else `verb`,
        with `{{args}}` (every argument, each a term where the catalogue has one), `{{a1}}`, `{{a2}}`...;
        the notation itself when the catalogue has no template for it."""
        verb, *args = text.split() or [""]
        keys = [self._term_key(arg) for arg in args]
        words = [self.term(key) for key in keys]
        values = {"args": ", ".join(words), **{f"a{i}": word for i, word in enumerate(words, 1)}}
        for i, (key, word) in enumerate(zip(keys, words, strict=True), 1):
            values.update(self._forms(f"a{i}", key, word))
        for key in (f"{verb}_{'_'.join(args)}".lower(), verb.lower()):
            template = self._find(f"move.{key}")
            if template is not None:
                return interpolate(template, values)
        return text

    def _term_of(self, word: str) -> str:
        """A notation word as a name, in this language."""
        return self.term(self._term_key(word))

    def _term_key(self, word: str) -> str:
        """A notation word as its name is keyed: as written, or capitalised (levant -> Levant)."""
        for candidate in (word, word.capitalize(), word.upper()):
            if self._find(f"term.{candidate}") is not None:
                return candidate
        return word

    def _forms(self, placeholder: str, key: str, word: str) -> dict[str, str]:
        """`{{placeholder_form}}` for each of the language's forms: the name `key` in that form (French
        "d'Italie" for of, "à l'Italie" for into), else the name as it is (`word`)."""
        return {f"{placeholder}_{form}": names.get(key, word) for form, names in self.forms.items()}

    def rules(self, key: str, **values: Any) -> str:
        """Words of a rules page's tables (section `rules`)."""
        text = self._find(f"rules.{key}", values.get("count"))
        return key if text is None else interpolate(text, values)

    def term(self, word: str) -> str:
        return self._find(f"term.{word}") or word

    def option(self, name: str) -> str:
        """A game option's name in words (section `option`), else its own name with spaces."""
        return self._find(f"option.{name}") or name.replace("_", " ")

    def options(self, chosen: dict[str, Any]) -> str:
        """Options and their values as a line: "hand limit: 5; penalty: 50"."""
        return "; ".join(f"{self.option(name)}: {value}" for name, value in chosen.items())

    def event(self, event: Event, seat_name: Callable[[int], str] = seat_label) -> str:
        """One log event as a sentence."""
        values = {
            name: self._describe(name, value, seat_name)
            for name, value in event.items()
            if name not in ("type", "audience", "others", "new_round")
        }
        for name, value in event.items():
            if isinstance(value, str) and name in values:
                values.update(self._forms(name, value, values[name]))
        for name, value in event.items():
            # a list with its own words, singular or plural by its length ("Paid: P2, 3 coins" but
            # "Paid: P1 and P3, 3 coins each"): the template `<type>__<name>` says it
            phrase = (
                self._find(f"event.{event['type']}__{name}", len(value)) if isinstance(value, list) else None
            )
            if phrase is not None and name in values:
                values[name] = interpolate(phrase, values)
        text = self._find(f"event.{event['type']}", event.get("count"))
        if text is None:
            return f"{event['type']} {json.dumps(values, ensure_ascii=False)}"
        return interpolate(text, values)

    def refusal(self, error: Exception, seat_name: Callable[[int], str] = seat_label) -> str:
        """Why a move was refused, in this language, as a player reads it: a game's reason
        (errors.IllegalAction's `key`) from section `reason`, its values read as an event's are; the error's
        own English text for a reason the catalogue cannot say (none with its key, or no key). Without the
        clause ids the error cites (issue 32: "(XX-A4)" meant nothing to a newcomer); `str(error)` keeps
        them for the logs."""
        key = getattr(error, "key", None)
        text = self._find(f"reason.{key}") if key else None
        if text is None:
            return without_clause_ids(str(error))
        params: dict[str, Any] = getattr(error, "params", {})
        values = {name: self._describe(name, value, seat_name) for name, value in params.items()}
        for name, value in params.items():
            if isinstance(value, str):
                values.update(self._forms(name, value, values[name]))
        return interpolate(text, values)

    def join(self, items: list[str]) -> str:
        """Items as the language lists them: "tea, myrrh and olives", "Tee, Myrrhe und Oliven"."""
        if len(items) < 2:
            return "".join(items)
        return self.ui("listSeparator").join(items[:-1]) + (self._find("list.last") or ", ") + items[-1]

    def _describe(self, name: str, value: Any, seat_name: Callable[[int], str]) -> Any:
        if name == "seat" or name.endswith("_seat"):
            return seat_name(value)
        if name.endswith("_seats"):
            return self.join([seat_name(s) for s in value])
        if name == "scores":
            return self.join([f"{seat_name(s)} {number(v)}" for s, v in enumerate(value)])
        if isinstance(value, list):
            if not value:
                return self.ui("nothing")
            return self.join([self.term(v) if isinstance(v, str) else str(v) for v in value])
        if isinstance(value, str):
            return with_minus_signs(self.term(value))
        return number(value) if isinstance(value, float) else value


# a hyphen that starts a figure ("+1 -1 0"): written as the minus sign the boards and tables use
SIGNED_FIGURE = re.compile(r"(?<![\w-])-(?=\d)")


def with_minus_signs(text: str) -> str:
    """'+1 -1 0' -> '+1 −1 0': an event's text argument as the rest of the page writes numbers."""
    return SIGNED_FIGURE.sub("\u2212", text)


def number(value: Any) -> str:
    """12.0 -> '12': scores are floats in the engine, whole numbers on the table."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def log_lines(view: dict[str, Any], language: str = "en") -> list[str]:
    """A view's log as sentences in `language` (the view names its game)."""
    translator = Translator(view["game"], language)
    return [translator.event(event) for event in view.get("log", [])]
