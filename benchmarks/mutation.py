"""Mutation testing of every game's rules, per game and module, with mutmut (issue 27); not in `make test`.

    .venv/bin/python benchmarks/mutation.py [--game NAME ...] [--report-only] [--audit] [--survivors FILE]

For each game, mutmut (configured in pyproject.toml's [tool.mutmut]) mutates the game's rules modules and
runs, against each mutant, only the tests of its selection (tests/games and tests/test_golden.py) that
executed the mutated function in a clean run: in practice the game's tests/games file and its golden
playthroughs. One worker at a time, under `nice` (the machines have 2 cores), in the git-ignored folder
mutants/. `--report-only` prints the table from the last results without running anything (a run retests
every mutant it names). `--audit` also checks that the mutants an earlier hand audit made (AUDIT) are still
killed by their clause tests.

Some functions are left out of mutation (EXCLUDED): sampling hidden information, cloning and serialisation,
which the conformance suite (tests/conformance) checks on every game and player count; it takes minutes per
game, too slow to run per mutant. A surviving mutant that is explained in docs/testing.md (listed there with
its changed line and why no test through the public API tells it from the original) counts as `equivalent`;
if that line no longer matches the mutant it is reported stale and counted as unexplained.

The score is killed / (mutants - equivalent), over the mutants of the functions that are mutated. `survived`
counts every mutant no test kills (including those in code no selected test runs), `unexplained` the ones
docs/testing.md does not explain: it should be 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "testing.md"
MUTMUT = ROOT / ".venv" / "bin" / "mutmut"

# The modules holding each game's rules (what the rulebook says happens), under src/merchantry/games/<game>/.
MODULES = {
    "money": ("rules", "scoring"),
    "samarkand": ("rules", "components", "map_generator"),
    "byzanz": ("rules",),
    "grand_bazaar": ("rules",),
}

# Functions not mutated, per game: covered by the conformance suite (sample_hidden keeps the view and varies
# what is unseen; clone is independent; to_dict round-trips and malformed states are refused).
# in_decision (how small steps group into moves) and Samarkand's answers_unseen belong to the platform's
# timing (docs/engine.md); the conformance suite checks them against sampled worlds and whole games.
COMMON_EXCLUDED = ("sample_hidden", "clone", "to_dict", "in_decision", "answers_unseen")
EXCLUDED = {
    "money": ("_draw_sealed_bid",),  # sample_hidden's sealed bids
    "samarkand": ("_plain",),  # to_dict's
    # sample_hidden's card placement; check_cards and knowledge_error check a state read by from_dict
    "byzanz": (
        "_unpinned_cards",
        "_place_unsure_cards",
        "_still_placeable",
        "check_cards",
        "knowledge_error",
        "_last_step_was",  # in_decision's
    ),
    "grand_bazaar": (),
}

# The audit's hand-made mutants (issue 27) that survived the tests of the time, each with the clause test
# that now kills it: (module, original line, mutated line, test). `--audit` checks that each still dies.
AUDIT = (
    (
        "money/rules.py",
        "        self.current = target  # MO-R7: the player whose bid was taken acts next",
        "        self._next_in_order()",
        "tests/games/test_money.py::test_mo_r7_robbed_bidder_acts_next_even_out_of_bid_order",
    ),
    (
        "samarkand/rules.py",
        "            and self.camels_left[family] > 0",
        "            and True",
        "tests/games/test_samarkand.py::test_sk_t3_no_second_camel_when_the_family_has_none_left",
    ),
    (
        "samarkand/rules.py",
        "        if not any(stack == MARKERS_PER_FAMILY for stack in self.stack):",
        "        if sum(stack == MARKERS_PER_FAMILY for stack in self.stack) <= 1:",
        "tests/games/test_samarkand.py::test_sk_e1_nine_families_met_of_ten_do_not_end_the_game",
    ),
)

KILLED = {
    1,
    3,
    24,
    -24,
    36,
    152,
    255,
}  # a test failed, pytest broke, or the mutant timed out (an endless loop)
SURVIVED = {0}
NO_TESTS = {5, 33}
# docs/testing.md: "- `NAME` — `CHANGED LINE` — why"
EQUIVALENT_LINE = re.compile(
    r"^- `(?P<name>merchantry\.games\.[^`]+__mutmut_\d+)` — `(?P<line>[^`]*)` — ", re.M
)


def function_of(mutant: str) -> str:
    """merchantry.games.money.rules.xǁMoneyStateǁ_apply__mutmut_3 -> _apply"""
    mangled = mutant.rsplit(".", 1)[1].rsplit("__mutmut_", 1)[0]
    return mangled.split("ǁ")[-1] if "ǁ" in mangled else mangled[2:]


def is_excluded(game: str, mutant: str) -> bool:
    return function_of(mutant) in COMMON_EXCLUDED + EXCLUDED[game]


def meta_path(game: str, module: str) -> Path:
    return ROOT / "mutants" / "src" / "merchantry" / "games" / game / f"{module}.py.meta"


def module_prefix(game: str, module: str) -> str:
    return f"merchantry.games.{game}.{module}."


def function_names(game: str, module: str) -> list[str]:
    """The mangled names (x_func, xǁClassǁmethod) of the module's functions, as mutmut names them."""
    import ast

    tree = ast.parse((ROOT / "src" / "merchantry" / "games" / game / f"{module}.py").read_text())
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.append(f"x_{node.name}")
        elif isinstance(node, ast.ClassDef):
            names += [f"xǁ{node.name}ǁ{f.name}" for f in node.body if isinstance(f, ast.FunctionDef)]
    return names


