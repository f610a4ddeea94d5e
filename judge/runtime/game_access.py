"""The games as the commands see them, over `judge.runtime.store`: the dispatcher's I/O adapter.

Reading a game for LIST and the like takes no lock (status files are replaced atomically, so a
reader sees the old or the new one). A game whose files cannot be read (errors, a symlink, bytes
that are not UTF-8) is refused without a word of its files: whoever sent the mail may be a
stranger; its Master and the judgekeeper hear of it from the cycle (`judge.runtime.cycle`), once. The one game a mail may change is locked when it is opened and
stays locked until `commit` has written it (its state file first, when its state or listing
changed; `judge.game.state`), through the game's life's own `persist.commit` (so a
phase processed by mail leaves its snapshot and its results, as `judge process` does).
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Self, TypeVar

from judge.commands import throttle
from judge.commands.dispatch import after_change, judge_moves, make_reply, run_commands
from judge.commands.results import Reply
from judge.commands.session import Refusal, Session, Settings
from judge.errors import StateError, StatusError
from judge.mailin.message import Incoming
from judge.runtime import game_files as persist
from judge.game.state import Standing, write_standing
from judge.maps import load_map
from judge.maps.model import Map
from judge.status import parse_status, write_status
from judge.status.model import GameStatus
from judge.runtime.store import (
    GAME_NAME,
    STATUS,
    GameDir,
    GameStore,
    PathRefused,
    atomic_write,
    check_game_name,
    fsync_dir,
    make_folder,
    read_text,
)
from judge.runtime.store import rename as rename_path

log = logging.getLogger("judge.commands")

PURGED = ".purged"  # purged games are moved here, never deleted
# wrong passwords (throttle.py): by role in a game's folder, the judgekeeper's at the games' root
FAILURES = ".password-failures"


T = TypeVar("T")
MapCache = dict[tuple[str, tuple[str, ...]], Map]
MAX_MAPS = 32  # parsed maps a long-lived caller keeps (a map with a game's MORPH lines is one)


class StoreGames:
    """`maps`: parsed maps by (name, MORPH lines), kept by a long-lived caller between mails (a map
    file changed on disk is read again only when the judge restarts)."""

    def __init__(self, store: GameStore, settings: Settings, maps: MapCache | None = None):
        self.store = store
        self.search = settings.map_dirs
        self.stack = ExitStack()
        self.held: dict[str, GameDir] = {}
        self.maps: MapCache = {} if maps is None else maps

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    # -- reading -------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return self.store.names()

    def exists(self, name: str) -> bool:
        try:
            return self.store.exists(name)
        except ValueError:
            return False

    def peek(self, name: str) -> GameStatus | None:
        """The game for a look (LIST, SUMMARY...): None when there is none; a Refusal that quotes
        nothing of it when it cannot be read."""
        if not GAME_NAME.fullmatch(name):
            return None
        try:
            text = GameDir(self.store.root / name).read_status()
        except (FileNotFoundError, NotADirectoryError):
            return None
        except StatusError as error:
            raise self._unreadable(name, "status", error) from None
        except OSError as error:  # a look changes nothing: no need to retry
            raise self._unreadable(name, "files", error) from None
        return self._parse(name, text)

    def open(self, name: str) -> tuple[str, GameStatus]:
        if name not in self.held:
            try:
                self.held[name] = self.stack.enter_context(self.store.locked(name))
            except ValueError:
                raise LookupError(name) from None
            except PathRefused as error:
                raise self._unreadable(name, "files", error) from None
        game = self.held[name]
        try:
            persist.journal.replay(game)  # a change a crash left in flight, completed first
            text = game.read_status()
        except FileNotFoundError:
            raise LookupError(name) from None
        except StatusError as error:
            raise self._unreadable(name, "status", error) from None
        except PathRefused as error:
            raise self._unreadable(name, "files", error) from None
        return text, self._parse(name, text)

    def standing(self, name: str) -> Standing:
        game = self.held.get(name) or GameDir(self.store.root / check_game_name(name))
        try:
            return persist.read_standing(game)
        except (StateError, OSError, ValueError) as error:
            raise self._unreadable(name, "state", error) from None

    def _parse(self, name: str, text: str) -> GameStatus:
        try:
            return parse_status(text, f"{name}/{STATUS}")
        except StatusError as error:
            raise self._unreadable(name, "status", error) from None

    @staticmethod
    def _unreadable(name: str, what: str, error: Exception) -> Refusal:
        """The refusal for a game whose `what` (status or state file, results, files) cannot be
        read, logged here; none of it is told to the sender (the cycle tells the game's Master and
        the judgekeeper of a broken game)."""
        log.warning("game %s: its %s cannot be read, the mail is refused: %s", name, what,
                    str(error).splitlines()[0] if str(error) else repr(error))
        if what == "files":
            return Refusal(f"the files of game '{name}' cannot be used; the judgekeeper is told")
        if what == "results":
            return Refusal(f"the results of game '{name}' cannot be read just now")
        return Refusal(f"the {what} file of game '{name}' has errors; its Master and the "
                       "judgekeeper are told of them")

    def results_text(self, name: str) -> str:
        try:
            return GameDir(self.store.root / check_game_name(name)).read_results()
        except (OSError, ValueError) as error:  # a look changes nothing: no need to retry
            raise self._unreadable(name, "results", error) from None

    def snapshots(self, name: str) -> list[tuple[str, GameStatus]]:
        game = GameDir(self.store.root / check_game_name(name))
        found = []
        for abbrev in game.snapshots():
            try:
                found.append((abbrev, parse_status(game.read_snapshot(abbrev))))
            except (StatusError, LookupError, OSError):
                continue
        return found

    def load_map(self, status: GameStatus, morphs: tuple[str, ...] | None = None) -> Map:
        key = (status.map_name, status.morphs if morphs is None else morphs)
        if key not in self.maps:
            while len(self.maps) >= MAX_MAPS:
                del self.maps[next(iter(self.maps))]
            self.maps[key] = load_map(key[0], self.search, morphs=key[1], paths=False)
        return self.maps[key]

    def snapshot_for(self, name: str, status: GameStatus, m: Map, phase: str | None,
                     forward: bool) -> GameStatus:
        game = self.held[name]
        target = persist.rollback_target(game, m, status, phase, forward)
        return parse_status(game.read_snapshot(target), f"{name}/{STATUS}.{target}")

    def password_failures(self, name: str) -> throttle.Failures:
        if name not in self.held:
            return {}
        game = self.held[name]
        return read_failures(game.path, game.root)

    def save_password_failures(self, name: str, failures: throttle.Failures) -> None:
        if name in self.held:
            game = self.held[name]
            atomic_write(game.path / FAILURES, throttle.to_json(failures).encode(), root=game.root)

    def judge_password_failures(self) -> throttle.Failures:
        return read_failures(self.store.root, self.store.root)

    def update_judge_password_failures(
            self, change: Callable[[throttle.Failures], tuple[throttle.Failures, T]]) -> T:
        with self.store.judge_wide() as root:
            failures, result = change(read_failures(root, root))
            atomic_write(root / FAILURES, throttle.to_json(failures).encode(), root=root)
        return result

    # -- writing -------------------------------------------------------------------------------
    @staticmethod
    def changes(session: Session) -> bool:
        """Whether `commit` has anything of the mail's to write."""
        if session.game is None or session.status is None:
            return False
        return (session.create or session.purge or bool(session.rename_to)
                or session.standing != session.original_standing
                or session.status != session.original)

    def commit(self, session: Session, receipt: tuple[str, bytes] | None = None) -> None:
        """Write what the mail did to its game (create, purge, rename or a new status), and the
        mail's `receipt` (`judge.runtime.journal`): with a new status, as part of that change; after
        the other changes, as soon as they are made."""
        name, status = session.game, session.status
        if name is None or status is None:
            return
        if session.create:
            self.store.create(name, write_status(status), write_standing(session.standing))
        elif session.purge:
            purge(self.store.root, self.held[name].path, session.now.strftime("%Y%m%d%H%M%S"))
        else:
            game = self.held[name]
            if session.standing != session.original_standing:
                game.write_state(write_standing(session.standing))
            if status != session.original:  # (a rename: the receipt once the folder is moved)
                with_change = None if session.rename_to else receipt
                persist.commit(game, session.snapshot_text or session.loaded_text,
                               session.base_map, status, session.events, receipt=with_change)
                receipt = None if with_change else receipt
            if session.rename_to:
                rename(game, session.rename_to)
        if receipt is not None:
            persist.journal.write_receipt(self.store.root, *receipt)


