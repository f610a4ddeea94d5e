"""Payola's account statements as DPjudge mails them: every movement phase of the two games DPjudge
played by mail (`tests/support/record_payola_game.py`) processed by the judge, and each power's
statement (its readers, subject and whole body) compared with the one DPjudge sent it."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.events import BribesSettled
from judge.game.process import process_phase
from judge.game.variants.payola import PAYOLA
from judge.mailout.mailings import Mailer
from judge.status import parse_status
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised
from tests.support.commands import MAPS, TEMPLATES
from tests.support.payola import JUDGE, movement_phases

PHASES = [(game, phase) for game in ("plain", "rich") for phase in movement_phases(game)]


def statements_mailed(phase: dict) -> list[dict]:
    status = replace(parse_status(phase["ready"]), variant="payola")
    after, events = process_phase(status, MAPS.get(status.map_name), NOW, PAYOLA)
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
    return sorted(({"to": list(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
                   for m in mailer.for_events([e for e in events if isinstance(e, BribesSettled)], NOW)),
                  key=lambda m: m["to"])


def statements_sent(phase: dict) -> list[dict]:
    return sorted(({"to": m["to"], "subject": m["subject"], "body": normalised(m["body"])}
                   for mail in phase["mails"] for m in mail["relayed"]
                   if "bribe results" in m["subject"] and m["to"] != [JUDGE]), key=lambda m: m["to"])


@pytest.mark.parametrize("game, phase", PHASES, ids=[f"{g}-{p['phase']}" for g, p in PHASES])
def test_each_power_is_sent_the_statement_dpjudge_sent_it(game, phase):
    assert statements_mailed(phase) == statements_sent(phase)
