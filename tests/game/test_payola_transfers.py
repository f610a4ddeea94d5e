"""Payola transfers and acceptance lists by mail (TRANSFER, ACCEPT), against what DPjudge's
Transfer and Accept pages did on the same game (`tests/support/record_payola_transfers.py`):
after each step the accounts mailed to the two powers and the status file saved are DPjudge's,
and the Spring 1901 played after them (sheets by mail, the Master's PROCESS) leaves the status
DPjudge left: the bribes paid from the funds as transferred, ties broken by the lists as set,
ONE_TRANSFER's SENT lines gone."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.events import BribesSettled, FundsTransferred, PhaseResults
from judge.game.payola_orders import balance
from judge.game.process import process_phase
from judge.game.variants.payola import PAYOLA
from judge.mailout.mailings import Mailer
from judge.status import parse_status, write_status
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised, raw_mail
from tests.game.test_payola_by_mail import expected, payola_judge, played
from tests.game.test_xtalball_by_mail import status_as_compared
from tests.support.commands import MAPS, TEMPLATES, Judge
from tests.support.record_dpjudge_games import dpjudge_name, player

FIXTURE = Path(__file__).parent / "fixtures" / "payola_transfers.json"
GAMES = json.loads(FIXTURE.read_text())
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
STEPS = [(name, index) for name, game in GAMES.items() for index in range(len(game["steps"]))]


def signed_on(power: str, game: str, *lines: str) -> bytes:
    address, password = player(POWERS.index(power))
    return raw_mail(address, f"SIGNON {dpjudge_name(power)}@{game} {password}\n"
                             + "".join(f"{x}\n" for x in lines) + "SIGNOFF\n")


def command(step: list[str]) -> str:
    """The mail command doing what DPjudge's page did."""
    if step[0] == "transfer":
        return f"TRANSFER {step[3]} TO {step[2]}"
    return f"ACCEPT {step[2]}"


def judge_after(tmp_path, game: dict, steps: int) -> Judge:
    """The judge on the game's start with its first `steps` steps mailed."""
    judge = payola_judge(tmp_path, game, game["start"])
    for step in game["steps"][:steps]:
        sent = judge.send(signed_on(step["step"][1], game["game"], command(step["step"])), NOW)
        assert not sent.failed, sent.text
    return judge


def accounts(judge: Judge, game: dict, events: list) -> list[dict]:
    status = read_status_file(GameDir(judge.store.root / game["game"]))[1]
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
    return [{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
            for m in mailer.for_events([e for e in events if isinstance(e, FundsTransferred)])]


@pytest.mark.parametrize(("name", "index"), STEPS, ids=[f"{n}-{i}" for n, i in STEPS])
def test_each_step_by_mail_mails_and_saves_what_dpjudge_did(name, index, tmp_path):
    game = GAMES[name]
    judge = judge_after(tmp_path, game, index)
    step = game["steps"][index]
    sent = judge.send(signed_on(step["step"][1], game["game"], command(step["step"])), NOW)
    assert not sent.failed, sent.text
    assert accounts(judge, game, sent.events) == [{**m, "body": normalised(m["body"])} for m in step["relayed"]]
    assert status_as_compared(judge.text(game["game"])) == status_as_compared(step["status"])


@pytest.mark.parametrize("name", list(GAMES))
def test_the_phase_after_the_transfers_settles_as_dpjudge_settled_it(name, tmp_path):
    game = GAMES[name]
    judge = judge_after(tmp_path, game, len(game["steps"]))
    assert played(judge, game, game["played"]) == expected(game["played"])


@pytest.mark.parametrize(("line", "why"), [
    ("TRANSFER 49 TO FRANCE", "ENGLAND has only 48 AgP"),
    ("TRANSFER FRANCE", "TRANSFER takes an amount and a power"),
    ("ACCEPT EX", "Letter X not a power initial"),
])
def test_a_refused_request_by_mail_says_why_and_changes_nothing(line, why, tmp_path):
    game = GAMES["plain"]
    judge = payola_judge(tmp_path, game, game["start"])
    sent = judge.send(signed_on("ENGLAND", game["game"], line), NOW)
    assert sent.failed and why in sent.prose
    assert status_as_compared(judge.text(game["game"])) == status_as_compared(game["start"])


def test_no_donations_empties_a_gone_power_s_treasury_after_a_movement_phase_as_dpjudge_does():
    """`tests/support/record_payola_positions.py`: Italy, its one centre taken in Spring, is gone as
    DPjudge counts it; its 48 AgP are gone with it. The status and every results mail and
    statement are DPjudge's."""
    goners = json.loads((Path(__file__).parent / "fixtures" / "payola_goners.json").read_text())
    status = replace(parse_status(goners["ready"]), variant="payola")
    after, events = process_phase(status, MAPS.get("standard"), NOW, PAYOLA)
    assert status_as_compared(write_status(after)) == status_as_compared(goners["status"])
    assert balance(after.power("ITALY")) == 0
    mailer = Mailer(TEMPLATES, after, MAPS.get("standard"), judge=SETTINGS.judge_id, url=URL)
    told = [e for e in events if isinstance(e, (BribesSettled, PhaseResults))]
    mine = sorted(normalised(m.rendered.body) for m in mailer.for_events(told, NOW))
    assert mine == sorted(normalised(m["body"]) for m in goners["results"])
