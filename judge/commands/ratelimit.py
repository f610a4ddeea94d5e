"""How many replies one sender gets: a pure function of the replies already sent and the time.

A sender (or a robot forging one) who writes in a loop gets at most `limit` replies in any `window`;
the commands in the extra mails are still carried out, only the replies stop. Every copy of a reply
counts: a reply to the sender with copies to a power's four addresses costs five. The caller keeps
the history (times of replies sent to each address) and passes it in.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta


def recent(history: Iterable[datetime], now: datetime, window: timedelta) -> list[datetime]:
    """The reply times still inside the window ending at `now`, oldest first."""
    return sorted(t for t in history if now - window < t <= now)


def allowance(history: Iterable[datetime], now: datetime, limit: int, window: timedelta,
              wanted: int) -> int:
    """How many of `wanted` copies of a reply may go out now for a sender answered at the times in
    `history` (each copy sent is one time in it)."""
    return max(0, min(wanted, limit - len(recent(history, now, window))))


def pruned(histories: Mapping[str, Iterable[datetime]], now: datetime,
           window: timedelta) -> dict[str, list[datetime]]:
    """Every sender's history without the times that no longer count (senders left with none go)."""
    kept = {sender: recent(times, now, window) for sender, times in histories.items()}
    return {sender: times for sender, times in kept.items() if times}
