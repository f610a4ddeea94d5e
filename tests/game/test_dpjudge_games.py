"""Seeded random games of three years on every shipped map DPjudge plays (not chaos nor
youngstown: DPjudge refuses every order on its own files of those maps, see docs/dpjudge.md),
played by DPjudge and replayed here: every mail a player or the Master sent goes through the
judge's mail path, and each phase's results mails and saved position must be DPjudge's.

The games were recorded by `tests/support/record_dpjudge_games.py` (orders from
`tests/support/random_orders.py`): `fixtures/dpjudge_games/<MAP>.json` holds the opening status
file and, phase by phase, the mails in, DPjudge's results mails (each text once, with its readers)
and the status file DPjudge saved. Each phase is played from the status file DPjudge held before
it, so that a phase that differs leaves the others compared. DPjudge kept the far
deadline on file where the judge sets the next one from the time it processes: the deadline
written in a mail is compared as DATE."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.events import PhaseResults
from judge.mailout.mailings import Mailer
from judge.status import parse_status
from judge.status.model import GameStatus
from tests.support.commands import MAPS, TEMPLATES, Judge, Settings
from tests.support.dpjudge import position

FIXTURES = Path(__file__).parent / "fixtures" / "dpjudge_games"
NOW = datetime(2026, 11, 24, 8, 18, tzinfo=UTC)
URL = "http://dpj.example.org"
SETTINGS = Settings(judge_id="TEST", address="judge@example.org", keeper="keeper@example.net",
                    keeper_password="jkpass")
_DEADLINE = re.compile(r"^(:: Deadline: \S+ |The deadline for orders will be ).*$", re.MULTILINE)


def _games() -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))}


GAMES = _games()


def _cases() -> list:
    cases = []
    for name, recorded in GAMES.items():
        for index, phase in enumerate(recorded["phases"]):
            cases.append(pytest.param(name, index, id=f"{name}-{phase['phase']}"))
    return cases


def normalised(text: str) -> str:
    """Deadlines as DATE, the blank lines at the end as one line's end."""
    return _DEADLINE.sub(r"\1DATE", text).rstrip("\n") + "\n"


def raw_mail(sender: str, body: str) -> bytes:
    return (f"From: {sender}\nTo: {SETTINGS.address}\nSubject: orders\n\n{body}").encode("latin-1")


def played(judge: Judge, game: str, phase: dict) -> tuple[list[dict], tuple]:
    """The phase's mails carried out by the judge: its results mails (each text once, with its
    readers) and the position it saved."""
    events = []
    for each in phase["mails"]:
        events += judge.send(raw_mail(each["from"], each["body"]), NOW).events
    status = judge.status(game)
    return results_mails(status, events), position(status)


def results_mails(status: GameStatus, events: list) -> list[dict]:
    """The results mails the events make, each text once, with its readers."""
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
    texts: dict[tuple[str, str], list[str]] = {}
    for mailing in mailer.for_events([e for e in events if isinstance(e, PhaseResults)], NOW):
        readers = texts.setdefault((mailing.rendered.subject, normalised(mailing.rendered.body)), [])
        readers += mailing.recipients
    return [{"to": sorted(to), "subject": subject, "body": body} for (subject, body), to in texts.items()]


def expected(phase: dict) -> tuple[list[dict], tuple]:
    mails = [{**m, "body": normalised(m["body"])} for m in phase["results"]]
    return mails, position(parse_status(phase["status"]))


@pytest.mark.parametrize("name, index", _cases())
def test_the_phase_plays_as_dpjudge_played_it(name, index, tmp_path):
    """From the status file DPjudge held before the phase (the opening one for the first)."""
    recorded = GAMES[name]
    phases = recorded["phases"]
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(recorded["game"], phases[index - 1]["status"] if index else recorded["start"])
    assert played(judge, recorded["game"], phases[index]) == expected(phases[index])
