"""The state of one mail being processed: who signed on to which game, the game's working status,
what the mail still has to do at its end, and the results buffer.

Commands never touch files: they read games through a `GameAccess` (read only: the inbox runner's
view of the store), or as their door read them ahead (`ReadAhead`), and change `Session.status`;
what the mail did to the files is handed back (`judge.commands.change`) and the runner writes it
once the mail is done. One mail changes at most one game, so locks are never taken in two orders.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, TypeVar

from judge.app.game_in_hand import GameInHand
from judge.app.game_names import Creator
from judge.app.refusal import Refusal
from judge.commands import throttle
from judge.commands.auth import (
    JUDGEKEEPER,
    PRIVACY,
    Check,
    Level,
    check_for,
    clean_password,
    password_level,
    registered_addresses,
)
from judge.notices import PasswordsPaused
from judge.commands.reply import Results, Said
from judge.errors import MapError
from judge.game.rules import rules_in_force
from judge.game.seats import GameError
from judge.game.standing import FREE, GameState, Standing, game_state
from judge.limits import Limits
from judge.maps import MapCache, map_for_phase
from judge.maps.bounds import MapBounds
from judge.maps.loader import without_folders
from judge.maps.model import Map
from judge.passwords import Verifier, hash_password
from judge.rule_names import Rules
from judge.status.model import GameStatus
from judge.types import MASTER, Phase


T = TypeVar("T")
LIMITS = Limits()  # the judgekeeper's limits when judge.toml sets none


@dataclass(frozen=True)
class Settings:
    """What the command layer needs of the judge's configuration."""

    judge_id: str = "LOCAL"
    address: str = "judge@localhost"
    keeper: str = "judgekeeper@localhost"
    keeper_password: str = ""
    map_dirs: tuple[Path, ...] = ()
    max_absence_days: int = 14  # players' limit; the Master has none
    replies_per_window: int = LIMITS.replies_per_sender  # copies included, see sender_history.allowance
    signed_replies_per_window: int = LIMITS.signed_replies_per_sender  # mail with a right password
    reply_window: timedelta = timedelta(minutes=LIMITS.reply_window_minutes)
    addresses_per_player: int = LIMITS.addresses_per_player  # see auth.addresses_of
    recipients_per_mail: int = LIMITS.recipients_per_mail  # all mails answering one mail
    forming_games_per_sender: int = LIMITS.forming_games_per_sender
    games_per_sender_per_day: int = LIMITS.games_per_sender_per_day
    commands_per_mail: int = LIMITS.commands_per_mail
    password_hashes_per_mail: int = LIMITS.password_hashes_per_mail
    map_bounds: MapBounds = field(default_factory=LIMITS.map_bounds)  # checked at CREATE, MORPH
    map_parse_milliseconds: int = LIMITS.map_parse_milliseconds
    press_kept_per_game: int = LIMITS.press_kept_per_game  # the game's pages' press
    password_policy: throttle.Policy = throttle.Policy()  # pauses after wrong passwords
    passwords: Verifier = field(default_factory=Verifier, compare=False, repr=False)

    @classmethod
    def from_config(cls, config: Any) -> Settings:
        limits = config.limits
        return cls(judge_id=config.judge.id, address=config.judge.address.lower(),
                   keeper=config.judge.keeper, keeper_password=config.judge.password,
                   map_dirs=(Path(config.paths.maps),),
                   replies_per_window=limits.replies_per_sender,
                   signed_replies_per_window=limits.signed_replies_per_sender,
                   reply_window=timedelta(minutes=limits.reply_window_minutes),
                   addresses_per_player=limits.addresses_per_player,
                   recipients_per_mail=limits.recipients_per_mail,
                   forming_games_per_sender=limits.forming_games_per_sender,
                   games_per_sender_per_day=limits.games_per_sender_per_day,
                   commands_per_mail=limits.commands_per_mail,
                   password_hashes_per_mail=limits.password_hashes_per_mail,
                   map_bounds=limits.map_bounds(),
                   map_parse_milliseconds=limits.map_parse_milliseconds,
                   press_kept_per_game=limits.press_kept_per_game,
                   password_policy=config.passwords.policy())


