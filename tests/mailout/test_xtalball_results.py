"""Crystal Ball's results mails as DPjudge writes them: the game DPjudge played through 1903
(`tests/game/fixtures/xtalball`), each phase processed by the judge; the results mail equals
DPjudge's but for the next deadline, set from the time each processes."""
from __future__ import annotations

import re

import pytest

from judge.events import PhaseResults
from judge.mailout.mailings import Mailer
from tests.support.xtalball import HERE, NOW, PHASES, processed

URL = "http://localhost/dpjudge"


@pytest.mark.parametrize("phase", PHASES)
def test_the_results_mail_equals_dpjudges(phase, env, standard):
    after, events = processed(phase, standard)
    mailer = Mailer(env, after, standard, judge="DPJT", url=URL, game_class="xtalball")
    mail = mailer.for_events([e for e in events if isinstance(e, PhaseResults)], NOW)[0].rendered
    subject, _, body = (HERE / f"{phase}.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert _next_deadline(mail.body) == _next_deadline(body)


def _next_deadline(text: str) -> str:
    return re.sub(r"^(The deadline for orders will be) .*$", r"\1 DATE.", text, flags=re.MULTILINE).rstrip("\n") + "\n"
