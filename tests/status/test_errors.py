"""A hand-edited status file with mistakes: every problem reported at once, each with its line."""
from __future__ import annotations

import pytest

from judge.errors import StatusError
from judge.status import parse_status
from tests.support.status import problems


def assert_only_problem(text: str, line: int, message: str) -> None:
    found = problems(text)
    assert len(found) == 1 and found[0][0] == line and message in found[0][1], found

HEAD = "GAME g\nPHASE SPRING 1901 MOVEMENT\n"  # lines 1-2


@pytest.mark.parametrize("text, line, message", [
    ("GAME g\nPHASE SPRING 19O1 MOVEMENT\n", 2, "three words such as SPRING 1901 MOVEMENT"),
    ("GAME g\nPHASE SPRING\n", 2, "the phase must be FORMING, COMPLETED"),
    ("GAME g\n", 1, "no PHASE line"),
    ("", 1, "the file is empty"),
    (HEAD + "PHASE FALL 1901 MOVEMENT\n", 3, "PHASE repeats what line 2 already says"),
    (HEAD + "AWAIT FALL 1901 MOVEMENT\n", 3, "AWAIT repeats what line 2 already says"),
    (HEAD + "DEADLINE 20250231\n", 3, "not a date and time written yyyymmddhhmm"),
    (HEAD + "DEADLINE 202502311800\n", 3, "not a date and time written yyyymmddhhmm"),
    (HEAD + "ZONE Europe/Paris Europe/Berlin\n", 3, "ZONE: takes one word"),
    (HEAD + "DELAY 73\n", 3, "from 1 to 72"),
    (HEAD + "DELAY\n", 3, "DELAY: takes one number"),
    (HEAD + "TIMING\n", 3, "TIMING: takes some text"),
    (HEAD + "PRIVATE a b\n", 3, "PRIVATE: takes at most one word"),
    (HEAD + "RULE\n", 3, "RULE: takes one or more rule names"),
    (HEAD + "RULE NO-PRESS\n", 3, "'NO-PRESS' is not a rule name"),
    (HEAD + "MAP standard\nTRIAL azov\n", 4, "TRIAL repeats what line 3 already says"),
    (HEAD + "TEAMS ENGLAND\n", 3, "'ENGLAND' is not a team"),
    (HEAD + "TEAMS ENGLAND--FRANCE\n", 3, "is not a team"),
    (HEAD + "MASTER joe@blow.com\n", 3, "not DPPD data"),
    (HEAD + "PASSWORD <b>\n", 3, "may not hold < or >"),
    (HEAD + "TESTER a b\n", 3, "TESTER: takes at most one word"),
    (HEAD + "RESULT FRANCE\n", 3, "'FRANCE' is not a phase abbreviation"),
    (HEAD + "START\n", 3, "START: takes some text"),
    (HEAD + "PROPOSAL DIAS\n", 3, "the proposed result and the proposing power"),
    (HEAD + "NEED GERMANY\n", 3, "not an abandoned power such as GERMANY-(8/9)"),
    (HEAD + "ROTATE BEFORE\n", 3, "ROTATE BEFORE needs a phase type"),
    (HEAD + "ROTATE FOR\n", 3, "ROTATE FOR needs a phase type"),
    (HEAD + "ROTATE CONTROL M\n", 3, "ROTATE CONTROL takes no phase type"),
    (HEAD + "ROTATE DURING M\n", 3, "starts with CONTROL, AFTER, BEFORE or FOR"),
    (HEAD + "JUDGEMENT USDP\n", 3, "unknown game directive 'JUDGEMENT'"),
    (HEAD + "JUDGE USDP\nJUDGE USIN\n", 4, "JUDGE repeats what line 3 already says"),
    (HEAD + "GROUPS\n", 3, "GROUPS: takes one word"),
    (HEAD + "RULE EAVESDROP!!\n", 3, "'EAVESDROP!!' is not a rule name"),
    (HEAD + "\nFRANCE\nHIDES A PAR,,F BRE\n", 5, "takes units separated by commas"),
    (HEAD + "DESC\none\n\nFRANCE\nA PAR\n", 3, "DESC is never closed by END DESC"),
    (HEAD + "MORPH\nDUMMY ITALY\nEND DESC\n", 3, "MORPH is never closed by END MORPH"),
    (HEAD + "OWNS PAR\n", 3, "OWNS belongs in a power's block"),
    (HEAD + "A PAR\n", 3, "A belongs in a power's block"),
    (HEAD + "\nFRANCE\nOWNS PAR\n\nOWNS BRE\n", 7, "'OWNS BRE' does not start a power's block"),
    (HEAD + "\nFRANCE\n\nA PAR\n", 6, "'A PAR' does not start a power's block"),
    (HEAD + "\nOBSERVER bob smith\n", 4, "does not start a power's block"),
    (HEAD + "\nFRANCE\n\nFRANCE\n", 6, "a second block for FRANCE (the first is on line 4)"),
    (HEAD + "\nFRANCE\nOWNS PAR\n\nGERMANY\nOWNS PAR\n", 8, "PAR is already owned by FRANCE (line 5)"),
    (HEAD + "\nFRANCE\nA PAR --> BUR\n\nGERMANY\nA PAR --> PIC\n", 8, "a second dislodged unit in PAR"),
])
def test_game_block_and_structure_problem(text, line, message):
    assert_only_problem(text, line, message)


