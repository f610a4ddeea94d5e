"""Hostile input: the status parser and the order reader never fail with anything but a located error.

Status files: any text, and real status files mutated line by line (words dropped, swapped, doubled,
replaced by hostile ones; lines moved, cut, repeated), must parse or raise `StatusError` whose every
problem names the file and a line inside it. Orders: any text, and lines made of the order language's
words and the map's names, in each kind of phase, must give an order or an `OrderError`; a power's
order sheet reports every refused line with its text and a reason.

The CI budget is small; `FUZZ_EXAMPLES=100000 pytest -m fuzz` runs the benchmark-sized budget.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.adjudicator.model import Position
from judge.errors import OrderError, StatusError
from judge.maps import load_map
from judge.orders.parser import OrderReader, OrderableUnits
from judge.orders.power_orders import parse_orders
from judge.status import parse_status, write_status
from judge.status.keywords import GAME, GAME_ALIASES, POWER, POWER_ALIASES
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit, UnitType

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
STATUS_FILES = sorted((Path(__file__).parents[1] / "commands" / "games").glob("*.status"))
SEEDS = [p.read_text(encoding="utf-8") for p in STATUS_FILES]
FILE = "games/fuzz/status"
STANDARD = load_map("standard")


# -- the status parser ------------------------------------------------------------------------------
def parse_or_located_error(text: str) -> None:
    try:
        status = parse_status(text, FILE)
    except StatusError as exc:
        assert exc.problems
        count = len(text.splitlines())
        for problem in exc.problems:
            assert problem.file == FILE and problem.message
            assert 0 <= problem.line <= count + 1, problem
        return
    write_status(status)  # whatever parses can be written back


HOSTILE = ["", "-", "|", "||", "<", ">", "#", "END", "END DESC", "POWER", "PHASE", "DEADLINE",
           "999999999999999999999", "-1", "0", "S1901M", "SPRING", "1901", "MOVEMENT", "FORMING",
           "A", "F", "PAR", "STP/NC", "NO-ID|x@y.z|", "#1|a@b.c|A_B", "RESIGNED", "DUMMY",
           "2025-13-45", "202502301800", "TIMING", "AT 25:99", "DAYS -MTWTF-", "NEXT 0D", "GRACE -1H",
           "ZONE", "Mars/Olympus", "\x00", "\t", "é", "ﬀ", "𝔘", "\u202e", "{{", "%s", "\\", "..", "/"]
KEYWORDS = sorted(set(GAME) | set(GAME_ALIASES) | set(POWER) | set(POWER_ALIASES))
word = st.sampled_from(HOSTILE + KEYWORDS) | st.text(max_size=8)


@st.composite
def mutated_status(draw) -> str:
    lines = draw(st.sampled_from(SEEDS)).splitlines()
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["drop", "repeat", "move", "word", "insert", "cut", "swap"]))
        words = lines[at].split()
        if kind == "drop":
            del lines[at]
        elif kind == "repeat":
            lines.insert(at, lines[at])
        elif kind == "move":
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(at))
        elif kind == "word" and words:
            words[draw(st.integers(0, len(words) - 1))] = draw(word)
            lines[at] = " ".join(words)
        elif kind == "insert":
            lines.insert(at, " ".join(draw(st.lists(word, min_size=1, max_size=5))))
        elif kind == "cut":
            lines[at] = lines[at][:draw(st.integers(0, len(lines[at])))]
        elif kind == "swap" and len(words) > 1:
            lines[at] = " ".join(reversed(words))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n", "\n\n"]))


@FUZZ
@given(mutated_status())
def test_mutated_status_files(tally, text):
    tally(text)
    parse_or_located_error(text)


@FUZZ
@given(st.lists(st.lists(word, min_size=1, max_size=6).map(" ".join), max_size=25).map("\n".join))
def test_status_lines_from_the_vocabulary(tally, text):
    tally(text)
    parse_or_located_error(text)


@FUZZ
@given(st.text(max_size=400))
def test_status_text_of_any_characters(tally, text):
    tally(text)
    parse_or_located_error(text)


def test_the_seeds_parse():
    for text in SEEDS:
        parse_status(text, FILE)


# -- the order reader -------------------------------------------------------------------------------
START = {name: power.units for name, power in STANDARD.powers.items()}
PHASES = [Phase("SPRING", 1901, MOVEMENT), Phase("SPRING", 1901, RETREATS), Phase("WINTER", 1901, ADJUSTMENTS)]
NAMES = sorted({loc.name for loc in STANDARD.locations.values()} | set(STANDARD.locations)
               | {str(alias) for alias in STANDARD.aliases})
ORDER_WORDS = ["A", "F", "ARMY", "FLEET", "-", "->", "=>", ">", "S", "SUPPORT", "SUPPORTS", "C", "CONVOY",
               "H", "HOLD", "HOLDS", "VIA", "BY", "R", "RETREAT", "D", "DISBAND", "B", "BUILD", "REMOVE",
               "WAIVE", "/NC", "/SC", "(NC)", "NC", "SC", "EC", "STP/NC", "SPA/SC", "BUL/EC", "ENGLAND",
               "FRANCE", "england's", "TO", "IN", "OF", "THE", "?", "!", ",", ".", ";", ":", "*", "NMR", "CLEAR"]
order_word = st.sampled_from(ORDER_WORDS + NAMES) | st.text(max_size=6)
order_line = st.lists(order_word, min_size=1, max_size=9).map(" ".join)
READER = OrderReader(STANDARD)
ORDERABLE = OrderableUnits(START)
POWERS = sorted(STANDARD.powers)
DISLODGED = {"FRANCE": (Unit(UnitType.ARMY, "PAR"),), "ENGLAND": (Unit(UnitType.FLEET, "LON"),)}


def read_or_refuse(power: str, text: str, phase: Phase) -> None:
    units = ORDERABLE if phase.type != RETREATS else OrderableUnits(DISLODGED)
    try:
        READER.read(power, text, phase, units)
    except OrderError as exc:
        assert str(exc)


@FUZZ
@given(st.sampled_from(POWERS), order_line, st.sampled_from(PHASES))
def test_order_lines_from_the_language(tally, power, text, phase):
    tally(power, text, phase)
    read_or_refuse(power, text, phase)


@FUZZ
@given(st.sampled_from(POWERS), st.text(max_size=60), st.sampled_from(PHASES))
def test_order_text_of_any_characters(tally, power, text, phase):
    tally(power, text, phase)
    read_or_refuse(power, text, phase)


@FUZZ
@given(st.sampled_from(POWERS), st.lists(order_line | st.text(max_size=20), max_size=12),
       st.sampled_from(PHASES[:1] + PHASES[2:]), st.sampled_from([frozenset(), frozenset({"NO_CHECK"})]))
def test_an_order_sheet_locates_every_refused_line(tally, power, lines, phase, rules):
    tally(power, lines, phase, rules)
    centers = {name: frozenset(p.centers) for name, p in STANDARD.powers.items()}
    position = Position(phase, START, centers)
    orders, errors = parse_orders(STANDARD, power, lines, phase, START, position, rules)
    given_lines = {line.strip() for line in lines}
    for text, reason in errors:
        assert text in given_lines and reason
    assert len(orders) + len(errors) <= sum(1 for line in lines if line.strip())
