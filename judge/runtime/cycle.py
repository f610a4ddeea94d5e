"""The twenty-minute cycle over every game: `run_cycle`, the outage guard, and the daemon's tick.

`run_cycle(store, config, now, only=None, release=False) -> CycleReport` is the shell around the pure
`judge.game.schedule.on_tick`. Holding a cycle-wide lock (`<games>/.cycle.lock`, so the daemon's tick
and a judgekeeper's `judge check` never interleave), it:

1. reads the guard's state (`<games>/.cycle.json`: the last full cycle, the held games, the broken
   status files the judgekeeper has heard of);
2. `release`: the held games in scope are released (`judge check --release`);
3. the outage guard: when the last full cycle is more than an hour old, the games with a deadline or
   a grace end inside the gap (`judge.game.clock.Agenda.missed`)
   are held (nothing late is processed after downtime: players may not
   have reached the judge) and the judgekeeper is told; a held game stays untouched, cycle after
   cycle, until released;
4. each game in scope, in name order, under its own lock: the status and the state file read (a broken
   file, or RULEs that are unknown, need another variant, exclude each other or are not applied by
   this judge, is reported, the judgekeeper told once, and the game left alone; a game in preparation, held
   by the Master's WAIT or terminated is left alone too, and never held by the outage guard),
   `on_tick`, and the outcome saved through
   `judge.runtime.commit.write_outcome` (snapshot, status, results log) when anything changed. A failure while
   processing leaves the game in AWAIT (as DPjudge does) and tells the judgekeeper; no other game is
   affected. A failure for want of a resource (`judge.errors.resource_failure`: a disk full...)
   is not the game's: it stops the cycle, and the next tick does the rest again. A game the idle
   index (`judge.runtime.idle_index`, `<games>/.cycle-index.json`) shows unchanged since it was last read and not
   due yet (`judge.game.clock.agenda`) is not opened at all (`CycleReport.unread` counts them): an
   idle cycle costs a few `stat` calls a game, and grows with the games that are due; the daemon,
   which keeps the index with an inotify watch and a heap of due times, looks only at the games
   that changed or are due. The index is trusted after a start unless the judge's code changed
   (its signature), so that times a former release worked out are not. Given the outbox
   (the daemon's tick, `judge check`), a game's mails are made before its change is saved and are
   saved with it (`judge.runtime.journal`): killed at any instant, the judge loses none and sends none
   twice; the changes a crash left in flight are completed first, at the start of the next cycle;
5. a full cycle (no `only`) records `now` as the last run, written atomically.

The report has one line per action (processed, civil disorder, previewed, reminded, late notice,
delayed, dismissed, completed, held, released, broken, failed) and what the mail layer needs:
`cycle_mails(report, config)` makes the mails the cycle did not put in the outbox with the changes.
Either way a game's mails are made by one function, `game_mails`. `cycle_tick(config)`
is the daemon's `tick(now)`; `check(config, now, game, release)` is `judge check`, which also puts
the mails in the outbox.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from judge.runtime import idle_index as idle
from judge.runtime.config import Config
from judge.errors import JudgeError, ProblemsError, resource_failure
from judge.events import (
    CivilDisorder,
    ControlRotated,
    Dismissal,
    Event,
    GameCompleted,
    LateNotice,
    PhaseResults,
    Preview,
    Reminder,
)
from judge.runtime import journal
from judge.game.clock import agenda
from judge.runtime.commit import hold_in_await, write_outcome
from judge.runtime.heap import give_back
from judge.runtime.game_files import (
    Archive,
    IndexReader,
    archiver,
    read_game,
    read_standing,
)
from judge.game.standing import Standing
from judge.maps import MapCache
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.runtime.pictures import geometry_of
from judge.runtime.spool import Spool, open_spools, outbox_entries, queue_mails
from judge.runtime.store import STATUS, GameDir, GameStore, PathRefused, atomic_write, open_file, read_text
from judge.timing import game_zone
from judge.app.tick import checked, tick
from judge.types import Phase

if TYPE_CHECKING:  # the mail layer is imported when a cycle has mail to make
    from jinja2 import Environment

    from judge.mailout.audience import Mailing
    from judge.mailout.mailings import Mailer

log = logging.getLogger("judge.cycle")

OUTAGE = timedelta(hours=1)  # DPjudge's check.tim guard: a cycle older than this is an outage
STATE_FILE = ".cycle.json"
LOCK_FILE = ".cycle.lock"
RELEASE_HINT = "judge check --release"


# --- what a cycle did --------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameOutcome:
    """One game's part of a cycle: its report lines, the events to mail, the status after them."""

    game: str
    lines: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
    status: GameStatus | None = None
    map: Map | None = None
    failure: str | None = None  # processing raised: the game is left in AWAIT
    problems: tuple[str, ...] = ()  # the status file cannot be read
    quiet: datetime | None = None  # when a step is next due after the tick (None: read it next time)
    stamp: tuple[int, ...] = ()  # its files' identity then (`idle.stamp`)
    mailed: int | None = None  # how many mails were made with the change and put in the outbox
    mail_problem: str | None = None  # the mails could not be made
    master: str | None = None  # a broken status file's Master, as far as it can be read


