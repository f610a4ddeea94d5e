"""Wrong passwords, counted per role of a game (and per password good for many roles) across all
senders, with growing pauses: pure functions of the failures already seen and `now`.

Mail senders are not authenticated, so a count kept per sender is no count at all (a guesser
writes from a new address each time) and a count a sender's failures could exhaust is a lockout
(anyone may write "from" a player's address). So the failures of each role (a power, an observer,
MASTER or JUDGEKEEPER) in a game are counted whoever sent them, and each keeps who sent it:

- A *streak* is a run of failures none of which came `window` or more after the end of the pause
  the one before it earned; a quiet `window` forgets the streak.
- The first `free - 1` failures of a streak earn no pause; the `free`-th earns `first_pause`, and
  each one after it twice the one before, up to `max_pause`. While a pause lasts, the role's
  password checks are refused unchecked (a right password too, and the refusal does not count).
- Each pause comes with a fresh UNLOCK code, mailed to the role's registered addresses only (the
  caller does that); a mail carrying it has its password checked during the pause (a wrong one
  counts and earns the next pause). Forged failures thus never keep the real player out: he owns
  the mailbox the code goes to.

A right password clears nothing: a guesser's streak survives the owner's sign-ons.

A mail whose sender the judge's MTA authenticated (its From domain passed DMARC, or aligned DKIM
or SPF: `judge.mailin.authresults`) is counted apart, in counts of its own sender (`Secret.sender`):
forged failures "from" his address neither pause his checks nor are paused by them, and his own
typos pause only his. A guesser with a domain of his own that passes gets a fresh count for each
address he writes from; a count of unauthenticated mail bounds everyone else.

One check may test several secrets (`judge.commands.auth.check_for`): the role's own password,
and those good for other roles too: the Master's and an omniscient player's in every check of
their game, the judgekeeper's in every check of every game. A guesser writing for ever new roles,
or in ever new games (anyone may CREATE one), would test those without bound; so besides each
role's count of the checks made for it, each such shared secret has a count of every check that
tested it (`Secret`; its own `Record` under its key):

- a check's own counts are its role's and, when its password is a shared one, that secret's: one
  of them paused refuses the check unchecked, unless the mail gave the code of one of their
  pauses (all go to the role's owner);
- another secret paused is not tested, unless the mail gave its pause's code: the role's own
  password and the others are, so nobody is refused for it (`plan`);
- a wrong password counts against each count the check made or tested (`after_wrong`), and
  starts the pause of each that reaches its number: its owner is mailed that pause's code.

A shared secret allows more failures before its first pause (`Scope`): the legitimate typos of a
whole game, or of the whole judge, add up on it. The caller keeps the tables (the game's beside
the game, under its lock; the judge-wide one at the games' root, under its own:
`judge.runtime.game_access`) and passes them in, as `judge.runtime.sender_history` does for
replies.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum
from typing import Any


class Scope(Enum):
    """How widely a count reaches: the checks for one role (a power's, an observer's, MASTER's; a
    private game's privacy password), every check that tested a password good for every role of
    its game (the Master's, an omniscient player's), or every check that tested the
    judgekeeper's, in any game."""

    ROLE = "role"
    GAME = "game"
    JUDGE = "judge"


@dataclass(frozen=True)
class Secret:
    """One count of wrong passwords: whose (`role`, who is told of its pauses) and how wide;
    `sender`: the count of the checks made by mail from that address only, which the judge's MTA
    authenticated ("": of every other check)."""

    role: str
    scope: Scope = Scope.ROLE
    sender: str = ""

    @property
    def key(self) -> str:
        """Its record's name in its table (the game's, or the judge-wide one for Scope.JUDGE):
        the role's name, after a `*` for its password's count as tested for every role, and
        before the authenticated sender whose own count it is."""
        name = f"*{self.role}" if self.scope is Scope.GAME else self.role
        return f"{name} {self.sender}" if self.sender else name


@dataclass(frozen=True)
class Policy:
    """The judgekeeper's limits (`[passwords]` of judge.toml)."""

    free: int = 5  # failures of a streak before the first pause (a role's own secret)
    window: timedelta = timedelta(minutes=30)  # quiet time after a pause that ends a streak
    first_pause: timedelta = timedelta(minutes=1)
    max_pause: timedelta = timedelta(hours=24)
    shared_free: int = 10  # the same for the Master's and omniscient passwords (Scope.GAME)
    judge_wide_free: int = 20  # the same for the judgekeeper's (Scope.JUDGE)

    def of(self, scope: Scope) -> Policy:
        """The policy of a count of `scope`: its own number of free failures."""
        free = {Scope.ROLE: self.free, Scope.GAME: self.shared_free,
                Scope.JUDGE: self.judge_wide_free}[scope]
        return replace(self, free=free)


@dataclass(frozen=True)
class Failure:
    at: datetime
    sender: str


@dataclass(frozen=True)
class Unlock:
    """A pause's UNLOCK code, kept only as a salted digest."""

    salt: str
    digest: str
    until: datetime


@dataclass(frozen=True)
class Record:
    """One role's failures, oldest first, and the code of its pause."""

    failures: tuple[Failure, ...] = ()
    unlock: Unlock | None = None


Failures = dict[str, Record]  # role -> its record


@dataclass(frozen=True)
class Pause:
    """A role's checks are paused until `until`, after `attempts` failures from `senders`
    addresses since `since` (what its owner is told)."""

    until: datetime
    attempts: int
    senders: int
    since: datetime


def pause_for(count: int, policy: Policy) -> timedelta:
    """The pause the `count`-th failure of a streak earns."""
    if count < policy.free:
        return timedelta(0)
    pause = policy.first_pause
    for _ in range(count - policy.free):
        if pause >= policy.max_pause:
            break
        pause *= 2
    return min(pause, policy.max_pause)


def streak(failures: Iterable[Failure], policy: Policy) -> tuple[list[Failure], datetime | None]:
    """The failures of the latest streak and the end of the pause its last one earned (None: no
    failures)."""
    current: list[Failure] = []
    end = None
    for failure in sorted(failures, key=lambda f: f.at):
        if end is not None and failure.at >= end + policy.window:
            current = []
        current.append(failure)
        end = failure.at + pause_for(len(current), policy)
    return current, end


def paused(record: Record, now: datetime, policy: Policy) -> Pause | None:
    """The role's pause in force at `now`, if any."""
    current, end = streak(record.failures, policy)
    if end is None or end <= now:
        return None
    return Pause(end, len(current), len({f.sender for f in current}), current[0].at)


def after_failure(record: Record, sender: str, now: datetime, policy: Policy) -> Record:
    """The record once `sender` gave a wrong password at `now` (older streaks forgotten); the
    pause's code is dropped, as the failure ends that pause or earns a new one."""
    current, _ = streak(record.failures, policy)
    return Record(tuple(current) + (Failure(now, sender),))


def with_code(record: Record, code: str, until: datetime) -> Record:
    salt = secrets.token_hex(8)
    return replace(record, unlock=Unlock(salt, _digest(salt, code), until))


def admits(record: Record, given: str | None, now: datetime) -> bool:
    """Whether `given` is the code of the pause in force (compared in constant time)."""
    unlock = record.unlock
    if not given or unlock is None or now >= unlock.until:
        return False
    return hmac.compare_digest(_digest(unlock.salt, given), unlock.digest)


def pruned(table: Mapping[str, Record], now: datetime, policy: Policy) -> Failures:
    """The table without the streaks a quiet window has ended, nor expired codes. A record does
    not say its scope, so the fewest free failures of any scope stand for all: they give the
    longest pauses, hence keep a streak at least as long as its own scope would (never forgetting
    a pause in force), and a streak they end has ended in every scope."""
    policy = replace(policy, free=min(policy.of(scope).free for scope in Scope))
    kept: Failures = {}
    for role, record in table.items():
        current, end = streak(record.failures, policy)
        if end is None or now >= end + policy.window:
            continue
        unlock = record.unlock if record.unlock is not None and now < record.unlock.until else None
        kept[role] = Record(tuple(current), unlock)
    return kept


# -- one check, several secrets -------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What a password check does: it tests the secrets `tested`, or it is `refused` (one of its
    own counts is paused, and the mail has not the code of that pause)."""

    tested: tuple[Secret, ...] = ()
    refused: tuple[Secret, Pause] | None = None


@dataclass(frozen=True)
class Started:
    """A pause a wrong password started, and its code (for the secret's owner only)."""

    secret: Secret
    pause: Pause
    code: str


def plan(own: Mapping[Secret, Record], shared: Mapping[Secret, Record], unlock: str | None,
         now: datetime, policy: Policy) -> Plan:
    """What a check does, given the records of its own counts and of the shared secrets it may
    test: refused while an own count is paused (unless `unlock` is the code of one of their
    pauses); else it tests its own and the shared secrets not paused, or whose pause's code is
    `unlock`."""
    pauses = [(secret, pause) for secret, record in own.items()
              if (pause := paused(record, now, policy.of(secret.scope))) is not None]
    if pauses and not any(admits(record, unlock, now) for record in own.values()):
        return Plan(refused=max(pauses, key=lambda found: found[1].until))
    tested = [s for s, r in shared.items()
              if paused(r, now, policy.of(s.scope)) is None or admits(r, unlock, now)]
    return Plan((*own, *tested))


def after_wrong(table: Mapping[str, Record], tested: Sequence[Secret], sender: str,
                now: datetime, policy: Policy) -> tuple[Failures, tuple[Started, ...]]:
    """The table once a wrong password from `sender` was tested against `tested` (those of them
    it keeps): one failure for each, and the pauses that starts, each with a fresh code."""
    table, started = dict(table), []
    for secret in tested:
        rules = policy.of(secret.scope)
        record = after_failure(table.get(secret.key, Record()), sender, now, rules)
        pause = paused(record, now, rules)
        if pause is not None:
            code = new_code()
            record = with_code(record, code, pause.until)
            started.append(Started(secret, pause, code))
        table[secret.key] = record
    return pruned(table, now, policy), tuple(started)


# -- the codes -----------------------------------------------------------------------------------
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1 to misread
CODE_LENGTH = 8  # 40 bits: guessing one buys a single password check


def new_code() -> str:
    """A fresh code, as the player types it: `K7QM-4XPD` (case and the dash do not matter)."""
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
    return f"{letters[:4]}-{letters[4:]}"


def _digest(salt: str, code: str) -> str:
    typed = "".join(c for c in code.upper() if c.isalnum())
    return hashlib.sha256(f"{salt}:{typed}".encode("utf-8", "surrogateescape")).hexdigest()


# -- the file ------------------------------------------------------------------------------------
def to_json(table: Mapping[str, Record]) -> str:
    roles = {role: _record_json(record) for role, record in sorted(table.items())}
    return json.dumps({"roles": roles})


def _record_json(record: Record) -> dict[str, Any]:
    out: dict[str, Any] = {"failures": [[f.at.isoformat(), f.sender] for f in record.failures]}
    if record.unlock is not None:
        u = record.unlock
        out["unlock"] = [u.salt, u.digest, u.until.isoformat()]
    return out


def from_json(text: str) -> Failures:
    """The table from its file; what cannot be read counts as no failure (it is only a throttle).
    A file of failure times by sender without a role is read as none: it names no role to
    pause."""
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    roles = data.get("roles") if isinstance(data, dict) else None
    if not isinstance(roles, dict):
        return {}
    return {str(role): _record(value) for role, value in roles.items() if isinstance(value, dict)}


def _record(data: dict[str, Any]) -> Record:
    failures = []
    for entry in data.get("failures", ()) if isinstance(data.get("failures"), list) else ():
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str):
            at = _time(entry[0])
            if at is not None:
                failures.append(Failure(at, entry[1]))
    unlock, raw = None, data.get("unlock")
    if isinstance(raw, list) and len(raw) == 3 and all(isinstance(x, str) for x in raw[:2]):
        until = _time(raw[2])
        unlock = Unlock(raw[0], raw[1], until) if until is not None else None
    return Record(tuple(sorted(failures, key=lambda f: f.at)), unlock)


def _time(text: object) -> datetime | None:
    """An aware time, or None for anything else."""
    try:
        at = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return at if at is not None and at.tzinfo is not None else None

