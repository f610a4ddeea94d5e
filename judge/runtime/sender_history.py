"""What the judge keeps of each sender, one small file a sender in a folder of its own (its name
a digest of the address): the times he was answered (`ReplyHistory`, the reply limit's), the
games he created (`created_games`, in the games' root), the CPU his mail cost (`cpu_use`). Each
file is read, and rewritten when what it holds changes, under its own lock (the daemon and `judge
mail` may work at once), so the cost of a mail does not grow with the number of senders. The files are not fsynced: they
only limit, and a crash that forgets their last seconds lets a sender have a little more. Neither
a folder nor a file in it is followed if a symlink.

The reply limit itself is a pure function of the times kept (`allowance`): a sender (or a robot
forging one) who writes in a loop gets at most `limit` replies in any `window`; the commands in
the extra mails are still carried out, only the replies stop. Every copy of a reply counts: a
reply to the sender with copies to a power's four addresses costs five."""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO

from judge.commands.session import Settings
from judge.runtime.store import PathRefused, file_stat, make_folder, names_in, open_file, remove

HISTORY_FOLDER = "reply-history"
CREATED_FOLDER = ".created"  # at the games' root: a PURGE does not give a game back
CPU_FOLDER = "cpu-use"
CPU_WINDOW = timedelta(hours=1)
Entries = list[tuple[datetime, str]]


def recent(history: Iterable[datetime], now: datetime, window: timedelta) -> list[datetime]:
    """The times still inside the window ending at `now`, oldest first."""
    return sorted(t for t in history if now - window < t <= now)


def allowance(history: Iterable[datetime], now: datetime, limit: int, window: timedelta,
              wanted: int) -> int:
    """How many of `wanted` copies of a reply may go out now for a sender answered at the times in
    `history` (each copy sent is one time in it)."""
    return max(0, min(wanted, limit - len(recent(history, now, window))))


