"""Durable queues of raw `.eml` files: the inbox and the outbox (GNU Mailman 3's switchboards).

One file per message, named `<arrival>-<failures>-<id>.eml`, so a sorted listing is the arrival
order. `put` writes a temporary file, fsyncs it, renames it into place and fsyncs the folder, so a
message is either wholly there or not at all. A worker `claim`s a message (renamed to `.bak`) while
it works on it; `done` moves it to `done/` (kept a while: an audit trail, and the memory of which
ids were already handled); `retry` puts it back with one more failure, and the third failure moves
it to the `bad/` folder (`failed/` for the outbox), where nothing is lost. After a crash, `recover`
puts every `.bak` back as a failure, so an unfinished message is processed again and a message that
kills the worker every time ends in `bad/` instead of looping. The outbox counts no crash against
a mail (`crash_counts=False`): sending one cannot kill the judge (its pictures are drawn in a
child process), so a crash while it was being sent is put back as it was. Whoever moves a message
to the bad folder need not tell the judgekeeper at once: `untold` lists the ones not told of yet (a
marker in `bad/.told/` once they are), so an alert the disk could not take is sent later, and
once; the reason it was moved there is kept beside it (`bad/.reasons/`), for that alert.

Ids are deterministic when the caller gives them (an outgoing mail's id comes from its Message-ID):
putting an id that is already waiting, claimed, done or failed does nothing, so a step that is
retried never sends a mail twice. Each such id has an empty marker file `.ids/<id>`, made (and made
durable) before the message itself, so that a new id is known new at the cost of one `stat`, however
much mail `done/` holds; a marker whose message is nowhere (a put a crash cut short) is looked into
and the message put again. A spool from before the markers gets them all at its first put.

The spool's folder lives in the judge's spool folder (its parent, `base`, which may be a symlink the
judgekeeper made); nothing below that is followed through a symlink (`judge.runtime.store`): a queue, its
`done/` or `bad/` folder, a message or a marker that is a symlink is refused, never read or written.
"""
from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import secrets
import shutil
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message
from pathlib import Path

from judge.runtime.config import Config
from judge.runtime.store import (
    STALE_TMP_SECONDS,
    PathRefused,
    atomic_write,
    file_stat,
    fsync_dir,
    make_folder,
    names_in,
    open_file,
    read_bytes,
    remove,
    remove_stale_tmp,
    rename,
)

log = logging.getLogger("judge.spool")

WAITING = ".eml"
CLAIMED = ".bak"
DONE_DIR = "done"
IDS_DIR = ".ids"
TOLD_DIR = ".told"  # in the bad folder: one marker a message the judgekeeper was told of
STOPPED = "the judge stopped while it was being processed (a crash, or killed)"
REASONS_DIR = ".reasons"  # in the bad folder: why each message there was moved there
MAX_FAILURES = 3
ID_CHARS = re.compile(r"[A-Za-z0-9_.=@+-]{1,160}")
NAME = re.compile(r"(\d{20})-(\d+)-(" + ID_CHARS.pattern + r")(\.eml|\.bak)")


class SpoolError(Exception):
    """A spool id or file name that cannot be used."""


@dataclass(frozen=True)
class Item:
    """One queued message: where it is, when it arrived, how often processing failed, its id."""

    path: Path
    arrival_ns: int
    failures: int
    id: str

    @property
    def arrived(self) -> datetime:
        return datetime.fromtimestamp(self.arrival_ns / 1e9, UTC)

    @property
    def claimed(self) -> bool:
        return self.path.suffix == CLAIMED

    def renamed(self, folder: Path, failures: int, suffix: str) -> Item:
        name = f"{self.arrival_ns:020d}-{failures}-{self.id}{suffix}"
        return Item(folder / name, self.arrival_ns, failures, self.id)


def item_at(path: Path) -> Item | None:
    match = NAME.fullmatch(path.name)
    if not match:
        return None
    return Item(path, int(match.group(1)), int(match.group(2)), match.group(3))


def safe_id(text: str) -> str:
    """A spool id made from any text (a Message-ID, say): kept readable when it can be."""
    cleaned = re.sub(r"[^A-Za-z0-9_.=@+-]", "_", text.strip().strip("<>"))
    return cleaned[:160] or secrets.token_hex(8)


def outbox_id(msg: Message) -> str:
    """The outbox key of a mail: its Message-ID, so the same mail is queued once."""
    return safe_id(str(msg.get("Message-ID", "")))


