"""Game directories on disk: one lock per game, atomic status writes, per-phase snapshots, results log.

A game is `games/<name>/` holding `status` (the truth), `status.<S1901M>` snapshots taken before each
processing (so any phase can be rolled back to), `results` (the results archive: every results mail,
appended, `judge.game.archive`; `results.0` the archive before a rollback cut it), a Crystal Ball
game's `lists` (its locked lists, phase by phase, as DPjudge keeps them), and `state` when the game
has a state or a listing the status file cannot keep (`judge.game.standing`).
Mail, the scheduler and the CLI all go through `GameStore.locked`, so they never interleave; a crash at
any instant leaves the old or the new status, never a torn one.

No symlink inside the judge's folders is followed. Every file of theirs (a game's folder and files,
the journal and receipts, the spools, the reply history) is reached from its configured folder
(`root`: the games or the spool folder, which the judgekeeper may have made a symlink) one folder at
a time with `O_NOFOLLOW`, by the helpers below; a symlink planted below the root, a temporary file's
name included, is refused (`PathRefused`, an OSError) and logged, for reading as for writing.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import stat
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from judge.status.parser import UTF8, decode_status, encode_status
from judge.types import GAME_NAME, GAME_NAME_LONGEST

log = logging.getLogger("judge.store")

STATUS = "status"
STATE = "state"
RESULTS = "results"
# a Crystal Ball game's locked lists, each movement phase's as processing read them, appended (DPjudge's
# file, written whatever the rules: PUBLIC_LISTS only decides whether they are also mailed)
LISTS = "lists"
ROLLED_BACK = "results.0"  # the archive before a rollback (DPjudge's name), for ROLLFORWARD
LOCK = ".lock"
TMP = ".tmp"  # the end of a temporary file's name (`.<name>.<pid>.<thread>.tmp`)
STALE_TMP_SECONDS = 3600.0  # a temporary file this old was left by a crash, not being written
FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


# -- paths inside the judge's folders: never through a symlink ------------------------------------
class PathRefused(OSError):
    """A path inside the judge's folders is a symlink (not followed), or a file to read is not a
    regular file (a FIFO, a device)."""

    def __str__(self) -> str:
        return f"{self.filename} is {self.strerror}: refused ({REFUSED_WHY})"


REFUSED_WHY = "the judge follows no symlink and reads only regular files in its folders"


def refused(path: Path | str, root: Path, what: str = "a symlink") -> PathRefused:
    """The error for `path` (named from `root` on, as mails may show it), logged in full."""
    path = Path(path)
    log.error("refused %s: it is %s (%s)", path, what, REFUSED_WHY)
    shown = path.relative_to(root) if path.is_relative_to(root) else Path(path.name)
    return PathRefused(errno.ELOOP if what == "a symlink" else errno.EINVAL, what, str(shown))


@contextmanager
def folder_fd(folder: Path, root: Path | None = None) -> Iterator[int]:
    """An open descriptor of `folder`, reached from `root` (default: `folder` itself) one folder at
    a time, none through a symlink. `root` itself may be a symlink: it is the judgekeeper's."""
    fd = reach_folder(folder, as_path(folder if root is None else root))
    try:
        yield fd
    finally:
        os.close(fd)


def reach_folder(folder: Path, top: Path) -> int:
    """`folder_fd`'s descriptor, the caller's to close (the judge's every file access opens its
    folder: a plain call spares it a context manager's generator)."""
    steps = steps_below(top, folder)
    fd = os.open(top, FOLDER_FLAGS)
    try:
        reached = str(top)  # (as text: a Path is made of it only to name a refused one)
        for step in steps:
            reached = f"{reached}/{step}"
            found = open_at(fd, step, FOLDER_FLAGS, reached, top)
            os.close(fd)
            fd = found
    except BaseException:
        os.close(fd)
        raise
    return fd


def as_path(path: Path | str) -> Path:
    return path if isinstance(path, Path) else Path(path)


def steps_below(top: Path, folder: Path | str) -> list[str]:
    """`Path(folder).relative_to(top).parts` without making Paths (every file the judge reads or
    writes is reached through here): the names from `top` down to `folder`; ValueError when
    `folder` is not below `top`."""
    start, end = str(top), str(as_path(folder))
    if end == start:
        return []
    start = "" if start == "." else start if start.endswith("/") else f"{start}/"
    if not end.startswith(start) or end.startswith("/") != start.startswith("/"):
        raise ValueError(f"{end!r} is not in the subpath of {str(top)!r}")
    return end[len(start):].split("/")


