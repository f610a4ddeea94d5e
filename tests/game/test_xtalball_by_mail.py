"""A Crystal Ball game played by mail, as DPjudge played it (`fixtures/xtalball_by_mail.json`,
recorded by `tests/support/record_xtalball_game.py`): the first lists mailed and locked, then three
years of lists for the movement phase after the next, retreats and builds, powers in civil
disorder for want of a list, the Master's PROCESS (PROCESS! when a list is missing). Every mail
goes through the judge's mail path on a games folder whose index names the game `xtalball`; each
phase's results mails and the status file saved must be DPjudge's.

Each phase is played from the status file DPjudge held before it. DPjudge kept the far deadline on
file where the judge sets the next one from the time it processes (compared as DATE), and it
keeps INHABITS and the order of OWNS where the judge, after a year's end, drops INHABITS and sorts
OWNS (docs/dpjudge.md)."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.notices import ListsLocked, OrdersStored
from judge.mailout.mailings import Mailer
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised, raw_mail, results_mails
from tests.support.commands import MAPS, TEMPLATES, Judge
from tests.support.cycle import Judge as CycleJudge

GAME = json.loads((Path(__file__).parent / "fixtures" / "xtalball_by_mail.json").read_text(encoding="utf-8"))
PHASES = GAME["phases"]
DEADLINE = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)  # the game's, on file
_DEADLINE = re.compile(r"^DEADLINE \d{12}$", re.MULTILINE)


def status_as_compared(text: str) -> str:
    """The status file less the next deadline, INHABITS, OWNS's order and the VOTE SOLO DPjudge
    writes of every power on its first save (the opening file has none)."""
    lines = []
    for line in _DEADLINE.sub("DEADLINE DATE", text).splitlines():
        if line.startswith("INHABITS ") or line == "VOTE SOLO":
            continue
        lines.append(" ".join(["OWNS", *sorted(line.split()[1:])]) if line.startswith("OWNS ") else line)
    return "\n".join(lines).rstrip("\n") + "\n"


def crystal_ball_judge(tmp_path: Path, status_text: str) -> Judge:
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(GAME["game"], status_text)
    (tmp_path / "status").write_text(f"{GAME['game']:>32} xtalball active\n")
    return judge


def played(judge: Judge, phase: dict) -> tuple[list[dict], str]:
    """The phase's mails carried out by the judge: its results mails (each text once, with its
    readers) and the status file it saved."""
    events = []
    for each in phase["mails"]:
        events += judge.send(raw_mail(each["from"], each["body"]), NOW).events
    text, status = read_status_file(GameDir(judge.store.root / GAME["game"]))
    return results_mails(status, events), status_as_compared(text)


def expected(phase: dict) -> tuple[list[dict], str]:
    mails = [{**m, "body": normalised(m["body"])} for m in phase["results"]]
    return mails, status_as_compared(phase["status"])


@pytest.mark.parametrize("index", range(len(PHASES)), ids=[p["phase"] for p in PHASES])
def test_the_phase_plays_as_dpjudge_played_it(index, tmp_path):
    judge = crystal_ball_judge(tmp_path, PHASES[index - 1]["status"] if index else GAME["start"])
    assert played(judge, PHASES[index]) == expected(PHASES[index])


def test_the_reply_says_which_movement_phase_a_list_is_for(tmp_path):
    judge = crystal_ball_judge(tmp_path, GAME["start"])
    first = judge.send(raw_mail("p2@example.org", f"SIGNON FRANCE@{GAME['game']} pw2\nA PAR - BUR\n"), NOW)
    assert "for SPRING 1901 MOVEMENT (its list, locked once every power has one)" in first.prose
    assert "A PAR - BUR" in first.text
    for each in PHASES[0]["mails"]:
        last = judge.send(raw_mail(each["from"], each["body"]), NOW)
    assert "The orders of TURKEY for SPRING 1901 MOVEMENT (its list, locked once" in last.prose
    assert "A CON H" in last.text
    locked = crystal_ball_judge(tmp_path / "locked", PHASES[0]["status"])
    later = locked.send(raw_mail("p2@example.org", f"SIGNON FRANCE@{GAME['game']} pw2\nA MUN - BUR\n"), NOW)
    assert "for the movement phase after this one (its list, locked when this phase is processed)" in later.prose
    assert locked.status(GAME["game"]).power("FRANCE").later == ("A MUN - BUR",)


def test_a_list_line_no_unit_could_carry_out_is_refused_by_mail(tmp_path):
    judge = crystal_ball_judge(tmp_path, PHASES[0]["status"])
    sent = judge.send(raw_mail("p2@example.org", f"SIGNON FRANCE@{GAME['game']} pw2\nF PAR H\n"), NOW)
    assert "F PAR H: no fleet can stand in PAR" in sent.prose
    assert judge.status(GAME["game"]).power("FRANCE").later is None


def test_the_cycle_processes_a_crystal_ball_game_at_its_deadline_as_dpjudge_did(tmp_path):
    """Spring 1901's LATER lists mailed to the daemon's inbox runner, then `judge check` at the
    deadline and a cycle later: the status file saved is the one DPjudge saved after the Master's
    PROCESS."""
    judge = CycleJudge(tmp_path)
    judge.store.create(GAME["game"], PHASES[0]["status"])
    (judge.store.root / "status").write_text(f"{GAME['game']:>32} xtalball active\n")
    for each in PHASES[1]["mails"][:-1]:
        judge.send(each["from"], each["body"], NOW)
    assert judge.check(DEADLINE)[0] == 0  # every list in before the deadline: DELAY's one cycle
    assert judge.check(DEADLINE + timedelta(minutes=20))[0] == 0
    text = (judge.store.root / GAME["game"] / "status").read_text()
    assert status_as_compared(text) == status_as_compared(PHASES[1]["status"])


def confirmations(judge: Judge, phase: dict) -> list[list[dict]]:
    """For each of the phase's mails, the order confirmations the judge sends for it."""
    out = []
    for each in phase["mails"]:
        events = judge.send(raw_mail(each["from"], each["body"]), NOW).events
        status = read_status_file(GameDir(judge.store.root / GAME["game"]))[1]
        mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL,
                        replied=(each["from"],))  # the sender's copy goes with (or as) the reply
        out.append([{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
                    for e in events if isinstance(e, OrdersStored) for m in mailer.for_events([e])])
    return out


@pytest.mark.parametrize("index", range(len(PHASES)), ids=[p["phase"] for p in PHASES])
def test_each_order_confirmation_is_dpjudges(index, tmp_path):
    """The first lists (the SOONER list alone), then each movement phase's SOONER and LATER lists
    headed, and retreats and builds as in the standard game."""
    judge = crystal_ball_judge(tmp_path, PHASES[index - 1]["status"] if index else GAME["start"])
    assert confirmations(judge, PHASES[index]) == [
        [{**c, "body": normalised(c["body"])} for c in each["confirmations"]] for each in PHASES[index]["mails"]]


def test_the_last_first_list_locks_the_lists_and_everyone_is_told_as_dpjudge_told_them(tmp_path):
    """DPjudge's Master broadcast "Order lists locked" when the seventh list for Spring 1901 came
    in, to every player and the Master; none before it."""
    judge = crystal_ball_judge(tmp_path, GAME["start"])
    told = []
    for each in PHASES[0]["mails"]:
        events = judge.send(raw_mail(each["from"], each["body"]), NOW).events
        status = read_status_file(GameDir(judge.store.root / GAME["game"]))[1]
        mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
        told.append([{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
                     for e in events if isinstance(e, ListsLocked) for m in mailer.for_events([e])])
    assert told == [[{**b, "body": normalised(b["body"])} for b in each["broadcasts"]]
                    for each in PHASES[0]["mails"]]


def lists_after(tmp_path: Path, phases: list[dict], index: int) -> str:
    """The game's `lists` file after the judge plays phase `index`, from the one DPjudge kept
    before it copied into the game's folder (a game moved over mid-play)."""
    judge = crystal_ball_judge(tmp_path, phases[index - 1]["status"])
    kept = judge.store.root / GAME["game"] / "lists"
    if phases[index - 1]["lists"]:
        kept.write_bytes(phases[index - 1]["lists"].encode("latin-1"))
    played(judge, phases[index])
    return kept.read_bytes().decode("latin-1") if kept.exists() else ""


@pytest.mark.parametrize("index", range(1, len(PHASES)), ids=[p["phase"] for p in PHASES[1:]])
def test_the_lists_file_is_carried_on_as_dpjudge_wrote_it(index, tmp_path):
    """Without PUBLIC_LISTS nobody is mailed the locked lists, but DPjudge keeps them, every line
    with its fate, in the game's `lists` file, a movement phase appended at a time."""
    assert lists_after(tmp_path, PHASES, index) == PHASES[index]["lists"]