class Spool:
    """One queue folder: `<root>/*.eml` waiting, `*.bak` claimed, `done/`, and the `bad` folder."""

    def __init__(self, root: Path, bad: str = "bad", max_failures: int = MAX_FAILURES,
                 crash_counts: bool = True):
        self.root = Path(root)
        self.crash_counts = crash_counts  # whether a message a crash left claimed counts a failure
        self.base = self.root.parent  # the judge's spool folder: trusted, symlink or not
        self.bad_dir = self.root / bad
        self.done_dir = self.root / DONE_DIR
        self.max_failures = max_failures
        self._put_lock = threading.Lock()
        self._root_sync = FolderSync(self.root)

    def create(self) -> Spool:
        self.base.mkdir(parents=True, exist_ok=True)
        for folder in (self.root, self.done_dir, self.bad_dir):
            make_folder(folder, self.base)
        self._told()
        return self

    # -- writing -------------------------------------------------------------------------------
    def put(self, raw: bytes, id: str | None = None) -> Item | None:
        """Store `raw` durably; None (and nothing written) when `id` is already known here."""
        if id is not None and not ID_CHARS.fullmatch(id):
            raise SpoolError(f"not a usable spool id: {id!r}")
        if not self.root.is_dir():
            self.create()
        if id is None:  # a fresh id is nobody else's: no lock, so that puts go in parallel
            item = Item(Path(), time.time_ns(), 0, new_id()).renamed(self.root, 0, WAITING)
            atomic_write(item.path, raw, sync_folder=False, root=self.base)
            self._root_sync.sync()
            return item
        return self.put_many([(raw, id)])[0]

    def put_many(self, entries: Sequence[tuple[bytes, str]]) -> list[Item | None]:
        """`put` of each (raw, id) in turn, in that order, made durable together: the markers of
        the new ids with one fsync of their folder, then each message written and fsynced, and
        one fsync of the queue's folder for them all. None for an id already known (or given
        twice). A crash before the end loses only messages not yet acknowledged, whose markers
        let them be put again."""
        for _, id in entries:
            if not ID_CHARS.fullmatch(id):
                raise SpoolError(f"not a usable spool id: {id!r}")
        if not self.root.is_dir():
            self.create()
        with self._put_lock, self._folder_lock():
            ids = self._ids()
            new: list[tuple[bytes, str] | None] = []
            seen: set[str] = set()
            for raw, id in entries:
                if id in seen or (self._exists(ids / id) and self.find(id) is not None):
                    new.append(None)
                    continue
                seen.add(id)
                self._touch(ids / id)
                new.append((raw, id))
            if not any(new):
                return [None] * len(new)
            fsync_dir(ids)
            items: list[Item | None] = []
            for entry in new:
                item = None
                if entry is not None:
                    item = Item(Path(), time.time_ns(), 0, entry[1]).renamed(self.root, 0, WAITING)
                    atomic_write(item.path, entry[0], sync_folder=False, root=self.base)
                items.append(item)
            fsync_dir(self.root)
            return items

    def _ids(self) -> Path:
        """The markers' folder, made (with a marker for every message already here) if need be."""
        folder = self.root / IDS_DIR
        if not self._exists(folder):
            building = self.root / f"{IDS_DIR}.{os.getpid()}.tmp"
            make_folder(building, self.base)
            try:
                for item in self.waiting() + self.claimed() + self.finished() + self.failed():
                    self._touch(building / item.id)
                fsync_dir(building)
                rename(building, folder, self.base)
            except BaseException:
                shutil.rmtree(building, ignore_errors=True)  # never follows a symlink
                raise
            fsync_dir(self.root)
        return folder

    def _exists(self, path: Path) -> bool:
        """Whether something is at `path` (a symlink there counts, and is refused when used)."""
        try:
            file_stat(path, self.base)
        except FileNotFoundError:
            return False
        return True

    def _touch(self, path: Path) -> None:
        os.close(open_file(path, os.O_WRONLY | os.O_CREAT, self.base))

    # -- reading -------------------------------------------------------------------------------
    def waiting(self) -> list[Item]:
        """Messages waiting to be processed, oldest first."""
        return self._items(self.root, WAITING)

    def claimed(self) -> list[Item]:
        return self._items(self.root, CLAIMED)

    def failed(self) -> list[Item]:
        return self._items(self.bad_dir, WAITING)

    def finished(self) -> list[Item]:
        return self._items(self.done_dir, WAITING)

    def find(self, id: str) -> Item | None:
        """The message with this id, wherever it is (waiting, claimed, done or failed). One listing
        of each folder, names compared as strings: `done/` holds a month of mail."""
        endings = (f"-{id}{WAITING}", f"-{id}{CLAIMED}")
        for folder in (self.root, self.done_dir, self.bad_dir):
            try:
                names = names_in(folder, self.base)
            except FileNotFoundError:
                continue
            for name in names:
                if name.endswith(endings):
                    item = item_at(folder / name)
                    if item is not None and item.id == id:
                        return item
        return None

    @staticmethod
    def read(item: Item) -> bytes:
        """The message's bytes; neither it nor its queue's folder is followed if a symlink."""
        return read_bytes(item.path, item.path.parent.parent)

    # -- moving --------------------------------------------------------------------------------
    def claim(self, item: Item) -> Item:
        """Mark `item` as being worked on (raises FileNotFoundError if another worker took it)."""
        claimed = item.renamed(self.root, item.failures, CLAIMED)
        rename(item.path, claimed.path, self.base)
        return claimed

    def done(self, item: Item) -> Item:
        """The work on `item` is done: keep it in `done/` (the ids there are remembered)."""
        return self._move(item, self.done_dir, item.failures)

    def done_many(self, items: Sequence[Item]) -> list[Item]:
        """`done` of each, the moves made durable together (one fsync of each folder)."""
        return self._move_many(items, self.done_dir)

    def retry(self, item: Item, reason: str = "") -> Item:
        """Processing failed once more (`reason`: why): back in the queue, or in the bad folder
        at the limit, the reason kept beside it as `fail` keeps it when the disk takes it (the
        mail goes aside all the same)."""
        failures = item.failures + 1
        if failures >= self.max_failures:
            with contextlib.suppress(OSError):
                self._keep_reason(item, failures, reason)
            return self._move(item, self.bad_dir, failures)
        return self._move(item, self.root, failures)

    def fail(self, item: Item, reason: str = "") -> Item:
        """Give up on `item` now: it goes to the bad folder (`failed/` for the outbox), `reason`
        (one line, say) kept beside it for `reason_of`."""
        self._keep_reason(item, item.failures, reason)
        return self._move(item, self.bad_dir, item.failures)

    def _keep_reason(self, item: Item, failures: int, reason: str) -> None:
        if reason:
            target = item.renamed(self.bad_dir, failures, WAITING)
            folder = self.bad_dir / REASONS_DIR
            make_folder(self.bad_dir, self.base)
            make_folder(folder, self.base)
            atomic_write(folder / target.path.stem, reason.encode(), root=self.base)

    def reason_of(self, item: Item) -> str:
        """Why `item` (in the bad folder) was moved there; "" when that was not recorded."""
        try:
            return read_bytes(self.bad_dir / REASONS_DIR / item.path.stem,
                              self.base).decode(errors="replace")
        except FileNotFoundError:
            return ""

    def release(self, item: Item) -> Item:
        """Put a claimed message back as it was, without counting a failure (a deferred mail)."""
        return self._move(item, self.root, item.failures)

    def recover(self, stale_tmp_seconds: float = STALE_TMP_SECONDS) -> list[Item]:
        """At start: every message left claimed by a crash is put back, one failure counted
        when crashes count; temporary files a crashed `put` left behind go (they were never
        acknowledged)."""
        with contextlib.suppress(FileNotFoundError):
            remove_stale_tmp(self.root, time.time(), stale_tmp_seconds, self.base)
        if not self.crash_counts:
            return [self.release(item) for item in self.claimed()]
        return [self.retry(item, STOPPED) for item in self.claimed()]

    # -- telling the judgekeeper -----------------------------------------------------------------
    def untold(self) -> list[Item]:
        """The messages in the bad folder the judgekeeper has not been told of, oldest first. The
        marker of a message no longer there goes (one put back that fails again is told again)."""
        markers = self._told()
        failed = self.failed()
        names = {item.path.stem for item in failed}
        for name in self._names(markers):
            if name not in names:
                remove(markers / name, self.base, missing_ok=True)
        return [item for item in failed if not self._exists(markers / item.path.stem)]

    def told(self, item: Item) -> None:
        """The judgekeeper has been told of `item` (in the bad folder): not again. Not fsynced: a
        marker a crash loses means one more alert, which the outbox takes once (its id)."""
        self._touch(self._told() / item.path.stem)

    def _told(self) -> Path:
        """The markers' folder; made with a marker for each message already in the bad folder (a
        spool from before the markers: the judgekeeper heard of those then)."""
        folder = self.bad_dir / TOLD_DIR
        if not self._exists(folder):
            make_folder(self.bad_dir, self.base)
            building = self.bad_dir / f"{TOLD_DIR}.{os.getpid()}.tmp"
            shutil.rmtree(building, ignore_errors=True)
            make_folder(building, self.base)
            try:
                for item in self.failed():
                    self._touch(building / item.path.stem)
                rename(building, folder, self.base)
            except BaseException:
                shutil.rmtree(building, ignore_errors=True)
                if not self._exists(folder):  # else another process made it meanwhile
                    raise
        return folder

    def prune(self, older_than_ns: int) -> int:
        """Forget done messages that arrived before `older_than_ns`; how many were removed."""
        removed = 0
        with contextlib.suppress(PathRefused):  # a symlinked folder: refused (and logged)
            for item in self.finished():
                if item.arrival_ns < older_than_ns:
                    with contextlib.suppress(FileNotFoundError):
                        remove(item.path, self.base)
                        removed += 1
                    remove(self.root / IDS_DIR / item.id, self.base, missing_ok=True)
        return removed

    # -- helpers -------------------------------------------------------------------------------
    def _move(self, item: Item, folder: Path, failures: int) -> Item:
        return self._move_many([item], folder, failures)[0]

    def _move_many(self, items: Sequence[Item], folder: Path, failures: int | None = None
                   ) -> list[Item]:
        """Move each item into `folder` (with `failures`, or its own), then fsync each folder
        touched once."""
        if not items:
            return []
        make_folder(folder, self.base)
        moved = []
        for item in items:
            moved.append(item.renamed(folder, item.failures if failures is None else failures,
                                      WAITING))
            rename(item.path, moved[-1].path, self.base)
        for touched in dict.fromkeys([folder, *(item.path.parent for item in items)]):
            fsync_dir(touched)
        return moved

    def _items(self, folder: Path, suffix: str) -> list[Item]:
        names = sorted(self._names(folder))
        items = (item_at(folder / name) for name in names if name.endswith(suffix))
        return [item for item in items if item is not None]

    def _names(self, folder: Path) -> list[str]:
        try:
            return names_in(folder, self.base)
        except FileNotFoundError:
            return []

    @contextlib.contextmanager
    def _folder_lock(self):
        """Serialise `put` between processes (the daemon and a `judge` command run by hand)."""
        lock = open_file(self.root / ".lock", os.O_RDWR | os.O_CREAT, self.base)
        with open(lock, "r+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


class FolderSync:
    """fsync of one folder, shared by the threads that ask for it at once (a group commit): a
    caller returns once a sync that began after its call has ended, so whatever it renamed into
    the folder before calling is durable. While one sync runs, the callers that come meanwhile
    wait for it to end and are all served by the next one: parallel puts (the gateway's) pay
    one folder fsync among them instead of one each."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._changed = threading.Condition()
        self._begun = 0  # syncs begun
        self._ended = 0  # the number of the last sync ended
        self._running = False

    def sync(self) -> None:
        with self._changed:
            wanted = self._begun + 1  # the first sync to begin from now on
            while self._ended < wanted:
                if self._running:
                    self._changed.wait()
                    continue
                self._running = True
                self._begun += 1
                number = self._begun
                try:
                    self._changed.release()
                    try:
                        fsync_dir(self.folder)
                    finally:
                        self._changed.acquire()
                finally:
                    self._running = False
                    self._changed.notify_all()
                self._ended = number  # only once it succeeded: a failed sync serves nobody


def new_id() -> str:
    return secrets.token_hex(8)


# -- the judge's two spools ------------------------------------------------------------------------
INBOX, OUTBOX = "inbox", "outbox"
INBOX_BAD, OUTBOX_BAD = "bad", "failed"  # where a message nothing more can be done for goes


@dataclass(frozen=True)
class Spools:
    inbox: Spool
    outbox: Spool


def open_spools(config: Config, *, create: bool = True) -> Spools:
    """The judge's inbox and outbox in its spool folder (`config.paths.spool`), their folders made
    unless `create` is false (a look that must change nothing)."""
    root = Path(config.paths.spool)
    spools = Spools(inbox=Spool(root / INBOX, bad=INBOX_BAD),
                    outbox=Spool(root / OUTBOX, bad=OUTBOX_BAD, crash_counts=False))
    if create:
        spools.inbox.create()
        spools.outbox.create()
    return spools


def queue_mails(outbox: Spool, mails: Sequence[tuple[str, bytes]]) -> int:
    """Put built mails, (outbox id, bytes) each (`outbox_entries`), in the
    outbox, durable together; an id the outbox knows already is not put twice. How many were new.
    The one way into the outbox: the inbox runner's callers, the cycle, alerts all come here."""
    if not mails:
        return 0
    items = outbox.put_many([(raw, id) for id, raw in mails])
    for (id, _), item in zip(mails, items, strict=True):
        if item is None:
            log.info("%s is already in the outbox: not queued twice", id)
    return sum(item is not None for item in items)


def outbox_entries(mails: Iterable[Message]) -> list[tuple[str, bytes]]:
    """Built mails as the outbox takes them (`queue_mails`): (outbox id, bytes) each."""
    return [(outbox_id(m), bytes(m)) for m in mails]
