"""Finding a map's drawing data on disk: the `.draw` file beside the map file, or beside a file the
map USEs (fleetrome.map, which uses standard.map, is drawn with standard.draw)."""
from __future__ import annotations

from dataclasses import replace
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
    geometry, problems = parse_geometry(read_text(path), str(path))
    shapes = path.with_suffix(REGIONS)
    if geometry is not None and shapes.is_file():
        rings, bad = parse_regions(read_text(shapes), str(shapes), geometry.width, geometry.height)
        geometry, problems = replace(geometry, regions=rings), problems + bad
    return geometry, path, problems
