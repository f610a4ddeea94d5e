"""Status syntax 1.2, Power Information: each directive parses to its value and is written back."""
from __future__ import annotations

import pytest

from judge.status import parse_status
from judge.status.model import (
    BuildOrder,
    DisbandOrder,
    Dislodged,
    Dppd,
    Fund,
    Handover,
    Omniscience,
    PlayerHistory,
    RemoveOrder,
    RetreatOrder,
    Vacancy,
    Vote,
    VoteKind,
)
from judge.types import Unit, UnitType
from tests.support.status import power, rewritten

A, F = UnitType.ARMY, UnitType.FLEET
JOE = Dppd("#42", "joe@blow.com", "Joe_Blow")
JOHN = Dppd("NO-ID", "john@doe.net", "")

# (directive, block lines, attribute, value, the lines as written back (None: as given))
CASES = [
    ("ADDRESS", "ADDRESS joe@blow.com,joe@work.example.org", "address",
     ("joe@blow.com", "joe@work.example.org"), None),
    ("ADDRESS words", "ADDRESS joe@blow.com joe@work.example.org", "address",
     ("joe@blow.com", "joe@work.example.org"), "ADDRESS joe@blow.com,joe@work.example.org"),
    ("PLAYER", "PLAYER #42|joe@blow.com|Joe_Blow", "player", PlayerHistory(JOE), None),
    ("PLAYER history", "PLAYER #42|joe@blow.com|Joe_Blow S1911R NO-ID|john@doe.net|", "player",
     PlayerHistory(JOE, (Handover("S1911R", JOHN),)), None),
    ("PLAYER RESIGNED", "PLAYER RESIGNED S1911R NO-ID|john@doe.net|", "player",
     PlayerHistory(Vacancy.RESIGNED, (Handover("S1911R", JOHN),)), None),
    ("PLAYER DUMMY", "PLAYER dummy", "player", PlayerHistory(Vacancy.DUMMY), "PLAYER DUMMY"),
    ("PLAYER takeover of a dummy", "PLAYER #42|joe@blow.com|Joe_Blow F1903M", "player",
     PlayerHistory(JOE, (Handover("F1903M"),)), None),
    ("PASSWORD", "PASSWORD s3Cret", "password", "s3Cret", None),
    ("CONTROL", "CONTROL AUSTRIA FRANCE ITALY RUSSIA", "control",
     ("AUSTRIA", "FRANCE", "ITALY", "RUSSIA"), None),
    ("VOTE YES", "VOTE YES", "vote", Vote(VoteKind.YES), None),
    ("VOTE LOSS", "VOTE loss", "vote", Vote(VoteKind.LOSS), "VOTE LOSS"),
    ("VOTE SOLO", "VOTE SOLO", "vote", Vote(VoteKind.SOLO), None),
    ("VOTE nWAY", "VOTE 3WAY", "vote", Vote(VoteKind.DRAW, 3), None),
    ("OWNS", "OWNS bre MAR PAR", "owns", ("BRE", "MAR", "PAR"), "OWNS BRE MAR PAR"),
    ("OWNS SC! SC? SC*", "OWNS SC! SC? SC*", "owns", ("SC!", "SC?", "SC*"), None),
    ("WAIT", "WAIT", "wait", True, None),
    ("unit", "A PAR\nf spa/nc", "units", (Unit(A, "PAR"), Unit(F, "SPA/NC")), "A PAR\nF SPA/NC"),
    ("unit --> retreats", "A PAR --> BUR GAS PIC", "dislodged",
     (Dislodged(Unit(A, "PAR"), ("BUR", "GAS", "PIC")),), None),
    ("unit --> nowhere", "F SPA/SC -->", "dislodged", (Dislodged(Unit(F, "SPA/SC")),), None),
    ("RETREAT", "RETREAT A PAR - BUR", "adjustments", (RetreatOrder(Unit(A, "PAR"), "BUR"),), None),
    ("RETREAT DISBAND", "RETREAT A PAR DISBAND", "adjustments", (DisbandOrder(Unit(A, "PAR")),),
     "DISBAND A PAR"),
    ("DISBAND", "DISBAND F NTH", "adjustments", (DisbandOrder(Unit(F, "NTH")),), None),
    ("BUILD", "BUILD A PAR\nBUILD F STP/NC", "adjustments",
     (BuildOrder(Unit(A, "PAR")), BuildOrder(Unit(F, "STP/NC"))), None),
    ("BUILD WAIVED", "BUILD WAIVED", "adjustments", (BuildOrder(None),), None),
    ("BUILD HIDDEN", "BUILD A MOS HIDDEN", "adjustments", (BuildOrder(Unit(A, "MOS"), True),), None),
    ("REMOVE", "REMOVE F KIE", "adjustments", (RemoveOrder(Unit(F, "KIE")),), None),
    ("MSG", "MSG Your  deadline is  extended.\nMSG", "messages", ("Your deadline is extended.", ""),
     "MSG Your deadline is extended.\nMSG"),
    ("OMNISCIENT", "OMNISCIENT", "omniscient", Omniscience.VIEW, None),
    ("OMNISCIENT!", "OMNISCIENT!", "omniscient", Omniscience.PRESS, None),
    ("OMNIPOTENT", "OMNIPOTENT", "omniscient", Omniscience.MASTER, None),
    ("OMNIPOTENT!", "OMNIPOTENT!", "omniscient", Omniscience.KEEPER, None),
    ("HIDES", "HIDES a par, F  BRE", "hides", (Unit(A, "PAR"), Unit(F, "BRE")), "HIDES A PAR, F BRE"),
    ("HOME", "HOME PAR MAR", "home", ("PAR", "MAR"), None),
    ("HOME none", "HOME", "home", (), None),
    ("INHABITS", "INHABITS PAR", "home", ("PAR",), "HOME PAR"),
    ("FUNDS", "FUNDS $34 12E 22c", "funds", (Fund(34, "$"), Fund(12, "E"), Fund(22, "c")), None),
    ("FUNDS none", "FUNDS", "funds", (), None),
    ("SEES", "SEES PAR BRE", "sees", ("PAR", "BRE"), None),
    ("CD", "CD", "cd", True, None),
    ("ORDERS", "ORDERS\na par - bur\nF BRE S A PAR - BUR\nA MAR H", "orders",
     ("A PAR - BUR", "F BRE S A PAR - BUR", "A MAR H"), "ORDERS\nA PAR - BUR\nF BRE S A PAR - BUR"),
    ("ORDERS none", "ORDERS", "orders", (), None),
]


