"""Hostile input: the map parser and the message reader never fail with anything but a located error.

The CI budget is small; `FUZZ_EXAMPLES=100000 pytest tests/fuzz` runs the benchmark-sized budget.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from judge.errors import MapError
from judge.mailin.message import read_message
from judge.maps import parse_map
from tests.support.maps import GEOGRAPHY, POWERS, text_loader

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

WORDS = ["COAST", "LAND", "WATER", "PORT", "SHUT", "AMEND", "ABUTS", "DROP", "USE", "MAP", "IN", "FROM",
         "START", "FLOW", "BEGIN", "VICTORY", "OWNS", "CENTERS", "UNOWNED", "DUMMY", "ALL", "EXCEPT",
         "UNPLAYED", "LEAGUE", "STRICT", "BENIGN", "RULE", "DIRECTIVES", "END", "A", "F", "->", "=",
         "ALP", "BRA", "CHS", "DEL", "DEL/NC", "ECH", "FOX", "NORTH", "SOUTH", "&SC", "SC!", "+ALP",
         "*BRA", "@DEL(ALP)", "~ECH", "-ALP", ":FOX", "N:BRA", "ALP(DEL,ECH)", "IFYEARDIV:2=1",
         "SPRING:MOVEMENT", "NEWYEAR:3", "S1901M", "main.map", "#", "?", "alp", "Bra", "1901"]
line = st.lists(st.sampled_from(WORDS) | st.text(max_size=6), min_size=1, max_size=7).map(" ".join)


def parse_or_located_error(text: str) -> None:
    try:
        parse_map("main.map", text_loader({"main.map": text}))
    except MapError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.file and problem.message


@FUZZ
@given(st.lists(line, max_size=12))
def test_map_lines_from_the_vocabulary(tally, lines):
    tally(lines)
    parse_or_located_error(GEOGRAPHY + POWERS + "\n".join(lines))


@FUZZ
@given(st.text(max_size=400))
def test_map_text_of_any_characters(tally, text):
    tally(text)
    parse_or_located_error(text)


@FUZZ
@given(st.binary(max_size=600))
def test_raw_mail_bytes(tally, raw):
    tally(raw)
    read_message(raw, None, "judge@example.org")


HEADERS = st.sampled_from(["From", "Reply-To", "Subject", "Content-Type", "Content-Transfer-Encoding",
                           "MIME-Version", "Auto-Submitted", "Precedence", "X-Loop", "References"])


@FUZZ
@given(st.lists(st.tuples(HEADERS, st.text(max_size=40)), max_size=8), st.text(max_size=300))
@example(headers=[("Content-Type", ";0*")], body="")  # found at 100,000: the email package raised
def test_mail_with_hostile_headers(tally, headers, body):
    tally(headers, body)
    head = "".join(f"{name}: {value}\r\n".replace("\n\n", "\n") for name, value in headers)
    incoming = read_message((head + "\r\n" + body).encode("utf-8", "surrogateescape"))
    assert all("\n" not in line for line in incoming.lines)
