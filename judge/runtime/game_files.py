"""The game's life on disk: the thin shell around the pure functions, through `judge.runtime.store`.

Everything here holds the game's lock while it reads the status, calls a pure function and writes
the outcome: the new status (atomically), a snapshot `status.<S1901M>` of the status as it was before
a phase was processed (`status.FORMING` before the game started), and the phase's record in the
results log. A change that appends to the log or sends mail goes through `judge.runtime.journal`, so a
crash at any instant leaves the status before or after it, with the log and the mails to match;
every read under the lock first completes a change a crash interrupted. A processing that raises
(a bug) leaves the game in AWAIT, for the Master to see. Processing a phase drops the snapshots of
later phases (left by a rollback): what was rolled back cannot be rolled forward once the game has
moved on.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from judge.errors import StatusError
from judge.events import Event, GameStarted, PhaseResults
from judge.runtime import journal
from judge.game.process import on_process, require_ready
from judge.game.record import results_record
from judge.game.rollback import roll_to
from judge.game.rules import check_rules, located
from judge.game.seats import GameError
from judge.game.standing import Standing, parse_standing
from judge.maps import MapCache
from judge.maps.model import Map
from judge.phases import parse_phase, phase_key
from judge.status import apply_map_directives, parse_status, write_status
from judge.status.model import Dppd, GameStatus, PhaseMode
from judge.runtime.store import STATE, STATUS, GameDir, GameStore
from judge.types import Phase

FORMING = "FORMING"
Action = Callable[[GameStatus, Map], tuple[GameStatus, list[Event]]]


def game_map(status: GameStatus, search: Sequence[Path] = (), maps: MapCache | None = None) -> Map:
    """The game's map with its MORPH lines (the map of each phase is derived from it); from `maps`
    when a caller keeps parsed maps."""
    return (maps or MapCache(search)).get(status.map_name, status.morphs)


def read_status_file(game: GameDir) -> tuple[str, GameStatus]:
    """The game's status file: its text and what it says (StatusError, with the file and line,
    when it is not UTF-8 or does not parse). The one reader of a status file: the inbox runner,
    the cycle and the `judge` commands all read a game through it."""
    text = game.read_status()
    return text, parse_status(text, f"{game.name}/{STATUS}")


def read_game(game: GameDir, search: Sequence[Path] = (), maps: MapCache | None = None
              ) -> tuple[str, GameStatus, Map]:
    """The status text, status and map of a game whose lock is held (a change a crash left in
    flight completed first)."""
    journal.replay(game)
    text, status = read_status_file(game)
    return text, status, game_map(status, search, maps)


def read_standing(game: GameDir) -> Standing:
    """The game's state and listing from its state file (`judge.game.standing`); StateError."""
    return parse_standing(game.read_state(), f"{game.name}/{STATE}")


def new_game(store: GameStore, name: str, map_name: str, master: str | None = None,
             password: str | None = None, lines: Sequence[str] = (), search: Sequence[Path] = ()
             ) -> GameStatus:
    """Create a forming game: GAME, PHASE FORMING, MAP, MASTER, PASSWORD, the given status lines,
    and the map's DIRECTIVES stanzas (StatusError when a RULE is unknown or not applied)."""
    head = [f"GAME {name}", "PHASE FORMING", f"MAP {map_name}"]
    if master:
        head.append(f"MASTER {Dppd('NO-ID', master, '')}")
    if password:
        head.append(f"PASSWORD {password}")
    text, file = "\n".join(head + list(lines)) + "\n", f"{name}/{STATUS}"
    status = parse_status(text, file)
    m = game_map(status, search)
    status = apply_map_directives(status, m.stanzas, file=m.name)
    problems = located(check_rules(status, m).problems, text, file)
    if problems:
        raise StatusError(problems)
    store.create(name, write_status(status))
    return status


def run(store: GameStore, name: str, action: Action, search: Sequence[Path] = ()) -> list[Event]:
    """Apply a pure `action(status, map) -> (status, events)` to the game (JOIN, RESIGN, a vote,
    a tick...) and save what it gives."""
    with store.locked(name) as game:
        text, status, m = read_game(game, search)
        new, events = action(status, m)
        commit(game, text, m, new, events)
        return events