class SenderTimes:
    """Times (each with a key) kept per sender in `folder`, below `base`, for `window`."""

    def __init__(self, folder: Path, window: timedelta, base: Path | None = None):
        self.folder = folder
        self.base = folder.parent if base is None else base
        self.window = window

    def read(self, sender: str, now: datetime) -> Entries:
        """The sender's entries inside the window ending at `now`, oldest first."""
        try:
            fd = open_file(self.folder / history_name(sender), os.O_RDONLY, self.base)
        except (FileNotFoundError, PathRefused):
            return []
        with open(fd, encoding="utf-8") as handle:
            return self.inside(read_entries(handle.read()), now)

    @contextlib.contextmanager
    def updating(self, sender: str, now: datetime) -> Iterator[Entries]:
        """The sender's entries inside the window, under his file's lock; the list as the block
        leaves it is written back, when it differs from the file's text (a sender's reply
        granted again, or denied, leaves his file untouched)."""
        with open(self.open_history(sender), "r+", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # (not "a+" above: its writes go at the end)
            handle.seek(0)
            text = handle.read()
            entries = self.inside(read_entries(text), now)
            yield entries
            kept = "".join(f"{time.isoformat()} {key}".rstrip() + "\n" for time, key in entries)
            if kept != text:
                rewrite(handle, kept)

    def open_history(self, sender: str) -> int:
        """A descriptor of the sender's file, made (and its folders) if missing; the folders
        are made only then, not at every mail."""
        path = self.folder / history_name(sender)
        try:
            return open_file(path, os.O_RDWR | os.O_CREAT, self.base)
        except FileNotFoundError:
            self.base.mkdir(parents=True, exist_ok=True)
            make_folder(self.folder, self.base)
            return open_file(path, os.O_RDWR | os.O_CREAT, self.base)

    def inside(self, entries: Entries, now: datetime) -> Entries:
        kept = set(recent([time for time, _ in entries], now, self.window))
        return sorted(entry for entry in entries if entry[0] in kept)

    def prune(self, now: datetime) -> int:
        """Forget the senders with nothing recorded within the window ending at `now`; how many."""
        before = (now - self.window).timestamp()
        removed = 0
        try:
            names = names_in(self.folder, self.base)
        except (FileNotFoundError, PathRefused):  # none, or a symlink: refused (and logged)
            return 0
        for name in names:
            with contextlib.suppress(FileNotFoundError):
                if file_stat(self.folder / name, self.base).st_mtime < before:
                    remove(self.folder / name, self.base)
                    removed += 1
        return removed


class ReplyHistory(SenderTimes):
    """When each sender was answered, one time a copy of a reply, each kept with its reply's key:
    a mail handled again (after a failure that kept it from being answered) is not counted twice.
    A reply never waits for the disk for it."""

    def __init__(self, folder: Path, settings: Settings):
        super().__init__(folder, settings.reply_window)
        self.limit = settings.replies_per_window
        self.signed_limit = settings.signed_replies_per_window

    def allow(self, sender: str, now: datetime, *, signed: bool = False) -> bool:
        """Whether `sender` may get one more reply now; if so, the reply is recorded."""
        return self.grant(sender, now, 1, signed=signed) == 1

    def grant(self, sender: str, now: datetime, wanted: int, key: str = "", *,
              signed: bool = False) -> int:
        """How many of `wanted` copies of a reply may go out now on `sender`'s account; those
        are recorded, one time each, under `key` (the reply's own): a reply already recorded
        under it is granted as many copies as then, and costs nothing more. A reply to a mail
        that gave a right password (`signed`) has its own, higher limit: strangers' mail "from"
        a player cannot silence him."""
        with self.updating(sender, now) as entries:
            before = sum(1 for _, known in entries if key and known == key)
            if before:
                return min(before, wanted)
            limit = self.signed_limit if signed else self.limit
            granted = allowance([time for time, _ in entries], now, limit, self.window, wanted)
            entries += [(now, key)] * granted
            return granted


def created_games(root: Path) -> SenderTimes:
    """The games each sender created in the last day, kept at the games' root `root` (each time
    with the game's name)."""
    return SenderTimes(root / CREATED_FOLDER, timedelta(days=1), root)


def cpu_use(spool: Path) -> SenderTimes:
    """The CPU each sender's mail cost in the last hour, kept in the spool folder `spool`: each
    mail's milliseconds kept with the time it was processed."""
    return SenderTimes(spool / CPU_FOLDER, CPU_WINDOW)


def record_cpu(use: SenderTimes, sender: str, now: datetime, seconds: float) -> None:
    """Count `seconds` of CPU against `sender`'s share at `now`. What rounds to no millisecond
    (a robot's mail dropped from its headers) adds nothing to his share and is not written: a
    flood of such mail would otherwise make each mail read and rewrite a file of the whole hour's."""
    milliseconds = round(seconds * 1000)
    if not milliseconds:
        return
    with use.updating(sender, now) as entries:
        entries.append((now, str(milliseconds)))


def cpu_seconds(use: SenderTimes, sender: str, now: datetime) -> float:
    """The CPU `sender`'s mail cost in the hour before `now`."""
    return sum(int(key) for _, key in use.read(sender, now) if key.isdigit()) / 1000


def rewrite(handle: IO[str], text: str) -> None:
    """Replace the file's text in place: written over, then cut to its length, never to 0 first
    (ext4 flushes a file cut to 0 when it is closed: milliseconds a reply)."""
    handle.seek(0)
    handle.write(text)
    handle.truncate()


def history_name(sender: str) -> str:
    return hashlib.sha256(sender.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def read_entries(text: str) -> Entries:
    """The times of a sender's file (`<time> <key>` a line, or a time alone), each with its key;
    a line a crash cut short (or anything unreadable) is left out."""
    entries = []
    for line in text.splitlines():
        stamp, _, key = line.partition(" ")
        try:
            time = datetime.fromisoformat(stamp)
        except ValueError:
            continue
        if time.tzinfo is not None:
            entries.append((time, key.strip()))
    return entries
