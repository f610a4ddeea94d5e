"""PUBLIC_LISTS and LIMIT_LISTS in a Crystal Ball game DPjudge played by mail for two years
(`fixtures/xtalball_public_lists.json`, recorded by `tests/support/record_xtalball_game.py
--rule PUBLIC_LISTS --rule LIMIT_LISTS --revise 0.6 --seed 3 --years 2`: lists that order a unit
twice, units no line orders, lines for units gone or another power's): when a movement phase is
processed, everyone gets the locked lists with each line's fate, as DPjudge's Master broadcast
them; the results mails and status files are DPjudge's too."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.events import ListsPlayed
from judge.mailout.mailings import Mailer
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised, raw_mail
from tests.game.test_xtalball_by_mail import crystal_ball_judge, expected, lists_after, played
from tests.support.commands import MAPS, TEMPLATES

GAME = json.loads((Path(__file__).parent / "fixtures" / "xtalball_public_lists.json").read_text(encoding="utf-8"))
PHASES = GAME["phases"]
PROCESSED = [index for index, phase in enumerate(PHASES) if index]


def published(judge, phase: dict) -> list[dict]:
    """The lists mails the judge sends for the phase's mails."""
    out = []
    for each in phase["mails"]:
        events = judge.send(raw_mail(each["from"], each["body"]), NOW).events
        status = read_status_file(GameDir(judge.store.root / GAME["game"]))[1]
        mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
        out += [{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
                for e in events if isinstance(e, ListsPlayed) for m in mailer.for_events([e])]
    return out


@pytest.mark.parametrize("index", PROCESSED, ids=[PHASES[i]["phase"] for i in PROCESSED])
def test_the_lists_are_published_as_dpjudge_published_them(index, tmp_path):
    judge = crystal_ball_judge(tmp_path, PHASES[index - 1]["status"])
    assert published(judge, PHASES[index]) == [
        {**b, "body": normalised(b["body"])} for each in PHASES[index]["mails"] for b in each["broadcasts"]]


@pytest.mark.parametrize("index", range(len(PHASES)), ids=[p["phase"] for p in PHASES])
def test_the_phase_plays_as_dpjudge_played_it(index, tmp_path):
    judge = crystal_ball_judge(tmp_path, PHASES[index - 1]["status"] if index else GAME["start"])
    assert played(judge, PHASES[index]) == expected(PHASES[index])


@pytest.mark.parametrize("index", PROCESSED, ids=[PHASES[i]["phase"] for i in PROCESSED])
def test_the_lists_file_keeps_what_was_published(index, tmp_path):
    """The `lists` file keeps each phase's lists as mailed: under LIMIT_LISTS, a power's first
    lines only."""
    assert lists_after(tmp_path, PHASES, index) == PHASES[index]["lists"]