class GameAccess(Protocol):
    """How commands see the games, for reading only; the runner's view does the I/O and the
    locking. `maps`: the parsed maps, read through by the game in hand's map."""

    maps: MapCache

    def names(self) -> list[str]: ...

    def listable(self) -> list[str]:
        """The games a LIST of all games may show (the others are not read for it)."""

    def unstarted(self) -> list[str]:
        """The games that may not have started (the others are not read to count them)."""

    def peek(self, name: str) -> GameStatus | None:
        """The game's status for reading (None: no such game)."""

    def open(self, name: str) -> tuple[str, GameStatus]:
        """The game's status file and status, locked until the mail is done (LookupError: no
        such game)."""

    def standing(self, name: str) -> Standing:
        """The game's state and listing, from its state file (Refusal when the file is broken)."""

    def exists(self, name: str) -> bool: ...

    def results_text(self, name: str) -> str: ...

    def snapshots(self, name: str) -> list[tuple[str, GameStatus]]: ...

    def load_map(self, status: GameStatus, morphs: tuple[str, ...] | None = None) -> Map: ...

    def check_map(self, status: GameStatus, morphs: tuple[str, ...] | None = None) -> Map:
        """The map the game would have with `morphs` (or its own), read within the judge's map
        bounds and parse time and not kept for later: MapError if it cannot be."""

    def snapshot_for(self, name: str, status: GameStatus, m: Map, phase: str | None,
                     forward: bool) -> GameStatus:
        """The snapshot ROLLBACK (forward: ROLLFORWARD) goes to; GameError if there is none."""

    def password_failures(self, name: str) -> throttle.Failures:
        """The wrong passwords given for the game `name` (open), by role (see throttle.py)."""

    def judge_password_failures(self) -> throttle.Failures:
        """The wrong passwords counted across the judge (the judgekeeper's), as they stand."""

    def games_created(self, sender: str, now: datetime) -> int:
        """How many games `sender` created in the day before `now` (PURGEd ones too)."""


@dataclass(frozen=True)
class GameRead:
    """The game a mail takes, as its door read it before the commands run: what opening it gave
    (its status file's text and status, or the LookupError or Refusal it raised), its state and
    listing (or the Refusal reading them raised), its wrong passwords."""

    opened: tuple[str, GameStatus] | Exception
    standing: Standing | Refusal = FREE
    failures: throttle.Failures = field(default_factory=dict)


@dataclass(frozen=True)
class ReadAhead:
    """What a door read for a mail before its commands run, so that they call nothing of the
    door's: the games it takes, by name, and the judge-wide wrong passwords (None: not read)."""

    games: dict[str, GameRead] = field(default_factory=dict)
    judge_failures: throttle.Failures | None = None
    taken: dict[str, bool] = field(default_factory=dict)  # a name asked about: a game has it
    creator: Creator | None = None  # the sender's games, as CREATE asks (None: not read)


class NotReadAhead(Exception):
    """The mail needs what its door has not read for it: the game `name` (None: only the
    judge-wide wrong passwords), whether a game is called `taken`, the sender's games (`creator`).
    The door reads it and runs the mail again (the commands are pure: the run before changed
    nothing)."""

    def __init__(self, name: str | None, *, taken: str | None = None, creator: bool = False):
        super().__init__(name)
        self.name = name
        self.taken = taken
        self.creator = creator


class Cursor:
    """The mail's lines, read one at a time; commands with a body (PRESS, CREATE, MORPH) take
    the lines they need."""

    def __init__(self, lines: tuple[str, ...]):
        self.lines = lines
        self.index = 0

    def next(self) -> str | None:
        if self.index >= len(self.lines):
            return None
        line = self.lines[self.index]
        self.index += 1
        return line

    def rest(self) -> tuple[str, ...]:
        return self.lines[self.index:]

    def take_until(self, stop: Callable[[list[str]], bool]) -> tuple[list[str], bool]:
        """Lines up to (and consuming) the first whose upper-case words make `stop` true; whether
        that line was found (False: the mail ended first)."""
        taken: list[str] = []
        while (line := self.next()) is not None:
            if stop(line.upper().split()):
                return taken, True
            taken.append(line)
        return taken, False


