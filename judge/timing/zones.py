"""Wall clocks of game zones: DEADLINE text, the DST policy, the twenty-minute cycle."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC = timezone.utc
DEFAULT_ZONE = "GMT"
SLOT = timedelta(minutes=20)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_DEADLINE = re.compile(r"\d{12}")
_DEADLINE_FORMAT = "%Y%m%d%H%M"


def game_zone(name: str | None) -> ZoneInfo:
    """The zone of a ZONE line; GMT when the line is absent (None or empty)."""
    key = (name or "").strip() or DEFAULT_ZONE
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {key!r} (use a name like Europe/Paris)") from None


def require_aware(moment: datetime, what: str = "time") -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got {moment!r}")
    return moment


def to_wall(moment: datetime, zone: ZoneInfo) -> datetime:
    """The naive wall-clock reading of an aware instant in `zone`."""
    return require_aware(moment).astimezone(zone).replace(tzinfo=None)


def localize(wall: datetime, zone: ZoneInfo) -> datetime:
    """The instant a naive wall time in `zone` names; the later one when DST makes it
    ambiguous (it occurs twice) or nonexistent (skipped: 02:30 becomes 03:30)."""
    first = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    second = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    return max(first, second).astimezone(zone)


def wall_reached(wall: datetime, zone: ZoneInfo, now: datetime) -> datetime:
    """The first instant from `now` on at which `zone`'s wall clock reads `wall` or later (`now`
    reads earlier): when DST repeats `wall`, the first of its instants still to come; when DST
    skips it, the change itself (halving the gap down to the microsecond: zoneinfo does not say
    when a change happens)."""
    early, late = sorted(wall.replace(tzinfo=zone, fold=fold).astimezone(UTC) for fold in (0, 1))
    if to_wall(early, zone) >= wall:
        return early if early >= now else late
    low, high = max(early, now), late
    while high - low > _MICROSECOND:
        middle = low + (high - low) / 2
        if to_wall(middle, zone) >= wall:
            high = middle
        else:
            low = middle
    return high


def wall_time_kind(wall: datetime, zone: ZoneInfo) -> str:
    """"normal", "ambiguous" (occurs twice) or "nonexistent" (skipped by a DST change),
    so that a reply can say which instant `localize` chose."""
    first = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    second = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    if first == second:
        return "normal"
    back = first.astimezone(zone).replace(tzinfo=None)
    return "ambiguous" if back == wall else "nonexistent"


KEPT_DEADLINES = 256  # a deadline is read at every step of its game (the clock, its mails, its checks)


@lru_cache(maxsize=KEPT_DEADLINES)
def parse_deadline(text: str, zone: str | None = None) -> datetime:
    """DEADLINE `yyyymmddhhmm` in the game's ZONE -> an aware UTC datetime (the same text in the
    same zone is worked out once: an instant is immutable)."""
    if not _DEADLINE.fullmatch(text.strip()):
        raise ValueError(f"DEADLINE: expected yyyymmddhhmm (12 digits), got {text!r}")
    try:
        wall = datetime.strptime(text.strip(), _DEADLINE_FORMAT)
    except ValueError:
        raise ValueError(f"DEADLINE: {text!r} is not a real date and time") from None
    return localize(wall, game_zone(zone)).astimezone(UTC)


def format_deadline(moment: datetime, zone: str | None = None) -> str:
    """An aware instant -> DEADLINE text `yyyymmddhhmm` on the game's wall clock."""
    return to_wall(moment, game_zone(zone)).strftime(_DEADLINE_FORMAT)


def cycle_slot(now: datetime) -> datetime:
    """The start of the twenty-minute scheduler slot (:00, :20, :40 UTC) holding `now`,
    in `now`'s own time zone."""
    elapsed = require_aware(now, "now") - _EPOCH
    return now - elapsed % SLOT


def floor_slot(wall: datetime) -> datetime:
    """A naive wall time moved down to :00, :20 or :40 of its hour."""
    return wall.replace(minute=wall.minute - wall.minute % 20, second=0, microsecond=0)


def ceil_slot(wall: datetime) -> datetime:
    """A naive wall time moved up to the next :00, :20 or :40 (unchanged when on one)."""
    floor = floor_slot(wall)
    return floor if floor == wall else floor + SLOT


def ceil_minute(wall: datetime) -> datetime:
    floor = wall.replace(second=0, microsecond=0)
    return floor if floor == wall else floor + timedelta(minutes=1)
