"""Payola's account statements and income reports as DPjudge mails them: every phase of the two
games DPjudge played by mail (`tests/support/record_payola_game.py`) processed by the judge, and
each power's statement after a movement phase and its report at a year's end (readers, subject and
whole body) compared with the ones DPjudge sent it."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.events import BribesSettled, IncomePaid
from judge.game.process import process_phase
from judge.game.variants.payola import PAYOLA
from judge.mailout.mailings import Mailer
from judge.status import parse_status
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised
from tests.support.commands import MAPS, TEMPLATES
from tests.support.payola import JUDGE, movement_phases, recorded

PHASES = [(game, phase) for game in ("plain", "rich", "rules") for phase in movement_phases(game)]


def mailed(phase: dict, kind: type) -> list[dict]:
    status = replace(parse_status(phase["ready"]), variant="payola")
    after, events = process_phase(status, MAPS.get(status.map_name), NOW, PAYOLA)
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
    return sorted(({"to": list(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
                   for m in mailer.for_events([e for e in events if isinstance(e, kind)], NOW)),
                  key=lambda m: m["to"])


def sent(phase: dict, subject: str) -> list[dict]:
    return sorted(({"to": m["to"], "subject": m["subject"], "body": normalised(m["body"])}
                   for mail in phase["mails"] for m in mail["relayed"]
                   if subject in m["subject"] and m["to"] != [JUDGE]), key=lambda m: m["to"])


@pytest.mark.parametrize("game, phase", PHASES, ids=[f"{g}-{p['phase']}" for g, p in PHASES])
def test_each_power_is_sent_the_statement_dpjudge_sent_it(game, phase):
    assert mailed(phase, BribesSettled) == sent(phase, "bribe results")


ALL = [(game, phase) for game in ("plain", "rich", "rules") for phase in recorded(game)["phases"]]


@pytest.mark.parametrize("game, phase", ALL, ids=[f"{g}-{p['phase']}" for g, p in ALL])
def test_each_power_is_sent_the_income_report_dpjudge_sent_it(game, phase):
    assert mailed(phase, IncomePaid) == sent(phase, "income report")
