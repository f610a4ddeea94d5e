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
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from judge.notices import Press
from judge.game.press_kept import Kept, from_record, to_record
from judge.runtime.store import GameDir, PathRefused, atomic_write, read_text

PRESS_FILE = "press.json"
log = logging.getLogger("judge.press")


def newest_first(game: GameDir) -> Iterator[Kept]:
    """The game's kept messages, newest first, each read as it is reached (a page needs only the
    newest few); a damaged line is logged and passed over."""
    for line in reversed(_lines(game)):
        try:
            yield from_record(json.loads(line))
        except (KeyError, TypeError, ValueError) as exc:
            log.error("game %s: a kept press line is damaged: %s", game.name, exc)


def records_of(game: GameDir, events: Sequence[object], now: datetime) -> list[dict[str, Any]]:
    """The records of the press messages among `events`, numbered on from the last kept."""
    if not any(isinstance(event, Press) for event in events):
        return []
    lines = _lines(game)
    number = _number(lines[-1]) if lines else 0
    when = now.isoformat(timespec="seconds")
    records = []
    for event in events:
        if isinstance(event, Press):
            number += 1
            records.append(to_record(Kept(number, str(event.phase), when, event.sender,
                                          event.routing, event.body, event.official)))
    return records


def keep(game: GameDir, records: Sequence[dict[str, Any]], limit: int) -> None:
    """Add the records numbered past the last kept; keep the newest `limit`. The kept lines are
    carried over as they are, unread but for the last one's number."""
    lines = _lines(game)
    last = _number(lines[-1]) if lines else 0
    new = [json.dumps(r, ensure_ascii=False) for r in records if r["number"] > last]
    if not new:
        return
    lines = (lines + new)[-limit:] if limit > 0 else []
    atomic_write(game.path / PRESS_FILE, "".join(f"{line}\n" for line in lines).encode("utf-8"),
                 root=game.root)


def _lines(game: GameDir) -> list[str]:
    """The kept lines; none when there is no file, or one that cannot be read (logged: the next
    press kept replaces it, rather than the file holding up the game's change)."""
    try:
        text = read_text(game.path / PRESS_FILE, game.root)
    except FileNotFoundError:
        return []
    except (OSError, ValueError, PathRefused) as exc:
        log.error("game %s: its kept press cannot be read: %s", game.name, exc)
        return []
    return [line for line in text.splitlines() if line.strip()]


def _number(line: str) -> int:
    """A kept line's number; 0 when it has none (damaged by hand: the numbers start again)."""
    try:
        number = json.loads(line)["number"]
    except (KeyError, TypeError, ValueError):
        return 0
    return number if isinstance(number, int) else 0
