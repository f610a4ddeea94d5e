"""How much map text a game may bring: limits checked as the map is read, before the costly part.

A game's MORPH lines come by mail from whoever created the game, and every later load of the game
parses them again: the limits keep that work small. They are checked while the text is read (lines,
bytes, USE files and depth, IN/FROM blocks) and once its base is built (places, powers), so a map
over a limit costs no more than reading it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MapBounds:
    lines: int  # map lines read, every USEd file and the MORPH lines counted
    bytes: int  # characters of those lines
    places: int
    powers: int
    blocks: int  # IN and FROM blocks
    uses: int  # files read through USE or MAP
    use_depth: int  # USE within a USEd file within ...


class MapTooLarge(Exception):
    """The map text is over one of its bounds, at `file` line `line`."""

    def __init__(self, file: str, line: int, message: str):
        super().__init__(message)
        self.file, self.line = file, line


def check(what: str, count: int, limit: int, file: str, line: int) -> None:
    if count > limit:
        raise MapTooLarge(file, line, f"the map has more {what} than this judge allows ({limit})")
