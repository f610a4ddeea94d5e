"""Payola's lines in the status file: the files DPjudge saved while it played a Payola game by mail
(`fixtures/payola_by_mail.json`, made by `tests/support/record_payola_game.py`) read, and written
back byte for byte; the TAX and CAP lines, the acceptance list, the offer sheet, the transfers and
the Exchange's lines read as DPjudge reads them, and their mistakes reported with their line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.status import parse_status, write_status
from judge.status.model import Fund, Tax
from tests.status.test_errors import assert_only_problem
from tests.support.status import game, power

GAME = json.loads((Path(__file__).parent / "fixtures" / "payola_by_mail.json").read_text())
# Every file DPjudge saved: with the phase's offer sheets in, and after the phase was processed
SAVED = [(f"{p['phase']}-{when}", p[when]) for p in GAME["phases"] for when in ("ready", "status")]


@pytest.mark.parametrize("text", [text for _, text in SAVED], ids=[name for name, _ in SAVED])
def test_a_payola_file_dpjudge_saved_round_trips_exactly(text):
    assert write_status(parse_status(text)) == text


def test_the_offer_sheet_acceptance_list_and_funds_are_read_from_a_saved_game():
    ready = next(text for name, text in SAVED if name == "S1902M-ready")
    france = parse_status(ready).power("FRANCE")
    assert france.accept == "FTGRIEA"
    assert france.funds == (Fund(82, "$"),)
    assert france.offers == ("0 : A BRE - PAR", "8 : F BEL - HOL", "6 : A MAR H | - BUR", "4 : A PAR - BRE")
    assert [str(u) for u in france.units] == ["A BRE", "F BEL", "A MAR", "A PAR"]


def test_a_processed_phase_leaves_no_offer_sheet():
    after = parse_status(next(text for name, text in SAVED if name == "S1902M-status"))
    assert all(p.offers == () and p.accept for p in after.powers)


def test_comments_savings_and_alternatives_are_kept_as_written():
    block = power("FUNDS $20\nA PAR\nACCEPT F?\n5 : A PAR - BUR | - PIC % to Burgundy\n% a plan\n3 $")
    assert block.offers == ("5 : A PAR - BUR | - PIC % to Burgundy", "% a plan", "3 $")
    assert block.accept == "F?" and block.units and block.funds == (Fund(20, "$"),)


def test_the_transfers_and_the_exchanges_lines_are_read_and_written_in_dpjudges_order():
    text = ("GAME g\nPHASE SPRING 1901 MOVEMENT\nMAP standard\n\nENGLAND\nFUNDS $48 3F\nF LON\n"
            "ELECT A:B E:F\nSENT FRANCE\nSENT GERMANY\nACCEPT EF?\nSTATE X\n2 : F LON - NTH\n")
    england = parse_status(text).power("ENGLAND")
    assert (england.elect, england.sent, england.state) == (("A:B", "E:F"), ("FRANCE", "GERMANY"), "X")
    assert write_status(parse_status(text)) == text


def test_dpjudges_tax_and_cap_past_the_game_block_are_read_and_written_inside_it():
    # DPjudge writes them after the blank line that ends the game block, the first power's name on
    # the next line, and then cannot read its own file back: the judge writes them where both read
    dpjudge = ("GAME g\nPHASE SPRING 1901 MOVEMENT\nMAP standard\n\nTAX PAR 3\nTAX 2\nCAP 40\n"
               "AUSTRIA\nFUNDS $48\nA VIE\n")
    status = parse_status(dpjudge)
    assert status.taxes == (Tax(3, "PAR"), Tax(2)) and status.cap == 40
    assert [p.name for p in status.powers] == ["AUSTRIA"]
    assert write_status(status) == ("GAME g\nPHASE SPRING 1901 MOVEMENT\nMAP standard\nTAX PAR 3\n"
                                    "TAX 2\nCAP 40\n\nAUSTRIA\nFUNDS $48\nA VIE\n")


def test_a_tax_and_cap_in_the_game_block():
    status = game("GAME g\nTAX 2\nTAX PAR 3\nCAP 25")
    assert status.taxes == (Tax(2), Tax(3, "PAR")) and status.cap == 25


def test_under_pay_dummies_an_order_to_ones_own_unit_is_on_the_sheet_without_its_price():
    # DPjudge drops the `0 :` of such an order when it saves the sheet
    text = "GAME g\nPHASE SPRING 1901 MOVEMENT\nMAP standard\nRULE PAY_DUMMIES\n\nFRANCE\nA PAR\nA PAR - BUR\n"
    assert parse_status(text).power("FRANCE").offers == ("A PAR - BUR",)
    assert write_status(parse_status(text)) == text


HEAD = "GAME g\nPHASE SPRING 1901 MOVEMENT\n"  # lines 1-2
BLOCK = HEAD + "\nFRANCE\nA PAR\n"  # the power's own lines from line 6


@pytest.mark.parametrize("text, line, message", [
    (HEAD + "TAX\n", 3, "TAX: takes a yield (TAX 2) or a centre and its yield (TAX PAR 3)"),
    (HEAD + "TAX -1\n", 3, "a whole number of 0 or more, not '-1'"),
    (HEAD + "TAX PAR X\n", 3, "not 'X'"),
    (HEAD + "TAX PAR/NC 3\n", 3, "names a coast"),
    (HEAD + "CAP 0\n", 3, "the income cap is a whole number of 1 or more, not '0'"),
    (HEAD + "CAP 10\nCAP 20\n", 4, "CAP repeats what line 3 already says"),
    (BLOCK + "ACCEPT FGF\n", 6, "'F' appears more than once in the acceptance list FGF"),
    (BLOCK + "ACCEPT F G\n", 6, "ACCEPT: takes one word"),
    (BLOCK + "ACCEPT F?\nACCEPT G?\n", 7, "ACCEPT repeats what line 6 already says"),
    (BLOCK + "ELECT AB\n", 6, "'AB' is not a vote such as A:B"),
    (BLOCK + "SENT\n", 6, "SENT: takes one power's name"),
    (BLOCK + "A PAR - BUR\n", 6, "movement orders go after an ORDERS line"),
])
def test_a_payola_line_in_error_is_reported_with_its_line(text, line, message):
    assert_only_problem(text, line, message)
