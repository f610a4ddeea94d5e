"""The games as the commands see them, over `judge.runtime.store`: the inbox runner's read-only view.

Reading a game for LIST and the like takes no lock (status files are replaced atomically, so a
reader sees the old or the new one). A game whose files cannot be read (errors, a symlink, bytes
that are not UTF-8) is refused without a word of its files: whoever sent the mail may be a
stranger; its Master and the judgekeeper hear of it from the cycle (`judge.runtime.cycle`), once. The one
game a mail may change is locked when it is opened, its change a crash left in flight completed
(the one look at its journal), and read once; it stays locked until the view is closed, after the
runner (`judge.runtime.inbox`) has written what the mail did. The judge-wide count of wrong
passwords is the one thing a mail shares with every other: `swap_judge_password_failures` keeps
a mail's table only if nobody changed it since the mail read it.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Self, TypeVar

from judge.commands import throttle
from judge.commands.dispatch import game_signed_on, run_mail
from judge.commands.change import Change
from judge.commands.reply import Reply
from judge.commands.session import GameRead, NotReadAhead, ReadAhead, Refusal, Settings, read_creator
from judge.mailin.message import Incoming
from judge.errors import MapError, Problem, StateError, StatusError
from judge.runtime import game_files as persist
from judge.runtime.sender_history import created_games
from judge.game.games_index import IndexEntry, may_be_listed, may_be_unstarted
from judge.game.standing import Standing
from judge.maps import MapCache, load_map
from judge.maps.model import Map
from judge.status import parse_status
from judge.status.model import GameStatus
from judge.runtime.store import (
    GAME_NAME,
    STATUS,
    GameDir,
    GameStore,
    PathRefused,
    atomic_write,
    check_game_name,
    read_text,
)

log = logging.getLogger("judge.commands")

# wrong passwords (throttle.py): by role in a game's folder, the judgekeeper's at the games' root
FAILURES = ".password-failures"


T = TypeVar("T")


class AnsweredBefore(Exception):
    """The mail's own change was still in flight (the judge stopped while writing it): completing
    it wrote the mail's receipt, which answers the mail (`judge.runtime.journal`)."""


