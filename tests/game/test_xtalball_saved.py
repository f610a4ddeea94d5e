"""A Crystal Ball game DPjudge saved with proxy lines in its lists (`fixtures/xtalball_saved.json`,
recorded by `tests/support/record_xtalball_saved.py`), copied over with its `lists` file and
processed by the Master's PROCESS!: DPjudge reads a proxy line's power name out of it and so
drops the line; the results mails, the PUBLIC_LISTS broadcast, the status file saved and the
`lists` file must be DPjudge's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.events import ListsPlayed
from judge.mailout.mailings import Mailer
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised, raw_mail, results_mails
from tests.game.test_xtalball_by_mail import PHASES as PLAYED, crystal_ball_judge, status_as_compared
from tests.support.commands import MAPS, TEMPLATES
from tests.support.record_dpjudge_games import MASTER, MASTER_PASSWORD

SAVED = json.loads((Path(__file__).parent / "fixtures" / "xtalball_saved.json").read_text(encoding="utf-8"))
BEFORE = next(index for index, p in enumerate(PLAYED) if p["phase"] == "W1901A")


@pytest.fixture
def processed(tmp_path):
    """The judge's events and game folder after the Master's PROCESS! of the saved game, its
    `lists` file as DPjudge left it before (the recorded game's, to its Winter 1901) copied in."""
    judge = crystal_ball_judge(tmp_path, SAVED["start"])
    folder = judge.store.root / SAVED["game"]
    (folder / "lists").write_bytes(PLAYED[BEFORE]["lists"].encode("latin-1"))
    body = f"SIGNON M{SAVED['game']} {MASTER_PASSWORD}\nPROCESS!\nSIGNOFF\n"
    events = judge.send(raw_mail(MASTER, body), NOW).events
    text, status = read_status_file(GameDir(folder))
    return events, text, status, folder


def test_the_results_are_dpjudges(processed):
    events, _, status, _ = processed
    assert results_mails(status, events) == [{**m, "body": normalised(m["body"])} for m in SAVED["results"]]


def test_the_status_saved_is_dpjudges_the_proxy_lines_gone(processed):
    _, text, _, _ = processed
    assert status_as_compared(text) == status_as_compared(SAVED["status"])


def test_the_lists_mailed_leave_the_proxy_lines_out_as_dpjudge_does(processed):
    events, _, status, _ = processed
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL)
    sent = [{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
            for e in events if isinstance(e, ListsPlayed) for m in mailer.for_events([e])]
    assert sent == [{**b, "body": normalised(b["body"])} for b in SAVED["broadcasts"]]


def test_the_lists_file_dpjudge_kept_is_carried_on(processed):
    *_, folder = processed
    assert (folder / "lists").read_bytes().decode("latin-1") == PLAYED[BEFORE]["lists"] + SAVED["lists"]


def test_a_list_mailed_with_a_proxy_line_is_refused_whole_as_dpjudge_refuses_it(tmp_path):
    """(`A VIE PROXY ITALY` is refused with the reason it is a proxy; `A VIE P ITALY`, as
    `P` is no word of this judge's proxy order.)"""
    mailed = SAVED["mailed_proxy"]
    assert mailed["status_kept"] and "NO PROXY POWER SPECIFIED: F DEN P" in mailed["replies"][0]
    judge = crystal_ball_judge(tmp_path, SAVED["start"])
    before = (judge.store.root / SAVED["game"] / "status").read_text()
    sent = judge.send(raw_mail("p3@example.org", mailed["body"]), NOW)
    assert "none were stored: F DEN P RUSSIA:" in sent.prose
    assert (judge.store.root / SAVED["game"] / "status").read_text() == before
