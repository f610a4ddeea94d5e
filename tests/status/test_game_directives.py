"""Status syntax 1.1, Game Information: each directive parses to its value and is written back."""
from __future__ import annotations

import pytest

from judge.status.model import (
    Dppd,
    GameResult,
    GameStage,
    Need,
    PhaseMode,
    Proposal,
    RotateStep,
    RotateWhen,
    Team,
)
from judge.types import Phase
from tests.support.status import game, rewritten

C, AFTER, BEFORE, FOR = RotateWhen.CONTROL, RotateWhen.AFTER, RotateWhen.BEFORE, RotateWhen.FOR
S1901M = Phase("SPRING", 1901, "MOVEMENT")

# (directive, status lines, attribute, value, the lines as written back (None: as given))
CASES = [
    ("GAME", "GAME vienna", "name", "vienna", None),
    ("PHASE", "PHASE SPRING 1901 MOVEMENT", "phase", S1901M, None),
    ("PHASE lower case", "phase spring 1901 movement", "phase", S1901M, "PHASE SPRING 1901 MOVEMENT"),
    ("PHASE custom type", "PHASE SUMMER 1900 TRADE", "phase", Phase("SUMMER", 1900, "TRADE"), None),
    ("PHASE FORMING", "PHASE FORMING", "phase", GameStage.FORMING, None),
    ("PHASE COMPLETED", "PHASE COMPLETED", "phase", GameStage.COMPLETED, None),
    ("AWAIT", "AWAIT FALL 1901 RETREATS", "phase_mode", PhaseMode.AWAIT, None),
    ("SKIP", "SKIP SPRING 1901 MOVEMENT", "phase_mode", PhaseMode.SKIP, None),
    ("WAIT", "WAIT WINTER 1901 INCOME", "phase_mode", PhaseMode.WAIT, None),
    ("DEADLINE", "DEADLINE 202502101820", "deadline", "202502101820", None),
    ("ZONE", "ZONE America/New_York", "zone", "America/New_York", None),
    ("TIMING", "TIMING NEXT 1D MOVE 2D", "timing", "NEXT 1D MOVE 2D", None),
    ("TIMING keeps case", "TIMING DAYS -mTWTF- AT 18:00", "timing", "DAYS -mTWTF- AT 18:00", None),
    ("TIMING lines join", "TIMING NEXT 1D\nTIMING WARN 1D,12H,6H NOT -20020812", "timing",
     "NEXT 1D WARN 1D,12H,6H NOT -20020812", "TIMING NEXT 1D WARN 1D,12H,6H NOT -20020812"),
    ("DELAY", "DELAY 24", "delay", 24, None),
    ("PRIVATE", "PRIVATE Secret", "private", "SECRET", "PRIVATE SECRET"),
    ("PRIVATE without word", "PRIVATE", "private", None, ""),
    ("RULE", "RULE CIVIL_DISORDER NO_PRESS", "rules", frozenset({"CIVIL_DISORDER", "NO_PRESS"}),
     "RULE CIVIL_DISORDER\nRULE NO_PRESS"),
    ("RULE !", "RULES !NO_CHECK", "rules_off", frozenset({"NO_CHECK"}), "RULE !NO_CHECK"),
    ("MAP", "MAP Youngstown", "map_name", "youngstown", "MAP youngstown"),
    ("no MAP", "GAME g", "map_name", "standard", "GAME g\nPHASE FORMING\nMAP standard"),
    ("TRIAL", "TRIAL azov", "trial", True, None),
    ("MORPH", "MORPH UNPLAYED ITALY\nMORPH DUMMY GERMANY", "morphs",
     ("UNPLAYED ITALY", "DUMMY GERMANY"), None),
    ("MORPH block", ("MORPH\nDUMMY ITALY GERMANY\n\nPOWER ITALY\nCONTROL ENGLAND FRANCE\n"
                     "POWER GERMANY\nCONTROL TURKEY AUSTRIA\nEND MORPH"), "morphs",
     ("DUMMY ITALY GERMANY", "POWER ITALY", "CONTROL ENGLAND FRANCE", "POWER GERMANY",
      "CONTROL TURKEY AUSTRIA"), "MORPH\nDUMMY ITALY GERMANY\nPOWER ITALY"),
    ("TEAM", "TEAM England-France", "teams", (Team(("ENGLAND", "FRANCE")),), "TEAMS ENGLAND-FRANCE"),
    ("TEAMS", "TEAMS B.C.-California Cuba-Florida Heartland-Mexico\nTEAMS NewYork-Peru", "teams",
     (Team(("B.C.", "CALIFORNIA")), Team(("CUBA", "FLORIDA")), Team(("HEARTLAND", "MEXICO")),
      Team(("NEWYORK", "PERU"))), "TEAMS B.C.-CALIFORNIA CUBA-FLORIDA HEARTLAND-MEXICO NEWYORK-PERU"),
    ("MASTER", "MASTER #42|joe@blow.com|Joe_Blow", "master", Dppd("#42", "joe@blow.com", "Joe_Blow"),
     None),
    ("PASSWORD", "PASSWORD Kr4k3n", "password", "Kr4k3n", None),
    ("TESTER", "TESTER judge@example.org", "tester", "judge@example.org", None),
    ("TESTER without address", "TESTER", "tester", "", None),
    ("START", "START Mon Jan 06 2025", "start", "Mon Jan 06 2025", None),
    ("FINISH", "FINISH Sat Mar 01 2025", "finish", "Sat Mar 01 2025", None),
    ("RESULT solo", "RESULT F1907M FRANCE", "result", GameResult("F1907M", ("FRANCE",)), None),
    ("RESULT draw", "RESULT S1910M ENGLAND FRANCE TURKEY", "result",
     GameResult("S1910M", ("ENGLAND", "FRANCE", "TURKEY")), None),
    ("DESC", "DESC A <b>friendly</b> game.\nDESC Press is open.", "description",
     ("A <b>friendly</b> game.", "Press is open."), None),
    ("DESC block", "DESCRIPTION\nOne\n\nTwo\nThree\nFour\nEND DESCRIPTION", "description",
     ("One", "Two", "Three", "Four"), "DESC\nOne\nTwo\nThree\nFour\nEND DESC"),
    ("NAME", "NAME After the Congress of Vienna", "origin", ("After the Congress of Vienna",), None),
    ("NAME block", "NAME\nThe\nname\nof\nthe game\nEND NAME", "origin",
     ("The", "name", "of", "the game"), None),
    ("ALLOW", "ALLOW investor", "allow", frozenset({"INVESTOR"}), "ALLOW INVESTOR"),
    ("PROPOSAL", "PROPOSAL DIAS France", "proposal", Proposal("DIAS", "FRANCE"), "PROPOSAL DIAS FRANCE"),
    ("NEED", "NEED GERMANY-(8/9) ITALY-(?/?)", "need",
     (Need("GERMANY", 8, 9), Need("ITALY", None, None)), None),
    ("ROTATE", "ROTATE", "rotate", (RotateStep(C),), "ROTATE CONTROL"),
    ("ROTATE CONTROL", "ROTATE CONTROL", "rotate", (RotateStep(C),), None),
    ("ROTATE AFTER", "ROTATE AFTER", "rotate", (RotateStep(AFTER),), None),
    ("ROTATE AFTER type", "ROTATE AFTER M", "rotate", (RotateStep(AFTER, "M"),), None),
    ("ROTATE BEFORE", "ROTATE BEFORE MOVE", "rotate", (RotateStep(BEFORE, "MOVE"),), None),
    ("ROTATE FOR", "ROTATE FOR RETREAT ADJUST", "rotate",
     (RotateStep(FOR, "RETREAT"), RotateStep(FOR, "ADJUST")), "ROTATE FOR RETREAT FOR ADJUST"),
    ("ADDRESS (the Master's)", "ADDRESS gm@example.com,gm@work.example.org", "address",
     ("gm@example.com", "gm@work.example.org"), None),
    ("JUDGE", "JUDGE USDP", "judge", "USDP", None),
    ("JUDGE twice, as DPjudge writes it", "JUDGE USDP\nJUDGE USDP", "judge", "USDP", "JUDGE USDP"),
    ("GROUPS", "GROUPS europe|Club", "groups", ("EUROPE", "CLUB"), "GROUPS EUROPE|CLUB"),
    ("SIGNON", "SIGNON Mbeta legacy", "signon", "Mbeta legacy", None),
    ("RULE with a ! suffix", "RULE EAVESDROP!", "rules", frozenset({"EAVESDROP!"}), None),
    ("RULE with a + suffix", "RULE PRESS+", "rules", frozenset({"PRESS+"}), None),
    ("RULE ! with a ! suffix", "RULE !EAVESDROP!", "rules_off", frozenset({"EAVESDROP!"}), None),
    ("ROTATE BEFORE and FOR", "ROTATE BEFORE MOVE FOR RETREAT", "rotate",
     (RotateStep(BEFORE, "MOVE"), RotateStep(FOR, "RETREAT")), None),
]


@pytest.mark.parametrize("lines, attribute, value, written", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_game_directive(lines, attribute, value, written):
    status = game(lines)
    assert getattr(status, attribute) == value
    text = rewritten(status)
    expected = lines if written is None else written
    if expected:
        assert expected in text
    else:
        assert text == "PHASE FORMING\nMAP standard\n"


def test_phase_and_its_mode_together():
    status = game("AWAIT SPRING 1901 MOVEMENT")
    assert (status.phase, status.phase_mode) == (S1901M, PhaseMode.AWAIT)


def test_game_block_in_canonical_sequence():
    text = rewritten(game("TIMING NEXT 2D\nZONE Europe/Paris\nRULE X\nGAME g\nPASSWORD p"))
    assert text == ("GAME g\nPHASE FORMING\nMAP standard\nPASSWORD p\nRULE X\nZONE Europe/Paris\n"
                    "TIMING NEXT 2D\n")


def test_description_with_an_end_line_is_written_line_by_line():
    status = game("DESC\none\ntwo\nthree\nEND NAME\nEND DESC\nDESC END DESC")
    assert status.description == ("one", "two", "three", "END NAME", "END DESC")
    assert "DESC END DESC\n" in rewritten(status)
