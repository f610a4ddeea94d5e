"""A game on disk, read: its status file, map, state and listing, DPjudge's games index (kept
as each change leaves it), its snapshots and the one ROLLBACK goes to; and `judge new`'s forming
game. Every read under the game's lock first completes a change a crash interrupted. What a change
writes is written by the one writer, `judge.runtime.commit`.
"""
from __future__ import annotations

import fcntl
import os
from dataclasses import replace
from functools import lru_cache
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from judge.errors import StatusError
from judge.events import Event, GameCompleted, ListsPlayed, PhaseResults
from judge.game.archive import entry_text
from judge.runtime import journal
from judge.game.checkup import game_problems
from judge.game.seats import GameError
from judge.game.games_index import (
    INDEX_FILE,
    IndexEntry,
    entry_for,
    parse_index,
    write_index,
)
from judge.game.standing import FREE, Standing, indexed_standing, parse_standing
from judge.maps import MapCache
from judge.maps.model import Map, per_map
from judge.passwords import hash_password
from judge.phases import parse_phase, phase_key
from judge.status import apply_map_directives, parse_status
from judge.status.model import Dppd, GameStatus
from judge.runtime.store import (
    STATE,
    STATUS,
    GameDir,
    atomic_write,
    file_identity,
    open_file,
    read_bytes,
)
from judge.status.parser import LATIN1, decode_status, encode_status
from judge.types import Phase

FORMING = "FORMING"
INDEX_LOCK = ".status.lock"  # held while the games index is rewritten (games share it)
Action = Callable[[GameStatus, Map], tuple[GameStatus, list[Event]]]
Archive = Callable[[GameStatus, Map, Sequence[Event], datetime], str]  # see `archiver`


def game_map(status: GameStatus, search: Sequence[Path] = (), maps: MapCache | None = None) -> Map:
    """The game's map with its MORPH lines (the map of each phase is derived from it); from `maps`
    when a caller keeps parsed maps."""
    return (maps or MapCache(search)).get(status.map_name, status.morphs)


def read_status_file(game: GameDir, index: Callable[[Path], Mapping[str, IndexEntry]] | None = None
                     ) -> tuple[str, GameStatus]:
    """The game's status file: its text (UTF-8, else latin-1) and what it says (StatusError, with
    the file and line, when it does not parse), with the game's variant from the games index (read
    by `index`: `read_index` or an `IndexReader`). The one reader of a status file: the inbox
    runner, the cycle and the `judge` commands all read a game through it."""
    text = game.read_status()
    status = kept_status(text, f"{game.name}/{STATUS}")
    entry = (index or read_index)(game.root).get(game.name)
    if entry is not None and entry.variant != status.variant:
        status = replace(status, variant=entry.variant)
    return text, status


KEPT_STATUSES = 64  # status texts kept parsed: a game is read again by the step after the one that wrote it


def kept_status(text: str, file: str) -> GameStatus:
    """`parse_status(text, file)`, kept for the text: a game's status file is read by the mail or
    cycle that changes it, then again by the next, and the same text parses to the same value
    (an immutable one: shared). A text that does not parse is parsed again to name `file`."""
    try:
        return _parsed_status(text)
    except StatusError:
        return parse_status(text, file)


@lru_cache(maxsize=KEPT_STATUSES)
def _parsed_status(text: str) -> GameStatus:
    return parse_status(text)


def read_game(game: GameDir, search: Sequence[Path] = (), maps: MapCache | None = None,
              index: Callable[[Path], Mapping[str, IndexEntry]] | None = None
              ) -> tuple[str, GameStatus, Map]:
    """The status text, status and map of a game whose lock is held (a change a crash left in
    flight completed first)."""
    journal.replay(game)
    text, status = read_status_file(game, index)
    return text, status, game_map(status, search, maps)


def read_standing(game: GameDir, status: GameStatus | None = None,
                  index: Callable[[Path], Mapping[str, IndexEntry]] | None = None) -> Standing:
    """The game's state and listing from its state file (`judge.game.standing`; StateError), else,
    for a game DPjudge left, from the games index (`judge.game.games_index`, read by `index`:
    `read_index` or an `IndexReader`); `status`: the game's, when the caller has read it."""
    if game.has(STATE):
        return parse_standing(game.read_state(), f"{game.name}/{STATE}")
    entry = (index or read_index)(game.root).get(game.name)
    if entry is None:
        return FREE
    return indexed_standing(entry.state, entry.flags, status or read_status_file(game, index)[1])


