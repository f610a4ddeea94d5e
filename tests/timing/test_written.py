"""Dates in DPjudge's written forms."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from judge.timing.written import date_form, day_form, long_form, offset_form, short_form

WINTER = datetime(2026, 11, 30, 4, 0, tzinfo=ZoneInfo("GMT"))
SUMMER = datetime(2015, 9, 1, 20, 0, 59, tzinfo=ZoneInfo("Europe/Paris"))


def test_the_deadline_line_of_results_is_the_short_form():
    assert short_form(WINTER) == "Mon 30 Nov 2026 04:00 GMT"
    assert short_form(SUMMER) == "Tue 1 Sep 2015 20:00 CEST"


def test_sentences_use_the_long_form_with_no_leading_zero():
    assert long_form(WINTER) == "Monday 30 November 2026 04:00 GMT"
    assert long_form(SUMMER) == "Tuesday 1 September 2015 20:00 CEST"


def test_whole_days():
    assert day_form(SUMMER) == "Tuesday 1 September 2015"
    assert date_form(SUMMER) == "1 September 2015"


@pytest.mark.parametrize("zone, label", [("GMT", "GMT"), ("Europe/Paris", "GMT+01"),
                                         ("America/New_York", "GMT-05"), ("Asia/Kolkata", "GMT+0530")])
def test_a_zone_is_named_by_its_offset_as_dpjudge_does(zone, label):
    assert offset_form(datetime(2026, 11, 30, 18, 0, tzinfo=ZoneInfo(zone))) == label
