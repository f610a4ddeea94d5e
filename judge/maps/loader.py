"""Finding and reading map files on disk: the only part of the map engine that does I/O."""
from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePath

from judge.errors import Problem
from judge.maps.bounds import MapBounds
from judge.maps.model import Map
from judge.maps.parser import parse_map


def bundled_maps_dir() -> Path:
    """The maps shipped with the judge: `maps/` of the source tree, or <prefix>/share/judge/maps."""
    source_tree = Path(__file__).resolve().parent.parent.parent / "maps"
    if source_tree.is_dir():
        return source_tree
    return Path(sys.prefix) / "share" / "judge" / "maps"


def read_text(path: Path) -> str:
    """Map files are UTF-8; old ones are Latin-1, which never fails to decode."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# the files a map is made of: DPjudge splits some maps into these parts (`USE standard.geography`)
MAP_SUFFIXES = (".map", ".geography", ".politics", ".military", ".locations")
MAP_FILE_NAME = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,79}")


def plain_map_name(name: str) -> bool:
    """A map name or file name with no folder in it: `standard`, `standard.geography`, `1900.map`."""
    return bool(MAP_FILE_NAME.fullmatch(name)) and ".." not in name


def map_file_names(name: str) -> list[str]:
    """The files a plain name may mean: itself if it ends as a map file does, else name.map."""
    if name.lower().endswith(MAP_SUFFIXES):
        return [name]
    return [] if "." in name else [name + ".map"]


def without_folders(problem: Problem) -> Problem:
    """A map problem as a mail may tell it: its file named, not the folders the judge keeps it in."""
    return replace(problem, file=PurePath(problem.file).name)


class FileLoader:
    """Resolves USE/MAP names: the including file's folder, then `search` folders, then bundled maps.

    A name a map file (or a game's MORPH lines) USEs is a plain file name, never a path: map text
    comes from Masters by mail, and must not read the judge's other files. Only the map asked for
    first may be a path, and only when `paths` is true (`judge map check some/dir/x.map`); a game's
    map (its MAP line) is always a plain name found in the map folders."""

    def __init__(self, search: Sequence[Path] = (), paths: bool = True):
        self.search = [Path(p) for p in search] + [bundled_maps_dir()]
        self.paths = paths

    def __call__(self, name: str, parent: str | None) -> tuple[str, str]:
        path = self.find(name, parent)
        return str(path), read_text(path)

    def find(self, name: str, parent: str | None) -> Path:
        given = Path(name)
        if parent is None and self.paths and (given.is_absolute() or given.exists()) and given.is_file():
            return given
        if not plain_map_name(name):
            raise LookupError(f"{name!r} is not a map name (no folders: a name such as standard)")
        candidates = map_file_names(name)
        if not candidates:
            raise LookupError(f"{name!r} is not a map file (they end in {', '.join(MAP_SUFFIXES)})")
        including = [Path(parent).parent] if parent and Path(parent).is_file() else []
        for folder in including + self.search:
            for candidate in candidates:
                path = folder / candidate
                if path.is_file():
                    return path
        if not self.paths:  # a game's map: whoever reads the problem need not know the folders
            raise LookupError("not found in the map folders")
        raise LookupError(f"not found in {', '.join(str(f) for f in including + self.search)}")


def load_map(name_or_path: str, search: Sequence[Path] = (), morphs: Sequence[str] = (), *,
             paths: bool = True, bounds: MapBounds | None = None) -> Map:
    """Parse a map given by name (`standard`) or, when `paths`, by path (`some/dir/x.map`), with a
    game's MORPH lines, within `bounds` if given. A game's map is loaded with `paths=False` (see
    `FileLoader`). A map parsed before in this process is not parsed again while every file it
    was read from is still found where it was and holds the same text (see `KeptMap`)."""
    files = FileLoader(search, paths)
    key = (name_or_path, tuple(morphs))  # the folders searched are checked by `KeptMap.current`
    kept = _KEPT_MAPS.get(key)
    if kept is not None and (bounds is None or bounds in kept.bounds) and kept.current(files):
        return kept.map
    reading = _ReadingLoader(files)
    m = parse_map(name_or_path, reading, morphs, bounds)
    passed = kept.bounds if kept is not None and kept.reads == tuple(reading.reads) else frozenset()
    _KEPT_MAPS.pop(key, None)
    while len(_KEPT_MAPS) >= KEPT_MAPS:
        del _KEPT_MAPS[next(iter(_KEPT_MAPS))]
    _KEPT_MAPS[key] = KeptMap(m, tuple(reading.reads), passed | {bounds})
    return m


KEPT_MAPS = 64  # parsed maps kept by the process: the games' maps and those a CREATE or MORPH checks

Read = tuple[str, "str | None", Path, str]  # a loader's call (name, parent) and the file and text it gave


@dataclass(frozen=True)
class KeptMap:
    """A parsed map, the files it was read from, and the bounds it was found within (None: read
    without bounds). Parsing a map costs milliseconds; finding its few files and reading their text
    again costs microseconds, and the same text read from the same files makes the same map,
    whichever folders were searched to find them (each judge's own)."""
    map: Map
    reads: tuple[Read, ...]
    bounds: frozenset[MapBounds | None]

    def current(self, files: FileLoader) -> bool:
        try:
            return all(files.find(name, parent) == path and read_text(path) == text
                       for name, parent, path, text in self.reads)
        except (LookupError, OSError):
            return False


class _ReadingLoader:
    """A `FileLoader` that remembers what it read, for `KeptMap`."""

    def __init__(self, files: FileLoader):
        self.files = files
        self.reads: list[Read] = []

    def __call__(self, name: str, parent: str | None) -> tuple[str, str]:
        path = self.files.find(name, parent)
        text = read_text(path)
        self.reads.append((name, parent, path, text))
        return str(path), text


# the one process-wide store of parsed maps: maps are immutable values, and a kept map is checked
# against its files before it is handed out, so a map file changed on disk is read again
_KEPT_MAPS: dict[tuple[str, tuple[str, ...]], KeptMap] = {}


MAX_MAPS = 32  # parsed maps a cache keeps (a map with a game's MORPH lines is one)


class MapCache:
    """Games' maps by (name, MORPH lines), parsed once and kept by a long-lived caller (the inbox
    runner, the cycle) between mails and ticks: maps are immutable values. The oldest goes when
    `size` are kept; a map file changed on disk is read again only when the judge restarts. Names
    are plain names found in `search`, then the bundled maps (`paths=False`: game data never
    names a path)."""

    def __init__(self, search: Sequence[Path] = (), size: int = MAX_MAPS):
        self.search = tuple(Path(p) for p in search)
        self.size = size
        self.maps: dict[tuple[str, tuple[str, ...]], Map] = {}

    def get(self, name: str, morphs: Sequence[str] = ()) -> Map:
        key = (name, tuple(morphs))
        found = self.maps.get(key)
        if found is None:
            found = load_map(name, self.search, morphs=key[1], paths=False)
            while len(self.maps) >= self.size:
                del self.maps[next(iter(self.maps))]
            self.maps[key] = found
        return found
