"""Finding a map's drawing data on disk: the `.draw` file beside the map file, or beside a file the
map USEs (fleetrome.map, which uses standard.map, is drawn with standard.draw)."""
from __future__ import annotations

from pathlib import Path

from judge.drawing.geometry import Geometry, parse_geometry
from judge.errors import Problem
from judge.maps.loader import read_text
from judge.maps.model import Map

SUFFIX = ".draw"


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
    geometry, problems = parse_geometry(read_text(path), str(path))
    return geometry, path, problems