class StoreGames:
    """`maps`: parsed maps kept by a long-lived caller between mails; `index`: DPjudge's games
    index, kept the same way (`game_files.IndexReader`). `receipt`: the name of the receipt of
    the mail being run, if its change may be in flight."""

    def __init__(self, store: GameStore, settings: Settings, maps: MapCache | None = None,
                 receipt: str | None = None, index: persist.IndexReader | None = None):
        self.store = store
        self.stack = ExitStack()
        self.held: dict[str, GameDir] = {}
        self.read: dict[str, tuple[str, GameStatus]] = {}  # the held games as read
        self.peeked: tuple[str, GameStatus] | None = None  # the last game looked at (a LIST's)
        self.maps = MapCache(settings.map_dirs) if maps is None else maps
        self.receipt = receipt
        self.settings = settings
        self.index = persist.IndexReader() if index is None else index

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    # -- reading -------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return self.store.names()

    def listable(self) -> list[str]:
        """The games a LIST of all games may show, by their lines in the games index (kept parsed
        between mails): the games it names active, completed or terminated are left unread."""
        return self._indexed(may_be_listed)

    def unstarted(self) -> list[str]:
        """The games that may not have started, by their lines in the games index."""
        return self._indexed(may_be_unstarted)

    def _indexed(self, keep: Callable[[IndexEntry | None], bool]) -> list[str]:
        entries = self.index(self.store.root)
        return [name for name in self.names() if keep(entries.get(name))]

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
            status = persist.read_status_file(GameDir(self.store.root / name), self.index)[1]
            self.peeked = (name, status)
            return status
        except (FileNotFoundError, NotADirectoryError):
            return None
        except StatusError as error:
            raise self._unreadable(name, "status", error) from None
        except OSError as error:  # a look changes nothing: no need to retry
            raise self._unreadable(name, "files", error) from None

    def open(self, name: str) -> tuple[str, GameStatus]:
        if name in self.read:
            return self.read[name]
        if name not in self.held:
            try:
                self.held[name] = self.stack.enter_context(self.store.locked(name))
            except ValueError:
                raise LookupError(name) from None
            except PathRefused as error:
                raise self._unreadable(name, "files", error) from None
        game = self.held[name]
        # a change a crash left in flight, completed first; a journal folder that cannot be used
        # is the judge's trouble, not the game's: the mail is tried again later (an OSError)
        completed = persist.journal.replay(game)
        if completed is not None and completed == self.receipt:
            raise AnsweredBefore(completed)
        try:
            self.read[name] = persist.read_status_file(game, self.index)
        except FileNotFoundError:
            raise LookupError(name) from None
        except StatusError as error:
            raise self._unreadable(name, "status", error) from None
        except PathRefused as error:
            raise self._unreadable(name, "files", error) from None
        return self.read[name]

    def standing(self, name: str) -> Standing:
        game = self.held.get(name) or GameDir(self.store.root / check_game_name(name))
        try:
            return persist.read_standing(game, self._as_read(name), self.index)
        except (StateError, StatusError, OSError, ValueError) as error:
            raise self._unreadable(name, "state", error) from None

    def _as_read(self, name: str) -> GameStatus | None:
        """The game's status as this mail last read it, if it did."""
        if name in self.read:
            return self.read[name][1]
        return self.peeked[1] if self.peeked is not None and self.peeked[0] == name else None

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
        return self.maps.get(status.map_name, status.morphs if morphs is None else morphs)

    def check_map(self, status: GameStatus, morphs: tuple[str, ...] | None = None) -> Map:
        # not put in the cache: a stranger's maps would push out the maps of the games in play
        limit = self.settings.map_parse_milliseconds
        began = time.process_time()
        m = load_map(status.map_name, self.maps.search, status.morphs if morphs is None else morphs,
                     paths=False, bounds=self.settings.map_bounds)
        spent = (time.process_time() - began) * 1000
        if spent > limit:
            raise MapError([Problem(m.name, 0, f"the map took {spent:.0f} ms of CPU to read, more "
                                               f"than this judge allows ({limit} ms)")])
        return m

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

    def judge_password_failures(self) -> throttle.Failures:
        return read_failures(self.store.root, self.store.root)

    def games_created(self, sender: str, now: datetime) -> int:
        return len(created_games(self.store.root).read(sender, now))

    def read_for(self, ahead: ReadAhead, name: str | None) -> ReadAhead:
        """`ahead` with the game `name` read as a mail that takes it needs it (opened, locked,
        as `open` does) and the judge-wide wrong passwords, if not read yet."""
        games = dict(ahead.games)
        if name is not None:
            games[name] = self.game_read(name)
        wide = self.judge_password_failures() if ahead.judge_failures is None else ahead.judge_failures
        return replace(ahead, games=games, judge_failures=wide)

    def read_needed(self, ahead: ReadAhead, needed: NotReadAhead, sender: str, now: datetime
                    ) -> ReadAhead:
        """`ahead` with what a mail of `sender` at `now` found it needs (`needed`) read too."""
        if needed.taken is not None:
            ahead = replace(ahead, taken={**ahead.taken, needed.taken: self.exists(needed.taken)})
        if needed.creator:
            ahead = replace(ahead, creator=read_creator(self, sender, now))
        if needed.taken is not None or needed.creator:
            return ahead
        return self.read_for(ahead, needed.name)

    def game_read(self, name: str) -> GameRead:
        try:
            opened = self.open(name)
        except (LookupError, Refusal) as error:  # told by the command that takes the game
            return GameRead(error)
        try:
            standing: Standing | Refusal = self.standing(name)
        except Refusal as refusal:
            standing = refusal
        return GameRead(opened, standing, self.password_failures(name))

    # -- the judge-wide count, at the runner's commit ------------------------------------------
    def update_judge_password_failures(
            self, change: Callable[[throttle.Failures], tuple[throttle.Failures, T]]) -> T:
        """Keep the table `change` makes of the judge-wide failures as they stand, with no other
        change between (other mails, other processes count them too); what else `change`
        returns."""
        with self.store.judge_wide() as root:
            failures, result = change(read_failures(root, root))
            atomic_write(root / FAILURES, throttle.to_json(failures).encode(), root=root)
        return result

    def swap_judge_password_failures(self, read: throttle.Failures, kept: throttle.Failures
                                     ) -> bool:
        """Keep `kept` as the judge-wide failures if they still stand as `read`; whether they
        did (if not, they are left as they are)."""
        return self.update_judge_password_failures(
            lambda now: (kept, True) if now == read else (now, False))


def read_failures(folder: Path, root: Path) -> throttle.Failures:
    """The wrong passwords kept in `folder` (a game's, or the games' root for the judge-wide
    ones; no symlink below `root` followed); none when the file cannot be read (it is only a
    throttle)."""
    try:
        return throttle.from_json(read_text(folder / FAILURES, root))
    except (OSError, ValueError):
        return {}


def run_read_ahead(incoming: Incoming, games: StoreGames, settings: Settings, now: datetime
                   ) -> tuple[Reply | None, list[object], Change]:
    """`run_mail` with what the mail's commands read of the games read ahead, so that the commands
    call nothing of this layer's: the game of the mail's first SIGNON and the judge-wide wrong
    passwords before it runs (an orders mail runs once); each time the commands need more (a mail
    that begins otherwise), it is read and the mail run again."""
    signed_on = game_signed_on(incoming, settings)
    ahead = ReadAhead() if signed_on is None else games.read_for(ReadAhead(), signed_on)
    while True:
        try:
            return run_mail(incoming, games, settings, now, ahead)
        except NotReadAhead as needed:
            ahead = games.read_needed(ahead, needed, incoming.sender, now)