def read_failures(folder: Path, root: Path) -> throttle.Failures:
    """The wrong passwords kept in `folder` (a game's, or the games' root for the judge-wide
    ones; no symlink below `root` followed); none when the file cannot be read (it is only a
    throttle)."""
    try:
        return throttle.from_json(read_text(folder / FAILURES, root))
    except (OSError, ValueError):
        return {}


def purge(root: Path, path: Path, stamp: str) -> None:
    folder = root / PURGED
    make_folder(folder, root)
    rename_path(path, folder / f"{path.name}-{stamp}", root)
    fsync_dir(root)


def rename(game: GameDir, new: str) -> None:
    """Move the game's folder to its new name; the snapshots get the new GAME line too."""
    target = game.path.parent / new
    rename_path(game.path, target, game.root)
    fsync_dir(game.path.parent)
    moved = GameDir(target)
    for abbrev in moved.snapshots():
        try:
            snapshot = parse_status(moved.read_snapshot(abbrev))
        except StatusError:
            continue
        moved.snapshot(abbrev, write_status(replace(snapshot, name=new)))


Seal = Callable[[Reply, list[object], dict[str, GameStatus | None]], tuple[str, bytes]]


def handle_incoming(incoming: Incoming, store: GameStore, settings: Settings, now: datetime,
                    maps: MapCache | None = None, seal: Seal | None = None
                    ) -> tuple[Reply | None, list[object]]:
    """Carry out one mail's commands; the reply (None for mail never to be answered) and the events
    for others. The changed game is written before this returns. `maps`: a cache of parsed maps
    the caller keeps between mails. `seal(reply, events, after)`, when the mail changes a game, is
    called before the change is written, with the game's status after the change by name (None:
    purged, or renamed away): the mail's receipt it returns is written with the change
    (`StoreGames.commit`)."""
    if incoming.automatic or not incoming.sender or incoming.sender == settings.address:
        return None, []
    with StoreGames(store, settings, maps) as games:
        session = Session(incoming.sender, now, settings, games)
        run_commands(session, incoming.lines)
        judge_moves(session)
        reply = make_reply(incoming, session)
        receipt = None
        if seal is not None and games.changes(session):
            receipt = seal(reply, session.events, after_change(session))
        games.commit(session, receipt)
    return reply, session.events
