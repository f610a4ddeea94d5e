"""A game played through 1903 by DPjudge and by this judge: each phase's results mail, compared whole.

`dpjudge/<PHASE>.status` is the status file DPjudge processed (orders on file), `<PHASE>.mail` the
results mail it sent (its subject, then its body). The judge processes the same file; the mails must
be equal once the judge's id, the URL and the dates are written alike."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.events import PhaseResults
from judge.game.process import process_phase
from judge.mailout.mailings import Mailer
from judge.status import parse_status

HERE = Path(__file__).parent / "dpjudge"
PHASES = sorted(p.stem for p in HERE.glob("*.status"))
NOW = datetime(2026, 11, 24, 8, 18, tzinfo=UTC)
URL = "http://dpj.example.org"
_DATES = [re.compile(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]* \d{1,2} [A-Z][a-z]+ \d{4} \d\d:\d\d \w+")]


def normalised(text: str) -> str:
    """Dates as DATE; trailing blanks dropped (DPjudge ends its `:: Judge:` line with one)."""
    for pattern in _DATES:
        text = pattern.sub("DATE", text)
    return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n")) + "\n"


@pytest.mark.parametrize("phase", PHASES)
def test_results_mail_equals_dpjudges(phase, env, standard):
    status = parse_status((HERE / f"{phase}.status").read_text())
    after, events = process_phase(status, standard, NOW)
    results = next(e for e in events if isinstance(e, PhaseResults))
    mailer = Mailer(env, after, standard, judge="TEST")
    mail = mailer.for_events([e for e in events if isinstance(e, PhaseResults)], NOW)[0].rendered
    expected = (HERE / f"{phase}.mail").read_text()
    subject, _, body = expected.partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert normalised(mail.body) == normalised(body)
