"""Wrong passwords, throttled per sender and game: a pure function of the failures already seen.

After `limit` wrong passwords from one sender for one game within `window`, that sender's password
checks for that game are refused unchecked (even a right password) until the oldest of those
failures is `window` old; a right password clears the sender's failures. The caller keeps the
failure times (`judge.commands.store_access` keeps them beside the game, under its lock) and passes
them in, as `ratelimit` does for replies.

Guessing from one address thus costs `limit` tries per `window`. A guesser forging many sender
addresses is not stopped by this (mail senders are not authenticated), but the same forgery cannot
lock a player out of other games, and a player locked out of his own game by someone forging his
address waits `window` at most.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

LIMIT = 5
WINDOW = timedelta(minutes=30)
Failures = dict[str, list[datetime]]  # sender -> times of wrong passwords


def recent(times: Iterable[datetime], now: datetime, window: timedelta = WINDOW) -> list[datetime]:
    return sorted(t for t in times if now - window < t <= now)


def blocked_until(times: Iterable[datetime], now: datetime, limit: int = LIMIT,
                  window: timedelta = WINDOW) -> datetime | None:
    """When the sender may try a password again (None: now)."""
    kept = recent(times, now, window)
    return kept[-limit] + window if len(kept) >= limit else None


def after_check(failures: Mapping[str, Iterable[datetime]], sender: str, now: datetime, matched: bool,
                window: timedelta = WINDOW) -> Failures:
    """The failures once `sender` gave a right (`matched`) or a wrong password at `now`; times
    outside the window forgotten, senders with none left dropped."""
    table = {s: recent(times, now, window) for s, times in failures.items()}
    if matched:
        table.pop(sender, None)
    else:
        table.setdefault(sender, []).append(now)
    return {s: times for s, times in table.items() if times}


def to_json(failures: Mapping[str, Iterable[datetime]]) -> str:
    return json.dumps({s: [t.isoformat() for t in times] for s, times in sorted(failures.items())})


def from_json(text: str) -> Failures:
    """The failures from their file; an unreadable file counts as none (it is only a throttle)."""
    try:
        data = json.loads(text) if text else {}
        table = {str(s): [datetime.fromisoformat(t) for t in times] for s, times in data.items()
                 if isinstance(times, list)}
        return {s: [t for t in times if t.tzinfo is not None] for s, times in table.items()}
    except (ValueError, TypeError, AttributeError):
        return {}
