"""Finding a map's drawing data on disk: the `.draw` file beside the map file, or beside a file the
map USEs (fleetrome.map, which uses standard.map, is drawn with standard.draw)."""
from __future__ import annotations

import stat
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from judge.drawing.geometry import Geometry, parse_geometry
from judge.drawing.regions import parse_regions
from judge.errors import Problem
from judge.maps.loader import read_text
from judge.maps.model import Map

SUFFIX = ".draw"
REGIONS = ".regions"  # beside the `.draw` file: the provinces' shapes from real coastlines


def drawing_file(m: Map) -> Path | None:
    """The `.draw` file for a map: beside the first of its files (in reading order) that has one."""
    files = list(dict.fromkeys(line.file for line in m.base))
    own = Path(m.name).stem
    for name in sorted(files, key=lambda f: Path(f).stem != own):  # the map's own file first
        path = Path(name)
        candidate = path.with_suffix(SUFFIX) if path.suffix == ".map" else path.with_name(path.name + SUFFIX)
        if candidate.is_file():
            return candidate
    return None


def read_geometry(m: Map) -> tuple[Geometry | None, Path | None, list[Problem]]:
    """The map's drawing data, the file it came from, and what is wrong with that file."""
    path = drawing_file(m)
    if path is None:
        return None, None, []
    shapes = path.with_suffix(REGIONS)
    geometry, problems = _parsed_drawing(path, _stamp(path), shapes, _stamp(shapes))
    return geometry, path, list(problems)


KEPT_DRAWINGS = 16  # drawing files kept parsed: a results mail reads its map's at every phase

Stamp = tuple[int, int] | None  # a file's modification time and size; None when it is not there


def _stamp(path: Path) -> Stamp:
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size) if stat.S_ISREG(found.st_mode) else None


@lru_cache(maxsize=KEPT_DRAWINGS)
def _parsed_drawing(path: Path, drawn: Stamp, shapes: Path, shaped: Stamp
                    ) -> tuple[Geometry | None, tuple[Problem, ...]]:
    """A drawing file and its regions parsed, kept while neither changes on disk (their stamps
    are in the key): the regions of real coastlines take tens of milliseconds to read."""
    geometry, problems = parse_geometry(read_text(path), str(path))
    if geometry is not None and shaped is not None:
        rings, bad = parse_regions(read_text(shapes), str(shapes), geometry.width, geometry.height)
        geometry, problems = replace(geometry, regions=rings), problems + bad
    return geometry, tuple(problems)
