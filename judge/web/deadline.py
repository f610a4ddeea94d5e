"""The deadline as a page shows it: in the game's zone, in UTC, and in the reader's own zone when
the reader chose one (kept in the session; offered from the browser's zone where scripts run)."""
from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from zoneinfo import ZoneInfo, available_timezones

from judge.game.deadlines import current_deadline
from judge.status.model import GameStatus
from judge.timing import game_zone

READER_ZONE = "zone"  # the session's key for the zone the reader chose


@functools.cache
def zone_names() -> tuple[str, ...]:
    """The zones a reader may choose: the system's time zone database, sorted."""
    return tuple(sorted(available_timezones()))


def reader_zone(text: object) -> str | None:
    """The zone named by a form or a session, if it is one of `zone_names()`; else None."""
    return text if isinstance(text, str) and text in zone_names() else None


def deadlines(status: GameStatus, reader: str | None = None) -> list[str]:
    """The deadline in the game's zone, in UTC, and in the reader's zone when it is another;
    none without a deadline."""
    try:
        local = current_deadline(status)
        zone = game_zone(status.zone)
    except (ValueError, KeyError):
        return []
    if local is None:
        return []
    return _shown(local, (zone.key, "UTC", reader))


def moments(iso: str, reader: str | None = None) -> str:
    """A kept time (ISO, UTC) as the pages show times: in UTC, and in the reader's zone when the
    reader chose one; the text as it is when it is no time."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo("UTC"))
    return ", ".join(_shown(moment, ("UTC", reader)))


def _shown(moment: datetime, zones: Iterable[str | None]) -> list[str]:
    """The moment on the wall clock of each zone named (each once, in order), named after it."""
    return [f"{moment.astimezone(ZoneInfo(key)):%a %b %d %Y %H:%M} {key}"
            for key in dict.fromkeys(key for key in zones if key)]