@dataclass(frozen=True)
class Outage:
    last_run: datetime
    held: tuple[str, ...]  # the games held by this detection


@dataclass
class CycleReport:
    now: datetime
    lines: list[str] = field(default_factory=list)
    # the outcomes that say something (lines, mails to make, problems): a quiet game's is dropped,
    # so that a cycle reading every game holds no more than its names
    outcomes: list[GameOutcome] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)  # every game the cycle opened, in order
    outage: Outage | None = None
    newly_broken: list[GameOutcome] = field(default_factory=list)  # the judgekeeper is told of these
    held: tuple[str, ...] = ()
    unread: int = 0  # games left unopened: unchanged and not due (`judge.runtime.idle_index`)
    queued: int = 0  # mails put in the outbox by the cycle itself (with the changes they tell of)


# --- the guard's state ---------------------------------------------------------------------------------

@dataclass
class CycleState:
    last_run: datetime | None = None
    held: dict[str, str] = field(default_factory=dict)  # game -> when it was held (ISO 8601)
    broken: set[str] = field(default_factory=set)  # games whose broken file the keeper knows of

    def to_json(self) -> str:
        return json.dumps({"last_run": self.last_run.isoformat() if self.last_run else None,
                           "held": dict(sorted(self.held.items())), "broken": sorted(self.broken)},
                          indent=1) + "\n"


def read_state(root: Path) -> tuple[CycleState, str | None]:
    """The guard's state, and a problem to report when the file is unreadable (then: a fresh state,
    so no outage is detected this time)."""
    path = root / STATE_FILE
    try:
        data = json.loads(read_text(path, root))
        last = datetime.fromisoformat(data["last_run"]) if data.get("last_run") else None
        if last is not None and last.tzinfo is None:
            raise ValueError("last_run has no UTC offset")
        return CycleState(last, {str(k): str(v) for k, v in data.get("held", {}).items()},
                          {str(g) for g in data.get("broken", [])}), None
    except FileNotFoundError:
        return CycleState(), None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        if resource_failure(exc):  # the file is fine: starting afresh would forget the held games
            raise
        return CycleState(), f"cycle state {path} unreadable ({exc}): starting afresh"


def write_state(root: Path, state: CycleState) -> None:
    atomic_write(root / STATE_FILE, state.to_json().encode("utf-8"))


