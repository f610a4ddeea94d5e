"""`judge map draw` (a map at its start, or a game's position or processed phase, to a file) and
the drawing-data part of `judge map check`."""
from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from judge.cli.configuration import EX_CONFIG, game_folders
from judge.drawing.borders import adjacency_breaks
from judge.drawing.geometry import check_geometry, fitted
from judge.drawing.loader import read_geometry
from judge.drawing.pictures import picture, position_board, snapshot_results
from judge.drawing.raster import FORMATS, encode
from judge.errors import JudgeError
from judge.mailout.render import environment
from judge.maps import load_map, map_for_phase
from judge.maps.model import Map


def add_draw_command(map_commands) -> argparse.ArgumentParser:
    draw = map_commands.add_parser("draw", help="draw a map at its start, or a game's position or phase",
                                   usage="judge map draw NAME_OR_PATH|--game GAME [--phase PHASE] "
                                         "[--format svg|png|pdf] -o FILE")
    draw.add_argument("map", nargs="?", metavar="NAME_OR_PATH")
    draw.add_argument("--game", metavar="GAME", help="draw this game (its position now, or --phase)")
    draw.add_argument("--phase", metavar="PHASE", help="a processed phase (S1901M), drawn with its orders")
    draw.add_argument("--games", type=Path, default=None, metavar="DIR",
                      help="the games folder (default: [paths] games of the configuration)")
    draw.add_argument("--format", choices=FORMATS, default=None,
                      help="default: the output file's extension, else png")
    draw.add_argument("-o", "--output", type=Path, required=True, metavar="FILE")
    draw.add_argument("--dpjudge", action="store_true",
                      help="DPjudge's drawing (its NAME.ps and psinfo in a map folder, and gs): png or pdf")
    return draw


def drawing_problems(m: Map) -> list[str]:
    """What `judge map check` says of a map's drawing data: missing (schematic), inconsistent, and
    (unless the map is drawn schematically) where the drawing a picture shows puts neighbours that
    the map does not make adjacent and apart those it does."""
    geometry, path, problems = read_geometry(m)
    if path is None:
        return [f"{m.name}: no drawing data (no .draw file beside the map): drawn as a schematic layout"]
    if geometry is None:
        return [str(p) for p in problems]
    found = [str(p) for p in problems + check_geometry(m, geometry, str(path))]
    drawn = fitted(m, geometry)  # what a picture shows: the cells where the regions fall short
    if drawn.schematic:
        return found
    return found + [f"{path}: {b}" for b in adjacency_breaks(map_for_phase(m, m.begin), drawn)]


def map_draw(args: argparse.Namespace, now: datetime | None = None) -> int:
    if (args.map is None) == (args.game is None):
        return _fail("give a map (NAME_OR_PATH) or --game GAME, not both")
    if args.phase and not args.game:
        return _fail("--phase needs --game")
    kind = args.format or args.output.suffix.lstrip(".").lower()
    kind = kind if kind in FORMATS else "png"
    if args.game:
        folders = game_folders(args)
        if folders is None:
            return EX_CONFIG
        args.games, args.map_dir = folders
    try:
        m, board = _game_board(args, now or datetime.now(UTC)) if args.game else _start_board(args)
        if args.dpjudge:
            args.output.write_bytes(_dpjudge(args, m, board, kind))
        else:
            geometry, _, _ = read_geometry(m)
            drawn = picture(environment(), m, geometry, board)
            args.output.write_bytes(encode(drawn.svg, kind))
    except (JudgeError, LookupError, ValueError, OSError, RuntimeError) as exc:
        return _fail(str(exc))
    print(f"{args.output}: {kind}, {board.game or m.name} {board.phase}")
    return 0


def _dpjudge(args: argparse.Namespace, m: Map, board, kind: str) -> bytes:
    from judge.runtime.ghostscript import available, dpjudge_picture

    if kind == "svg":
        raise ValueError("DPjudge's drawing is made as png or pdf")
    ps = available(m, list(args.map_dir))
    if ps is None:
        raise LookupError(f"no DPjudge drawing of map {m.name} (NAME.ps in a map folder) or no gs installed")
    season = board.phase.season.title()
    title = f"{board.game}, {season} {board.phase.year}" if board.game else f"{m.name}, {season} {board.phase.year}"
    return dpjudge_picture(ps, m, board, title, kind)


def _start_board(args: argparse.Namespace):
    from judge.status.model import GameStatus

    base = load_map(args.map, args.map_dir)
    return position_board(GameStatus(name=""), base)


def _game_board(args: argparse.Namespace, now: datetime):
    from judge.phases import parse_phase
    from judge.runtime.game_files import game_map, read_game
    from judge.runtime.store import GameStore
    from judge.status.parser import parse_status

    with GameStore(args.games).locked(args.game) as game:
        _, status, base = read_game(game, args.map_dir)
        if not args.phase:
            return position_board(status, base)
        abbrev = parse_phase(base, args.phase).abbrev
        if not game.has_snapshot(abbrev):
            raise LookupError(f"game {args.game} has no snapshot of {args.phase}: not a processed phase")
        snapshot = parse_status(game.read_snapshot(abbrev), f"{args.game}/status.{abbrev}")
    board = snapshot_results(snapshot, game_map(snapshot, args.map_dir), now)
    if board is None:
        return position_board(snapshot, base)
    return map_for_phase(base, board.phase), board


def _fail(message: str) -> int:
    print(f"judge map draw: {message}", file=sys.stderr)
    return 2
