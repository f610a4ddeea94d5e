"""Wrong passwords, counted per game and role across all senders, with growing pauses: pure
functions of the failures already seen and `now`.

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

A right password clears nothing: a guesser's streak survives the owner's sign-ons. Failures for
one role never pause another role, nor any other game. The caller keeps the table
(`judge.commands.store_access` beside the game, under its lock) and passes it in, as `ratelimit`
does for replies.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True)
class Policy:
    """The judgekeeper's limits (`[passwords]` of judge.toml)."""

    free: int = 5  # failures of a streak before the first pause
    window: timedelta = timedelta(minutes=30)  # quiet time after a pause that ends a streak
    first_pause: timedelta = timedelta(minutes=1)
    max_pause: timedelta = timedelta(hours=24)


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
    """The table without the streaks a quiet window has ended, nor expired codes."""
    kept: Failures = {}
    for role, record in table.items():
        current, end = streak(record.failures, policy)
        if end is None or now >= end + policy.window:
            continue
        unlock = record.unlock if record.unlock is not None and now < record.unlock.until else None
        kept[role] = Record(tuple(current), unlock)
    return kept


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
    A file of the earlier form (failure times by sender, no role) is read as none: it named no
    role to pause."""
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

