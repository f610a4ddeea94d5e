"""How many replies one sender gets: a pure function of the replies already sent and the time.

A sender (or a robot forging one) who writes in a loop gets at most `limit` replies in any `window`;
the commands in the extra mails are still carried out, only the replies stop. The caller keeps the
history (times of replies sent to each address) and passes it in.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta


def recent(history: Iterable[datetime], now: datetime, window: timedelta) -> list[datetime]:
    """The reply times still inside the window ending at `now`, oldest first."""
    return sorted(t for t in history if now - window < t <= now)


def may_reply(history: Iterable[datetime], now: datetime, limit: int, window: timedelta) -> bool:
    """Whether one more reply may go to a sender who was answered at the times in `history`."""
    return len(recent(history, now, window)) < limit


def pruned(histories: Mapping[str, Iterable[datetime]], now: datetime,
           window: timedelta) -> dict[str, list[datetime]]:
    """Every sender's history without the times that no longer count (senders left with none go)."""
    kept = {sender: recent(times, now, window) for sender, times in histories.items()}
    return {sender: times for sender, times in kept.items() if times}