@dataclass
class Session:
    sender: str
    now: datetime
    settings: Settings
    games: GameAccess
    ahead: ReadAhead | None = None  # what the door read ahead (None: read from `games` as needed)
    results: Results = field(default_factory=Results)
    events: list[Any] = field(default_factory=list)
    game: str | None = None  # the game this mail may change
    status: GameStatus | None = None  # its working status
    original: GameStatus | None = None  # as it was read
    standing: Standing = FREE  # its state and listing, as its state file keeps them
    original_standing: Standing = FREE  # as it was read
    role: str | None = None  # the block signed on as, or MASTER / JUDGEKEEPER
    level: Level = Level.NONE
    target: str | None = None  # the power orders go to (a power-name line switches it)
    orders: dict[str, list[str]] = field(default_factory=dict)  # power -> order lines
    stored: set[str] = field(default_factory=set)  # powers whose orders this mail stored
    submitted: dict[str, int] = field(default_factory=dict)  # power -> its order lines stored
    finishers: list[tuple[str, Callable[[Session], Said]]] = field(default_factory=list)  # at end
    official: str | None = None  # OFFICIAL subject for later press
    loaded_text: str = ""  # the game's status file as it was read
    snapshot_text: str | None = None  # the status before a phase was processed (or started)
    create: bool = False  # the game in hand is new (CREATE)
    unlock: str | None = None  # the UNLOCK code the mail gave, for its password checks
    authenticated: bool = False  # a password check of the mail found a right password
    sender_authenticated: bool = False  # the judge's MTA authenticated the sender's domain
    rename_to: str | None = None
    purge: bool = False
    failures: dict[str, throttle.Failures] = field(default_factory=dict)  # to keep, by game
    judge_failures_read: throttle.Failures | None = None  # the judge-wide table as first read
    judge_failures: throttle.Failures | None = None  # the judge-wide table to keep
    hashes: int = 0  # passwords this mail hashed or checked
    _map: Map | None = None
    _phase_maps: dict[Phase, Map] = field(default_factory=dict)

    # -- the game in hand ---------------------------------------------------------------------
    def take_game(self, name: str) -> GameStatus:
        """Open `name` for changing; one mail changes one game."""
        if self.game is not None and self.game != name:
            raise Refusal(f"this mail already works on game '{self.game}': one mail changes one "
                          f"game, send another for '{name}'")
        if self.status is None:
            read = self.read_ahead(name)
            try:
                self.loaded_text, self.status = (self.games.open(name) if read is None
                                                 else given(read.opened))
                self.original = self.status
            except LookupError:
                raise Refusal(f"there is no game '{name}' on this judge") from None
            self.game = name
            self.standing = self.original_standing = (self.games.standing(name) if read is None
                                                      else given(read.standing))
        return self.status

    def read_ahead(self, name: str) -> GameRead | None:
        """The game `name` as the door read it ahead (None: the door reads it when asked)."""
        if self.ahead is None:
            return None
        if name not in self.ahead.games:
            raise NotReadAhead(name)
        return self.ahead.games[name]

    def names_taken(self, *names: str) -> frozenset[str]:
        """Those of `names` a game on the judge has, as the door read them."""
        if self.ahead is None:
            return frozenset(name for name in names if self.games.exists(name))
        for name in names:
            if name not in self.ahead.taken:
                raise NotReadAhead(None, taken=name)
        return frozenset(name for name in names if self.ahead.taken[name])

    def creator(self) -> Creator:
        """The sender's games on the judge, as CREATE's door read them."""
        if self.ahead is None:
            return read_creator(self.games, self.sender, self.now)
        if self.ahead.creator is None:
            raise NotReadAhead(None, creator=True)
        return self.ahead.creator

    def update(self, status: GameStatus) -> None:
        self.status = status

    def current(self) -> GameStatus:
        if self.status is None:
            raise Refusal("sign on to a game first (SIGNON Fgame password)")
        return self.status

    @property
    def state(self) -> GameState:
        """The game's state: preparation, forming, active, waiting, completed or terminated."""
        return game_state(self.current(), self.standing)

    @property
    def base_map(self) -> Map:
        """The game's map with its MORPH lines, as it stands at its BEGIN."""
        if self._map is None:
            try:
                status = self.current()
                self._map = self.games.maps.get(status.map_name, status.morphs)
            except MapError as error:
                raise Refusal(f"the map of game '{self.game}' cannot be read; its Master must "
                              "mend it", *(str(without_folders(p)) for p in error.problems[:5])) from None
        return self._map

    @property
    def map(self) -> Map:
        """The map in force in the game's phase (IN/FROM blocks applied)."""
        status = self.current()
        base = self.base_map
        if not isinstance(status.phase, Phase) or not base.dynamic:
            return base
        if status.phase not in self._phase_maps:
            self._phase_maps[status.phase] = map_for_phase(base, status.phase)
        return self._phase_maps[status.phase]

    def in_hand(self) -> GameInHand:
        """The game the session works on, as the use cases read it."""
        return GameInHand(self.game or "", self.current(), self.map, self.rules, self.state, self.now)

    def forget_map(self) -> None:
        self._map = None
        self._phase_maps.clear()

    def keep_map(self, m: Map) -> None:
        """`m` is the game's map from now on (its status just changed to one that makes it)."""
        self.forget_map()
        self._map = m

    @property
    def rules(self) -> Rules:
        return rules_in_force(self.current(), self.map)

    # -- who is signed on ---------------------------------------------------------------------
    def password_level(self, status: GameStatus, role: str, given: str, command: str) -> Level:
        """The level the password `given` reaches for `role` in the game in hand (`checked`)."""
        check = check_for(status, role, self.settings.keeper_password)
        level = self.checked(status, check, clean_password(given), command)
        self.authenticated = self.authenticated or level != Level.NONE
        return level

    def checked(self, status: GameStatus, check: Check, given: str, command: str) -> Level:
        """The level `given` reaches in `check`, as wrong passwords allow (throttle.py): refused
        unchecked while one of its own counts is paused, unless the mail gave the UNLOCK code of
        that pause; a shared secret paused is not tested. A wrong password counts against each
        count made or tested, and each pause that starts has its code mailed to its owner."""
        policy, name = self.settings.password_policy, self.game or status.name or ""
        table, wide = self.game_failures(name), self.judge_wide_failures()

        def records(secrets: tuple[throttle.Secret, ...]) -> dict[throttle.Secret, throttle.Record]:
            return {s: (wide if judge_wide(s) else table).get(s.key, throttle.Record())
                    for s in map(self.counted_as, secrets)}

        plan = throttle.plan(records(check.own), records(check.shared), self.unlock, self.now,
                             policy)
        if plan.refused is not None:
            secret, pause = plan.refused
            raise Refusal(*paused_refusal(command, secret, name, pause.until, self.unlock))
        self.count_hash()
        level = password_level((p for p in check.passwords
                                if self.counted_as(p.secret) in plan.tested), given,
                               self.settings.passwords)
        if level == Level.NONE:
            self.count_failure(status, name, table, plan.tested)
        return level

    def count_hash(self) -> None:
        """One more password hashed or checked by this mail; Refusal past its allowance (each
        hash costs a tenth of a second of CPU on purpose, which a long mail must not multiply)."""
        self.hashes += 1
        if self.hashes > self.settings.password_hashes_per_mail:
            raise Refusal(f"a mail may set or check at most {self.settings.password_hashes_per_mail}"
                          " passwords; send the rest in another mail")

    def hashed(self, password: str) -> str:
        """`password` as the status file keeps it (hashed), counted against the mail's allowance."""
        self.count_hash()
        return hash_password(password)

    def counted_as(self, secret: throttle.Secret) -> throttle.Secret:
        """The count a check of this mail makes for `secret`: an authenticated sender's own."""
        return replace(secret, sender=self.sender) if self.sender_authenticated else secret

    def count_failure(self, status: GameStatus, name: str, table: throttle.Failures,
                      tested: tuple[throttle.Secret, ...]) -> None:
        """A wrong password against the counts `tested`: the game's are kept beside it, the
        judgekeeper's in the judge-wide table (both written by the runner when the mail is
        done: a refused mail changes nothing else, but its failures count)."""
        policy = self.settings.password_policy
        table, started = throttle.after_wrong(
            table, [s for s in tested if not judge_wide(s)], self.sender, self.now, policy)
        self.failures[name] = table
        wide = [s for s in tested if judge_wide(s)]
        if wide:
            self.judge_failures, more = throttle.after_wrong(
                self.judge_wide_failures(), wide, self.sender, self.now, policy)
            started += more
        for new in started:
            role, pause = new.secret.role, new.pause
            self.emit(PasswordsPaused(name, role, self.role_addresses(status, role),
                                      pause.attempts, pause.senders, pause.since, pause.until,
                                      new.code, notice_kind(new.secret)))

    def game_failures(self, name: str) -> throttle.Failures:
        """The wrong passwords of game `name`, with this mail's own counted."""
        if name in self.failures:
            return self.failures[name]
        if self.ahead is not None and name in self.ahead.games:
            return self.ahead.games[name].failures
        return self.games.password_failures(name)

    def judge_wide_failures(self) -> throttle.Failures:
        """The judge-wide wrong passwords, as first read by this mail (the runner writes its
        table only if nobody changed them meanwhile), with this mail's own counted."""
        if self.judge_failures is not None:
            return self.judge_failures
        if self.judge_failures_read is None and self.ahead is not None:
            if self.ahead.judge_failures is None:
                raise NotReadAhead(None)
            self.judge_failures_read = self.ahead.judge_failures
        if self.judge_failures_read is None:
            self.judge_failures_read = self.games.judge_password_failures()
        return self.judge_failures_read

    def role_addresses(self, status: GameStatus, role: str) -> tuple[str, ...]:
        """Who is told of a secret's paused checks: its player, the Master for a power nobody
        plays and for the privacy password, the judgekeeper for his."""
        if role == JUDGEKEEPER:
            return (self.settings.keeper,)
        limit = self.settings.addresses_per_player
        master = registered_addresses(status, MASTER, limit)
        return master if role == PRIVACY else registered_addresses(status, role, limit) or master

    @property
    def signed_on(self) -> bool:
        return self.role is not None

    @property
    def is_master(self) -> bool:
        return self.level >= Level.MASTER

    @property
    def acting_as_master(self) -> bool:
        return self.role in (MASTER, JUDGEKEEPER)

    def emit(self, *events: Any) -> None:
        self.events.extend(events)

    def keep(self, status: GameStatus, events: tuple[Any, ...]) -> None:
        """A use case's outcome kept: its status, its events emitted."""
        self.update(status)
        self.emit(*events)

    def live(self, change: Callable[..., tuple[GameStatus, list[Any]]], *args: Any,
             **kwargs: Any) -> list[Any]:
        """Apply one of the game's life functions (`judge.game`) to the working status: its new
        status is kept, its events emitted (and returned), its GameError becomes a refusal."""
        try:
            status, events = change(self.current(), *args, **kwargs)
        except GameError as error:
            raise Refusal(str(error)) from None
        self.update(status)
        self.emit(*events)
        return events


