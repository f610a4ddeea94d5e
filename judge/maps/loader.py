"""Finding and reading map files on disk: the only part of the map engine that does I/O."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

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


class FileLoader:
    """Resolves USE/MAP names: the including file's folder, then `search` folders, then bundled maps."""

    def __init__(self, search: Sequence[Path] = ()):
        self.search = [Path(p) for p in search] + [bundled_maps_dir()]

    def __call__(self, name: str, parent: str | None) -> tuple[str, str]:
        path = self.find(name, parent)
        return str(path), read_text(path)

    def find(self, name: str, parent: str | None) -> Path:
        candidates = [name] if "." in Path(name).name else [name, name + ".map"]
        folders = ([Path(parent).parent] if parent else []) + self.search
        given = Path(name)
        if given.is_absolute() or (parent is None and given.exists()):
            if given.is_file():
                return given
        for folder in folders:
            for candidate in candidates:
                path = folder / candidate
                if path.is_file():
                    return path
        raise LookupError(f"not found in {', '.join(str(f) for f in folders)}")


def load_map(name_or_path: str, search: Sequence[Path] = (), morphs: Sequence[str] = ()) -> Map:
    """Parse a map given by name (`standard`) or by path (`some/dir/x.map`), with a game's MORPH lines."""
    return parse_map(name_or_path, FileLoader(search), morphs)