BLOCK = HEAD + "\nPOWER FRANCE\n"  # the block's lines start at line 5


@pytest.mark.parametrize("lines, line, message", [
    ("ADDRESS chloe.example.fr", 5, "'chloe.example.fr' is not an e-mail address"),
    ("ADDRESS", 5, "ADDRESS: takes the player's e-mail address"),
    ("PLAYER #1|a@b.fr|A S1901", 5, "'S1901' is not a phase abbreviation"),
    ("PLAYER #1|a@b.fr", 5, "not DPPD data"),
    ("PASSWORD a\nCONTROL ENGLAND", 6, "a PASSWORD or a CONTROL line, not both"),
    ("CONTROL ENGLAND\nPASSWORD a", 6, "a PASSWORD or a CONTROL line, not both"),
    ("VOTE 0WAY", 5, "a vote is YES, LOSS, SOLO or nWAY"),
    ("VOTE DRAW", 5, "a vote is YES, LOSS, SOLO or nWAY"),
    ("OWNS SPA/NC", 5, "names a coast"),
    ("OWNS P", 5, "'P' is not a place abbreviation"),
    ("WAIT\nWAIT", 6, "WAIT repeats what line 5 already says"),
    ("WAIT SPRING 1901 MOVEMENT", 5, "WAIT: takes nothing after it"),
    ("A", 5, "neither a unit"),
    ("A PAR - BUR", 5, "movement orders go after an ORDERS line"),
    ("X PAR", 5, "unknown power directive 'X'"),
    ("A PAR\nF PAR", 6, "a second unit in PAR (FRANCE has one on line 5)"),
    ("F SPA/NC\nA SPA", 6, "a second unit in SPA"),
    ("A PAR --> BUR G", 5, "'G' is not a place abbreviation"),
    ("RETREAT A PAR BUR", 5, "RETREAT: takes a unit, a dash and a place"),
    ("DISBAND PAR", 5, "'PAR' is not a unit"),
    ("BUILD A", 5, "takes a unit (BUILD A PAR"),
    ("BUILD A PAR NOW", 5, "takes a unit (BUILD A PAR"),
    ("REMOVE", 5, "is not a unit"),
    ("OMNISCIENT ALL", 5, "OMNISCIENT: takes nothing after it"),
    ("FUNDS 34", 5, "'34' is not a fund such as $34 or 12E"),
    ("FUNDS $3 $4", 5, "currency '$' is given twice"),
    ("ORDERS\nA PAR - BUR\nWAIT", 7, "'WAIT' is not an order such as A PAR - BUR"),
    ("ORDERS\nA PAR - BUR\nX PAR - BUR", 7, "is not an order"),
    ("ORDERS now", 5, "ORDERS: takes nothing after it"),
    ("RULE NO_PRESS", 5, "RULE belongs in the game block"),
    ("ZONE Europe/Paris", 5, "ZONE belongs in the game block"),
    ("DESC hello", 5, "DESC belongs in the game block"),
])
def test_power_block_problem(lines, line, message):
    assert_only_problem(BLOCK + lines + "\n", line, message)


def test_a_dislodged_unit_shares_its_province_with_the_dislodger():
    status = parse_status(HEAD + "\nFRANCE\nA BUR\n\nGERMANY\nA BUR --> MUN RUH\n")
    assert status.power("GERMANY").dislodged[0].unit.province == "BUR"


def test_every_problem_is_reported_at_once_in_line_order():
    text = ("GAME g\nPHASE SPRING 1901 MOVEMENT\nDELAY 0\nFOO\n\n"
            "FRANCE\nVOTE MAYBE\nA PAR\nA PA\nRULE X\n\nGERMANY\nA PAR\n")
    assert [line for line, _ in problems(text)] == [3, 4, 7, 9, 10, 13]


def test_the_error_names_file_and_line():
    with pytest.raises(StatusError) as caught:
        parse_status("GAME g\nPHASE FORMING\nDELAY x\n", "games/g/status")
    assert str(caught.value).startswith("games/g/status:3: DELAY")
