"""The Payola games DPjudge played by mail (`tests/support/record_payola_game.py`), played by mail
through the judge: each power's offer sheet (or retreat and adjustment orders) mailed, the
Master's PROCESS (PROCESS! when a power sent nothing), on a games folder whose index names the game
`payola`. Every order confirmation is the one DPjudge sent, and each phase's results mails and the
status file saved are DPjudge's.

Each phase is played from the status file DPjudge held before it; the status files are compared as
the Crystal Ball games' are (`status_as_compared`)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.notices import OrdersStored
from judge.game.orders import duties
from judge.events import BribesSettled, IncomePaid, PhaseResults
from judge.mailout.mailings import Mailer
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised, raw_mail
from judge.status import parse_status
from tests.game.test_xtalball_by_mail import DEADLINE, status_as_compared
from tests.support.commands import MAPS, TEMPLATES, Judge
from tests.support.cycle import Judge as CycleJudge
from tests.support.payola import GAMES, JUDGE, recorded

PLAYED = [(name, index) for name in GAMES for index in range(len(recorded(name)["phases"]))]
IDS = [f"{name}-{recorded(name)['phases'][index]['phase']}" for name, index in PLAYED]


def payola_judge(tmp_path, game: dict, status_text: str) -> Judge:
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(game["game"], status_text)
    (tmp_path / "status").write_text(f"{game['game']:>32} payola active\n")
    return judge


def before(game: dict, index: int) -> str:
    return game["phases"][index - 1]["status"] if index else game["start"]


def played(judge: Judge, game: dict, phase: dict) -> tuple[list[dict], list[list[dict]], str]:
    """The phase's mails carried out by the judge: the confirmations of each mail, the results
    mails (each text once, with its readers) and the status file it saved."""
    events, confirmed = [], []
    for each in phase["mails"]:
        sent = judge.send(raw_mail(each["from"], each["body"]), NOW).events
        events += sent
        status = read_status_file(GameDir(judge.store.root / game["game"]))[1]
        mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL,
                        replied=(each["from"],))
        confirmed.append([{"to": sorted(m.recipients), "subject": m.rendered.subject,
                           "body": normalised(m.rendered.body)}
                          for e in sent if isinstance(e, OrdersStored) for m in mailer.for_events([e])])
    text, status = read_status_file(GameDir(judge.store.root / game["game"]))
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
    results = [e for e in events if isinstance(e, (PhaseResults, BribesSettled, IncomePaid))]
    mails = [{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
             for m in mailer.for_events(results, NOW)]
    return sorted(mails, key=_order), confirmed, status_as_compared(text)


def _order(mail: dict) -> tuple:
    return mail["subject"], mail["to"]


def expected(phase: dict) -> tuple[list[dict], list[list[dict]], str]:
    """DPjudge's results mails, its account statements among them, and its income reports (which
    DPjudge sent itself to pass on to the players)."""
    reports = [m for each in phase["mails"] for m in each["relayed"]
               if "income report" in m["subject"] and m["to"] != [JUDGE]]
    mails = sorted(({**m, "to": sorted(m["to"]), "body": normalised(m["body"])}
                    for m in phase["results"] + reports), key=_order)
    confirmed = [[{**r, "to": sorted(r["to"]), "body": normalised(r["body"])} for r in each["replies"]
                  if r["subject"].startswith("Diplomacy orders ")] for each in phase["mails"]]
    return mails, confirmed, status_as_compared(phase["status"])


@pytest.mark.parametrize(("name", "index"), PLAYED, ids=IDS)
def test_the_phase_plays_by_mail_as_dpjudge_played_it(name, index, tmp_path):
    game = recorded(name)
    judge = payola_judge(tmp_path, game, before(game, index))
    assert played(judge, game, game["phases"][index]) == expected(game["phases"][index])


def cycle_judge(tmp_path, game: dict, mails: list[dict]) -> CycleJudge:
    """The daemon's judge on the game's start, the players' `mails` handed to its inbox runner."""
    judge = CycleJudge(tmp_path)
    judge.store.create(game["game"], game["start"])
    (judge.store.root / "status").write_text(f"{game['game']:>32} payola active\n")
    for each in mails:
        judge.send(each["from"], each["body"], NOW)
    return judge


def test_the_cycle_processes_a_payola_phase_at_its_deadline_when_every_sheet_is_in(tmp_path):
    """Spring 1901's sheets mailed to the daemon's inbox runner, then `judge check` at the deadline
    and a cycle later: the status file saved is the one DPjudge saved after the Master's PROCESS."""
    game = recorded("plain")
    judge = cycle_judge(tmp_path, game, game["phases"][0]["mails"][:-1])
    assert judge.check(DEADLINE)[0] == 0
    assert judge.check(DEADLINE + timedelta(minutes=20))[0] == 0
    text = (judge.store.root / game["game"] / "status").read_text()
    assert status_as_compared(text) == status_as_compared(game["phases"][0]["status"])


def test_the_cycle_waits_for_a_missing_sheet_as_for_missing_orders(tmp_path):
    """With Turkey's sheet missing the phase is late at the deadline, not processed: as in a
    standard game, until the Master's PROCESS! (or the game's lateness rules) ends it."""
    game = recorded("missing")
    judge = cycle_judge(tmp_path, game, game["phases"][0]["mails"][:-2])
    judge.check(DEADLINE + timedelta(minutes=20))
    status = read_status_file(GameDir(judge.store.root / game["game"]))[1]
    assert status.phase == parse_status(game["start"]).phase
    assert duties(status, MAPS.get(status.map_name), frozenset()).late == ("TURKEY",)