@pytest.mark.parametrize("lines, attribute, value, written", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_power_directive(lines, attribute, value, written):
    block = power(lines)
    assert getattr(block, attribute) == value
    text = rewritten(parse_status(f"PHASE SPRING 1901 MOVEMENT\n\nPOWER FRANCE\n{lines}\n"))
    assert (lines if written is None else written) + "\n" in text


@pytest.mark.parametrize("heading, name, kind, written", [
    ("POWER FRANCE", "FRANCE", None, "POWER FRANCE"),
    ("france", "FRANCE", None, "POWER FRANCE"),
    ("POWER POWER#1", "POWER#1", None, "POWER POWER#1"),
    ("OBSERVER kibitz", "KIBITZ", "OBSERVER", "OBSERVER KIBITZ"),
    ("MONITOR mapper", "MAPPER", "MONITOR", "MONITOR MAPPER"),
    ("INVESTOR Rothschild", "ROTHSCHILD", "INVESTOR", "INVESTOR ROTHSCHILD"),
])
def test_power_heading(heading, name, kind, written):
    block = power("", heading)
    assert (block.name, block.kind) == (name, kind)
    status = parse_status(f"PHASE FORMING\n\n{heading}\n")
    assert rewritten(status).endswith(f"\n\n{written}\n")


# (block lines, as a file DPjudge saved writes them back)
DPJUDGE_CASES = [
    ("INHABITS PAR MAR", "INHABITS PAR MAR"),
    ("HOME PAR", "INHABITS PAR"),
    ("RETREAT A PAR DISBAND", "RETREAT A PAR DISBAND"),
    ("DISBAND A PAR", "RETREAT A PAR DISBAND"),
    ("SEES BEL\nHIDES A PAR, F BRE\nFUNDS $10", "SEES BEL\nHIDES A PAR, F BRE\nFUNDS $10"),
]


@pytest.mark.parametrize("lines, written", DPJUDGE_CASES)
def test_a_started_game_dpjudge_saved_is_written_in_its_layout(lines, written):
    """DPjudge names a started game's powers alone (`FRANCE`): such a file is written back its way."""
    text = rewritten(parse_status(f"PHASE SPRING 1901 MOVEMENT\n\nFRANCE\n{lines}\n"))
    assert text.endswith(f"\n\nFRANCE\n{written}\n")


def test_power_block_in_canonical_sequence():
    lines = ("ORDERS\nA PAR H", "A PAR", "OWNS PAR", "VOTE YES", "WAIT", "PASSWORD x",
             "ADDRESS a@b.fr", "PLAYER #1|a@b.fr|A")
    status = parse_status("PHASE SPRING 1901 MOVEMENT\n\nPOWER FRANCE\n" + "\n".join(lines[1:]) +
                          "\n" + lines[0] + "\n")
    assert rewritten(status).split("\n\n")[1] == "\n".join(
        ["POWER FRANCE", *reversed(lines[1:]), lines[0]]) + "\n"


def test_orders_run_to_the_end_of_the_block():
    status = parse_status("PHASE SPRING 1901 MOVEMENT\n\nFRANCE\nA PAR\nORDERS\nA PAR - BUR\n\n"
                          "ENGLAND\nF LON\n")
    assert status.power("FRANCE").orders == ("A PAR - BUR",)
    assert status.power("ENGLAND").units == (Unit(F, "LON"),)
