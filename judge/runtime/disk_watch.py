"""The judgekeeper told when the disk refuses the judge's writes, and when it takes them again.

A write the spool's or the games' disk refuses (full, over quota, read-only) holds accepted mail in
the inbox and makes the gateway answer `451`: nothing is lost, but nobody is answered. The daemon
reports each refusal here (`refused`) and each write that went through again (`wrote`); the
judgekeeper gets one alert when the disk first refuses (queued as soon as the outbox takes it: not
at all when the spool's own disk is full, as that alert could only be sent once the disk has room,
where the second alert says it all) and one when it took writes again, with how long it refused
and how many mails were delayed (each mail the inbox had to hold and each one the gateway answered
`451`, counted once per attempt, as the sending server tries again). The words:
templates/disk_alert.txt.
"""
from __future__ import annotations

import errno
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage

from judge.identity import JudgeSection
from judge.mailout.envelope import envelopes
from judge.mailout.notices.keeper import disk_alert
from judge.mailout.render import environment

log = logging.getLogger("judge.disk")

# a disk that refuses writes (not memory, descriptors or locks, which are not the disk's)
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})
KEY_TIME = "%Y%m%d%H%M%S"


def refused_write(exc: BaseException) -> OSError | None:
    """The disk's refusal `exc` is (or was raised from, or while handling), if it is one."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in DISK_ERRNOS:
            return current
        current = current.__cause__ or current.__context__
    return None


@dataclass
class DiskWatch:
    judge: JudgeSection
    clock: Callable[[], datetime]
    since: datetime | None = None  # when the disk first refused a write, while it does
    error: str = ""  # the first refusal's words
    held: set[str] = field(default_factory=set)  # inbox mails held meanwhile, by id
    answered_451: int = 0  # the gateway's refusals meanwhile
    by_inbox: bool = False  # the inbox's work was refused (only its own work tells it is over)
    told_full: bool = False  # the first alert is queued
    room: list[EmailMessage] = field(default_factory=list)  # recovery alerts not queued yet

    def refused(self, exc: BaseException, held: Iterable[str] = (), gateway: bool = False
                ) -> bool:
        """A write failed with `exc`: whether it was the disk refusing it (then counted, with the
        inbox mails it `held`, or one `451` of the `gateway`)."""
        refusal = refused_write(exc)
        if refusal is None:
            return False
        if self.since is None:
            self.since, self.error = self.clock(), str(refusal)
            log.error("the disk refuses the judge's writes: %s", refusal)
        self.held.update(held)
        self.answered_451 += gateway
        self.by_inbox = self.by_inbox or not gateway
        return True

    def wrote(self, gateway: bool = False) -> None:
        """A write went through (the gateway's: a mail stored; else the inbox's work) where the
        disk had refused one: the recovery's alert is made. A mail stored does not tell that the
        games' disk has room again, when the inbox's work was refused."""
        if self.since is None or (gateway and self.by_inbox):
            return
        delayed = len(self.held) + self.answered_451
        log.warning("the disk takes the judge's writes again; %d mails were delayed", delayed)
        self.room += self.alert(full=False, since=self.since, now=self.clock(), delayed=delayed)
        self.since, self.error, self.held, self.answered_451 = None, "", set(), 0
        self.by_inbox = self.told_full = False

    def pending(self) -> list[EmailMessage]:
        """The alerts to queue now: the first one, while not queued and the disk still refuses
        (the recovery's says it all), and those of recoveries. The caller queues them and then
        calls `queued`."""
        first = self.since is not None and not self.told_full
        return self.room + (self.alert(full=True, since=self.since, now=self.since, delayed=0)
                            if first and self.since is not None else [])

    def queued(self) -> None:
        """The outbox took the pending alerts."""
        self.told_full = self.since is not None
        self.room = []

    def alert(self, *, full: bool, since: datetime, now: datetime, delayed: int
              ) -> list[EmailMessage]:
        mailings = disk_alert(environment(), self.judge.keeper, self.judge.id, full=full,
                              since=since, now=now, error=self.error, delayed=delayed)
        key = f"alert-disk-{'full' if full else 'room'}-{since.strftime(KEY_TIME)}"
        return [message for mailing in mailings
                for message in envelopes(self.judge, mailing, now=now, key=key)]
