"""The `judge` command: a thin shell over the pure core."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from judge.runtime.config import ConfigError, load_config
from judge.cli.configuration import CONFIG_HELP, EX_CONFIG, add_config_option, read_config
from judge.errors import MapError
from judge.maps import load_map, map_for_phase
from judge.maps.export import map_to_json, summary
from judge.cli.drawing import add_draw_command, drawing_problems, map_draw


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument("--config", metavar="FILE", default=None, help=CONFIG_HELP)
    commands = parser.add_subparsers(dest="command", required=True)

    maps = commands.add_parser("map", help="check or show map files")
    map_commands = maps.add_subparsers(dest="map_command", required=True)
    check = map_commands.add_parser("check", help="parse and validate maps")
    check.add_argument("maps", nargs="+", metavar="NAME_OR_PATH")
    show = map_commands.add_parser("show", help="print a map as it stands at its BEGIN phase")
    show.add_argument("map", metavar="NAME_OR_PATH")
    show.add_argument("--json", action="store_true", help="print JSON (the only format so far)")
    draw = add_draw_command(map_commands)
    for sub in (check, show, draw):
        sub.add_argument("--map-dir", action="append", default=[], type=Path,
                         help="also look for maps here (before the bundled ones)")

    adjudicate = commands.add_parser("adjudicate", help="adjudicate phases given as JSON requests")
    adjudicate.add_argument("file", nargs="?", default="-", metavar="FILE|-",
                            help="a request, or an array of them (default: standard input)")

    serve = commands.add_parser("serve", help="run the mail daemon (gateway, scheduler, outbox)")
    outbox = commands.add_parser("outbox", help="list the mail waiting in the outbox, and failed")
    mail = commands.add_parser("mail", help="an MTA pipe: store one mail from standard input in the "
                               "inbox, process it, queue the replies (75: not stored, retry)")
    mail.add_argument("--sender", metavar="ADDRESS", default=None,
                      help="the envelope sender (Postfix: ${sender}); else the mbox From_ line")
    check = commands.add_parser("check", help="run one deadline cycle over every game (or one): "
                                "one line per action")
    check.add_argument("--now", metavar="ISO8601", default=None,
                       help="act as if at this instant, with its offset (2025-01-06T12:00+00:00)")
    check.add_argument("--game", metavar="NAME", default=None, help="only this game")
    check.add_argument("--release", action="store_true", help="release the games held after an outage")
    for sub in (serve, outbox, mail, check, draw):
        add_config_option(sub)
    from judge.cli.games import add_game_commands, add_games_report
    add_game_commands(commands)
    add_games_report(commands)
    return parser


def serve_command(args) -> int:
    from judge.runtime.daemon import serve
    from judge.web.app import daemon_pages

    config = read_config(args)
    if config is None:
        return EX_CONFIG
    logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s")
    for chatty in ("mail.log", "apscheduler"):  # aiosmtpd's per-session and the scheduler's lines
        logging.getLogger(chatty).setLevel(logging.WARNING)
    return serve(config, pages=daemon_pages(config))


def outbox_command(args) -> int:
    from judge.runtime.outbox import outbox_lines
    from judge.runtime.spool import open_spools

    config = read_config(args)
    if config is None:
        return EX_CONFIG
    for line in outbox_lines(open_spools(config, create=False).outbox):
        print(line)
    return 0


def mail_command(args) -> int:
    """`judge mail`: exit 0 once the mail is stored (and processed), 75 when it could not be."""
    from datetime import UTC, datetime

    from judge.runtime.inbox import EX_TEMPFAIL, pipe_mail

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EX_TEMPFAIL  # the MTA keeps the mail while the configuration is mended
    raw = sys.stdin.buffer.read()
    return pipe_mail(config, raw, args.sender, datetime.now(UTC),
                     err=lambda text: print(text, file=sys.stderr))


def check_command(args) -> int:
    """`judge check`: one cycle (see judge.runtime.cycle); 0, 1 for an unknown --game, 2 for a bad --now."""
    from datetime import UTC, datetime

    from judge.runtime.cycle import check, parse_now

    config = read_config(args)
    if config is None:
        return EX_CONFIG
    try:
        now = parse_now(args.now) if args.now else datetime.now(UTC)
    except ValueError as exc:
        print(f"judge check: --now: {exc}", file=sys.stderr)
        return 2
    return check(config, now, args.game, args.release, err=lambda text: print(text, file=sys.stderr))


def games_command(args) -> int:
    """`judge games`: the games folder given, else the configuration's, with its maps folder."""
    from judge.cli.games import games_report
    if args.games is not None:
        return games_report(args.games, args.map_dir)
    config = read_config(args)
    if config is None:
        return EX_CONFIG
    return games_report(Path(config.paths.games), [*args.map_dir, Path(config.paths.maps)])


def adjudicate_command(args) -> int:
    """Read a JSON request (or an array of them), print the resolution; bad input: exit 2."""
    from judge.adjudicator.request import RequestError, adjudicate_text
    name = "standard input" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        answer = adjudicate_text(text, load_map)
    except OSError as exc:
        return _fail(f"cannot read {name}: {exc.strerror or exc}")
    except ValueError as exc:  # json's error, and any unreadable bytes
        return _fail(f"{name} is not JSON: {exc}")
    except RequestError as exc:
        return _fail(str(exc))
    print(answer)
    return 0


def _fail(message: str) -> int:
    print(f"judge adjudicate: {message}", file=sys.stderr)
    return 2


def map_check(args) -> int:
    failed = 0
    for name in args.maps:
        try:
            m = load_map(name, args.map_dir)
        except MapError as exc:
            failed += 1
            for problem in exc.problems:
                print(problem)
            continue
        for warning in m.warnings:
            print(f"{warning} (warning)", file=sys.stderr)
        for drawing in drawing_problems(m):
            print(f"{drawing} (drawing)", file=sys.stderr)
        print(summary(m))
    return 1 if failed else 0


def map_show(args) -> int:
    try:
        m = load_map(args.map, args.map_dir)
    except MapError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    json.dump(map_to_json(map_for_phase(m, m.begin)), sys.stdout, indent=1)
    print()
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(build_parser().parse_args(argv))
    except BrokenPipeError:
        # the reader of the output left (`judge status g | head`): not the judge's error; the rest
        # of the output goes nowhere rather than raising again as Python flushes at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run(args: argparse.Namespace) -> int:
    if args.command == "map":
        return {"check": map_check, "show": map_show, "draw": map_draw}[args.map_command](args)
    if args.command == "adjudicate":
        return adjudicate_command(args)
    if args.command == "serve":
        return serve_command(args)
    if args.command == "outbox":
        return outbox_command(args)
    if args.command == "mail":
        return mail_command(args)
    if args.command == "check":
        return check_command(args)
    if args.command == "games":
        return games_command(args)
    from judge.cli.games import COMMANDS, run_game_command
    if args.command in COMMANDS:
        return run_game_command(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
