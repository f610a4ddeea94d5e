"""NO_LEDGERS: a year DPjudge played under it by mail (`tests/support/record_payola_game.py
--seed 1 --years 1 --rule NO_LEDGERS --out tests/game/fixtures/payola_no_ledgers_by_mail.json`),
played by mail through the judge. The judge mails what DPjudge mailed (the results, no account
statement and no income report) and saves DPjudge's status file but for the treasuries: DPjudge
charges the bribes only as it writes the statements, so under NO_LEDGERS its bribes cost nothing;
the judge charges them as in every Payola game (docs/dpjudge.md)."""
from __future__ import annotations

import json
import re

import pytest

from tests.game.test_payola_by_mail import before, expected, payola_judge, played
from tests.support.payola import TESTS

GAME = json.loads((TESTS / "game" / "fixtures" / "payola_no_ledgers_by_mail.json").read_text())
PHASES = range(len(GAME["phases"]))
IDS = [p["phase"] for p in GAME["phases"]]
_FUNDS = re.compile(r"^FUNDS .*$", re.MULTILINE)


def _without_funds(text: str) -> str:
    return _FUNDS.sub("FUNDS", text)


def _funds(text: str) -> list[str]:
    return _FUNDS.findall(text)


def _charged(tmp_path, index: int) -> tuple[str, str]:
    """The status files the judge saves after the phase, under NO_LEDGERS and without it."""
    saved = []
    for name, start in (("kept", before(GAME, index)), ("plain", before(GAME, index).replace("RULE NO_LEDGERS\n", ""))):
        (tmp_path / name).mkdir()
        judge = payola_judge(tmp_path / name, GAME, start)
        saved.append(played(judge, GAME, GAME["phases"][index])[2])
    return saved[0], saved[1]


@pytest.mark.parametrize("index", PHASES, ids=IDS)
def test_the_judge_mails_what_dpjudge_mailed_under_no_ledgers(index, tmp_path):
    mails, confirmed, status = played(payola_judge(tmp_path, GAME, before(GAME, index)), GAME, GAME["phases"][index])
    wanted_mails, wanted_confirmed, wanted_status = expected(GAME["phases"][index])
    assert (mails, confirmed) == (wanted_mails, wanted_confirmed)
    assert not [m for m in mails if "bribe results" in m["subject"] or "income report" in m["subject"]]
    assert _without_funds(status) == _without_funds(wanted_status)


@pytest.mark.parametrize("index", PHASES, ids=IDS)
def test_the_treasuries_move_under_no_ledgers_as_without_it(index, tmp_path):
    kept, plain = _charged(tmp_path, index)
    assert _funds(kept) == _funds(plain)


def test_the_bribes_are_charged_where_dpjudge_charged_nothing(tmp_path):
    spring = GAME["phases"][0]
    status = played(payola_judge(tmp_path, GAME, GAME["start"]), GAME, spring)[2]
    assert _funds(GAME["start"]) == _funds(spring["status"])  # DPjudge's bug, seen in the recording
    assert sum(int(x.split("$")[1]) for x in _funds(status)) < sum(int(x.split("$")[1]) for x in _funds(GAME["start"]))
