"""Which games the cycle may leave unread: when `on_tick` could next do anything to a game.

`quiet_until(status, map, now, standing)` is pure: an instant up to which `on_tick(status, map, t,
standing)` gives `(status, [])` for every `t` from `now` on, as long as the status and the state file
stay as they are (`now` itself: the game is due; `FOREVER`: nothing happens until they change). It
follows `judge.game.schedule.on_tick` step by step, erring towards "due":

- a game not in play, in AWAIT, waiting for replacements or held by its state file: FOREVER;
- a DELAY on file, a NOT vacation on the TIMING line (it may end and be dropped), a phase ready:
  due now;
- otherwise the deadline passed: due now; before it: quiet until the slot of the first WARN time
  still to come (`_warn_now` fires in that twenty-minute slot), at most until the deadline; a game
  with no deadline (or NO_DEADLINE) waits for its orders: FOREVER.

`Index` is the cycle's memory of it, one JSON file (`<games>/.cycle-index.json`): for each game the
identity of its status and state files when it was last read (inode, size, modification time), when
that was, and its `quiet_until`. A game whose files are unchanged and whose quiet time has not come
is not even opened; anything that rewrites either file (a mail, `judge process`, a hand edit) makes
the next cycle read it. The index also holds a signature of the map files and of the code that
decides (these modules' files): when either changes, the index starts afresh. A lost or damaged
index only costs one full cycle.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from judge.game.deadlines import current_deadline
from judge.game.process import readiness
from judge.game.rules import rules_in_force
from judge.game.state import FREE, Standing
from judge.maps.loader import bundled_maps_dir
from judge.maps.model import Map
from judge.status.model import GameStatus, PhaseMode
from judge.runtime.store import GAME_NAME, STATE, STATUS, atomic_write, read_text
from judge.timing import cycle_slot, parse_timing, warn_times
from judge.types import Phase

FOREVER = datetime.max.replace(tzinfo=UTC)
INDEX_FILE = ".cycle-index.json"
DECIDING_MODULES = ("judge.runtime.idle_index", "judge.game.schedule", "judge.game.process", "judge.game.rules",
                    "judge.game.deadlines", "judge.game.state", "judge.timing.reminders",
                    "judge.timing.deadline", "judge.timing.spec", "judge.timing.zones",
                    "judge.status.parser", "judge.status.model")
Stamp = tuple[int, ...]


def quiet_until(status: GameStatus, m: Map, now: datetime, standing: Standing = FREE) -> datetime:
    """See the module's doc."""
    phase = status.phase
    if not isinstance(phase, Phase) or status.phase_mode is PhaseMode.AWAIT or status.need \
            or standing.held:
        return FOREVER
    timing = parse_timing(status.timing or "")
    if status.delay or timing.vacations or readiness(status, m, now).ready:
        return now
    rules = rules_in_force(status, m)
    deadline = None if "NO_DEADLINE" in rules else current_deadline(status)
    if deadline is None:
        return FOREVER
    if now >= deadline:
        return now
    slot = cycle_slot(now)
    coming = [cycle_slot(t) for t in warn_times(deadline, timing.warn) if t >= slot]
    return max(min([deadline, *coming]), now)


# --- the index -----------------------------------------------------------------------------------------

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
    quiet: datetime  # quiet_until as it was then

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
    """The index of the games folder; an empty one when it is missing, damaged or of other maps or
    code."""
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


def signature(map_dirs: Sequence[Path]) -> str:
    """What the quiet times depend on besides the games' own files: the map files and the code."""
    digest = hashlib.sha256()
    files = [Path(p) for folder in [*map_dirs, bundled_maps_dir()] if Path(folder).is_dir()
             for p in sorted(Path(folder).iterdir())]
    sources = (getattr(sys.modules.get(name), "__file__", None) for name in DECIDING_MODULES)
    files += [Path(source) for source in sources if source]
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()
