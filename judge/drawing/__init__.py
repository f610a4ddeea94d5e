"""Pictures of a game: a board drawn as SVG on any map (its drawing data, or a schematic layout),
and PNG or PDF made from it."""
from judge.drawing.board import Board, DrawnOrder, board_of_position, board_of_results
from judge.drawing.geometry import Geometry, check_geometry, fitted, parse_geometry, schematic
from judge.drawing.svg import draw_svg

__all__ = ["Board", "DrawnOrder", "Geometry", "board_of_position", "board_of_results", "check_geometry",
           "draw_svg", "fitted", "parse_geometry", "schematic"]