@contextmanager
def cycle_lock(root: Path) -> Iterator[None]:
    """One cycle at a time on a games folder, whichever process runs it."""
    root.mkdir(parents=True, exist_ok=True)
    with open(open_file(root / LOCK_FILE, os.O_RDWR | os.O_CREAT, root), "r+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


# --- the cycle -------------------------------------------------------------------------------------------

def run_cycle(store: GameStore, config: Config, now: datetime, only: str | None = None, *,
              release: bool = False, maps: MapCache | None = None, outbox: Spool | None = None,
              env: Environment | None = None, fresh: bool = False, games_index: IndexReader | None = None,
              kept: idle.KeptIndex | None = None,
              between: Callable[[], None] | None = None) -> CycleReport:
    """One cycle over every game (or the game `only`): see the module's doc. LookupError when `only`
    names no game. `maps`: parsed maps a long-lived caller keeps between cycles. `fresh`: every
    game read, whatever the idle index says. `outbox` (a
    `judge.runtime.spool.Spool`): each game's mails are made before its change is saved and put in the
    outbox with it (`TickMail`), so none is lost or sent twice whenever the judge stops; without
    it the caller makes them afterwards (`cycle_mails`). `games_index`: DPjudge's games index as a
    long-lived caller keeps it between cycles (else read once for this one); `kept`: the idle
    index, kept the same way. `between`: called before each game the cycle opens, holding no
    game's lock, so that a long cycle (every game read after an upgrade) can let mail through."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    if only is not None and not store.exists(only):
        raise LookupError(f"no game {only} in {store.root}")
    search = map_dirs(config)
    report = CycleReport(now)
    maps = MapCache(search) if maps is None else maps
    mail = TickMail(config, env, outbox) if outbox is not None else None
    archive = archiver(config.judge.id, config.judge.address, env)
    games_index = IndexReader() if games_index is None else games_index
    with cycle_lock(store.root):
        _replay_journals(store, mail)
        state, problem = read_state(store.root)
        if problem:
            report.lines.append(problem)
        kept = idle.KeptIndex(watch=False) if kept is None else kept
        index = idle.Index(idle.signature(search), changed=True) if fresh \
            else kept.load(store.root, idle.signature(search))
        outage = state.last_run is not None and now - state.last_run > OUTAGE
        look = kept.look(store.root, index, now, state.held, everything=release or outage) \
            if only is None else idle.Look({})
        found = look.found
        names = [only] if only is not None else list(found)
        report.unread = look.rest
        if release:
            _release(state, names, report)
        elif outage:
            _hold_overdue(store, state, names, now, search, report, maps, games_index)
        for name in names:
            if name in state.held:
                report.lines.append(f"{name}: held since the outage of {state.held[name]} ({RELEASE_HINT})")
                continue
            if _unchanged_and_quiet(index, found.get(name), now, name):
                report.unread += 1
                continue
            if between is not None:
                between()
            try:
                outcome = tick_game(store, name, now, search, maps, mail, archive, games_index)
            except PathRefused as exc:  # its folder is a symlink: not a game the cycle touches
                outcome = GameOutcome(name, (f"{name}: broken game folder: {exc}",),
                                      problems=(str(exc),))
            index.note(name, idle.Entry.of(outcome.stamp, now, outcome.quiet) if outcome.quiet else None)
            report.opened.append(name)
            if _says_something(outcome):
                report.outcomes.append(outcome)
            report.lines.extend(outcome.lines)
            _note_broken(state, outcome, report)
        for gone in look.gone:
            index.note(gone, None)
        kept.save(store.root, index, now)
        report.held = tuple(sorted(state.held))
        report.queued = mail.queued if mail is not None else 0
        if only is None:
            state.last_run = max(now, state.last_run) if state.last_run else now
        write_state(store.root, state)
    return report


def map_dirs(config: Config) -> tuple[Path, ...]:
    return (Path(config.paths.maps),)


def _replay_journals(store: GameStore, mail: TickMail | None) -> None:
    """Complete the changes a crash left in flight (`judge.runtime.journal`), mails included."""
    deliver = mail.deliver if mail is not None else None
    for name in journal.pending(store.root):
        try:
            with store.locked(name) as game:
                journal.replay(game, deliver)
        except (LookupError, ValueError):
            journal.replay_orphan(store.root, name, deliver)
        except OSError:
            log.exception("the change in flight of game %s", name)


def _unchanged_and_quiet(index: idle.Index, stamp: tuple[int, ...] | None, now: datetime,
                         name: str) -> bool:
    """Whether the index says the game need not be opened this time (`judge.runtime.idle_index`)."""
    entry = index.entries.get(name)
    return entry is not None and stamp is not None and entry.skips(stamp, now)


def _release(state: CycleState, names: Sequence[str], report: CycleReport) -> None:
    for name in names:
        if state.held.pop(name, None) is not None:
            report.lines.append(f"{name}: released")


def _hold_overdue(store: GameStore, state: CycleState, names: Sequence[str], now: datetime,
                  search: Sequence[Path], report: CycleReport, maps: MapCache,
                  games_index: IndexReader) -> None:
    last = state.last_run
    assert last is not None
    held = [n for n in names if n not in state.held
            and overdue(store, n, last, now, search, maps, games_index)]
    for name in held:
        state.held[name] = last.isoformat()
    report.outage = Outage(last, tuple(held))
    report.lines.append(f"outage: no cycle from {last.isoformat()} to {now.isoformat()}; "
                        f"held {len(held)} overdue game{'s' if len(held) != 1 else ''}"
                        f"{': ' + ', '.join(held) if held else ''}; judgekeeper told")


def overdue(store: GameStore, name: str, last_run: datetime, now: datetime,
            search: Sequence[Path] = (), maps: MapCache | None = None,
            games_index: IndexReader | None = None) -> bool:
    """Whether the game's deadline or grace end fell in the gap (last_run, now] (see
    `judge.game.clock.Agenda.missed`)."""
    try:
        with store.locked(name) as game:
            _, status, m = read_game(game, search, maps, games_index)
            standing = read_standing(game, status, games_index)
        return agenda(status, m, now, standing).missed(last_run, now)
    except (JudgeError, ValueError, OSError, LookupError):
        return False  # a broken game is reported by its tick


def tick_game(store: GameStore, name: str, now: datetime, search: Sequence[Path] = (),
              maps: MapCache | None = None, mail: TickMail | None = None,
              archive: Archive | None = None, games_index: IndexReader | None = None
              ) -> GameOutcome:
    """One game's tick under its lock: read, `on_tick`, save (see the module's doc); with `mail`,
    the mails of the change made first (`TickMail.make`), and the results archive's entries made
    of the same words; else `archive` writes them (`game_files.archiver`). `games_index`: reads
    DPjudge's games index for the games without a state file. The outcome keeps the status and
    map only when there are events to mail."""
    with store.locked(name) as game:
        try:
            text, status, m = read_game(game, search, maps, games_index)
            standing = read_standing(game, status, games_index)
            checked(text, status, m, f"{name}/{STATUS}")
        except (JudgeError, ValueError, OSError, LookupError) as exc:
            if resource_failure(exc):  # not a broken file: the game is read at the next tick
                raise
            problems = tuple(str(p) for p in exc.problems) if isinstance(exc, ProblemsError) else (str(exc),)
            return GameOutcome(name, (f"{name}: broken status file: {problems[0]}",), problems=problems,
                               master=master_in(game))
        try:
            ticked = tick(status, m, now, standing)
        except Exception as exc:  # any failure of one game must not stop the cycle
            if resource_failure(exc):  # not the game's: it is processed at the next tick
                raise
            log.exception("the tick of game %s failed", name)
            hold_in_await(game, status)
            failed = f"{name}: processing failed, left in AWAIT, judgekeeper told: {exc!r}"
            return GameOutcome(name, (failed,), status=status, map=m, failure=repr(exc))
        if ticked.held:
            held = f"{name}: held: AWAIT (processing did not finish; PROCESS! or ROLLBACK)"
            return GameOutcome(name, (held,), status=status, map=m)
        new, events = ticked.status, list(ticked.events)
        outcome = GameOutcome(name, describe(name, status, new, events), tuple(events),
                              new if events else None, m if events else None)
        made: list[EmailMessage] = []
        if mail is not None and events:
            outcome, made, archive = mail.make(now, outcome, archive)
        if new != status or events:
            write_outcome(game, text, m, new, events, mails=outbox_entries(made) if mail else (),
                   deliver=mail.deliver if mail else None, now=now, archive=archive,
                   standing=standing, games_index=games_index)
        quiet, stamp = _quiet(game.path, new, m, now, standing)
        return replace(outcome, quiet=quiet, stamp=stamp)


def _quiet(path: Path, status: GameStatus, m: Map, now: datetime, standing: Standing
           ) -> tuple[datetime | None, tuple[int, ...]]:
    """When the game is next due and its files' identity, read under its lock (None: not known)."""
    try:
        return agenda(status, m, now, standing).next or idle.FOREVER, idle.stamp(path)
    except Exception:
        log.exception("the quiet time of %s", path.name)
        return None, ()


