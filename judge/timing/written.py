"""A moment as DPjudge writes it in its mails, one function for each of its forms.

Players' mail filters and tools read these: `Mon 30 Nov 2026 04:00 GMT` on the `:: Deadline:` line
of results, `Monday 30 November 2026 04:00 GMT` in every sentence naming a deadline or a time,
`Monday 30 November 2026` and `30 November 2026` for whole days. The day of the month has no
leading zero; the zone is the moment's own abbreviation (GMT, CET, CEST). English names whatever the
machine's locale. Moments are aware datetimes, already on the game's wall clock.
"""
from __future__ import annotations

import re
from datetime import datetime

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
# A date in any of the forms below, so that prose filled to the mail width never breaks one.
WRITTEN_DATE = re.compile(
    r"\b(?:(?:%s)[a-z]* )?\d{1,2} (?:%s)[a-z]* \d{4}(?: \d\d:\d\d [A-Z][A-Za-z0-9+-]*)?" % (
        "|".join(d[:3] for d in _DAYS), "|".join(m[:3] for m in _MONTHS)))


def date_form(moment: datetime) -> str:
    """`30 November 2026`."""
    return f"{moment.day} {_MONTHS[moment.month - 1]} {moment.year}"


def day_form(moment: datetime) -> str:
    """`Monday 30 November 2026`."""
    return f"{_DAYS[moment.weekday()]} {date_form(moment)}"


def long_form(moment: datetime) -> str:
    """`Monday 30 November 2026 04:00 GMT`: deadlines and times in sentences."""
    return f"{day_form(moment)} {moment:%H:%M} {moment.tzname()}"


def short_form(moment: datetime) -> str:
    """`Mon 30 Nov 2026 04:00 GMT`: the `:: Deadline:` line of results."""
    return (f"{_DAYS[moment.weekday()][:3]} {moment.day} {_MONTHS[moment.month - 1][:3]} "
            f"{moment.year} {moment:%H:%M} {moment.tzname()}")


def offset_form(moment: datetime) -> str:
    """`GMT+01` (`GMT+0530`, `GMT`): the moment's offset from GMT, as DPjudge names a time zone."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds()) // 60 if offset else 0
    if not minutes:
        return "GMT"
    sign, minutes = ("+" if minutes > 0 else "-"), abs(minutes)
    return f"GMT{sign}{minutes // 60:02d}" + (f"{minutes % 60:02d}" if minutes % 60 else "")