def run_game(game: str, max_children: int) -> float:
    """Run mutmut over the game's modules, the excluded functions left out; returns the seconds taken."""
    patterns = [
        f"{module_prefix(game, module)}{name}__mutmut_*"
        for module in MODULES[game]
        for name in function_names(game, module)
        if not is_excluded(game, f"{module_prefix(game, module)}{name}__mutmut_0")
    ]
    command = ["nice", "-n", "10", str(MUTMUT), "run", "--max-children", str(max_children), *patterns]
    start = time.monotonic()
    log = ROOT / "mutants" / f"run-{game}.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("w") as out:
        result = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, check=False)
    if result.returncode:
        sys.exit(f"mutmut failed for {game} (exit {result.returncode}); see {log}")
    return time.monotonic() - start


def documented_equivalents() -> dict[str, str]:
    """Mutant name -> its changed line, as docs/testing.md lists them."""
    text = DOC.read_text() if DOC.exists() else ""
    return {m["name"]: m["line"].strip() for m in EQUIVALENT_LINE.finditer(text)}


def changed_line(mutant: str) -> str:
    """The mutant's new line (the first '+' line of its diff), stripped."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    os.chdir(ROOT)
    for line in get_diff_for_mutant(mutant).splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return ""


def diff_of(mutant: str) -> str:
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    os.chdir(ROOT)
    return get_diff_for_mutant(mutant)


def check_audit(out: list[str]) -> bool:
    """Apply each AUDIT mutant to a copy of src/ and run its test there: it must fail."""
    import shutil
    import tempfile

    ok = True
    for module, original, mutated, test in AUDIT:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(ROOT / "src", Path(tmp) / "src")
            path = Path(tmp) / "src" / "merchantry" / "games" / module
            text = path.read_text()
            if text.count(original + "\n") != 1:
                out.append(f"audit: the line to mutate is gone from {module}: {original.strip()}")
                ok = False
                continue
            path.write_text(text.replace(original + "\n", mutated + "\n"))
            env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
            command = [str(ROOT / ".venv" / "bin" / "pytest"), "-q", "-p", "no:cacheprovider", test]
            result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
            killed = result.returncode == 1
            ok = ok and killed
            out.append(
                f"audit: {module}: {mutated.strip()} -> {'killed' if killed else 'SURVIVED'} by {test}"
            )
    return ok


@dataclass
class Row:
    game: str
    module: str
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    equivalent: int = 0
    excluded: int = 0
    not_run: int = 0
    unexplained: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def score(self) -> str:
        judged = self.mutants - self.equivalent
        return f"{100 * self.killed / judged:.1f}%" if judged else "-"


def tally(game: str, module: str, equivalents: dict[str, str]) -> Row:
    row = Row(game, module)
    path = meta_path(game, module)
    if not path.exists():
        return row
    results = json.loads(path.read_text())["exit_code_by_key"]
    for mutant, code in sorted(results.items()):
        if is_excluded(game, mutant):
            row.excluded += 1
            continue
        if code is None:
            row.not_run += 1
            continue
        row.mutants += 1
        if code in KILLED:
            row.killed += 1
            continue
        row.survived += 1
        if code in SURVIVED and mutant in equivalents:
            if changed_line(mutant) == equivalents[mutant]:
                row.equivalent += 1
                continue
            row.stale.append(mutant)
        row.unexplained.append(mutant)
    return row


def print_table(rows: list[Row], out: list[str]) -> None:
    header = (
        "game",
        "module",
        "mutants",
        "killed",
        "survived",
        "equivalent",
        "unexplained",
        "score",
        "excluded",
    )
    lines = [header] + [
        (
            r.game,
            r.module,
            str(r.mutants),
            str(r.killed),
            str(r.survived),
            str(r.equivalent),
            str(len(r.unexplained)),
            r.score,
            str(r.excluded),
        )
        for r in rows
    ]
    total = Row("all", "")
    for r in rows:
        total.mutants += r.mutants
        total.killed += r.killed
        total.survived += r.survived
        total.equivalent += r.equivalent
        total.excluded += r.excluded
        total.unexplained += r.unexplained
    lines.append(
        (
            "all",
            "",
            str(total.mutants),
            str(total.killed),
            str(total.survived),
            str(total.equivalent),
            str(len(total.unexplained)),
            total.score,
            str(total.excluded),
        )
    )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for i, line in enumerate(lines):
        cells = [
            c.ljust(w) if j < 2 else c.rjust(w) for j, (c, w) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
        if i == 0 or i == len(lines) - 2:
            out.append("  ".join("-" * w for w in widths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", action="append", choices=sorted(MODULES), help="only this game (repeatable)"
    )
    parser.add_argument("--report-only", action="store_true", help="print the table from the last results")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut workers (default 1)")
    parser.add_argument("--audit", action="store_true", help="also check the audit's hand-made mutants")
    parser.add_argument("--survivors", type=Path, help="write every unexplained survivor's diff to this file")
    args = parser.parse_args(argv)
    games = args.game or list(MODULES)
    os.chdir(ROOT)
    out: list[str] = []
    timings = {}
    if not args.report_only:
        for game in games:
            timings[game] = run_game(game, args.max_children)
    equivalents = documented_equivalents()
    rows = [tally(game, module, equivalents) for game in games for module in MODULES[game]]
    out.append(
        "Mutation testing (mutmut) of the rules modules, one worker; score = killed / (mutants - equivalent)"
    )
    out.append(
        "tests per mutant: those of tests/games and tests/test_golden.py that ran the mutated function"
    )
    out.append(
        "excluded: mutants of functions left to the conformance suite (sample_hidden, clone, to_dict, ...)"
    )
    out.append("")
    print_table(rows, out)
    if timings:
        out.append("")
        out.append("wall time: " + ", ".join(f"{g} {s / 60:.1f} min" for g, s in timings.items()))
    unexplained = [m for r in rows for m in r.unexplained]
    stale = [m for r in rows for m in r.stale]
    not_run = sum(r.not_run for r in rows)
    if not_run:
        out.append(f"\n{not_run} mutants not run yet")
    if stale:
        out.append("\nstale equivalents in docs/testing.md (the mutant's line changed): " + ", ".join(stale))
    if unexplained:
        out.append(f"\n{len(unexplained)} unexplained survivors:")
        out += [f"  {m}" for m in unexplained]
    audit_ok = True
    if args.audit:
        out.append("")
        audit_ok = check_audit(out)
    print("\n".join(out))
    if args.survivors:
        args.survivors.write_text("\n\n".join(f"# {m}\n{diff_of(m)}" for m in unexplained) + "\n")
    return 1 if unexplained or not audit_ok else 0


if __name__ == "__main__":
    sys.exit(main())
