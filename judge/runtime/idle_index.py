"""Which games the cycle may leave unread: the index of when each game is next due.

`Index` is the cycle's memory, one JSON file (`<games>/.cycle-index.json`, each entry in hex): for
each game the identity of its status and state files when it was last read (inode, size,
modification and change times: any rewrite, by a mail, `judge process` or a hand edit, changes it),
when that was, and the
first instant from then on at which its tick has something to do (`judge.game.clock.agenda`: the
index keeps that instant only, it knows nothing of what is due). A game whose files are unchanged
and whose time has not come is not even opened. The times depend on the games' files and on the
maps they are played on, and on the judge that worked them out: a change in a maps folder or in the
judge's own code (an upgrade) starts the index afresh. A lost or damaged index only costs one full
cycle.

`KeptIndex` is the index as the daemon keeps it between cycles, with what lets an idle cycle look
at no game at all: a heap of the games' next due times, and (on Linux) an inotify watch on the games
folder and on each game's folder, which reports any write to a status or state file, whoever made
it (the judge's writers, `judge check`, a hand edit), and any game folder added or removed. A cycle
then looks only at the games whose files were reported changed, whose time has come, or that have
no entry; where inotify is unavailable or its watches are used up, every cycle looks at every
game's files (two `lstat` calls a game).
"""
from __future__ import annotations

import functools
import hashlib
import heapq
import json
import logging
import os
import stat as stat_mode
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path

import judge
from judge.maps.loader import bundled_maps_dir
from judge.runtime import inotify
from judge.runtime.store import GAME_NAME, STATE, STATUS, atomic_write, file_identity, read_text

FOREVER = datetime.max.replace(tzinfo=UTC)  # nothing is due until the game's files change
INDEX_FILE = ".cycle-index.json"
Stamp = tuple[int, ...]
log = logging.getLogger(__name__)


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


def _link_stamp(link: os.stat_result) -> Stamp:
    return (link.st_ino, link.st_size, link.st_mtime_ns, link.st_ctime_ns)


def stamps(root: Path, before: Callable[[str, str], None] | None = None) -> dict[str, Stamp]:
    """Every game in the games folder (as `GameStore.names`: a folder with a status file and a
    game's name) with its stamp, in one pass over the folder; a game's folder that is a symlink
    too (so that the cycle reports it), with the symlink's own stamp. `before(path, name)` is
    called for each game's folder before its files are looked at."""
    found: dict[str, Stamp] = {}
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return found
    for entry in entries:
        if GAME_NAME.fullmatch(entry.name) and entry.is_symlink():
            found[entry.name] = _link_stamp(entry.stat(follow_symlinks=False))
        elif GAME_NAME.fullmatch(entry.name) and entry.is_dir():
            try:
                if before is not None:
                    before(entry.path, entry.name)
                found[entry.name] = stamp(entry.path)
            except (FileNotFoundError, NotADirectoryError):
                continue
    return dict(sorted(found.items()))