MASTER_LINE = re.compile(r"^MASTER\s+[^|\s]*\|([^|\s]+@[^|\s]+)\|", re.MULTILINE)


def master_in(game: GameDir) -> str | None:
    """The Master's address in a status file that does not parse, if its MASTER line can be read
    (a status file that is a symlink is not: it says nothing of the game)."""
    from judge.mailin.message import plain_address

    try:
        found = MASTER_LINE.search(game.status_bytes().decode("utf-8", errors="replace"))
    except OSError:
        return None
    return found.group(1).lower() if found and plain_address(found.group(1)) else None


def _says_something(outcome: GameOutcome) -> bool:
    """Whether a reader of the report needs the outcome: it has lines to log, or mails or a
    problem `cycle_mails` words."""
    return bool(outcome.lines or outcome.events or outcome.problems or outcome.failure
                or outcome.mail_problem or outcome.status is not None)


def _note_broken(state: CycleState, outcome: GameOutcome, report: CycleReport) -> None:
    if outcome.problems:
        if outcome.game not in state.broken:
            state.broken.add(outcome.game)
            report.newly_broken.append(outcome)
    else:
        state.broken.discard(outcome.game)


# --- the report's lines ----------------------------------------------------------------------------------

def describe(name: str, before: GameStatus, after: GameStatus, events: Sequence[Event]) -> tuple[str, ...]:
    """One line per action of a game's tick."""
    lines = [f"{name}: {text}" for text in (_event_line(e, after) for e in events) if text]
    if not events and before.delay and (after.delay or 0) < before.delay:
        lines.append(f"{name}: delayed, DELAY {after.delay or 0} left")
    return tuple(lines)