def commit(game: GameDir, before_text: str, m: Map, after: GameStatus, events: Sequence[Event],
           mails: journal.Mails = (), deliver: journal.Deliver | None = None,
           snapshot: bool = True, receipt: tuple[str, bytes] | None = None) -> None:
    """Save an outcome: snapshots first, then the status, the results log and the `mails` (handed to
    `deliver`) as one change (`judge.runtime.journal`). `snapshot`: keep the status before a phase's
    processing as its snapshot (False: a snapshot taken before is kept). `receipt`: the receipt of
    the mail that made the change, written with it."""
    if any(isinstance(e, GameStarted) for e in events):
        game.snapshot(FORMING, before_text)
    results = [e for e in events if isinstance(e, PhaseResults)]
    if results and snapshot:
        _keep_snapshot(game, m, results[0].phase, before_text)
    after_text = write_status(after)
    records = "".join(results_record(event, after.zone) for event in results)
    if records or mails or receipt:
        journal.complete(game, journal.write(game, after_text, records, mails, receipt), deliver)
    else:
        game.write_status(after_text)


def process_game(store: GameStore, name: str, now: datetime, force: bool = False,
                 search: Sequence[Path] = ()) -> list[Event]:
    """PROCESS from the shell: the snapshot, the new status and the results log as one change; a
    processing that raises leaves the game in AWAIT. A game already in AWAIT (a processing that
    failed before) keeps the snapshot taken then, if any."""
    with store.locked(name) as game:
        text, status, m = read_game(game, search)
        require_ready(status, m, now, force)
        assert isinstance(status.phase, Phase)
        try:
            new, events = on_process(status, m, now, force=True)
        except Exception:
            game.write_status(write_status(replace(status, phase_mode=PhaseMode.AWAIT)))
            raise
        awaited = status.phase_mode is PhaseMode.AWAIT
        has_snapshot = game.has_snapshot(status.phase.abbrev)
        commit(game, text, m, new, events, snapshot=not (awaited and has_snapshot))
        return events


def _keep_snapshot(game: GameDir, m: Map, phase: Phase, text: str) -> None:
    game.snapshot(phase.abbrev, text)
    for abbrev, later in snapshot_phases(game, m):
        if isinstance(later, Phase) and phase_key(m, later) > phase_key(m, phase):
            game.drop_snapshot(abbrev)


def snapshot_phases(game: GameDir, m: Map) -> list[tuple[str, Phase | str]]:
    """(name, phase) of every snapshot, in the order the phases are played (FORMING first)."""
    found: list[tuple[str, Phase | str]] = []
    for abbrev in game.snapshots():
        if abbrev == FORMING:
            found.append((abbrev, FORMING))
            continue
        try:
            found.append((abbrev, parse_phase(m, abbrev)))
        except ValueError:
            continue
    return sorted(found, key=lambda item: _order(m, item[1]))


def _order(m: Map, phase: Phase | str | None) -> tuple[int, ...]:
    if phase == FORMING:
        return (0,)
    if isinstance(phase, Phase):
        return (1, *phase_key(m, phase))
    return (2,)  # COMPLETED: after every phase


def rollback_game(store: GameStore, name: str, now: datetime, phase: str | None = None, *,
                  restore: bool = False, full: bool = False, forward: bool = False,
                  search: Sequence[Path] = ()) -> list[Event]:
    """ROLLBACK (or ROLLFORWARD) to a snapshot: the one named, else the last before the current
    phase (the first after it, forward)."""
    with store.locked(name) as game:
        _, status, m = read_game(game, search)
        target = rollback_target(game, m, status, phase, forward)
        snapshot = parse_status(game.read_snapshot(target), f"{name}/{STATUS}.{target}")
        new, events = roll_to(status, snapshot, m, now, restore=restore, full=full, forward=forward)
        game.write_status(write_status(new))
        return events


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
