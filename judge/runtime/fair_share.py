"""The order the inbox worker takes waiting mail in: arrival order, except that the mail of a
sender whose mail cost more than his share of CPU in the last hour (`[limits]
cpu_seconds_per_sender_per_hour`, measured by the inbox runner: `sender_history.cpu_use`) waits
behind everyone else's. Nothing is dropped: once the others' mail is done, his is taken, in its
own order. The sender is read as the inbox runner reads him (`sender_of`), once a mail."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from judge.mailin.message import parse_headers, sender_of
from judge.runtime.sender_history import cpu_seconds, cpu_use
from judge.runtime.spool import Item


class FairShare:
    def __init__(self, spool: Path, share_seconds: int, read: Callable[[Item], bytes]):
        self.use = cpu_use(spool)
        self.share = share_seconds
        self.read = read
        self.senders: dict[str, str] = {}  # a waiting mail's id -> its sender

    def sender(self, item: Item) -> str:
        if item.id not in self.senders:
            try:
                self.senders[item.id] = sender_of(parse_headers(self.read(item)))
            except OSError:  # taken meanwhile, or unreadable: the runner finds out
                return ""
        return self.senders[item.id]

    def over(self, sender: str, now: datetime) -> bool:
        """Whether `sender`'s mail cost his whole share in the hour before `now`."""
        return cpu_seconds(self.use, sender, now) >= self.share

    def order(self, waiting: Sequence[Item], now: datetime) -> list[Item]:
        """`waiting` (in arrival order) with the mail of senders over their share last."""
        senders = {item.id: self.sender(item) for item in waiting}
        self.senders = {key: self.senders[key] for key in senders if key in self.senders}
        over = {sender for sender in set(senders.values()) if self.over(sender, now)}
        return sorted(waiting, key=lambda item: senders[item.id] in over)

    def waits(self, item: Item, now: datetime) -> bool:
        """Whether `item` should wait behind the mail of others (its sender is over his share)."""
        return self.over(self.sender(item), now)
