"""A change of a game in flight, so that a crash at any instant leaves the game as it was or as it is
after the change, with its results log and its mails to match.

Before a change that appends to the results archive, cuts it (a rollback) or sends mail,
`<games>/.journal/<game>.json` is written (atomically): the digest of the status as it was, the
status after, the length of the archive to keep and the entries to append, and the mails (outbox
id and bytes). Writing it is the change's commit point.
`complete` carries it out at once, and `replay` (under the game's lock, before the game is
read) completes it from whatever state a crash left: the status rolled forward, the log cut back to
its length and the records appended, the mails handed to `deliver` (the outbox takes each id once,
so a mail handed over twice is sent once); then the journal goes. A change written with mails but
no outbox to hand them to does all but the mails and leaves the journal, marked done, for the next
cycle to deliver. A journal whose game's status is neither the one before nor the one
after (edited by hand in between) is dropped with a warning, unless it was already marked done.

A change made by a mail carries the mail's receipt (`<games>/.receipts/<name>`: the replies and
notices the mail called for), written by `complete` after the status and the results log: a receipt
on file goes with its change made, and a mail processed again after a crash is answered from it
instead of being carried out a second time (`judge.runtime.inbox`). `prune_receipts` drops old ones.

A change may carry press messages to keep for the game's pages (`judge.runtime.press_file`), kept
after the results log and before the receipt; a change of press alone leaves the status as it is
(its `after` is None). A Crystal Ball phase's locked lists are added to the game's `lists` file
with the results log, the file's length before them kept in the entry as the archive's is.
"""
from __future__ import annotations

import base64
import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from judge.runtime import press_file
from judge.runtime.store import (
    GameDir,
    PathRefused,
    atomic_write,
    file_stat,
    fsync_dir,
    make_folder,
    names_in,
    read_bytes,
    read_text,
    remove,
)

log = logging.getLogger("judge.journal")

