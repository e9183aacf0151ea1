"""The `merchantry` command: play, simulate, tournament, replay, serve, games."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress, ProgressColumn
from rich.table import Table
from rich.text import Text

from merchantry import bots, games, records, simulate
from merchantry.engine import seat_label
from merchantry.i18n import Translator, log_lines, without_clause_ids
from merchantry.package import LANGUAGES
from merchantry.terminal import TerminalTable, print_log, renderer_for


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """`--option max_rounds=30` -> {"max_rounds": 30}; integers are read as integers."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--option takes name=value, not {pair!r}")
        options[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return options


def bot_list(text: str, count: int, what: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise ValueError(f"--bots needs one name or {count} names ({what}), got {len(names)}")
    return names


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    bots.enable_plugins()
    if args.resume:
        return resume_play(args, console)
    if not args.game:
        raise ValueError("name a game to play (merchantry games lists them), or --resume FILE")
    game = games.get(args.game)
    players = args.players or min(game.min_players + 1, game.max_players)
    human = args.seat - 1
    if not 0 <= human < players:
        raise ValueError(f"--seat must be 1..{players}")
    others = bot_list(args.bots, players - 1, "one per other seat")
    seat_bots = others[:human] + ["you"] + others[human:]
    for name in set(others):
        bots.get(name, game)
    options = parse_options(args.option)
    game.new_game(players=players, seed=0, **options)  # a bad option: one line now, not after the deal
    if args.record:
        check_output_file(args.record, "--record")
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    session = records.Session(game.name, players, seed=seed, options=options)
    console.print(f"Seed {seed}.")
    table = TerminalTable(
        session, human, seat_bots, console, console.input, random.Random(seed), args.record, args.lang
    )
    table.run()
    return 0


def resume_play(args: argparse.Namespace, console: Console) -> int:
    """Carry on a game saved by `quit`: the same seats, bots and moves; saved again to the same file."""
    record = records.load(args.resume)
    if args.game and args.game != record["game"]:
        raise ValueError(f"{args.resume} is a game of {record['game']}, not {args.game}")
    seats = record.get("terminal")
    if not isinstance(seats, dict) or not isinstance(seats.get("bots"), list):
        raise ValueError(f"{args.resume} was not saved by the terminal: it does not say who sat where")
    human, seat_bots = seats.get("seat"), [str(name) for name in seats["bots"]]
    if not isinstance(human, int) or not 0 <= human < len(seat_bots) == record["players"]:
        raise ValueError(f"{args.resume}: its seats do not match its {record['players']} players")
    session = records.Session.resumed(record)
    if session.state.is_over():
        raise ValueError(f"{args.resume} is a finished game: merchantry replay {args.resume} shows it")
    resuming = Translator(record["game"], args.lang).terminal(
        "resuming", moves=len(session.moves), seed=record["seed"]
    )
    console.print(resuming)
    rng = random.Random(f"{record['seed']}:{len(session.moves)}")
    table = TerminalTable(session, human, seat_bots, console, console.input, rng, args.resume, args.lang)
    table.run()
    return 0


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    from merchantry.arena import backends

    bots.enable_plugins()
    game = games.get(args.game)
    named = [name for name in args.bots.split(",") if name.strip()]
    players = args.players or (len(named) if len(named) > 1 else game.min_players)
    lineup = bot_list(args.bots, players, "one per seat")
    simulate.check_lineup(game.name, lineup)
    options = parse_options(args.option)
    game.resolve_options(options)  # a bad option: one line now, not from every worker
    if args.records:
        check_output_file(args.records, "--records")
    backends.connect(args.backend, args.address, lineup)
    finished: list[simulate.GameResult] = []
    interrupted, started = False, time.perf_counter()
    with progress_bar(Console(stderr=True), transient=True) as progress:
        task = progress.add_task(game.title, total=args.games)

        def keep(result: simulate.GameResult) -> None:
            finished.append(result)
            progress.advance(task)

        try:
            simulate.run(
                game.name,
                lineup,
                args.games,
                args.seed,
                args.workers,
                keep,
                args.backend,
                args.address,
                options,
            )
        except KeyboardInterrupt:
            interrupted = True
    if not finished:
        raise ValueError("no game finished")
    results = sorted(finished, key=lambda r: r.index)
    summary = simulate.summarise(game.name, results, time.perf_counter() - started)
    if args.records:
        with open(args.records, "w", encoding="utf-8") as out:
            for result in results:
                out.write(json.dumps(result.record) + "\n")
    if args.json:
        print(json.dumps(summary.as_dict(), indent=1))
        return 0
    print_summary(summary, lineup, args, console, options)
    if interrupted:
        console.print(f"[yellow]Interrupted:[/] {len(results)} of {args.games} games finished")
    return 130 if interrupted else 0


def print_summary(
    summary: simulate.Summary,
    lineup: list[str],
    args: argparse.Namespace,
    console: Console,
    options: dict[str, Any] | None = None,
) -> None:
    console.print(
        f"[bold]{summary.game}[/], {summary.players} players, {summary.games} games, seed {args.seed}, "
        f"line-up {','.join(lineup)} (rotated through the seats)"
        + "".join(f", {name}={value}" for name, value in sorted((options or {}).items()))
    )
    by_bot = Table(title="By bot")
    for column in ("bot", "seats played", "win rate", "mean score", "score stdev"):
        by_bot.add_column(column, justify="right")
    for name, row in summary.by_bot.items():
        by_bot.add_row(
            name,
            str(int(row["seats"])),
            f"{row['win_rate']:.1%}",
            f"{row['mean_score']:.1f}",
            f"{row['stdev_score']:.1f}",
        )
    console.print(by_bot)
    by_seat = Table(title="By seat")
    for column in ("seat", "win rate", "mean score", "score stdev"):
        by_seat.add_column(column, justify="right")
    for seat, row in enumerate(summary.by_seat):
        by_seat.add_row(
            seat_label(seat),
            f"{row['win_rate']:.1%}",
            f"{row['mean_score']:.1f}",
            f"{row['stdev_score']:.1f}",
        )
    console.print(by_seat)
    length = ", ".join(f"{key.replace('_', ' ')} {value:.1f}" for key, value in summary.length.items())
    console.print(f"Game length: {length}")
    console.print(
        f"{summary.games / summary.seconds:.1f} games/s ({summary.seconds:.1f} s, {args.workers} worker(s))"
    )


def cmd_tournament(args: argparse.Namespace, console: Console) -> int:
    from merchantry.arena import backends, report, schedule, tournament  # matplotlib, openskill: when needed

    bots.enable_plugins()
    game = games.get(args.game)
    players = args.players or game.min_players
    names = tuple(n.strip() for n in args.bots.split(",") if n.strip())
    count = schedule.balanced_length(names, args.games) if names else args.games
    if count != args.games:
        console.print(
            f"{count} games: every bot in every seat equally often takes blocks of {2 * len(names)}"
        )
    options = parse_options(args.option)
    contest = tournament.Tournament(game.name, players, names, count, args.seed, options)
    contest.check()
    if args.report:
        check_output_folder(args.report, "--report")
    if args.records:
        check_output_folder(args.records, "--records")
    backends.connect(args.backend, args.address, names)
    folder = Path(args.records) if args.records else None
    results: dict[int, simulate.GameResult] = {}
    if folder:
        tournament.save_settings(folder, contest)
        if args.resume:
            results = {i: r for i, r in tournament.load_records(folder).items() if i < contest.games}
    elif args.resume:
        raise ValueError("--resume continues from the records of --records DIR")

    def keep(result: simulate.GameResult) -> None:
        results[result.index] = result
        if folder:
            tournament.append_record(folder, result)
        progress.advance(task)

    interrupted = False
    with progress_bar(console) as progress:
        task = progress.add_task(
            game.title, total=contest.games, completed=len(results), resumed=len(results)
        )
        try:
            tournament.run(contest, args.workers, results, keep, args.backend, args.address)
        except KeyboardInterrupt:
            interrupted = True
    if not results:
        raise ValueError("no game finished")
    analysis = tournament.analyse(contest, list(results.values()))
    print_tournament(analysis, console)
    if interrupted:
        console.print(
            f"[yellow]Interrupted:[/] {len(results)} of {contest.games} games finished"
            + (f"; continue with --resume --records {folder}" if folder else "")
        )
    if args.report:
        written = report.write(Path(args.report), analysis)
        console.print(f"Report: {written[-1]} (and {', '.join(p.name for p in written[:-1])})")
    return 130 if interrupted else 0


def check_output_file(path: str, flag: str) -> None:
    """Before a run: `path` must be a file this run can write (an existing one is replaced at the end)."""
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{flag} {path}: that is a folder; name a file")
    existed = target.exists()
    try:
        target.open("a", encoding="utf-8").close()
    except OSError as exc:
        raise ValueError(f"{flag} {path}: cannot write there ({exc.strerror or exc})") from None
    if not existed:
        target.unlink()


def check_output_folder(path: str, flag: str) -> None:
    """Before a run: `path` must be a folder this run can write into; a new one is made now."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ValueError(f"{flag} {path}: that is a file, not a folder; name a folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".merchantry-write-test"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"{flag} {path}: cannot write there ({exc.strerror or exc})") from None


def progress_bar(console: Console, transient: bool = False) -> Progress:
    """Games done, games/s and time left, for every long run."""
    columns = (*Progress.get_default_columns(), MofNCompleteColumn(), GamesPerSecond())
    return Progress(*columns, console=console, transient=transient)


class GamesPerSecond(ProgressColumn):
    """Games per second since this run started (games results arrive in chunks: a window average jumps)."""

    def render(self, task: Any) -> Text:
        played = task.completed - task.fields.get("resumed", 0)
        return Text(f"{played / task.elapsed:.1f} games/s" if task.elapsed and played else "")


def print_tournament(analysis: dict[str, Any], console: Console) -> None:
    from merchantry.arena import report

    console.print(f"[bold]{report.title(analysis)}[/]")
    print_tables(report.tables(analysis), console)


def cmd_balance(args: argparse.Namespace, console: Console) -> int:
    from merchantry.arena import backends, balance, report

    bots.enable_plugins()
    game = games.get(args.game)
    players = args.players or game.min_players
    options = parse_options(args.option)
    study = balance.Study(
        game.name,
        args.bot,
        args.games,
        args.seed,
        balance.variants(game.name, players, options, args.compare),
    )
    study.check()
    if args.report:
        check_output_folder(args.report, "--report")
    backends.connect(args.backend, args.address, (args.bot,))
    results: dict[str, list[simulate.GameResult]] = {v.label: [] for v in study.variants}
    total = args.games * len(study.variants)
    interrupted = False
    with progress_bar(console) as progress:
        task = progress.add_task(game.title, total=total)

        def keep(label: str, result: simulate.GameResult) -> None:
            results[label].append(result)
            progress.advance(task)

        try:
            balance.run(study, keep, args.workers, args.backend, args.address)
        except KeyboardInterrupt:
            interrupted = True
    if not any(results.values()):
        raise ValueError("no game finished")
    analysis = balance.analyse(study, results)
    console.print(f"[bold]{report.balance_title(analysis)}[/]")
    print_tables(report.balance_tables(analysis), console)
    if interrupted:
        console.print(f"[yellow]Interrupted:[/] {sum(map(len, results.values()))} of {total} games finished")
    if args.report:
        written = report.write_balance(Path(args.report), analysis)
        console.print(f"Report: {written[-1]} (and {', '.join(p.name for p in written[:-1])})")
    return 130 if interrupted else 0


def print_tables(parts: list[tuple[str, list[str], list[list[str]]]], console: Console) -> None:
    """Report tables; at a pipe's width (output_console) a cell wraps between its words, and the first
    column, naming each row, keeps its words whole (a variant such as "late_start_money=0", which was cut to
    "late_start_mon…"); a table that cannot fit runs past the width rather than lose its last columns."""
    for caption, header, rows in parts:
        table = Table(title=caption)
        for i, column in enumerate(header):
            words = [
                w for text in [column, *(row[i] for row in rows if i < len(row))] for w in str(text).split()
            ]
            whole = min(max((len(w) for w in words), default=1), 30) if i == 0 else None
            table.add_column(column, justify="right", overflow="fold", min_width=whole)
        for row in rows:
            table.add_row(*row)
        console.print(table, crop=False)  # a table its words cannot fit into the width runs past it, whole


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    record = records.load(args.file, args.game)
    state = records.replay(record, upto=args.upto)
    tr = Translator(record["game"], args.lang)
    moves = len(record["moves"]) if args.upto is None else min(args.upto, len(record["moves"]))
    game = f"[bold]{record['game']}[/]"
    console.print(
        tr.terminal("replayHeader", game=game, players=record["players"], seed=record["seed"], moves=moves)
    )
    viewer = None if args.seat is None else seat_number(args.seat, record["players"])
    view = state.view(viewer)
    variants = view.get("variants") or {}
    if variants:
        console.print(f"[bold]{tr.terminal('variant')}[/] {tr.options(variants)}")
    if args.log:
        lines = log_lines(view, args.lang)
        print_log(console, lines, records.log_moves(record, viewer)[: len(lines)])
    draw = renderer_for(record["game"])
    if args.json or draw is None:
        console.print_json(json.dumps(view))
    elif state.is_over() and hasattr(draw, "draw_final"):
        draw.draw_final(view, console, tr)
    else:
        draw.draw(view, console, tr)
    if state.is_over():
        if not (draw is not None and not args.json and hasattr(draw, "draw_final")):
            # the game's final table has the scores already (it was followed by a second "Final scores")
            scores = ", ".join(f"{seat_label(s)} {v:g}" for s, v in enumerate(state.scores()))
            console.print(tr.terminal("scoresLine", scores=scores))
        console.print(tr.terminal("winners", seats=", ".join(seat_label(w) for w in state.winners())))
    else:
        console.print(tr.terminal("notOver", seats=", ".join(seat_label(s) for s in state.to_act())))
    return 0


def seat_number(text: str, players: int) -> int:
    """'P2' or '2' -> seat index 1: seats are counted from P1 everywhere a person reads them."""
    digits = text.strip().upper().removeprefix("P")
    if not digits.isdigit() or not 1 <= int(digits) <= players:
        raise ValueError(f"--seat takes a seat P1..P{players} (or 1..{players}), not {text!r}")
    return int(digits) - 1


MARK_RULE = (
    "A move is marked when the move the hard bot prefers wins at least 5 (inaccuracy), 10 (mistake) or 20"
    " (blunder) points more of chance, both played on from what the player knew, and only when that cost is"
    " clearly real: the whole range it likely lies in is above 0. Mean loss is the average cost of all"
    " decisions, marked or not: small or uncertain costs add up without a mark."
)


QUOTED_PLAYS = 1  # per seat, in a turning point: a fall over two rounds quoted eleven whole turns


def quoted_plays(played: list[str]) -> str:
    """A seat's moves in a turning point: its first QUOTED_PLAYS, the rest counted."""
    more = len(played) - QUOTED_PLAYS
    said = " then ".join(played[:QUOTED_PLAYS])
    return said + (f" and {more} other move{'s' if more > 1 else ''}" if more > 0 else "")


def moment_in_words(moment: dict[str, Any], seat: int) -> str:
    """A key moment or a turning point of `seat` (analysis.moments) as the terminal says it."""
    if moment["kind"] == "key":
        return (
            f"{moment['played']} instead of {moment['preferred']} cost about {moment['points']} points of"
            " winning chance"
        )
    plays: dict[int, list[str]] = {}  # each seat named once, its moves in order (across two rounds: twice)
    for m in moment["moves"]:
        plays.setdefault(m["seat"], []).append(m["played"])
    others = "; ".join(
        f"{seat_label(other)} played {quoted_plays(played)}" for other, played in plays.items()
    )
    between = "from their last move to the end" if moment.get("end") else "between two of their moves"
    shared = ", a shared win, not a win alone" if moment.get("shared") else ""
    return (
        f"while {others}, {seat_label(seat)}'s chance of winning fell from {moment['from']}% to"
        f" {moment['to']}%{shared} ({between})"
    )


def cmd_analyze_game(args: argparse.Namespace, console: Console) -> int:
    """Every decision of a recorded game judged by the hard bot, from the deciding seat's knowledge only."""
    from merchantry.bots.analysis import (
        WORLDS,
        analysis_recipe,
        analyze,
        moments,
        percent,
        summary,
    )
    from merchantry.bots.ismcts import win_shares

    worlds = WORLDS if args.worlds is None else args.worlds
    if args.workers < 1 or worlds < 2:
        raise ValueError("--workers must be at least 1 and --worlds at least 2")
    record = records.load(args.file, args.game)
    config = analysis_recipe(record["game"])
    if args.iterations:
        config = replace(config, iterations=args.iterations)
    decisions = []
    with Progress(*Progress.get_default_columns(), MofNCompleteColumn(), console=Console(stderr=True)) as bar:
        task = bar.add_task("moves analysed", total=len(record["moves"]))
        for decision in analyze(
            record,
            config,
            progress=lambda done, _: bar.update(task, completed=done),
            worlds=worlds,
            workers=args.workers,
        ):
            decisions.append(decision)
    title = (
        f"{record['game']}: every decision (a whole move), by the hard bot"
        " (chance to win, and the range it likely lies in: it is an estimate)"
    )
    table = Table(title=title, caption=MARK_RULE)
    for column in ("moves", "seat", "played", "preferred", "before", "after", "mark"):
        table.add_column(column, justify="right" if column in ("moves", "before", "after") else "left")
    for d in decisions:
        if args.all or d.mark:
            low, high = d.after_interval
            table.add_row(
                str(d.moves[0]) if len(d.moves) == 1 else f"{d.moves[0]}-{d.moves[-1]}",
                seat_label(d.seat),
                d.played,
                d.preferred if d.preferred != d.played else "=",
                f"{percent(d.before)}%",  # rounded as the marks are judged (analysis.percent)
                f"{percent(d.after)}% (likely between {percent(low)}% and {percent(high)}%)",
                d.mark or "",
            )
    console.print(table)
    totals = Table(title="By seat")
    for column in ("seat", "decisions", "inaccuracies", "mistakes", "blunders", "mean loss (points)"):
        totals.add_column(column)
    for row in summary(decisions, record["players"]):
        totals.add_row(
            seat_label(row["seat"]),
            *(str(row[k]) for k in ("decisions", "inaccuracy", "mistake", "blunder")),
            "{:.1f} (likely between {:.1f} and {:.1f})".format(
                *(100 * x for x in (row["mean_loss"], *row["mean_loss_interval"]))
            ),
        )
    console.print(totals)
    final = records.replay(record)  # a finished game's result ends each seat's chances
    result = win_shares(final.winners(), final.num_players) if final.is_over() else None
    said = moments(decisions, record["players"], result)
    for seat, mine in enumerate(said):
        for moment in mine:
            console.print(f"{seat_label(seat)}, round {moment['round']}: {moment_in_words(moment, seat)}")
    if not any(said):  # said in the page's words: a missing list read as a missing feature
        words = Translator(None, "en")
        console.print(f"{words.ui('keyMoments')}{words.ui('colon')}{words.ui('noKeyMoments')}")
    if args.json:
        Path(args.json).write_text(
            json.dumps([asdict(d) for d in decisions], indent=1) + "\n", encoding="utf-8"
        )
        console.print(f"Analysis written to {args.json}")
    return 0


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    bots.enable_plugins()  # installed plug-in bots are listed by name
    table = Table(title="Games")
    for column in ("name", "title", "players", "options", "bots"):
        table.add_column(column)
    said = (lambda text: text) if args.verbose else without_clause_ids  # --verbose: the clause ids as well
    for name in games.names():
        game = games.get(name)
        allowed = game.option_values()
        options = "\n".join(
            f"{o}={d!r}: {said(text)}" + (f"; {allowed[o].text}" if o in allowed else "")
            for o, (d, text) in game.options().items()
        )
        table.add_row(
            name, game.title, f"{game.min_players}-{game.max_players}", options, ", ".join(bots.names(game))
        )
    console.print(table)
    return 0


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    import logging

    import uvicorn

    from merchantry.server.app import WEBSOCKET_SETTINGS, create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings: dict[str, Any] = {"host": args.host, "port": args.port, "log_level": "info"}
    settings.update(WEBSOCKET_SETTINGS)
    if args.workers > 1:
        from merchantry.server.db import open_database

        if not args.database_url.startswith("postgresql"):
            console.print(
                "[red]several workers need PostgreSQL (--database-url postgresql+psycopg://...)[/red]"
            )
            return 2
        open_database(args.database_url)  # the schema is upgraded once, before the workers start
        os.environ["MERCHANTRY_DATABASE_URL"] = args.database_url
        os.environ["MERCHANTRY_BOT_DELAY"] = str(args.bot_delay)
        console.print(f"Merchantry at http://{args.host}:{args.port}/ ({args.workers} processes)")
        factory = "merchantry.server.app:app_from_environment"
        uvicorn.run(factory, factory=True, workers=args.workers, **settings)
        return 0
    app = create_app(args.database_url, bot_delay=args.bot_delay, tune_process=True)
    console.print(f"Merchantry at http://{args.host}:{args.port}/ (database {args.database_url})")
    uvicorn.run(app, **settings)
    return 0


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """What every long run takes: its seed and where its games are played."""
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes to spread the games over")
    parser.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="local processes, or a Ray cluster"
    )
    parser.add_argument("--address", help="the Ray cluster to join (default: start a local one)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="merchantry", description="Merchant board games: play, simulate, replay."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("game", nargs="?", help="the game (not needed with --resume)")
    play.add_argument("--resume", metavar="FILE", help="carry on a game saved when you left it with quit")
    play.add_argument("--players", type=int, help="number of players (default: game's minimum + 1)")
    play.add_argument("--seat", type=int, default=1, help="your seat, 1..players (default 1)")
    play.add_argument(
        "--bots",
        default="medium",
        help="bot for every other seat, or one name per other seat: easy, medium, hard (or greedy, random, "
        "an installed plug-in's name, or your own as module:factory)",
    )
    play.add_argument("--seed", type=int, help="seed for the deal (default: random, printed)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    play.add_argument("--record", metavar="FILE", help="save the game record to FILE when the game ends")
    play.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of the terminal and its log (default en)"
    )
    play.set_defaults(run=cmd_play)

    sim = sub.add_parser("simulate", help="play many bot games and print statistics")
    sim.add_argument("game")
    sim.add_argument(
        "--players", type=int, help="number of players (default: number of --bots, or the game's minimum)"
    )
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--bots", default="random", help="one bot per seat, or one for all (a name or module:factory)"
    )
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    add_run_arguments(sim)
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    sim.add_argument("--records", metavar="FILE", help="write every game's record to FILE (JSON lines)")
    sim.set_defaults(run=cmd_simulate)

    tour = sub.add_parser("tournament", help="rate bots over balanced seatings, with a report")
    tour.add_argument("game")
    tour.add_argument("--players", type=int, help="seats per game (default: the game's minimum)")
    tour.add_argument("--bots", required=True, help="the bots to rate, comma-separated (2 or more)")
    tour.add_argument("--games", type=int, default=200)
    tour.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    add_run_arguments(tour)
    tour.add_argument("--report", metavar="DIR", help="write report.html, report.md and PNG plots into DIR")
    tour.add_argument("--records", metavar="DIR", help="keep every game (JSON lines) in DIR, for --resume")
    tour.add_argument("--resume", action="store_true", help="continue the run kept in --records DIR")
    tour.set_defaults(run=cmd_tournament)

    bal = sub.add_parser("balance", help="seat advantage, score spread and length; compare options")
    bal.add_argument("game")
    bal.add_argument("--players", type=int, help="seats per game (default: the game's minimum)")
    bal.add_argument("--games", type=int, default=500, help="games per variant")
    bal.add_argument("--bot", default="greedy", help="the bot in every seat (default greedy)")
    bal.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    bal.add_argument(
        "--compare",
        metavar="NAME=A,B",
        help="settings to compare: players=3,4,5, OPTION=A,B (values holding commas: A1,A2|B1), or a "
        "variant's name alone (the rulebook against the ends of its range)",
    )
    add_run_arguments(bal)
    bal.add_argument("--report", metavar="DIR", help="write report.html, report.md and PNG plots into DIR")
    bal.set_defaults(run=cmd_balance)

    rep = sub.add_parser("replay", help="replay a game record and show the final position and scores")
    rep.add_argument("file")
    rep.add_argument("--game", type=int, help="the game's number in a JSON Lines file of many games")
    rep.add_argument("--upto", type=int, help="stop after this many moves")
    rep.add_argument(
        "--seat",
        help="show the position as this seat sees it: P1, P2, ... (or 1, 2, ...; default: a spectator)",
    )
    rep.add_argument("--json", action="store_true", help="print the position as the view's JSON")
    rep.add_argument("--log", action="store_true", help="print the game log (as the viewer saw it)")
    rep.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of the position and its log (default en)"
    )
    rep.set_defaults(run=cmd_replay)

    ana = sub.add_parser("analyze-game", help="judge every decision of a recorded game with the hard bot")
    ana.add_argument("file")
    ana.add_argument("--game", type=int, help="the game's number in a JSON Lines file of many games")
    ana.add_argument(
        "--iterations", type=int, help="search iterations per decision (default: a quarter of hard's)"
    )
    ana.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes judging decisions side by side (default: one per CPU; the same result)",
    )
    ana.add_argument(
        "--worlds",
        type=int,
        help="sampled worlds each move is played out in (default 48; fewer: wider intervals)",
    )
    ana.add_argument("--all", action="store_true", help="list every decision, not only the marked ones")
    ana.add_argument("--json", help="also write the analysis to this JSON file")
    ana.set_defaults(run=cmd_analyze_game)

    serve = sub.add_parser("serve", help="run the web platform: lobby, tables, live play")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for your network)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--database-url", default="sqlite:///merchantry.db", help="SQLAlchemy URL (PostgreSQL too)"
    )
    serve.add_argument(
        "--bot-delay",
        type=float,
        default=0.4,
        help="seconds a bot's move waits at least, beyond its bots' thinking budget (docs/web.md, Timing)",
    )
    serve.add_argument(
        "--workers", type=int, default=1, help="server processes sharing the port (PostgreSQL only)"
    )
    serve.set_defaults(run=cmd_serve)

    lst = sub.add_parser("games", help="list the games, their options and bots")
    lst.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="name each option's rules clause too (which rule a variant changes)",
    )
    lst.set_defaults(run=cmd_games)
    return parser


def output_console() -> Console:
    """The terminal's width in a terminal; printed to a pipe or a file, $COLUMNS when it is set (rich reads
    it), else PIPE_WIDTH: a width a person reads (it was 1000, and a table padded its lines to thousands of
    characters), wider than rich's 80 so that the usual tables stay unwrapped."""
    console = Console()
    if not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console = Console(width=PIPE_WIDTH)
    return console


PIPE_WIDTH = 100


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = output_console()
    try:
        code: int = args.run(args, console)
        return code
    except ValueError as exc:  # every error of the API is a ValueError with a one-line reason
        print(f"merchantry: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
