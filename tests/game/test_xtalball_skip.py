"""A Crystal Ball game begun on an empty board from `SKIP FALL 1900 MOVEMENT`, as DPjudge played
it by mail (`fixtures/xtalball_skip.json`, recorded by `tests/support/record_xtalball_skip.py`):
in the SKIP phase every list goes to LATER and every power owes one, units or not; it is
processed to a results mail of ownership alone, no list mailed or kept; the lists move up to
SOONER, the powers build in Winter 1900 and the lists are played in Spring 1901.

DPjudge writes every phase after it SKIP too (it carries the SKIP on unless it processes without
a deadline): the judge writes them PHASE (`docs/dpjudge.md`), and so keeps the lists of Spring
1901 in the `lists` file where DPjudge, still skipping, keeps none."""
from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from judge.status.model import PhaseMode
from tests.game.test_dpjudge_games import NOW, normalised, raw_mail, results_mails
from tests.game.test_xtalball_by_mail import DEADLINE, crystal_ball_judge, status_as_compared
from tests.support.cycle import Judge as CycleJudge

GAME = json.loads((Path(__file__).parent / "fixtures" / "xtalball_skip.json").read_text(encoding="utf-8"))
PHASES = GAME["phases"]


def phase_written(text: str) -> str:
    """DPjudge's SKIP carried on, written as the judge writes the phase (PHASE)."""
    return text.replace("\nSKIP ", "\nPHASE ", 1)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Each phase's mails played through the judge's mail path: per phase its events, the replies,
    the status file saved and the `lists` file."""
    judge = crystal_ball_judge(tmp_path_factory.mktemp("skip"), GAME["start"])
    folder = judge.store.root / GAME["game"]
    out = []
    for phase in PHASES:
        events, replies = [], []
        for each in phase["mails"]:
            sent = judge.send(raw_mail(each["from"], each["body"]), NOW)
            events += sent.events
            replies.append(sent.prose)
        text, status = read_status_file(GameDir(folder))
        lists = folder / "lists"
        out.append((events, replies, text, status, lists.read_bytes().decode("latin-1") if lists.exists() else ""))
    return out


@pytest.mark.parametrize("index", range(len(PHASES)), ids=["F1900M", "W1900A", "S1901M"])
def test_the_results_mails_are_dpjudges(played, index):
    events, _, _, status, _ = played[index]
    assert results_mails(status, events) == [{**m, "body": normalised(m["body"])} for m in PHASES[index]["results"]]


@pytest.mark.parametrize("index", range(len(PHASES)), ids=["F1900M", "W1900A", "S1901M"])
def test_the_status_saved_is_dpjudges_the_skip_not_carried_on(played, index):
    _, _, text, status, _ = played[index]
    assert status.phase_mode is PhaseMode.PHASE
    assert status_as_compared(text) == status_as_compared(phase_written(PHASES[index]["status"]))


def test_the_skip_phase_is_read_and_written_as_dpjudge_writes_it(tmp_path):
    """Read from DPjudge's file, and written back so with the first list stored in LATER."""
    judge = crystal_ball_judge(tmp_path, GAME["start"])
    first = PHASES[0]["mails"][0]
    judge.send(raw_mail(first["from"], first["body"]), NOW)
    text, status = read_status_file(GameDir(judge.store.root / GAME["game"]))
    assert status.phase_mode is PhaseMode.SKIP and "\nSKIP FALL 1900 MOVEMENT\n" in text
    assert "OWNS BUD TRI VIE\nLATER\nA VIE - GAL\n" in text


def test_every_power_owes_a_list_in_the_skip_phase_units_or_not(tmp_path):
    """The Master's PROCESS before TURKEY's list (it has no units, as no one has) is refused, as
    DPjudge refused it."""
    judge = crystal_ball_judge(tmp_path, GAME["start"])
    mails = PHASES[0]["mails"]
    master = next(n for n, m in enumerate(mails) if m["body"].startswith("SIGNON M"))
    for each in mails[:master + 1]:
        judge.send(raw_mail(each["from"], each["body"]), NOW)
    assert judge.status(GAME["game"]).phase_mode is PhaseMode.SKIP
    assert mails[master + 1]["body"].startswith("SIGNON TURKEY")


def test_the_skip_phase_takes_its_lists_into_later(played):
    _, replies, *_ = played[0]
    assert all("for the movement phase after this one" in r for r in replies if "order lines for" in r)
    assert sum("order lines for" in r for r in replies) == 7


def test_no_list_is_mailed_or_kept_for_the_skip_phase(played):
    events, *_, lists = played[0]
    assert not any(type(e).__name__ == "ListsPlayed" for e in events)
    assert lists == PHASES[0]["lists"] == ""


def test_the_lists_of_spring_1901_are_kept_where_dpjudge_still_skipping_keeps_none(played):
    *_, lists = played[2]
    assert PHASES[2]["lists"] == ""
    assert lists.startswith("SPRING 1901 MOVEMENT ORDERS\n") and "Germany:  [no unit] A BER - KIE" in lists


def test_a_power_that_sent_no_list_holds_its_first_unit_once_built_and_the_locked_lists_stay(tmp_path):
    """TURKEY sends no list in the SKIP phase, which the Master's PROCESS! ends: once it has built,
    its SOONER list holds its first unit, so the lists mailed in Spring 1901 go to LATER (DPjudge,
    still skipping there, takes them into LATER too), the locked ones kept."""
    judge = crystal_ball_judge(tmp_path, GAME["start"])
    master = GAME["phases"][0]["mails"][-1]
    skip = [m for m in PHASES[0]["mails"] if "TURKEY" not in m["body"] and not m["body"].startswith("SIGNON M")]
    for each in [*skip, {**master, "body": master["body"].replace("PROCESS", "PROCESS!")}, *PHASES[1]["mails"]]:
        judge.send(raw_mail(each["from"], each["body"]), NOW)
    status = judge.status(GAME["game"])
    assert status.power("TURKEY").sooner == ("A CON H",)
    england = status.power("ENGLAND").sooner
    reply = judge.send(raw_mail(PHASES[2]["mails"][1]["from"], PHASES[2]["mails"][1]["body"]), NOW).prose
    assert "for the movement phase after this one" in reply
    assert judge.status(GAME["game"]).power("ENGLAND").sooner == england


def test_the_cycle_holds_the_skip_phase_for_a_missing_list_as_for_missing_orders(tmp_path):
    """TURKEY's list missing (it has no units): at the deadline the cycle does not process the
    phase but mails TURKEY's late notice, as it does for missing orders."""
    judge = CycleJudge(tmp_path)
    judge.store.create(GAME["game"], GAME["start"])
    (judge.store.root / "status").write_text(f"{GAME['game']:>32} xtalball active\n")
    for each in PHASES[0]["mails"]:
        if "TURKEY" not in each["body"] and not each["body"].startswith("SIGNON M"):
            judge.send(each["from"], each["body"], NOW)
    judge.take_outbox()
    judge.check(DEADLINE + timedelta(minutes=1))
    late = [m for m in judge.take_outbox() if "p6@example.org" in str(m["To"])]
    assert late and str(late[0]["Subject"]) == "Diplomacy deadline missed (dpjstandard)"
    assert judge.status(GAME["game"]).phase_mode is PhaseMode.SKIP
