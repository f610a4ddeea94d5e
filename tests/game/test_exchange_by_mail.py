"""The Exchange game DPjudge played by mail (`tests/support/record_exchange_game.py`), played by mail
through the judge: a Payola game with `RULE EXCHANGE` and `ALLOW INVESTOR`, an investor already in
DPjudge's saved file with money to bribe with and a second one joining by mail with an empty purse.

Each phase is played from the status file DPjudge held before it: every order confirmation (the
investors' sheets among them), every results mail and account statement, and the status file saved
are DPjudge's, compared as the Payola games' are."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.game.rules import rules_in_force
from judge.maps import MapCache
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from judge.status import parse_status, write_status
from tests.game.test_dpjudge_games import NOW, raw_mail
from tests.game.test_payola_by_mail import before, expected, payola_judge, played
from tests.game.test_xtalball_by_mail import status_as_compared
from tests.support.commands import Judge, eml

FIXTURES = Path(__file__).parent / "fixtures"
GAME = json.loads((FIXTURES / "exchange_by_mail.json").read_text())
# Spring 1901 of the same game with no investor's sheet: the Master's PROCESS does not wait for
# them, and the investor with money is told he offered no bribes
IDLE = json.loads((FIXTURES / "exchange_idle_investors.json").read_text())
PHASES = [p["phase"] for p in GAME["phases"]]
PLAYED = [(GAME, index) for index in range(len(PHASES))] + [(IDLE, 0)]
IDS = PHASES + ["idle-investors-S1901M"]


@pytest.mark.parametrize(("game", "index"), PLAYED, ids=IDS)
def test_the_phase_plays_by_mail_as_dpjudge_played_it(game, index, tmp_path):
    judge = payola_judge(tmp_path, game, before(game, index))
    assert played(judge, game, game["phases"][index]) == expected(game["phases"][index])


def test_the_exchange_game_plays_three_years():
    assert PHASES[0] == "S1901M" and PHASES[-1].startswith("W1903")


def test_an_investor_joins_by_mail_with_an_empty_purse(tmp_path):
    """`INVESTOR name@game password` where the game ALLOWs INVESTORs: the investor's block as
    DPjudge saved it (after the other seats, by kind and name), FUNDS $0 (an investor earns no
    income); its password kept hashed, its PLAYER line as the judge writes a player without a
    DPPD id (docs/dpjudge.md)."""
    judge = payola_judge(tmp_path, GAME, GAME["opening"])
    joining = GAME["joining"]
    sent = judge.send(raw_mail(joining["from"], joining["body"]), NOW)
    assert sent.outcome("INVESTOR").lines[0] == "You are now INVESTOR 'RICH' in game 'dpjstandard'."
    text = read_status_file(GameDir(judge.store.root / GAME["game"]))[0]
    assert _without_passwords(status_as_compared(text)) == _without_passwords(status_as_compared(GAME["start"]))


def _without_passwords(text: str) -> str:
    return "\n".join(x for x in text.splitlines()
                     if not x.startswith("PASSWORD ") and not (x.startswith("PLAYER ") and "rich@" in x))


def test_create_takes_an_exchange_game_that_allows_investors(tmp_path):
    """CREATE of a `payola` game with RULE EXCHANGE and ALLOW INVESTOR, then an investor joins."""
    judge = Judge(tmp_path)
    sent = judge.send(eml("create_plain.eml", (b"CREATE plain pw1", b"CREATE xpay pw1 payola\r\nRULE EXCHANGE\r\n"
                                                                    b"ALLOW INVESTOR\r\nFORM")))
    assert not sent.failed, sent.text
    status = read_status_file(GameDir(tmp_path / "xpay"))[1]
    assert status.variant == "payola"
    assert "EXCHANGE" in rules_in_force(status, MapCache().get(status.map_name)) and status.allow == {"INVESTOR"}
    joined = judge.send(raw_mail("rich@example.org", "INVEST rich@xpay cash\nSIGNOFF\n"), NOW)
    assert not joined.failed, joined.text
    block = judge.status("xpay").power("RICH")
    assert block is not None and block.kind == "INVESTOR" and [str(f) for f in block.funds or ()] == ["$0"]


SAVED = [(f"{p['phase']}-{when}", p[when]) for p in GAME["phases"] for when in ("ready", "status")]


@pytest.mark.parametrize("text", [GAME["start"]] + [text for _, text in SAVED],
                         ids=["start"] + [name for name, _ in SAVED])
def test_an_exchange_file_dpjudge_saved_round_trips_exactly(text):
    """Its ALLOW line, the investors' blocks (with their sheets in a movement phase) byte for byte."""
    assert write_status(parse_status(text)) == text
