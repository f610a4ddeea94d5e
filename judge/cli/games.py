"""`judge new`, `judge status`, `judge process`, `judge rollback`: the game's life from the shell."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from judge.cli.configuration import EX_CONFIG, add_config_option, game_folders, read_config
from judge.errors import JudgeError
from judge.events import GameCompleted, PhaseResults, Preview, RolledBack
from judge.game.positions import owned_centers
from judge.game.clock import readiness
from judge.runtime.commit import new_game
from judge.runtime.game_files import read_game
from judge.runtime.master_shell import run_as_master
from judge.game.process import preview
from judge.game.record import results_record
from judge.status.model import GameStatus
from judge.runtime.export import export_game
from judge.runtime.games_report import report_games
from judge.runtime.store import GameStore
from judge.types import Phase

COMMANDS = ("new", "status", "process", "rollback", "export")


def add_game_commands(commands) -> None:
    new = commands.add_parser("new", help="create a forming game",
                              usage="judge new GAME --map NAME [--master EMAIL --password PW] "
                                    "[--games DIR] [LINE...]")
    new.add_argument("game")
    new.add_argument("rest", nargs=argparse.REMAINDER, help="--map NAME, the options, status lines")
    show = commands.add_parser("status", help="a game's phase, deadline, orders, units and centres")
    show.add_argument("game")
    process = commands.add_parser("process", help="process a game's phase, as the Master's PROCESS")
    process.add_argument("game")
    process.add_argument("--force", action="store_true", help="process with orders missing (PROCESS!)")
    process.add_argument("--preview", action="store_true", help="show the results, change nothing")
    rollback = commands.add_parser("rollback", help="roll a game back (or forward) to a snapshot")
    rollback.add_argument("game")
    rollback.add_argument("phase", nargs="?", help="S1901M or FORMING (default: the phase before)")
    rollback.add_argument("--restore", action="store_true", help="keep the orders of that phase")
    rollback.add_argument("--full", action="store_true", help="also undo rule and player changes")
    rollback.add_argument("--forward", action="store_true", help="ROLLFORWARD after a rollback")
    export = commands.add_parser("export", help="write a game as DPjudge reads it into FOLDER "
                                 "(DPjudge's games folder): status, snapshots, results, index line")
    export.add_argument("game")
    export.add_argument("folder", type=Path)
    for sub in (show, process, rollback, export):
        _common(sub)


def add_games_report(commands) -> None:
    report = commands.add_parser("games", help="list every game with its state and every problem "
                                 "found, file:line: what is wrong (exit 1: a game cannot be played)")
    report.add_argument("--games", type=Path, default=None, metavar="DIR",
                        help="the games folder (default: [paths] games of the configuration)")
    report.add_argument("--map-dir", action="append", default=[], type=Path,
                        help="also look for maps here (before [paths] maps and the bundled ones)")
    add_config_option(report)


def games_report(games: Path, search: Sequence[Path]) -> int:
    """`judge games`: one line per game, its problems under it; 1 when a game cannot be played."""
    reports = report_games(GameStore(games), search)
    width = max((len(r.name) for r in reports), default=0)
    for r in reports:
        marks = ("" if r.listed else " unlisted") + (" private" if r.private else "")
        print(f"{r.name:<{width}}  {r.state:<11}  {r.phase:<22}  {r.map_name}{marks}".rstrip())
        for problem in r.problems:
            print(f"  {problem}")
    broken = [r.name for r in reports if not r.playable]
    print(f"{len(reports)} games; " + (f"{len(broken)} cannot be played: {', '.join(broken)}"
                                       if broken else "every one can be played"))
    return 1 if broken else 0


def _new_options() -> argparse.ArgumentParser:
    """The options of `judge new`, read apart so that status lines may come before or after them."""
    parser = argparse.ArgumentParser(prog="judge new GAME")
    parser.add_argument("--map", required=True, metavar="NAME")
    parser.add_argument("--master", metavar="EMAIL")
    parser.add_argument("--password", metavar="PW")
    parser.add_argument("lines", nargs="*", metavar="LINE", help="status-file lines: 'RULE NO_PRESS'")
    _common(parser)
    return parser


def _common(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--games", type=Path, default=None, metavar="DIR",
                     help="the games folder (default: [paths] games of the configuration)")
    sub.add_argument("--map-dir", action="append", default=[], type=Path,
                     help="also look for maps here (before [paths] maps and the bundled ones)")
    add_config_option(sub)


def run_game_command(args: argparse.Namespace, now: datetime | None = None) -> int:
    now = now or datetime.now(UTC)
    if args.command == "new":
        options = vars(_new_options().parse_intermixed_args(args.rest))
        options.setdefault("config", args.config)  # (given before the command)
        args = argparse.Namespace(command="new", game=args.game, **options)
    if args.command == "rollback" or (args.command == "process" and not args.preview):
        return _as_master(args, now)
    folders = game_folders(args)
    if folders is None:
        return EX_CONFIG
    games, args.map_dir = folders
    store = GameStore(games)
    try:
        if args.command == "new":
            new_game(store, args.game, args.map, args.master, args.password, args.lines, args.map_dir)
            print(f"game {args.game} created on map {args.map}: forming")
        elif args.command == "status":
            with store.locked(args.game) as game:
                _, status, m = read_game(game, args.map_dir)
            print(summary(status, m, now))
        elif args.command == "process":
            with store.locked(args.game) as game:
                _, status, m = read_game(game, args.map_dir)
            _report([preview(status, m, now)], status.zone)
        else:
            exported = export_game(store, args.game, args.folder)
            for note in exported.notes:
                print(f"judge export: {note}", file=sys.stderr)
            print(f"game {args.game} written for DPjudge: {len(exported.files)} files in {args.folder}")
    except (JudgeError, LookupError, ValueError, FileExistsError) as exc:
        print(f"judge {args.command}: {exc}", file=sys.stderr)
        return 1
    return 0


def _as_master(args: argparse.Namespace, now: datetime) -> int:
    """`judge process` and `judge rollback`: the Master's command as by mail, with its mails
    (`judge.runtime.master_shell`); the games folder is the configuration's unless --games."""
    config = read_config(args)
    if config is None:
        return EX_CONFIG
    if args.games is not None:
        config = replace(config, paths=replace(config.paths, games=args.games))
    try:
        done = run_as_master(config, args.game, _master_line(args), now, args.map_dir)
    except (JudgeError, LookupError, ValueError, FileExistsError) as exc:
        print(f"judge {args.command}: {exc}", file=sys.stderr)
        return 1
    if done.failed:
        print(f"judge {args.command}: " + "\n".join(done.lines), file=sys.stderr)
        return 1
    _report(done.events, None)
    print(f"{done.queued} mail{'' if done.queued == 1 else 's'} put in the outbox")
    return 0