def read_index(root: Path) -> dict[str, IndexEntry]:
    """DPjudge's games index in the games folder `root` (empty when there is none)."""
    try:
        return parse_index(decode_status(read_bytes(root / INDEX_FILE, root))[0])
    except FileNotFoundError:
        return {}


class IndexReader:
    """DPjudge's games index for a caller that reads many games or many mails (a cycle, the
    daemon's inbox runner): parsed again only when its file is not the one parsed last, by its
    identity (the judge only ever replaces it, `atomic_write`; a hand edit changes its size or
    modification time), and kept as `index_game` writes it, so that a game's change costs a
    `stat` of the index, not a parse of one line a game. What it gives is shared: never changed."""

    def __init__(self) -> None:
        self.kept: tuple[tuple[int, ...], Mapping[str, IndexEntry]] | None = None

    def __call__(self, root: Path) -> Mapping[str, IndexEntry]:
        seen = file_identity(root / INDEX_FILE)
        if seen is None:
            return {}
        kept = self.kept  # one look: a reader may be shared by threads
        if kept is None or kept[0] != seen:  # read after the look: a file replaced meanwhile is read again
            kept = self.kept = (seen, read_index(root))
        return kept[1]

    def wrote(self, root: Path, entries: Mapping[str, IndexEntry]) -> None:
        """The index was just written with `entries` (under its lock): kept, not read again."""
        seen = file_identity(root / INDEX_FILE)
        self.kept = None if seen is None else (seen, entries)


