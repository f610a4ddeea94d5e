"""Game directories on disk: one lock per game, atomic status writes, per-phase snapshots, results log.

A game is `games/<name>/` holding `status` (the truth), `status.<S1901M>` snapshots taken before each
processing (so any phase can be rolled back to), `results` (every phase's results, appended), and
`state` when the game has a state or a listing the status file cannot keep (`judge.game.state`).
Mail, the scheduler and the CLI all go through `GameStore.locked`, so they never interleave; a crash at
any instant leaves the old or the new status, never a torn one.
"""
from __future__ import annotations

import fcntl
import os
import re
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

GAME_NAME = re.compile(r"[a-z0-9_-]{1,40}")
STATUS = "status"
STATE = "state"
RESULTS = "results"
LOCK = ".lock"


def atomic_write(path: Path, data: bytes, *, sync_folder: bool = True) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new content, never a mix.
    `sync_folder=False`: the caller fsyncs the folder itself (once for several files), and the
    new name is durable only then."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    if sync_folder:
        fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def check_game_name(name: str) -> str:
    if not GAME_NAME.fullmatch(name):
        raise ValueError(f"bad game name {name!r}: use 1 to 40 of a-z, 0-9, _ and -")
    return name


class GameDir:
    """One game's folder, used only while its lock is held."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.name

    @property
    def status_path(self) -> Path:
        return self.path / STATUS

    def read_status(self) -> str:
        return self.status_path.read_text(encoding="utf-8")

    def write_status(self, text: str) -> None:
        atomic_write(self.status_path, text.encode("utf-8"))

    @property
    def state_path(self) -> Path:
        return self.path / STATE

    def read_state(self) -> str:
        """The state file's text; empty when there is none (nothing kept)."""
        try:
            return self.state_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""

    def write_state(self, text: str) -> None:
        """Replace the state file atomically; empty text (nothing kept) removes it."""
        if text:
            atomic_write(self.state_path, text.encode("utf-8"))
        elif self.state_path.exists():
            self.state_path.unlink()
            fsync_dir(self.path)

    def snapshot(self, phase_abbrev: str, text: str) -> Path:
        """Keep the status as it was before processing `phase_abbrev` (status.S1901M)."""
        path = self.path / f"{STATUS}.{phase_abbrev}"
        atomic_write(path, text.encode("utf-8"))
        return path

    def snapshots(self) -> list[str]:
        """Phase abbreviations with a snapshot, oldest first by file time, then name."""
        found = [p for p in self.path.glob(f"{STATUS}.*") if not p.name.endswith(".tmp")]
        found.sort(key=lambda p: (p.stat().st_mtime_ns, p.name))
        return [p.name.split(".", 1)[1] for p in found]

    def read_snapshot(self, phase_abbrev: str) -> str:
        path = self.path / f"{STATUS}.{phase_abbrev}"
        if not path.is_file():
            raise LookupError(f"game {self.name} has no snapshot of {phase_abbrev}")
        return path.read_text(encoding="utf-8")

    def append_results(self, text: str) -> None:
        """Add a phase's results to the log; an append of whole lines, fsynced."""
        with open(self.path / RESULTS, "a", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def read_results(self) -> str:
        path = self.path / RESULTS
        return path.read_text(encoding="utf-8") if path.is_file() else ""


class GameStore:
    """All games under one folder."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir()
                      if (p / STATUS).is_file() and GAME_NAME.fullmatch(p.name))

    def exists(self, name: str) -> bool:
        return (self.root / check_game_name(name) / STATUS).is_file()

    def create(self, name: str, status_text: str, state_text: str = "") -> None:
        """Make a new game folder with its first status (and state file, written first, so the game
        never shows without it); fails if the game exists."""
        path = self.root / check_game_name(name)
        self.root.mkdir(parents=True, exist_ok=True)
        path.mkdir(exist_ok=True)
        with self.locked(name) as game:
            if game.status_path.exists():
                raise FileExistsError(f"game {name} already exists")
            game.write_state(state_text)
            game.write_status(status_text)

    def _thread_lock(self, name: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(name, threading.Lock())

    @contextmanager
    def _held(self, name: str, folder: Path) -> Iterator[None]:
        """A thread lock for this process and flock for other processes, on `folder`'s lock."""
        with self._thread_lock(name):
            with open(folder / LOCK, "a+b") as handle:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    @contextmanager
    def locked(self, name: str) -> Iterator[GameDir]:
        """Hold the game's lock."""
        path = self.root / check_game_name(name)
        if not path.is_dir():
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
