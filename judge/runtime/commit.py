"""The one writer of a game: whatever a mail, the cycle, the shell or the web did to a game is
written here, and nowhere else.

`commit` writes a `Change` (a mail's, the shell's, a web form's): the wrong passwords counted, the
game made (`create`, which `judge new` uses too), purged, renamed, its state file, and its new
status through `write_outcome`.
`write_outcome` (a change's, and the tick's) writes the new status with what goes with it: the
snapshot of the status before a phase was processed (`status.FORMING` before the game started),
the results archive's new entries (`judge.game.archive`, DPjudge's layout), the mails the change
calls for and the mail's receipt, as one entry of the game's journal (`judge.runtime.journal`),
so that a crash at any instant leaves the status before or after it, with the archive, the mails
and the receipt to match. The press a change sent is kept for the game's pages in the same journal
entry (`judge.runtime.press_file`); a mail that only sent press writes that entry alone, the status
left as it is. Processing a phase drops the snapshots of later phases (left by a
rollback): what was rolled back cannot be rolled forward once the game has moved on.
`hold_in_await` keeps a game whose processing raised (a bug) in AWAIT, for the Master to see;
`hold_failed` does it for a game a mail or the shell holds, as the cycle does for a tick's.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from collections.abc import Sequence

from judge.commands import throttle
from judge.commands.change import Change
from judge.errors import StatusError
from judge.events import Event, GameStarted, PhaseResults, RolledBack
from judge.game.archive import cut_at, restated
from judge.game.standing import FREE, Standing, write_standing
from judge.maps.model import Map
from judge.phases import phase_key
from judge.runtime import journal, press_file
from judge.runtime.game_access import FAILURES, StoreGames
from judge.runtime.game_files import (
    FORMING,
    Action,
    Archive,
    IndexReader,
    archiver,
    forming_status,
    index_game,
    lists_entries,
    read_game,
    read_standing,
    snapshot_phases,
)
from judge.runtime.sender_history import created_games
from judge.runtime.store import GameDir, GameStore, atomic_write, fsync_dir, make_folder
from judge.runtime.store import rename as rename_path
from judge.status import parse_status, write_status
from judge.status.model import GameStatus, PhaseMode
from judge.timing import game_zone
from judge.timing.written import long_form
from judge.types import Phase

PURGED = ".purged"  # purged games are moved here, never deleted

def commit(games: StoreGames, change: Change, receipt: tuple[str, bytes] | None,
           now: datetime, mails: journal.Mails = (), deliver: journal.Deliver | None = None,
           env: Any = None) -> bool:
    """Write what a mail did: the wrong passwords it counted, then its game made, purged, or its
    state file (first) and status (through `write_outcome`: its snapshot, results archive and
    journal), renamed last; `receipt` goes with the new status in its journal entry, else once the
    change is made. `mails`, of a change no mail asked for (the shell's), go with the new status
    in its journal entry, handed to `deliver`. False, with nothing of the mail's written, when the
    judge-wide count changed since the mail read it: the mail is run again. `env`: the templates
    the results archive is written with (default: compiled anew)."""
    if change.judge_failures is not None \
            and not games.swap_judge_password_failures(*change.judge_failures):
        return False
    for looked_at, table in change.failures.items():
        if looked_at in games.held:  # a game only looked at keeps no count
            game = games.held[looked_at]
            atomic_write(game.path / FAILURES, throttle.to_json(table).encode(), root=game.root)
    name, status, root = change.game, change.status, games.store.root
    if name is None or status is None or not change.writes_game:
        return True
    if change.create:
        with created_games(root).updating(change.creator, now) as created:
            created.append((now, name))
        create(games.store, name, status, change.standing, games.index)
    elif change.purge:
        purge(root, games.held[name].path, now.strftime("%Y%m%d%H%M%S"))
        index_game(games.held[name], None, index=games.index)
    else:
        game = games.held[name]
        press = (press_file.records_of(game, change.events, now), games.settings.press_kept_per_game)
        if change.new_standing:
            game.write_state(write_standing(change.standing))
        if change.new_status and change.map is not None:  # (a rename: the receipt once the folder is moved)
            with_change = None if change.rename_to else receipt
            write_outcome(game, change.before, change.map, status, change.events, mails, deliver,
                           receipt=with_change, now=now,
                           archive=archiver(games.settings.judge_id, games.settings.address, env),
                           standing=change.standing, games_index=games.index, press=press)
            receipt = None if with_change else receipt
        elif press[0]:
            journal.complete(game, journal.write(game, None, "", mails, receipt, press=press), deliver)
            receipt = None
        if change.rename_to:
            rename(game, change.rename_to)
            index_game(GameDir(root / change.rename_to), status, change.standing,
                               old_name=name, index=games.index)
        elif change.new_standing:
            index_game(game, status, change.standing, index=games.index)
    if receipt is not None:
        journal.write_receipt(root, *receipt)
    return True


def create(store: GameStore, name: str, status: GameStatus, standing: Standing = FREE,
           index: IndexReader | None = None) -> None:
    """A new game's folder: its state file and first status, then its line in the games index."""
    store.create(name, write_status(status), write_standing(standing))
    index_game(GameDir(store.root / name), status, standing, index=index)


def new_game(store: GameStore, name: str, map_name: str, master: str | None = None,
             password: str | None = None, lines: Sequence[str] = (), search: Sequence[Path] = ()
             ) -> GameStatus:
    """`judge new`: a forming game made (`game_files.forming_status`, its checks) and written."""
    status = forming_status(name, map_name, master, password, lines, search)
    create(store, name, status)
    return status


def purge(root: Path, path: Path, stamp: str) -> None:
    """Move a purged game's folder into `.purged/`: purged games are kept, never deleted."""
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


def write_outcome(game: GameDir, before_text: str, m: Map, after: GameStatus, events: Sequence[Event],
           mails: journal.Mails = (), deliver: journal.Deliver | None = None,
           snapshot: bool = True, receipt: tuple[str, bytes] | None = None, *,
           now: datetime | None = None, archive: Archive | None = None,
           standing: Standing | None = None, games_index: IndexReader | None = None,
           press: tuple[Sequence[dict], int] = ((), 0)) -> None:
    """Save an outcome: snapshots first, then the status, the results archive and the `mails`
    (handed to `deliver`) as one change (`judge.runtime.journal`). `snapshot`: keep the status
    before a phase's processing as its snapshot (False: a snapshot taken before is kept).
    `receipt`: the receipt of the mail that made the change, written with it. `archive` makes
    the archive's new entries (default: `archiver()`), dated `now`; a rollback cuts the archive
    before the phase rolled back to, as DPjudge does. `standing`: the game's state and listing
    as the change leaves them, for the games index; by default read before the status changes,
    since a games index's `waiting` means a vacancy or the Master's hold by the status it was
    written for (`judge.game.standing.indexed_standing`). `games_index`: the caller's kept
    games index (`IndexReader`), which the game's line is read and written through. `press`:
    the press records to keep with the change, and how many the game keeps at most."""
    if standing is None:
        standing = read_standing(game, index=games_index)
    if any(isinstance(e, GameStarted) for e in events):
        game.snapshot(FORMING, before_text)
    results = [e for e in events if isinstance(e, PhaseResults)]
    if results and snapshot:
        _keep_snapshot(game, m, results[0].phase, before_text)
    after_text = write_status(after)
    records = (archive or archiver())(after, m, events, now or datetime.now(UTC))
    rolled = [e for e in events if isinstance(e, RolledBack)]
    length, restored = None, ""
    if rolled:
        _keep_left_phase(game, rolled[-1], before_text)
        length, restored = _archive_after_roll(game, after.name or game.name, rolled[-1])
    elif results and records:
        length, restored = _deadline_restated(game, after, results[0])
    records = restored + records
    lists = lists_entries(after, m, events)
    if records or mails or receipt or length is not None or press[0] or lists:
        journal.complete(game, journal.write(game, after_text, records, mails, receipt, length,
                                             press, lists), deliver)
    else:
        game.write_status(after_text)
    if results:  # the game moved on: what was rolled back cannot come back
        game.drop_rolled_back()
    index_game(game, after, standing, index=games_index)


def _deadline_restated(game: GameDir, status: GameStatus, results: PhaseResults
                       ) -> tuple[int | None, str]:
    """The archive's last line rewritten to name the deadline the phase was processed under, when
    it names another (`judge.game.archive.restated`): (the bytes to keep, the text to append
    after them); (None, ""): the archive stays as it is."""
    deadline = results.processed_deadline
    if deadline is None:
        return None, ""
    found = restated(game.read_results(), long_form(deadline.astimezone(game_zone(status.zone))))
    if found is None:
        return None, ""
    kept, line = found
    return game.results_length(kept), line


def _keep_left_phase(game: GameDir, event: RolledBack, before_text: str) -> None:
    """A rollback keeps the game as it was as the snapshot of the phase it left (that phase's
    own snapshot, when the Master rolled back to it, stays)."""
    target = event.phase.abbrev if isinstance(event.phase, Phase) else FORMING
    if not event.forward and event.left and event.left != target:
        game.snapshot(event.left, before_text)


def _archive_after_roll(game: GameDir, name: str, event: RolledBack) -> tuple[int | None, str]:
    """What a rollback does to the archive: (the bytes to keep, the text to append after them).
    A rollback keeps the entries before the phase rolled back to (the whole archive kept first
    as `results.0`); a ROLLFORWARD takes the archive from `results.0` up to the phase rolled
    forward to. (None, ""): the archive stays as it is."""
    phase = event.phase.abbrev if isinstance(event.phase, Phase) else None
    if event.forward:
        whole = game.read_rolled_back()
        if whole is None or phase is None:
            return None, ""
        return 0, cut_at(whole, name, phase)
    game.keep_rolled_back()
    return game.results_length(cut_at(game.read_results(), name, phase) if phase else ""), ""


def _keep_snapshot(game: GameDir, m: Map, phase: Phase, text: str) -> None:
    game.snapshot(phase.abbrev, text)
    key = phase_key(m, phase)
    for abbrev, later in snapshot_phases(game, m):
        if isinstance(later, Phase) and phase_key(m, later) > key:
            game.drop_snapshot(abbrev)


def hold_in_await(game: GameDir, status: GameStatus) -> None:
    """The game as it was read, in AWAIT: its processing raised, and the Master (or the
    judgekeeper) decides what next (PROCESS! or ROLLBACK)."""
    game.write_status(write_status(replace(status, phase_mode=PhaseMode.AWAIT)))


def hold_failed(games: StoreGames, name: str) -> None:
    """`hold_in_await` for a game a door holds (a mail, the shell) whose processing raised
    (`judge.app.processing.ProcessingFailed`): its status as the door read it, nothing of the
    request's own written."""
    _, status = games.open(name)
    if isinstance(status.phase, Phase):
        hold_in_await(games.held[name], status)


def run(store: GameStore, name: str, action: Action, search: Sequence[Path] = ()) -> list[Event]:
    """Apply a pure `action(status, map) -> (status, events)` to the game (JOIN, RESIGN, a vote,
    a tick...) and save what it gives."""
    with store.locked(name) as game:
        text, status, m = read_game(game, search)
        new, events = action(status, m)
        write_outcome(game, text, m, new, events)
        return events