def open_at(folder: int, name: str, flags: int, path: Path | str, root: Path,
            mode: int = 0o666) -> int:
    """`os.open` of `name` in the open `folder`, never through a symlink (`path`: its full name)."""
    if name in ("", ".", "..") or "/" in name:
        raise ValueError(f"not a name inside a folder: {name!r}")
    try:
        return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=folder)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EEXIST) and is_link(folder, name):
            raise refused(path, root) from None
        raise


def is_link(folder: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def open_file(path: Path, flags: int, root: Path | None = None, mode: int = 0o666) -> int:
    """A descriptor of the file `path` (below `root`, default its own folder), never through a
    symlink."""
    path = as_path(path)
    top = path.parent if root is None else as_path(root)
    folder = reach_folder(path.parent, top)
    try:
        return open_at(folder, path.name, flags, path, top, mode)
    finally:
        os.close(folder)


def read_bytes(path: Path, root: Path | None = None) -> bytes:
    """The bytes of the regular file `path`, never through a symlink (nor from a FIFO or a device,
    which could hang or feed the judge)."""
    path = as_path(path)
    with open(open_file(path, os.O_RDONLY | os.O_NONBLOCK, root), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise refused(path, path.parent if root is None else Path(root), "not a regular file")
        return handle.read()


def read_text(path: Path, root: Path | None = None) -> str:
    """`read_bytes` as UTF-8 text (UnicodeDecodeError, a ValueError, when it is not)."""
    return read_bytes(path, root).decode("utf-8")


def append_bytes(path: Path, data: bytes, root: Path | None = None) -> None:
    """Append `data` to the file `path` (made if need be), fsynced."""
    fd = open_file(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, root)
    with open(fd, "ab") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def truncate(path: Path, length: int, root: Path | None = None) -> None:
    fd = open_file(path, os.O_WRONLY, root)
    try:
        os.ftruncate(fd, length)
    finally:
        os.close(fd)


def file_stat(path: Path, root: Path | None = None) -> os.stat_result:
    """The `lstat` of `path` (a symlink is described, not followed); FileNotFoundError."""
    path = as_path(path)
    folder = reach_folder(path.parent, path.parent if root is None else as_path(root))
    try:
        return os.stat(path.name, dir_fd=folder, follow_symlinks=False)
    finally:
        os.close(folder)


def file_identity(path: Path) -> tuple[int, ...] | None:
    """What tells a file from the one it replaced or an edit of it (inode, device, size,
    modification and change times; a symlink's own); None when there is none. Files the judge
    only ever replaces (`atomic_write`) or a person edits are read again only when it changes."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    return (found.st_ino, found.st_dev, found.st_size, found.st_mtime_ns, found.st_ctime_ns)


def names_in(folder: Path, root: Path | None = None) -> list[str]:
    """The names in `folder` (unsorted); FileNotFoundError when there is none."""
    with folder_fd(folder, folder if root is None else root) as fd:
        return os.listdir(fd)


def make_folder(folder: Path, root: Path | None = None) -> None:
    """Make `folder` if it is missing; a symlink in its place is refused."""
    folder = as_path(folder)
    top = folder.parent if root is None else as_path(root)
    with folder_fd(folder.parent, top) as parent:
        try:
            os.mkdir(folder.name, dir_fd=parent)
        except FileExistsError:
            pass
        os.close(open_at(parent, folder.name, FOLDER_FLAGS, folder, top))


def rename(source: Path, target: Path, root: Path | None = None) -> None:
    """`os.rename` (which follows neither name itself) through folders reached without a symlink."""
    source, target = Path(source), Path(target)
    with folder_fd(source.parent, source.parent if root is None else root) as a, \
            folder_fd(target.parent, target.parent if root is None else root) as b:
        os.rename(source.name, target.name, src_dir_fd=a, dst_dir_fd=b)


def remove(path: Path, root: Path | None = None, missing_ok: bool = False) -> None:
    """Unlink `path` (a symlink there is removed, not followed)."""
    path = as_path(path)
    try:
        with folder_fd(path.parent, path.parent if root is None else root) as folder:
            os.unlink(path.name, dir_fd=folder)
    except FileNotFoundError:
        if not missing_ok:
            raise


def atomic_write(path: Path, data: bytes, *, sync_folder: bool = True,
                 root: Path | None = None) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new content, never a mix.
    `sync_folder=False`: the caller fsyncs the folder itself (once for several files), and the
    new name is durable only then. `root`: the judge's folder `path` is in (default: its own
    folder); nothing below it, the temporary file's name included, is followed if a symlink."""
    path = as_path(path)
    top = path.parent if root is None else as_path(root)
    with folder_fd(path.parent, top) as folder:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}{TMP}")
        try:
            with open(create_new(folder, tmp, top), "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp.name, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:  # a disk full, say: the half-written file must not stay to fill it
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp.name, dir_fd=folder)
            raise
        if sync_folder:
            os.fsync(folder)


def create_new(folder: int, path: Path, root: Path) -> int:
    """A new file `path` in the open `folder`, made by this call (O_EXCL): whatever had its name (a
    temporary file a crash left, or a symlink planted there) is removed first, never written to."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        return open_at(folder, path.name, flags, path, root)
    except PathRefused:
        pass
    except FileExistsError:
        log.warning("%s was left by an earlier write: replaced", path)
    os.unlink(path.name, dir_fd=folder)
    return open_at(folder, path.name, flags, path, root)


def remove_stale_tmp(folder: Path, now: float, older_than: float = STALE_TMP_SECONDS,
                     root: Path | None = None) -> list[Path]:
    """At start: remove the temporary files a crash left in `folder` (below `root`; never
    acknowledged, so nothing is lost), those older than `older_than` seconds at `now` (seconds
    since the epoch): a younger one may be another process's write in progress. The ones
    removed."""
    removed = []
    for name in names_in(folder, root):
        path = Path(folder) / name
        if not (name.startswith(".") and name.endswith(TMP)):
            continue
        with contextlib.suppress(OSError):
            found = file_stat(path, root)
            if stat.S_ISREG(found.st_mode) and now - found.st_mtime > older_than:
                remove(path, root)
                removed.append(path)
    return removed


def symlinked_root(folder: Path) -> str | None:
    """A line for the log when a configured folder is itself a symlink (the judgekeeper's choice,
    followed), None when it is not."""
    if not Path(folder).is_symlink():
        return None
    return (f"{folder} is a symlink to {os.path.realpath(folder)}: followed, as configured; "
            "no symlink inside it is")


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def check_game_name(name: str) -> str:
    if not GAME_NAME.fullmatch(name):
        raise ValueError(f"bad game name {name!r}: use 1 to {GAME_NAME_LONGEST} of a-z, 0-9, _ and - (not first)")
    return name


class GameDir:
    """One game's folder, used only while its lock is held. Its files are reached from the games
    folder, none through a symlink (the game's folder included)."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.name
        self.root = path.parent
        self.encoding: str | None = None  # the status file's, once read (`status_encoding`)

    @property
    def status_path(self) -> Path:
        return self.path / STATUS

    def read_status(self) -> str:
        """The status file's text: UTF-8, else latin-1 (as DPjudge wrote it); the encoding is
        kept, and the file written back in it."""
        text, self.encoding = decode_status(read_bytes(self.status_path, self.root))
        return text

    def status_bytes(self) -> bytes:
        return read_bytes(self.status_path, self.root)

    def status_encoding(self) -> str:
        """The encoding the status file is in (UTF-8 for a new game): its snapshots and its next
        version are written in it whenever every character fits."""
        if self.encoding is None:
            try:
                self.encoding = decode_status(self.status_bytes())[1]
            except FileNotFoundError:
                self.encoding = UTF8
        return self.encoding

    def write_status(self, text: str) -> None:
        atomic_write(self.status_path, encode_status(text, self.status_encoding()), root=self.root)

    @property
    def state_path(self) -> Path:
        return self.path / STATE

    def read_state(self) -> str:
        """The state file's text; empty when there is none (nothing kept)."""
        try:
            return read_text(self.state_path, self.root)
        except FileNotFoundError:
            return ""

    def write_state(self, text: str) -> None:
        """Replace the state file atomically; empty text (nothing kept) removes it."""
        if text:
            atomic_write(self.state_path, text.encode("utf-8"), root=self.root)
        elif self.has(STATE):
            remove(self.state_path, self.root, missing_ok=True)
            fsync_dir(self.path)

    def has(self, name: str) -> bool:
        """Whether the folder holds a file `name` (a symlink there counts: it is refused on use)."""
        try:
            file_stat(self.path / name, self.root)
        except (FileNotFoundError, NotADirectoryError):
            return False
        return True

    def snapshot(self, phase_abbrev: str, text: str) -> Path:
        """Keep the status as it was before processing `phase_abbrev` (status.S1901M)."""
        path = self.path / f"{STATUS}.{phase_abbrev}"
        atomic_write(path, encode_status(text, self.status_encoding()), root=self.root)
        return path

    def snapshots(self) -> list[str]:
        """Phase abbreviations with a snapshot, oldest first by file time, then name."""
        found = []
        with folder_fd(self.path, self.root) as folder:  # (one folder, reached once)
            for name in os.listdir(folder):
                if name.startswith(f"{STATUS}.") and not name.endswith(".tmp"):
                    with contextlib.suppress(FileNotFoundError):
                        made = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mtime_ns
                        found.append((made, name))
        return [name.split(".", 1)[1] for _, name in sorted(found)]

    def has_snapshot(self, phase_abbrev: str) -> bool:
        return self.has(f"{STATUS}.{phase_abbrev}")

    def drop_snapshot(self, phase_abbrev: str) -> None:
        remove(self.path / f"{STATUS}.{phase_abbrev}", self.root, missing_ok=True)

    def read_snapshot(self, phase_abbrev: str) -> str:
        name = f"{STATUS}.{phase_abbrev}"
        try:
            data = read_bytes(self.path / name, self.root)
        except FileNotFoundError:
            raise LookupError(f"game {self.name} has no snapshot of {phase_abbrev}") from None
        return decode_status(data)[0]

    def append_results(self, text: str) -> None:
        """Add entries to the results archive; an append of whole lines, fsynced, in the archive's
        own encoding (DPjudge's latin-1 stays latin-1). An archive in latin-1 that the text does
        not fit is rewritten in UTF-8 first, atomically."""
        text = text if text.endswith("\n") else text + "\n"
        path = self.path / RESULTS
        try:
            data = text.encode(self.results_encoding())
        except UnicodeEncodeError:  # a latin-1 archive the text does not fit: all of it in UTF-8
            atomic_write(path, (self.read_results() + text).encode(UTF8), root=self.root)
            return
        append_bytes(path, data, self.root)

    def read_results(self) -> str:
        """The results archive's text (UTF-8, or latin-1 as DPjudge wrote it); empty when none."""
        try:
            return decode_status(read_bytes(self.path / RESULTS, self.root))[0]
        except FileNotFoundError:
            return ""

    def results_encoding(self) -> str:
        """The archive's encoding, read as a status file's is (UTF-8 for a new archive)."""
        try:
            return decode_status(read_bytes(self.path / RESULTS, self.root))[1]
        except FileNotFoundError:
            return UTF8

    def results_length(self, text: str) -> int:
        """The length in bytes `text`, a beginning of the archive, has in the archive's file."""
        return len(text.encode(self.results_encoding()))

    def results_size(self) -> int:
        """The results archive's length in bytes (0 when there is none yet)."""
        try:
            return file_stat(self.path / RESULTS, self.root).st_size
        except FileNotFoundError:
            return 0

    def read_rolled_back(self) -> str | None:
        """The archive as it was before the first rollback since the game last moved on (what a
        ROLLFORWARD takes its entries back from); None when there is none."""
        try:
            return decode_status(read_bytes(self.path / ROLLED_BACK, self.root))[0]
        except FileNotFoundError:
            return None

    def keep_rolled_back(self) -> None:
        """Before a rollback cuts the archive: keep it whole, unless a rollback kept it already."""
        if not self.has(ROLLED_BACK) and self.has(RESULTS):
            atomic_write(self.path / ROLLED_BACK, read_bytes(self.path / RESULTS, self.root),
                         root=self.root)

    def drop_rolled_back(self) -> None:
        remove(self.path / ROLLED_BACK, self.root, missing_ok=True)

    def cut_results(self, length: int) -> None:
        truncate(self.path / RESULTS, length, self.root)

    def lists_size(self) -> int:
        """The Crystal Ball lists file's length in bytes (0 when there is none yet)."""
        try:
            return file_stat(self.path / LISTS, self.root).st_size
        except FileNotFoundError:
            return 0

    def read_lists(self) -> str:
        """The Crystal Ball lists file's text (UTF-8, or latin-1 as DPjudge wrote it); empty when
        there is none."""
        try:
            return decode_status(read_bytes(self.path / LISTS, self.root))[0]
        except FileNotFoundError:
            return ""

    def keep_lists(self, length: int, text: str) -> None:
        """The lists file cut to `length` bytes, then `text` added: what a crash wrote of it
        before goes first. (DPjudge writes latin-1; the lines are the map's names and orders,
        ASCII on every map, written here as UTF-8.)"""
        if self.lists_size() > length:
            truncate(self.path / LISTS, length, self.root)
        append_bytes(self.path / LISTS, text.encode(UTF8), self.root)


class GameStore:
    """All games under one folder (itself possibly a symlink: a judgekeeper's choice)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        # a game's thread lock lives while a thread holds or waits for it, then is dropped: a
        # judge that opens every game keeps no lock per game (the one writer is the lock's holder)
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()

    def names(self) -> list[str]:
        """The games: each a real folder (a symlink is no game) with a status file."""
        return sorted(name for name in self._with_status() if GAME_NAME.fullmatch(name))

    def misnamed(self) -> list[str]:
        """The folders with a status file that are left alone because their name is no game's
        (too long, or a character a game's name does not have); hidden folders are not counted."""
        return sorted(name for name in self._with_status()
                      if not GAME_NAME.fullmatch(name) and not name.startswith("."))

    def _with_status(self) -> list[str]:
        try:
            entries = list(os.scandir(self.root))
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [e.name for e in entries
                if e.is_dir(follow_symlinks=False) and GameDir(Path(e.path)).has(STATUS)]

    def remove_stale_tmp(self, now: float, older_than: float = STALE_TMP_SECONDS) -> list[Path]:
        """`remove_stale_tmp` of the games folder and of each folder in it (the games', their
        journals' and receipts'), none reached through a symlink."""
        try:
            entries = list(os.scandir(self.root))
        except (FileNotFoundError, NotADirectoryError):
            return []
        folders = [self.root, *(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))]
        return [tmp for folder in folders
                for tmp in remove_stale_tmp(folder, now, older_than, self.root)]

    def exists(self, name: str) -> bool:
        path = self.root / check_game_name(name)
        return os.path.lexists(path) and (path.is_symlink() or GameDir(path).has(STATUS))

    def create(self, name: str, status_text: str, state_text: str = "") -> None:
        """Make a new game folder with its first status (and state file, written first, so the game
        never shows without it); fails if the game exists."""
        check_game_name(name)
        self.root.mkdir(parents=True, exist_ok=True)
        make_folder(self.root / name, self.root)
        with self.locked(name) as game:
            if game.has(STATUS):
                raise FileExistsError(f"game {name} already exists")
            game.write_state(state_text)
            game.write_status(status_text)

    def _thread_lock(self, name: str) -> threading.Lock:
        with self._locks_guard:
            lock = self._locks.get(name)
            if lock is None:
                lock = self._locks[name] = threading.Lock()
            return lock

    @contextmanager
    def _held(self, name: str, folder: Path) -> Iterator[None]:
        """A thread lock for this process and flock for other processes, on `folder`'s lock."""
        with self._thread_lock(name):
            with open(open_file(folder / LOCK, os.O_RDWR | os.O_CREAT, self.root), "r+b") as handle:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    @contextmanager
    def locked(self, name: str) -> Iterator[GameDir]:
        """Hold the game's lock: a thread lock for this process and flock for other processes.
        LookupError when there is no such game; PathRefused when its folder is a symlink."""
        path = self.root / check_game_name(name)
        if not path.is_dir() and not path.is_symlink():  # a symlink: refused, not missing
            raise LookupError(f"no game {name} in {self.root}")
        with self._held(name, path):
            yield GameDir(path)

    @contextmanager
    def judge_wide(self) -> Iterator[Path]:
        """Hold the lock of the files at the games' root that any game's mail may change (taken
        inside a game's lock, never the other way round); the root."""
        self.root.mkdir(parents=True, exist_ok=True)
        with self._held("", self.root):  # "": no game's name
            yield self.root