def _master_line(args: argparse.Namespace) -> str:
    """The command line the Master would mail for the shell's words."""
    if args.command == "process":
        return "PROCESS!" if args.force else "PROCESS"
    options = (["RESTORE"] if args.restore else []) + (["FULL"] if args.full else [])
    return " ".join(["ROLLFORWARD" if args.forward else "ROLLBACK", *([args.phase] if args.phase else []),
                     *options])


def _report(events: Sequence[object], zone: str | None) -> None:
    for event in events:
        if isinstance(event, Preview):
            print("PREVIEW")
            _report([event.results] + ([event.completed] if event.completed else []), zone)
        elif isinstance(event, PhaseResults):
            print(results_record(event, zone), end="")
        elif isinstance(event, GameCompleted):
            print(f"GAME COMPLETED: {event.kind} {' '.join(event.victors)}")
        elif isinstance(event, RolledBack):
            print(f"rolled {'forward' if event.forward else 'back'} to {event.phase}")


def summary(status: GameStatus, m, now: datetime) -> str:
    """`judge status`: phase, deadline, who has ordered, units and centres."""
    phase = status.phase if isinstance(status.phase, Phase) else status.phase.value
    lines = [f"game {status.name} on {status.map_name}: {status.phase_mode.value} {phase}"]
    if status.deadline:
        lines.append(f"deadline {status.deadline} ({status.zone or 'GMT'})")
    if status.result:
        lines.append(f"result {status.result.last_phase} {' '.join(status.result.victors)}")
    state = readiness(status, m, now)
    if state.duties.due:
        lines.append("orders in: " + (" ".join(state.duties.submitted) or "none"))
        lines.append("orders missing: " + (" ".join(state.duties.missing) or "none"))
        lines.append("ready to process" if state.ready else f"not ready: {state.reason}")
    if status.need:
        lines.append("NEED " + " ".join(str(n) for n in status.need))
    for block in status.powers:
        who = block.player.current if block.player else None
        lines.append(f"{block.kind or 'POWER'} {block.name}: {who if who is not None else '-'}")
        if block.units or block.dislodged:
            lines.append("  units: " + ", ".join([str(u) for u in block.units] +
                                                 [f"{d.unit} (dislodged)" for d in block.dislodged]))
        if owned_centers(block):
            lines.append(f"  centres ({len(owned_centers(block))}): " + " ".join(sorted(owned_centers(block))))
    return "\n".join(lines)