def _event_line(event: Event, status: GameStatus) -> str | None:
    if isinstance(event, PhaseResults):
        if event.next_phase is None:
            return f"processed {event.phase.abbrev}"
        return f"processed {event.phase.abbrev}, next {event.next_phase.abbrev}" + \
            (f", deadline {when(event.deadline, status.zone)}" if event.deadline else "")
    if isinstance(event, CivilDisorder):
        return f"civil disorder: {', '.join(event.powers)}"
    if isinstance(event, Preview):
        return f"previewed {event.results.phase.abbrev} for the Master, DELAY {status.delay or 0}"
    if isinstance(event, LateNotice):
        return f"late notice: {', '.join(event.late)}, DELAY {status.delay or 0}"
    if isinstance(event, Reminder):
        return f"reminded {', '.join(event.powers)} (deadline {when(event.deadline, status.zone)})"
    if isinstance(event, Dismissal):
        return f"dismissed {', '.join(event.powers)}; waiting for replacements"
    if isinstance(event, GameCompleted):
        return f"completed: {event.kind} {' '.join(event.victors)}".rstrip()
    if isinstance(event, ControlRotated):
        return "control rotated: " + ", ".join(f"{p} to {c}" for p, c in event.controllers.items())
    return None  # Resigned: part of the dismissal line


def when(moment: datetime | None, zone: str | None) -> str:
    if moment is None:
        return "none"
    return f"{moment.astimezone(game_zone(zone)):%a %Y-%m-%d %H:%M} {zone or 'GMT'}"


# --- mails -----------------------------------------------------------------------------------------------