def stamp_of(root: Path, name: str, before: Callable[[str, str], None] | None = None) -> Stamp | None:
    """One game's stamp as `stamps` finds it; None when the folder holds no game."""
    path = f"{os.fspath(root)}/{name}"
    try:
        info = os.lstat(path)
        if stat_mode.S_ISLNK(info.st_mode):
            return _link_stamp(info)
        if not stat_mode.S_ISDIR(info.st_mode):
            return None
        if before is not None:
            before(path, name)
        return stamp(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


class Entry(bytes):
    """A game's entry, packed in one bytes object (a daemon keeps one a game): when the game was
    last read and the first instant from then on at which its tick has something to do
    (microseconds since the epoch), then its stamp (each number as 64 bits)."""

    __slots__ = ()

    @classmethod
    def of(cls, stamp: Stamp, read: datetime, quiet: datetime) -> Entry:
        return cls(_TIMES.pack(micros(read), micros(quiet)) + _packed(stamp))

    @property
    def stamp(self) -> Stamp:
        return struct.unpack_from(f"<{(len(self) - _TIMES.size) // 8}Q", self, _TIMES.size)

    @property
    def read(self) -> datetime:
        return moment(_TIMES.unpack_from(self)[0])

    @property
    def quiet(self) -> datetime:
        return moment(self.quiet_micros)

    @property
    def quiet_micros(self) -> int:
        return int(_TIMES.unpack_from(self)[1])

    def skips(self, current: Stamp, now: datetime) -> bool:
        read, quiet = _TIMES.unpack_from(self)
        return read <= micros(now) < quiet and self[_TIMES.size:] == _packed(current)


_TIMES = struct.Struct("<qq")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_WORD = (1 << 64) - 1


def micros(at: datetime) -> int:
    return (at - _EPOCH) // _MICRO


def moment(n: int) -> datetime:
    return _EPOCH + n * _MICRO


def _packed(stamp: Stamp) -> bytes:
    """A stamp's numbers as 64 bits each (a negative time as its two's complement: only equality matters)."""
    return struct.pack(f"<{len(stamp)}Q", *(n & _WORD for n in stamp))


@dataclass
class Index:
    signature: str
    entries: dict[str, Entry] = field(default_factory=dict)
    changed: bool = False
    noted: set[str] = field(default_factory=set)  # the games given an entry since it was saved

    def note(self, name: str, entry: Entry | None) -> None:
        if entry is None:
            self.changed |= self.entries.pop(name, None) is not None
        elif self.entries.get(name) != entry:
            self.entries[name] = entry
            self.noted.add(name)
            self.changed = True

    def to_json(self) -> str:
        return json.dumps({"signature": self.signature, "games": {
            name: e.hex() for name, e in sorted(self.entries.items())}}, separators=(",", ":"))


def load_index(root: Path, signature: str) -> Index:
    """The index of the games folder; an empty one when it is missing, damaged or of other maps."""
    try:
        data = json.loads(read_text(root / INDEX_FILE, root))
        if data.get("signature") != signature:
            return Index(signature, changed=True)
        entries = {str(name): Entry(bytes.fromhex(packed)) for name, packed in data["games"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Index(signature, changed=True)
    if any(len(e) < _TIMES.size + 32 or len(e) % 8 for e in entries.values()):
        return Index(signature, changed=True)
    return Index(signature, entries)


def save_index(root: Path, index: Index) -> None:
    if index.changed:
        atomic_write(root / INDEX_FILE, index.to_json().encode("utf-8"))
        index.changed = False


@dataclass(frozen=True)
class Look:
    """What a cycle looks at: the games to consider with their stamps (in name order), the
    indexed games whose folder is gone, and how many games were left unlooked at (unchanged and
    not due, as the watch and the heap of due times tell)."""

    found: dict[str, Stamp]
    gone: tuple[str, ...] = ()
    rest: int = 0


# A file written is reported once, when closed (not at each write: the kernel's queue of events,
# 16,384 by default, fills more slowly; when it overflows the next cycle looks at every game).
FOLDER_EVENTS = (inotify.ATTRIB | inotify.CLOSE_WRITE | inotify.MOVED_FROM | inotify.MOVED_TO
                 | inotify.DELETE | inotify.DELETE_SELF | inotify.MOVE_SELF | inotify.ONLYDIR
                 | inotify.DONT_FOLLOW)
ROOT_EVENTS = (inotify.ATTRIB | inotify.MOVED_FROM | inotify.MOVED_TO | inotify.CREATE | inotify.DELETE
               | inotify.DELETE_SELF | inotify.MOVE_SELF | inotify.ONLYDIR)
GONE_EVENTS = inotify.DELETE_SELF | inotify.MOVE_SELF | inotify.UNMOUNT | inotify.IGNORED


NEVER = micros(FOREVER)


class KeptIndex:
    """The index as a long-lived caller (the daemon) keeps it between cycles: loaded from its file
    again only when the file is not the one it last loaded or saved (by its inode, size and times:
    another process's cycle, `judge check`, wrote it, or it was lost or edited), so that an idle
    tick does not decode one entry a game; and, with `watch` (inotify, where there is one), what
    lets a cycle look only at the games that changed or are due (`look`)."""

    def __init__(self, watch: bool = True) -> None:
        self.kept: tuple[Stamp | None, Index] | None = None
        self.watching = watch
        self.watch: inotify.Inotify | None = None
        self.root_watch = -1
        self.folders: dict[int, str] = {}  # watch descriptor -> the game whose folder it watches
        self.games: set[str] = set()  # the games in the folder, as last looked at
        self.due: list[tuple[int, str]] = []  # a heap of the entries' next due times (`micros`)
        self.looked_all = False
        self.synced: datetime | None = None  # the watch, games and heap describe the index saved then

    def load(self, root: Path, signature: str) -> Index:
        seen = file_identity(root / INDEX_FILE)
        kept = self.kept
        if kept is not None and seen is not None and kept[0] == seen and kept[1].signature == signature:
            return kept[1]
        index = load_index(root, signature)  # read after the look: a file replaced meanwhile is read again
        self.kept = (seen, index)
        self.synced = None
        return index

    def look(self, root: Path, index: Index, now: datetime, also: Iterable[str] = (),
             everything: bool = False) -> Look:
        """The games a cycle at `now` considers: every game, the first time, with `everything`,
        without a watch, or when the watch lost track (its queue overflowed, the games folder
        went); else the games reported changed, those due by `now` and those in `also` (held),
        and those without an entry (never read, or broken)."""
        synced, self.synced = self.synced, None  # a cycle that stops half-way is followed by a full look
        if everything or synced is None or now < synced or self.kept is None or self.kept[1] is not index:
            return self._look_at_all(root, index)
        changed = self._changed()
        if changed is None:
            return self._look_at_all(root, index)
        now_micros = micros(now)
        while self.due and self.due[0][0] <= now_micros:
            changed.add(heapq.heappop(self.due)[1])
        changed.update(also)
        changed.update(self.games.difference(index.entries))
        found: dict[str, Stamp] = {}
        gone: list[str] = []
        for name in sorted(changed):
            current = stamp_of(root, name, self._watch_folder)
            if current is None:
                self.games.discard(name)
                if name in index.entries:
                    gone.append(name)
            else:
                self.games.add(name)
                found[name] = current
        return Look(found, tuple(gone), len(self.games) - len(found))

    def save(self, root: Path, index: Index, now: datetime) -> None:
        save_index(root, index)
        self.kept = (file_identity(root / INDEX_FILE), index)
        if self.looked_all:
            self.due = [(e.quiet_micros, name) for name, e in index.entries.items()
                        if e.quiet_micros != NEVER]
            heapq.heapify(self.due)
        else:
            for name in index.noted:
                entry = index.entries.get(name)
                if entry is not None and entry.quiet_micros != NEVER:
                    heapq.heappush(self.due, (entry.quiet_micros, name))
        index.noted.clear()
        self.looked_all = False
        self.synced = now if self.watch is not None else None

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()
        self.watch, self.root_watch, self.folders = None, -1, {}

    def _look_at_all(self, root: Path, index: Index) -> Look:
        self.close()
        if self.watching:
            try:
                self.watch = inotify.Inotify()
                self.root_watch = self.watch.add(os.fspath(root), ROOT_EVENTS)
            except OSError as exc:
                self._give_up(exc)
        found = stamps(root, self._watch_folder)
        self.games = set(found)
        self.looked_all = True
        return Look(found, tuple(sorted(set(index.entries) - self.games)))

    def _watch_folder(self, path: str, name: str) -> None:
        """Watch a game's folder before its files are looked at: a change after the look is reported."""
        if self.watch is None:
            return
        try:
            self.folders[self.watch.add(path, FOLDER_EVENTS)] = name
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as exc:
            self._give_up(exc)

    def _give_up(self, exc: OSError) -> None:
        log.warning("no inotify watch on the games (%s): every cycle looks at every game", exc)
        self.close()
        self.watching = False

    def _changed(self) -> set[str] | None:
        """The games the watch reports changed since it was last asked; None when it lost track."""
        if self.watch is None:
            return None
        try:
            events = self.watch.events()
        except OSError:
            return None
        changed: set[str] = set()
        for event in events:
            if event.mask & inotify.OVERFLOW:
                return None
            if event.watch == self.root_watch:
                if event.mask & GONE_EVENTS:
                    return None
                if GAME_NAME.fullmatch(event.name):
                    changed.add(event.name)
            elif (game := self.folders.get(event.watch)) is not None:
                if event.mask & inotify.IGNORED:
                    del self.folders[event.watch]
                if event.mask & GONE_EVENTS or event.name in (STATUS, STATE):
                    changed.add(game)
        return changed


def signature(map_dirs: Sequence[Path]) -> str:
    """What the due times depend on besides the games' own files: the map files and the judge's
    code."""
    digest = hashlib.sha256(judge_identity().encode())
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


@functools.cache
def judge_identity() -> str:
    """The running judge: its release and each of its modules' size and modification time (read
    once: the code a process runs does not change under it)."""
    try:
        release = metadata.version("judge")
    except metadata.PackageNotFoundError:
        release = "?"
    home = Path(judge.__file__).parent
    files = sorted(home.rglob("*.py"))
    return release + "".join(f"\0{p.relative_to(home)}\0{p.stat().st_size}\0{p.stat().st_mtime_ns}"
                             for p in files)
