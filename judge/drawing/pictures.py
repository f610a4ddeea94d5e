"""The pictures of a game: its position now, and a processed phase with its orders and results.

`picture` is what every caller (the `MAP` command, results mails, `judge map draw`) asks for: the
board and the map drawn as SVG, with the geometry found for the map (or a schematic layout).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import PurePath

import jinja2

from judge.adjudicator.model import Position
from judge.drawing.board import Board, board_of_position, board_of_results
from judge.drawing.geometry import Geometry, fitted
from judge.drawing.svg import draw_svg
from judge.events import PhaseResults
from judge.game.positions import position_of
from judge.game.process import preview
from judge.maps.model import Map
from judge.maps.parser import map_for_phase
from judge.phases import parse_phase
from judge.status.model import GameStage, GameStatus
from judge.types import Phase


@dataclass(frozen=True)
class Picture:
    """A drawing ready to be sent: the SVG and the name a file of it takes (`game-S1901M`)."""

    svg: str
    stem: str


def position_board(status: GameStatus, base: Map) -> tuple[Map, Board]:
    """The board as it stands in the game's phase; a finished game's last position, in the last
    phase played (its RESULT); a game not started, its map's BEGIN phase."""
    phase = drawn_phase(status, base)
    m = map_for_phase(base, phase)
    if status.phase is GameStage.FORMING:
        units = {p: info.units for p, info in m.powers.items()}
        centers = {p: frozenset(info.centers) for p, info in m.powers.items() if info.centers}
        return m, board_of_position(status.name or "", Position(phase, units, centers))
    return m, board_of_position(status.name or "", position_of(status, m, phase))


def drawn_phase(status: GameStatus, base: Map) -> Phase:
    """The phase a game's position is drawn in (see `position_board`)."""
    if isinstance(status.phase, Phase):
        return status.phase
    if status.completed and status.result is not None:
        try:
            return parse_phase(base, status.result.last_phase)
        except ValueError:
            pass  # a RESULT the map cannot read: the position is still drawn, in the first phase
    return base.begin


def results_board(event: PhaseResults) -> Board | None:
    """The board of a processed phase with its orders; None for a phase the judge does not adjudicate."""
    if event.resolution is None:
        return None
    return board_of_results(event.game, event.resolution)


def snapshot_results(snapshot: GameStatus, base: Map, now: datetime) -> Board | None:
    """A processed phase drawn again from the snapshot taken before it was processed."""
    return results_board(preview(snapshot, base, now).results)


def picture(env: jinja2.Environment, m: Map, geometry: Geometry | None, board: Board) -> Picture:
    svg = draw_svg(env, m, fitted(m, geometry), board)
    return Picture(svg, f"{board.game or PurePath(m.name).stem}-{board.phase.abbrev}")


def seen_picture(env: jinja2.Environment, m: Map, geometry: Geometry | None, game: str,
                 seen: Position, full_sight: frozenset[str]) -> Picture:
    """A position as one reader may see it (a BLIND game): the caller hands in the position already
    filtered for that reader, and nothing else is drawn: units, dislodged units and centres are
    those `seen` holds; `full_sight`, the powers it sees in full, are the only ones the legend
    counts the centres of; every centre `seen` does not give an owner is drawn as unknown."""
    known = frozenset(c for cs in seen.centers.values() for c in cs)
    board = replace(board_of_position(game, seen), full_sight=full_sight, known_centers=known)
    return picture(env, m, geometry, board)
