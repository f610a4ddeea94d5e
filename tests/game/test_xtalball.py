"""Crystal Ball as DPjudge plays it: the game DPjudge played through 1903 (`fixtures/xtalball`),
each phase processed by the judge from the status file DPjudge processed: the status file saved
equals DPjudge's, the next deadline set alike and, as for every game DPjudge saved, its
centres written as the judge writes them once they change (OWNS in map order, the homes of a map
without INHABITS lines)."""
from __future__ import annotations

import re

import pytest

from judge.events import ListsPlayed
from judge.game.process import process_phase
from judge.game.variants import XTALBALL
from judge.status import parse_status, write_status
from tests.support.xtalball import HERE, NOW, PHASES, processed

_DEADLINE = re.compile(r"^DEADLINE \d{12}$", re.MULTILINE)


def deadline_as_saved(text: str, saved: str) -> str:
    """The judge sets the next deadline from the time it processes; DPjudge kept the one on file."""
    kept = _DEADLINE.search(saved)
    return _DEADLINE.sub(kept.group(0), text) if kept else text


def centres_aside(text: str) -> str:
    return "\n".join(" ".join(["OWNS", *sorted(line.split()[1:])]) if line.startswith("OWNS ") else line
                     for line in text.splitlines() if not line.startswith("INHABITS "))


@pytest.mark.parametrize("phase", PHASES)
def test_the_status_file_saved_equals_dpjudges(phase, standard):
    after, _ = processed(phase, standard)
    saved = (HERE / f"{phase}.after").read_text()
    assert centres_aside(deadline_as_saved(write_status(after), saved)) == centres_aside(saved)


LISTS = """GAME lists
PHASE SPRING 1901 MOVEMENT
MAP standard

FRANCE
OWNS BRE MAR PAR
A PAR
A MAR
F BRE
LATER
A PAR - PIC
SOONER
A PAR - BUR
A MAR - SPA
A PAR - GAS
F BRE - MAO

ENGLAND
OWNS EDI LON LVP
F LON
SOONER
F LON - NTH
"""


def test_a_later_line_for_the_same_unit_revokes_the_earlier_and_lines_past_the_largest_count_are_ignored(standard):
    """Three centres at most: France's fourth line (F BRE - MAO) is ignored, A PAR - GAS revokes
    A PAR - BUR."""
    after, _ = process_phase(parse_status(LISTS), standard, NOW, XTALBALL)
    france = after.power("FRANCE")
    assert sorted(map(str, france.units)) == ["A GAS", "A SPA", "F BRE"]
    assert (france.sooner, france.later, france.cd) == (("A PAR - PIC",), None, False)


def test_a_power_that_wrote_no_later_list_is_left_holding_its_first_unit_and_not_marked_cd(standard):
    """As DPjudge saved such a power (`test_xtalball_by_mail.py`, Austria in Spring 1903)."""
    after, _ = process_phase(parse_status(LISTS), standard, NOW, XTALBALL)
    england = after.power("ENGLAND")
    assert [str(u) for u in england.units] == ["F NTH"]
    assert (england.sooner, england.later, england.cd) == (("F LON H",), None, False)


def test_each_line_of_a_locked_list_gets_its_fate_and_each_unit_no_line_orders_a_default_hold(standard):
    """As DPjudge notes them for PUBLIC_LISTS: the line past the largest power's three centres is
    ignored, an earlier line for the same unit revoked, and France's fleet, ordered by no line
    that counts, holds by default; a line for another power's unit, under NO_PROXY, is foreign."""
    status = parse_status(LISTS.replace("SOONER\nF LON - NTH", "SOONER\nF LON - NTH\nA PAR H")
                          .replace("MAP standard\n", "MAP standard\nRULE NO_PROXY\n"))
    _, events = process_phase(status, standard, NOW, XTALBALL)
    lists = dict(next(e for e in events if isinstance(e, ListsPlayed)).lists)
    assert lists["FRANCE"] == (("revoked", "A PAR - BUR"), ("ordered", "A MAR - SPA"), ("ordered", "A PAR - GAS"),
                               ("ignored", "F BRE - MAO"), ("default", "F BRE H"))
    assert lists["ENGLAND"] == (("ordered", "F LON - NTH"), ("foreign", "A PAR H"))