FOLDER = ".journal"
RECEIPTS = ".receipts"
Mails = Sequence[tuple[str, bytes]]  # (outbox id, the mail's bytes)
Deliver = Callable[[Mails], None]
Entry = dict[str, Any]  # a journal file's content


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def status_digest(game: GameDir) -> str | None:
    """The digest of the status on file, from its bytes (None when there is none): a status that
    is not UTF-8 is still known for what it is."""
    try:
        return hashlib.sha256(game.status_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def path_of(game: GameDir) -> Path:
    return game.path.parent / FOLDER / f"{game.name}.json"


def pending(root: Path) -> list[str]:
    """The games with a change in flight (their journals), by name."""
    try:
        return sorted(name[:-5] for name in names_in(root / FOLDER, root) if name.endswith(".json"))
    except FileNotFoundError:
        return []


def write(game: GameDir, after: str | None, records: str, mails: Mails,
          receipt: tuple[str, bytes] | None = None, length: int | None = None,
          press: tuple[Sequence[dict[str, Any]], int] = ((), 0), lists: str = "") -> Entry:
    """Record the change from the status on file to `after` (None: the status stays; its commit
    point); `complete` then carries it out. `receipt`: (name, bytes) of the receipt of the mail
    that made the change. `length`: the bytes of the results archive to keep before the records
    (a rollback cuts it; default: all of it). `press`: the press records to keep, and how many
    the game keeps at most. `lists`: the text to add to the game's lists file."""
    entry: Entry = {"before": status_digest(game) or digest(""), "after": after, "done": False,
                    "length": game.results_size() if length is None else length,
                    "records": records,
                    "mails": [[key, base64.b64encode(raw).decode("ascii")] for key, raw in mails]}
    if receipt is not None:
        entry["receipt"] = [receipt[0], base64.b64encode(receipt[1]).decode("ascii")]
    if press[0]:
        entry["press"], entry["press_limit"] = list(press[0]), press[1]
    if lists:
        entry["lists"], entry["lists_length"] = lists, game.lists_size()
    path = path_of(game)
    make_folder(path.parent, game.root)
    atomic_write(path, json.dumps(entry).encode("utf-8"), root=game.root)
    return entry


def replay(game: GameDir, deliver: Deliver | None = None) -> str | None:
    """Complete the game's change in flight, if any (see the module's doc); the name of the
    receipt that completing it wrote, if any."""
    path = path_of(game)
    try:
        entry = json.loads(read_text(path, game.root))
    except FileNotFoundError:
        return None
    except PathRefused:  # a symlink where the journal is: refused, neither followed nor dropped
        raise
    except (OSError, ValueError) as exc:
        log.error("game %s: unreadable journal %s dropped: %s", game.name, path, exc)
        _drop(path, game.root)
        return None
    return complete(game, entry, deliver)


def complete(game: GameDir, entry: Entry, deliver: Deliver | None = None) -> str | None:
    """Carry out the journal's `entry` (as `write` made it, or as read back after a crash) from
    whatever state a crash left; the name of the receipt it wrote, if any."""
    path = path_of(game)
    written = None
    if not entry["done"]:
        if not _status_forward(game, entry["before"], entry["after"]):
            log.warning("game %s: its status changed by hand since a change in flight; the "
                        "change (and its mails) dropped", game.name)
            _drop(path, game.root)
            return None
        _complete_results(game, entry["length"], entry["records"])
        if entry.get("lists"):
            game.keep_lists(entry["lists_length"], entry["lists"])
        if entry.get("press"):
            press_file.keep(game, entry["press"], entry["press_limit"])
        if "receipt" in entry:  # last: a receipt on file goes with its change made
            written, raw = entry["receipt"]
            write_receipt(game.path.parent, written, base64.b64decode(raw))
        entry.update(done=True, records="", press=[], lists="")
        if entry["mails"] and deliver is None:
            atomic_write(path, json.dumps(entry).encode("utf-8"), root=game.root)
            return written
    if entry["mails"]:
        if deliver is None:
            return written
        deliver([(key, base64.b64decode(raw)) for key, raw in entry["mails"]])
    _drop(path, game.root)
    return written


def _status_forward(game: GameDir, before: str, after: str | None) -> bool:
    """The status rolled forward to `after` (None, press alone: it stays as it is); False when
    it is neither the one before nor the one after."""
    if after is None:
        return True
    current = status_digest(game) or ""
    if current == before:
        game.write_status(after)
    return current in (before, digest(after))


def _complete_results(game: GameDir, length: int, records: str) -> None:
    """The archive as it was (`length` bytes: a rollback's cut, or its length before the change),
    then the records: whatever part of them a crash already wrote goes. An archive that already
    ends with them (rewritten whole, in UTF-8, to take them) is done."""
    if records and game.read_results().endswith(records):
        return
    if game.results_size() > length:
        game.cut_results(length)
    if records:
        game.append_results(records)


def _drop(path: Path, root: Path) -> None:
    remove(path, root, missing_ok=True)
    fsync_dir(path.parent)


def replay_orphan(root: Path, name: str, deliver: Deliver | None) -> None:
    """The journal of a game that is gone (renamed or purged since): its mails, when its change
    was done, are still delivered; anything else of it goes."""
    path = root / FOLDER / f"{name}.json"
    try:
        entry = json.loads(read_text(path, root))
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        entry = {}
    if entry.get("done") and entry.get("mails"):
        if deliver is None:
            return
        deliver([(key, base64.b64decode(raw)) for key, raw in entry["mails"]])
    _drop(path, root)


# -- receipts ------------------------------------------------------------------------------------------
def write_receipt(root: Path, name: str, data: bytes) -> None:
    folder = root / RECEIPTS
    make_folder(folder, root)
    atomic_write(folder / name, data, root=root)


def read_receipt(root: Path, name: str) -> bytes | None:
    """The receipt `name`, if on file. One still in a journal is written when the journal's game
    is next read under its lock (`replay`): the inbox runner reads a game so before it runs a mail
    against it, and answers from the receipt then (`judge.runtime.inbox`)."""
    try:
        return read_bytes(root / RECEIPTS / name, root)
    except FileNotFoundError:
        return None


def prune_receipts(root: Path, before: float) -> None:
    """Drop the receipts written before `before` (seconds since the epoch)."""
    folder = root / RECEIPTS
    try:
        names = names_in(folder, root)
    except (FileNotFoundError, PathRefused):  # none, or a symlink: refused (and logged)
        return
    for name in names:
        try:
            if file_stat(folder / name, root).st_mtime < before:
                remove(folder / name, root)
        except FileNotFoundError:
            continue
