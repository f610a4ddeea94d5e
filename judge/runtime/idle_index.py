"""Which games the cycle may leave unread: the index of when each game is next due.

`Index` is the cycle's memory, one JSON file (`<games>/.cycle-index.json`): for each game the
identity of its status and state files when it was last read (inode, size, modification and change
times: any rewrite, by a mail, `judge process` or a hand edit, changes it), when that was, and the
first instant from then on at which its tick has something to do (`judge.game.clock.agenda`: the
index keeps that instant only, it knows nothing of what is due). A game whose files are unchanged
and whose time has not come is not even opened. The times depend on the games' files and on the
maps they are played on: a change in a maps folder starts the index afresh. A lost or damaged index
only costs one full cycle.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from judge.maps.loader import bundled_maps_dir
from judge.runtime.store import GAME_NAME, STATE, STATUS, atomic_write, file_identity, read_text

FOREVER = datetime.max.replace(tzinfo=UTC)  # nothing is due until the game's files change
INDEX_FILE = ".cycle-index.json"
Stamp = tuple[int, ...]


def stamp(game: Path | str) -> Stamp:
    """The identity of a game's status and state files (a symlink's own: it is never followed);
    FileNotFoundError without a status."""
    folder = os.fspath(game)
    found = os.lstat(f"{folder}/{STATUS}")
    try:
        state = os.lstat(f"{folder}/{STATE}")
        more: Stamp = (state.st_ino, state.st_size, state.st_mtime_ns)
    except FileNotFoundError:
        more = ()
    return (found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns, *more)


def stamps(root: Path) -> dict[str, Stamp]:
    """Every game in the games folder (as `GameStore.names`: a folder with a status file and a
    game's name) with its stamp, in one pass over the folder; a game's folder that is a symlink
    too (so that the cycle reports it), with the symlink's own stamp."""
    found: dict[str, Stamp] = {}
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return found
    for entry in entries:
        if GAME_NAME.fullmatch(entry.name) and entry.is_symlink():
            link = entry.stat(follow_symlinks=False)
            found[entry.name] = (link.st_ino, link.st_size, link.st_mtime_ns, link.st_ctime_ns)
        elif GAME_NAME.fullmatch(entry.name) and entry.is_dir():
            try:
                found[entry.name] = stamp(entry.path)
            except (FileNotFoundError, NotADirectoryError):
                continue
    return dict(sorted(found.items()))


@dataclass(frozen=True)
class Entry:
    stamp: Stamp
    read: datetime  # when the game was last read
    quiet: datetime  # the first instant from then on at which its tick has something to do

    def skips(self, current: Stamp, now: datetime) -> bool:
        return self.stamp == current and self.read <= now < self.quiet


@dataclass
class Index:
    signature: str
    entries: dict[str, Entry] = field(default_factory=dict)
    changed: bool = False

    def note(self, name: str, entry: Entry | None) -> None:
        if entry is None:
            self.changed |= self.entries.pop(name, None) is not None
        elif self.entries.get(name) != entry:
            self.entries[name] = entry
            self.changed = True

    def keep_only(self, names: Sequence[str]) -> None:
        for gone in set(self.entries) - set(names):
            self.note(gone, None)

    def to_json(self) -> str:
        return json.dumps({"signature": self.signature, "games": {
            name: [list(e.stamp), e.read.isoformat(), e.quiet.isoformat()]
            for name, e in sorted(self.entries.items())}}, separators=(",", ":"))


def load_index(root: Path, signature: str) -> Index:
    """The index of the games folder; an empty one when it is missing, damaged or of other maps."""
    try:
        data = json.loads(read_text(root / INDEX_FILE, root))
        if data.get("signature") != signature:
            return Index(signature, changed=True)
        entries = {str(name): Entry(tuple(int(n) for n in s), datetime.fromisoformat(r),
                                    datetime.fromisoformat(q))
                   for name, (s, r, q) in data["games"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Index(signature, changed=True)
    if any(e.read.tzinfo is None or e.quiet.tzinfo is None for e in entries.values()):
        return Index(signature, changed=True)
    return Index(signature, entries)


def save_index(root: Path, index: Index) -> None:
    if index.changed:
        atomic_write(root / INDEX_FILE, index.to_json().encode("utf-8"))
        index.changed = False


class KeptIndex:
    """The index as a long-lived caller (the daemon) keeps it between cycles: loaded from its file
    again only when the file is not the one it last loaded or saved (by its inode, size and times:
    another process's cycle, `judge check`, wrote it, or it was lost or edited), so that an idle
    tick does not decode one entry a game."""

    def __init__(self) -> None:
        self.kept: tuple[Stamp | None, Index] | None = None

    def load(self, root: Path, signature: str) -> Index:
        seen = file_identity(root / INDEX_FILE)
        kept = self.kept
        if kept is not None and seen is not None and kept[0] == seen and kept[1].signature == signature:
            return kept[1]
        index = load_index(root, signature)  # read after the look: a file replaced meanwhile is read again
        self.kept = (seen, index)
        return index

    def save(self, root: Path, index: Index) -> None:
        save_index(root, index)
        self.kept = (file_identity(root / INDEX_FILE), index)


def signature(map_dirs: Sequence[Path]) -> str:
    """What the due times depend on besides the games' own files: the map files."""
    digest = hashlib.sha256()
    for folder in [*map_dirs, bundled_maps_dir()]:
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        named = str(Path(folder))
        for entry in entries:
            try:
                info = entry.stat()
            except OSError:
                continue
            digest.update(f"{named}/{entry.name}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()
