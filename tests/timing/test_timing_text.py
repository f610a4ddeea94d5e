"""The TIMING line and duration words: parse, write back, reject with a clear message."""
from __future__ import annotations

from datetime import time, timedelta

import pytest

from judge.timing import Duration, Timing, Vacation, parse_duration, parse_timing, phase_delay

CANONICAL = [
    "",
    "NEXT 3D",
    "MOVE 2D",
    "NEXT 1D MOVE 2D",
    "MOVE 36H RETREAT 12H ADJUST 1D",
    "AT 12:00",
    "AT 08:00,20:00",
    "AT 12:00 FUDGE 2H",
    "DAYS -MTWTFs",
    "DAYS SMTWTFS",
    "START 8H",
    "START -2H",
    "WARN 1D,12H,6H",
    "WARN 0",
    "GRACE 0H",
    "GRACE 2D",
    "NOT 20040831,20040920-20040927",
    "NOT -20020812",
    "NOT 202406,2024061512,202406151230",
    "SKIP",
    "NEXT 1W AT 23:40 FUDGE 90M DAYS -mTWTF- START 30M WARN 4H GRACE 1D NOT 20250101 SKIP",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    assert str(parse_timing(text)) == text


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("MOVE 2D NEXT 1D", "NEXT 1D MOVE 2D"),
        ("next 1d move 2d", "NEXT 1D MOVE 2D"),
        ("AT 20:00,8:00", "AT 08:00,20:00"),
        ("AT 12:00,12:00", "AT 12:00"),
        ("GRACE 0H  WARN 2H   AT 9:20", "AT 09:20 WARN 2H GRACE 0H"),
        ("START +2H", "START 2H"),
        ("NEXT 03D", "NEXT 3D"),
        ("NOT 20240101-20240101", "NOT 20240101"),
        ("JUMP_OFF_DAYS NEXT 2D", "NEXT 2D SKIP"),
    ],
)
def test_other_spellings_write_back_canonically(text: str, canonical: str) -> None:
    timing = parse_timing(text)
    assert str(timing) == canonical
    assert parse_timing(canonical) == timing


def test_parsed_values() -> None:
    timing = parse_timing("NEXT 1D MOVE 2D AT 20:00,08:00 WARN 1D,6H NOT -20020812,20040831")
    assert timing.next == Duration(1, "D")
    assert timing.phases == (("MOVE", Duration(2, "D")),)
    assert timing.at == (time(8, 0), time(20, 0))
    assert timing.warn == (Duration(1, "D"), Duration(6, "H"))
    assert timing.vacations == (Vacation(None, "20020812"), Vacation("20040831", "20040831"))
    assert timing.day_mask == "-MTWTF-"


def test_empty_timing_has_defaults() -> None:
    timing = parse_timing("")
    assert timing == Timing()
    assert timing.warn is None and timing.grace is None and timing.day_start == timedelta(0)
    assert phase_delay(timing, "MOVEMENT") == Duration(3, "D")
    assert phase_delay(timing, "SPRING 1901 RETREATS") == Duration(1, "D")


def test_phase_key_matches_start_of_last_word() -> None:
    timing = parse_timing("NEXT 1D MOVE 2D R 6H")
    assert phase_delay(timing, "SPRING 1901 MOVEMENT") == Duration(2, "D")
    assert phase_delay(timing, "retreats") == Duration(6, "H")
    assert phase_delay(timing, "WINTER 1901 ADJUSTMENTS") == Duration(1, "D")


@pytest.mark.parametrize(
    "text, words",
    [
        ("NEXT", "NEXT needs a value"),
        ("NEXT 0D", "more than zero"),
        ("NEXT -1D", "may not be negative"),
        ("NEXT 3X", "unit 'X' not allowed"),
        ("NEXT 3", "lacks its unit"),
        ("NEXT three", "expected a whole number"),
        ("NEXT 1D NEXT 2D", "NEXT given twice"),
        ("MOVE 1D MOVE 2D", "MOVE given twice"),
        ("MOVE soon", "TIMING MOVE"),
        ("2D", "unknown key '2D'"),
        ("AT 24:00", "TIMING AT"),
        ("AT 12:60", "TIMING AT"),
        ("AT noon", "TIMING AT"),
        ("AT 12:00,", "TIMING AT"),
        ("FUDGE 1D", "unit 'D' not allowed"),
        ("FUDGE 0M", "more than zero"),
        ("DAYS MTWTF", "seven letters"),
        ("DAYS -MTWTFX", "'X' where S"),
        ("DAYS -mtwtf-", "upper-case day"),
        ("DAYS -------", "upper-case day"),
        ("START 1D", "unit 'D' not allowed"),
        ("START 25H", "less than a day"),
        ("WARN 4H,", "TIMING WARN"),
        ("WARN -4H", "may not be negative"),
        ("GRACE soon", "TIMING GRACE"),
        ("NOT 2004083", "expected yyyymmdd"),
        ("NOT 20040231", "not a real date"),
        ("NOT 20040927-20040920", "ends before it starts"),
        ("NOT 20040927-", "needs a last day"),
        ("NOT 2004-09-27", "TIMING NOT"),
        ("SKIP SKIP", "given twice"),
    ],
)
def test_errors_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        parse_timing(text)


@pytest.mark.parametrize(
    "word, amount, unit, span",
    [
        ("20M", 20, "M", timedelta(minutes=20)),
        ("16H", 16, "H", timedelta(hours=16)),
        ("3d", 3, "D", timedelta(days=3)),
        ("2W", 2, "W", timedelta(weeks=2)),
    ],
)
def test_duration_words(word: str, amount: int, unit: str, span: timedelta) -> None:
    duration = parse_duration(word)
    assert (duration.amount, duration.unit, duration.span) == (amount, unit, span)
    assert str(duration) == word.upper()
    assert duration.whole_days == (unit in "DW")


def test_duration_zero_and_negative_only_when_allowed() -> None:
    assert parse_duration("0", zero=True) == Duration(0, "")
    assert parse_duration("0", zero=True).span == timedelta(0)
    assert parse_duration("-2H", negative=True).span == timedelta(hours=-2)
    with pytest.raises(ValueError, match="more than zero"):
        parse_duration("0H")
    with pytest.raises(ValueError, match="GRACE: may not be negative"):
        parse_duration("-1D", label="GRACE")