def given(outcome: T | Exception) -> T:
    """What a read ahead gave, or the error it raised, raised again."""
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def judge_wide(secret: throttle.Secret) -> bool:
    """Whether the secret is counted across the judge (the judgekeeper's), not in its game."""
    return secret.scope is throttle.Scope.JUDGE


def notice_kind(secret: throttle.Secret) -> str:
    """What a PasswordsPaused notice is about (see there)."""
    return "privacy" if secret.role == PRIVACY else secret.scope.value


def paused_refusal(command: str, secret: throttle.Secret, game: str, until: datetime,
                   unlock: str | None) -> tuple[str, ...]:
    """Why a password was not checked: no word on whether it was right."""
    role = secret.role
    checks = "privacy password checks" if role == PRIVACY else f"password checks for {role}"
    where = "on this judge" if judge_wide(secret) else f"in game '{game}'"
    told = {JUDGEKEEPER: "the judgekeeper was", PRIVACY: "the game's Master was"}.get(
        role, f"the addresses the game has for {role} were")
    code = ("the UNLOCK code in this mail is not the one of this pause" if unlock else
            f"{told} mailed a code: a mail with the line UNLOCK and that code before this line "
            "has its password checked")
    return (f"{command}: after repeated wrong passwords, {checks} {where} are paused until "
            f"{until.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC",
            f"Meanwhile {code}.")


def read_creator(games: GameAccess, sender: str, now: datetime) -> Creator:
    """`sender`'s games on the judge: those it is the Master of that have not started (a game that
    cannot be read is not counted), and those it created in the day before `now`."""
    forming = 0
    for name in games.unstarted():
        try:
            status = games.peek(name)
        except Refusal:
            continue
        if status is not None and status.forming and sender.lower() in (
                address.lower() for address in status.master_mail):
            forming += 1
    return Creator(forming, games.games_created(sender, now))
