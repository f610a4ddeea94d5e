"""The game's kept press, `press.json` in its folder (DPjudge reads no such file, and `judge
export` leaves it out): one JSON record a line, oldest first, each message as its routing decided
it (`judge.game.press_kept`).

The one writer (`judge.runtime.commit`) puts a mail's new messages in its journal entry with
their numbers (`records_of`); the journal's `complete` keeps them (`keep`), which adds only those
numbered past the last kept, so a change completed twice after a crash keeps each message once.
The file holds at most `[limits] press_kept_per_game` messages: the oldest go first.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from judge.commands.notices import Press
from judge.game.press_kept import Kept, from_record, to_record
from judge.runtime.store import GameDir, PathRefused, atomic_write, read_text

PRESS_FILE = "press.json"
log = logging.getLogger("judge.press")


def read_kept(game: GameDir) -> list[Kept]:
    """The game's kept messages, oldest first; none when there is no file. A file that cannot be
    read is logged and read as empty: the pages show no press rather than fail."""
    try:
        text = read_text(game.path / PRESS_FILE, game.root)
    except FileNotFoundError:
        return []
    except (OSError, ValueError, PathRefused) as exc:
        log.error("game %s: its kept press cannot be read: %s", game.name, exc)
        return []
    try:
        return [from_record(json.loads(line)) for line in text.splitlines() if line.strip()]
    except (KeyError, TypeError, ValueError) as exc:
        log.error("game %s: its kept press is damaged: %s", game.name, exc)
        return []


def records_of(game: GameDir, events: Sequence[object], now: datetime) -> list[dict[str, Any]]:
    """The records of the press messages among `events`, numbered on from the last kept."""
    if not any(isinstance(event, Press) for event in events):
        return []
    kept = read_kept(game)
    number = kept[-1].number if kept else 0
    when = now.isoformat(timespec="seconds")
    records = []
    for event in events:
        if isinstance(event, Press):
            number += 1
            records.append(to_record(Kept(number, str(event.phase), when, event.sender,
                                          event.routing, event.body, event.official)))
    return records


def keep(game: GameDir, records: Sequence[dict[str, Any]], limit: int) -> None:
    """Add the records numbered past the last kept; keep the newest `limit`."""
    kept = [to_record(k) for k in read_kept(game)]
    last = kept[-1]["number"] if kept else 0
    new = [r for r in records if r["number"] > last]
    if not new:
        return
    lines = [json.dumps(r, ensure_ascii=False) for r in (kept + new)[-limit:]] if limit > 0 else []
    atomic_write(game.path / PRESS_FILE, "".join(f"{line}\n" for line in lines).encode("utf-8"),
                 root=game.root)
