"""A Payola player's offer sheet by mail, against the start of the plain game DPjudge played
(`tests/support/payola.py`): each line DPjudge refuses refused with its words and nothing kept,
the sheet kept as DPjudge keeps it (the bribe in capitals, its comment as written), CLEAR, which
powers owe a sheet and when one is in, and every example HELP gives read as a sheet.

DPjudge's words were recorded by mailing these lines to it (its reply names the line's problem
first, then the whole mail's lines as "Erroneous orders")."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from judge.game.orders import duties
from judge.game.payola_orders import owes_sheet
from judge.game.rules import rules_in_force
from judge.maps import MapCache
from judge.mailout.render import bundled_templates_dir
from judge.rule_names import Rule
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from judge.status import parse_status
from judge.status.model import Fund
from tests.game.test_dpjudge_games import NOW, SETTINGS, raw_mail
from tests.support.commands import Judge
from tests.support.record_payola_refusals import POWERS
from tests.support.record_dpjudge_games import player
from tests.support.payola import recorded

GAME = recorded("plain")
NAME = GAME["game"]
FRANCE = f"SIGNON FRANCE@{NAME} pw2\n"
STANDARD = MapCache().get("standard")


@pytest.fixture
def judge(tmp_path) -> Judge:
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(NAME, GAME["start"])
    (tmp_path / "status").write_text(f"{NAME:>32} payola active\n")
    return judge


def france(judge: Judge, *lines: str):
    return judge.send(raw_mail("p2@example.org", FRANCE + "".join(f"{x}\n" for x in lines)), NOW)


@pytest.mark.parametrize(("line", "why"), [
    ("5 ? A PAR H", "BAD OFFER TYPE: 5 ? A PAR H"),
    ("0 : A BER - KIE", "ZERO AgP OFFER TO FOREIGN UNIT: A BER"),
    ("5 : A PAR", "NO ORDER GIVEN: A PAR"),
    ("5 : A PAR H | H", "DUPLICATE ORDER IN OFFER: A PAR H"),
    ("5 : A PAR H |", "NO ALTERNATIVE ORDER GIVEN: A PAR"),
    ("5 :", "INCOMPLETE OFFER: 5 :"),
    ("10#20 : A PAR H", "INVALID OFFER AMOUNT: 10#20"),
])
def test_a_line_dpjudge_refuses_is_refused_with_its_words_and_nothing_is_kept(judge, line, why):
    france(judge, "5 : A PAR - BUR")
    sent = france(judge, "7 : F BRE - ENG", line)
    assert sent.failed and f"{line}: {why}" in sent.text
    assert judge.status(NAME).power("FRANCE").offers == ("5 : A PAR - BUR",)


def test_every_line_refused_is_named_in_one_reply(judge):
    sent = france(judge, "5 : A PAR - BUR", "0 : A BER - KIE", "3 : A MAR - MUN")
    assert "2 of the offers for FRANCE could not be accepted" in sent.prose
    assert "0 : A BER - KIE: ZERO AgP OFFER TO FOREIGN UNIT: A BER" in sent.text
    assert "3 : A MAR - MUN: A MAR cannot reach Munich" in sent.text
    assert judge.status(NAME).power("FRANCE").offers == ()


def test_the_sheet_is_kept_in_capitals_with_its_comment_as_written(judge):
    sent = france(judge, "5 : a par - bur % Mixed Case", "2 $")
    assert not sent.failed
    assert judge.status(NAME).power("FRANCE").offers == ("5 : A PAR - BUR % Mixed Case", "2 $")
    assert "5 : A PAR - BUR % Mixed Case" in sent.text


def test_clear_empties_the_sheet(judge):
    france(judge, "5 : A PAR - BUR")
    sent = france(judge, "CLEAR")
    assert not sent.failed and judge.status(NAME).power("FRANCE").offers == ()


def sheets_in(judge: Judge) -> tuple[str, ...]:
    status = read_status_file(GameDir(judge.store.root / NAME))[1]
    assert status.variant == "payola"
    return duties(status, STANDARD, rules_in_force(status, STANDARD)).submitted


def test_a_sheet_of_savings_alone_leaves_the_power_owing_one(judge):
    france(judge, "2 $")
    assert "FRANCE" not in sheets_in(judge)
    france(judge, "2 $", "A PAR H")
    assert "FRANCE" in sheets_in(judge)


def test_a_power_with_centres_and_no_unit_owes_a_sheet_while_it_has_money():
    block = replace(parse_status(GAME["start"]).power("FRANCE"), units=())
    assert owes_sheet(block, frozenset())
    broke = replace(block, funds=(Fund(0, "$"),))
    assert not owes_sheet(broke, frozenset())
    assert owes_sheet(broke, frozenset({Rule.ZERO_FOREIGN}))
    assert not owes_sheet(replace(broke, owns=()), frozenset({Rule.ZERO_FOREIGN}))


def help_examples() -> list[str]:
    guide = (bundled_templates_dir() / "_guide.txt").read_text()
    section = guide.split("Payola games")[1].split("Each unit obeys")[0]
    return [m.group(1) for m in re.finditer(r"^  (\S.*?\S)\s{2,}\S", section, re.MULTILINE)]


def test_every_example_help_gives_is_a_sheet_the_judge_takes(judge):
    examples = help_examples()
    assert len(examples) == 11
    for example in examples:
        assert not france(judge, example).failed, example


REFUSALS = json.loads((Path(__file__).parent / "fixtures" / "payola_refusals.json").read_text())
SHEET_RULES = [(game, case) for game in REFUSALS for case in game["cases"]]


@pytest.mark.parametrize(("game", "case"), SHEET_RULES,
                         ids=[f"{'+'.join(g['rules'])}-{n}" for n, (g, _) in enumerate(SHEET_RULES)])
def test_the_sheet_rules_refuse_a_sheet_as_dpjudge_refused_it(tmp_path, game, case):
    """DIRECT_ONLY, LIMIT_OFFERS, TOUCH_BRIBE and REMOTE_BRIBE on the sheets recorded by
    `tests/support/record_payola_refusals.py`: refused with DPjudge's words and nothing kept, or
    kept whole when DPjudge took them."""
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(NAME, game["start"])
    (tmp_path / "status").write_text(f"{NAME:>32} payola active\n")
    address, password = player(POWERS.index(case["power"]))
    sent = judge.send(raw_mail(address, f"SIGNON {case['power']}@{NAME} {password}\n"
                               + "".join(f"{x}\n" for x in case["sheet"])), NOW)
    kept = judge.status(NAME).power(case["power"]).offers
    if case["refused"]:
        assert sent.failed and case["refused"] in sent.text
        assert kept == ()
    else:
        assert not sent.failed, sent.text
        assert kept == tuple(case["sheet"])