def cycle_mails(report: CycleReport, config: Config, env: Environment | None = None
                ) -> tuple[list[EmailMessage], list[str]]:
    """The mails a cycle calls for (the games' events, the judgekeeper's alerts) but for those it
    put in the outbox itself (`run_cycle` given the outbox), and the problems met while wording
    them (one game's failure does not lose the others' mail)."""
    from judge.mailout.render import environment

    env = env or environment()
    mails: list[EmailMessage] = []
    problems: list[str] = []
    for outcome in report.outcomes:
        if outcome.mailed is not None:  # made with the change, and in the outbox already
            problems += [outcome.mail_problem] if outcome.mail_problem else []
            continue
        try:
            mails += game_mails(env, config, report.now, outcome, outcome in report.newly_broken)[0]
        except Exception as exc:  # a template failing must not lose the other games' mail
            log.exception("mail for game %s", outcome.game)
            problems.append(f"{outcome.game}: mail not written: {exc!r}")
    if report.outage is not None:
        from judge.mailout.notices.keeper import outage_alert
        mailings = outage_alert(env, config.judge.keeper, config.judge.id, report.outage.last_run,
                                report.now, report.outage.held)
        mails += _envelopes(config, report.now, "outage", mailings)
    return mails, problems


def game_mails(env: Environment, config: Config, now: datetime, outcome: GameOutcome, broken: bool = False
               ) -> tuple[list[EmailMessage], Mailer | None]:
    """The mails of one game's part of a cycle, and the mailer that worded them (None when the
    game has no status to word them from): its events' notices and the judgekeeper's word of a
    failed processing, or (`broken`: newly found broken) of its status file's errors."""
    from judge.mailout.notices.keeper import status_errors

    if broken:
        mailings = status_errors(env, config.judge.keeper, config.judge.id, outcome.game, outcome.master,
                                 outcome.problems)
        return _envelopes(config, now, outcome.game, mailings), None
    if outcome.status is None or outcome.map is None:
        return [], None
    mailer = _mailer(env, config, outcome.status, outcome.map)
    return _envelopes(config, now, outcome.game, _outcome_mailings(mailer, config, now, outcome)), mailer


def _mailer(env: Environment, config: Config, status: GameStatus, m: Map) -> Mailer:
    from judge.mailout.mailings import Mailer

    return Mailer(env, status, m, judge=config.judge.id, keeper=config.judge.keeper,
                  addresses_per_player=config.limits.addresses_per_player,
                  pictures=config.maps.attach.lower() != "none",
                  read_geometry=partial(geometry_of, m), url=config.judge.url)


def _outcome_mailings(mailer: Mailer, config: Config, now: datetime, outcome: GameOutcome) -> list[Mailing]:
    from judge.commands.auth import overlong_addresses
    from judge.mailout.notices import keeper
    from judge.runtime.inbox import warn_overlong

    limit = config.limits.addresses_per_player
    if outcome.events:
        warn_overlong(outcome.game, overlong_addresses(mailer.status, limit), limit)
    mailings = mailer.for_events(list(outcome.events), now) if outcome.events else []
    if outcome.failure is not None and isinstance(mailer.status.phase, Phase):
        mailings += keeper.adjudication_error(mailer, config.judge.keeper, mailer.status.phase, outcome.failure)
    return mailings


@dataclass
class TickMail:
    """The mails of a game's change in a cycle, made before the change is saved and put in the
    outbox with it (`judge.runtime.journal`): whenever the judge stops, none is lost and none is sent
    twice."""

    config: Config
    env: Environment | None
    outbox: Spool
    queued: int = 0

    def make(self, now: datetime, outcome: GameOutcome, archive: Archive | None
             ) -> tuple[GameOutcome, list[EmailMessage], Archive | None]:
        """The outcome with its mails made (`mailed`; or none and the problem: a template failing
        loses one game's mail only), the mails, and what writes the results archive: of the
        words mailed, or `archive` when there are none."""
        from judge.mailout.render import environment

        try:
            self.env = self.env or environment()
            made, mailer = game_mails(self.env, self.config, now, outcome)
        except Exception as exc:
            if resource_failure(exc):  # the change is not saved without its mails: next tick
                raise
            log.exception("mail for game %s", outcome.game)
            return self._mailed(outcome, [], f"{outcome.game}: mail not written: {exc!r}"), [], archive
        if mailer is not None:
            archive = archiver(self.config.judge.id, self.config.judge.address, mailer=mailer)
        return self._mailed(outcome, made, None), made, archive

    @staticmethod
    def _mailed(outcome: GameOutcome, made: list[EmailMessage], problem: str | None) -> GameOutcome:
        # nothing of the game need stay in memory for the rest of the cycle
        return replace(outcome, events=(), status=None, map=None, mailed=len(made),
                       mail_problem=problem)

    def deliver(self, mails: journal.Mails) -> None:
        """A game's mails into the outbox, made durable together."""
        self.queued += queue_mails(self.outbox, mails)