def index_game(game: GameDir, status: GameStatus | None, standing: Standing | None = None,
               old_name: str | None = None, index: IndexReader | None = None) -> None:
    """Keep the game's line of the games index as DPjudge writes it (None: the game is gone;
    `old_name`: its line before a rename, dropped). Written only when it changes. `index`: the
    caller's kept index, read through and kept as written."""
    root, reader = game.root, index or IndexReader()
    with open(open_file(root / INDEX_LOCK, os.O_RDWR | os.O_CREAT, root), "r+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        entries = reader(root)
        old = entries.get(old_name or game.name)
        line = None if status is None else entry_for(
            status, standing or read_standing(game, status, reader), old)
        if entries.get(game.name) == line and (old_name in (None, game.name) or old_name not in entries):
            return
        changed = {n: e for n, e in entries.items() if n != old_name}
        if line is None:
            changed.pop(game.name, None)
        else:
            changed[game.name] = line
        atomic_write(root / INDEX_FILE, encode_status(write_index(changed), LATIN1), root=root)
        reader.wrote(root, changed)


def forming_status(name: str, map_name: str, master: str | None = None,
                   password: str | None = None, lines: Sequence[str] = (),
                   search: Sequence[Path] = ()) -> GameStatus:
    """A new forming game's status: GAME, PHASE FORMING, MAP, MASTER, PASSWORD (hashed, as a
    mail's CREATE stores it), the given status lines, and the map's DIRECTIVES stanzas
    (StatusError with what would keep it from being played, `judge.game.checkup.game_problems`);
    `judge.runtime.commit.new_game` writes it."""
    head = [f"GAME {name}", "PHASE FORMING", f"MAP {map_name}"]
    if master:
        head.append(f"MASTER {Dppd('NO-ID', master, '')}")
    if password:
        head.append(f"PASSWORD {hash_password(password)}")  # stored as every command stores one
    text, file = "\n".join(head + list(lines)) + "\n", f"{name}/{STATUS}"
    status = parse_status(text, file)
    m = game_map(status, search)
    status = apply_map_directives(status, m.stanzas, file=m.name)
    problems = game_problems(status, m, text, file)
    if problems:
        raise StatusError(problems)
    return status


def archiver(judge_id: str = "LOCAL", address: str = "judge@localhost", env: Any = None,
             mailer: Any = None) -> Archive:
    """The results archive's entries for a change's events: its results and completion mails, as
    everyone is mailed them, each under a From line of the judge's `address` and the time of the
    change (`judge.game.archive`). `mailer`: the `judge.mailout.mailings.Mailer` that made the
    change's mails (their words are not made again); else one is made, with the templates `env`
    (made when first needed)."""
    def entries(status: GameStatus, m: Map, events: Sequence[Event], now: datetime) -> str:
        nonlocal env
        if not any(isinstance(e, (PhaseResults, GameCompleted)) for e in events):
            return ""
        from judge.mailout.mailings import Mailer
        from judge.mailout.render import bundled_environment

        if mailer is not None:
            mails = mailer.archived(events)
        else:
            env = env or bundled_environment()
            mails = Mailer(env, status, m, judge=judge_id).archived(events)
        return "".join(entry_text(address, now, subject, body) for subject, body in mails)
    return entries


def lists_entries(status: GameStatus, m: Map, events: Sequence[Event], env: Any = None) -> str:
    """What a change adds to a Crystal Ball game's lists file: each movement phase's locked lists
    as processing read them (none for another game)."""
    if not any(isinstance(e, ListsPlayed) for e in events):
        return ""
    from judge.mailout.mailings import Mailer
    from judge.mailout.render import bundled_environment

    return Mailer(env or bundled_environment(), status, m).lists_kept(events)


def snapshot_phases(game: GameDir, m: Map) -> list[tuple[str, Phase | str]]:
    """(name, phase) of every snapshot, in the order the phases are played (FORMING first)."""
    read = _snapshot_names(m)
    found: list[tuple[tuple[int, ...], str, Phase | str]] = []
    for abbrev in game.snapshots():
        known = read.get(abbrev)
        if known is None:
            known = read[abbrev] = _snapshot_name(m, abbrev)
        if known[1] is not None:
            found.append((known[0], abbrev, known[1]))
    found.sort(key=lambda item: item[0])
    return [(abbrev, phase) for _, abbrev, phase in found]


# a snapshot's name read once a map: a game lists its snapshots at every phase it processes
_snapshot_names = per_map(lambda m: dict[str, tuple[tuple[int, ...], "Phase | str | None"]]())


def _snapshot_name(m: Map, abbrev: str) -> tuple[tuple[int, ...], Phase | str | None]:
    """The phase a snapshot's name says (None: none of the map's) and its place in play order."""
    if abbrev == FORMING:
        return _order(m, FORMING), FORMING
    try:
        phase = parse_phase(m, abbrev)
    except ValueError:
        return (), None
    return _order(m, phase), phase


def _order(m: Map, phase: Phase | str | None) -> tuple[int, ...]:
    if phase == FORMING:
        return (0,)
    if isinstance(phase, Phase):
        return (1, *phase_key(m, phase))
    return (2,)  # COMPLETED: after every phase


def rollback_target(game: GameDir, m: Map, status: GameStatus, phase: str | None, forward: bool) -> str:
    """The snapshot ROLLBACK goes to (forward: ROLLFORWARD): the one `phase` names (S1901M or
    FORMING), else the last before the current phase (the first after it, forward); GameError when
    there is none."""
    here = _order(m, FORMING if status.forming else status.phase)
    found = snapshot_phases(game, m)

    def allowed(p: Phase | str) -> bool:
        return _order(m, p) > here if forward else _order(m, p) <= here

    if phase is None:
        candidates = [a for a, p in found if allowed(p) and _order(m, p) != here]
        if not candidates:
            raise GameError(f"game {status.name} has no phase to roll {'forward' if forward else 'back'} to")
        return candidates[0] if forward else candidates[-1]
    wanted = phase.upper()
    if wanted != FORMING:
        try:
            wanted = parse_phase(m, phase).abbrev
        except ValueError as exc:
            raise GameError(str(exc)) from None
    snapshots = dict(found)
    if wanted not in snapshots:
        raise GameError(f"game {status.name} has no snapshot of {wanted}")
    if not allowed(snapshots[wanted]):
        raise GameError(f"{wanted} is not a phase to roll {'forward' if forward else 'back'} to "
                        f"from {_name(status)}")
    return wanted


def _name(status: GameStatus) -> str:
    return str(status.phase) if isinstance(status.phase, Phase) else status.phase.value