def _envelopes(config: Config, now: datetime, game: str, mailings: Sequence[Mailing]) -> list[EmailMessage]:
    """Each mailing as one mail per recipient, its Message-ID made of the game, the cycle's slot, its
    content and the recipient: a cycle run twice in a slot queues the same mails once. A picture
    goes as its SVG, made PNG or PDF by the outbox sender (`judge.mailout.envelope.with_pictures`):
    the tick does not wait for pictures."""
    from judge.mailout.envelope import AUTO_GENERATED, envelopes

    slot = now.astimezone(UTC).strftime("%Y%m%d%H%M")
    mails = []
    for mailing in mailings:
        recipients, rendered = mailing.recipients, mailing.rendered
        digest = hashlib.sha256("\n".join([*recipients, rendered.subject, rendered.body]).encode()).hexdigest()
        key = f"cycle-{game}-{slot}-{digest[:20]}"
        mails += envelopes(config.judge, mailing, now=now, key=key, auto=AUTO_GENERATED,
                           later=True, default_kind=config.maps.attach.lower())
    return mails


# --- the daemon's tick and `judge check` -----------------------------------------------------------------

def cycle_tick(config: Config, games_index: IndexReader | None = None,
               between: Callable[[], None] | None = None
               ) -> Callable[[datetime], list[EmailMessage]]:
    """The daemon's `tick(now)`: a cycle over every game, its lines logged; the games' mails are put
    in the outbox with their changes, the others (the judgekeeper's alerts) returned for the
    daemon to put there. `games_index`:
    DPjudge's games index as the daemon keeps it for its mails too; `between`: what the daemon
    does between two games the cycle opens (`run_cycle`)."""
    from judge.mailout.render import environment

    store = GameStore(config.paths.games)
    env = environment()
    maps = MapCache(map_dirs(config))
    games_index = IndexReader() if games_index is None else games_index
    kept = idle.KeptIndex()

    def tick(now: datetime) -> list[EmailMessage]:
        report = run_cycle(store, config, now, maps=maps, outbox=open_spools(config).outbox, env=env,
                           games_index=games_index, kept=kept, between=between)
        for line in report.lines:
            log.info("%s", line)
        mails, problems = cycle_mails(report, config, env)
        for problem in problems:
            log.error("%s", problem)
        del report
        give_back()  # a cycle that read every game freed most of what it read
        return mails
    return tick


def queue(config: Config, mails: Sequence[EmailMessage]) -> int:
    """Put mails in the outbox (each Message-ID once); how many were new."""
    return queue_mails(open_spools(config).outbox, outbox_entries(mails))


def check(config: Config, now: datetime, game: str | None = None, release: bool = False,
          out: Callable[[str], None] = print, err: Callable[[str], None] = print) -> int:
    """`judge check`: one cycle, one line per action, the mails queued in the outbox; 0, or 1 when
    `game` names no game."""
    store = GameStore(config.paths.games)
    try:
        report = run_cycle(store, config, now, game, release=release,
                           outbox=open_spools(config).outbox)
    except LookupError as exc:
        err(f"judge check: {exc}")
        return 1
    for line in report.lines:
        out(line)
    mails, problems = cycle_mails(report, config)
    for problem in problems:
        err(f"judge check: {problem}")
    queued = report.queued + (queue(config, mails) if mails else 0)
    if queued:
        out(f"mail: {queued} queued in the outbox")
    return 0


def parse_now(text: str) -> datetime:
    """`--now`: ISO 8601 with a UTC offset (`2025-01-06T12:00:00+00:00`, `...Z`)."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"{text!r} has no UTC offset (write 2025-01-06T12:00+00:00)")
    return moment
