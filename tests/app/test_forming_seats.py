"""The order of the seats in a forming game's status file, as DPjudge saves it
(`fixtures/forming_seats.json`, recorded by `tests/support/record_forming_seats.py`): sorted by
kind and name each time a seat is taken, a player's seat (`POWER#n`, or the power chosen under
POWER_CHOICE) being of kind POWER, so after the monitors and observers."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, raw_mail
from tests.support.commands import Judge

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "forming_seats.json").read_text())
GAME = RECORDED["game"]
MAILS = RECORDED["mails"]


def headings(text: str) -> list[str]:
    """Each seat's block by its first line (`OBSERVER WATCHER`, `POWER POWER#1`)."""
    blocks = [b.strip().splitlines() for b in text.split("\n\n")[1:] if b.strip()]
    return [b[0] for b in blocks]


@pytest.fixture(scope="module")
def seats_after_each_mail(tmp_path_factory) -> list[list[str]]:
    root = tmp_path_factory.mktemp("forming")
    judge = Judge(root, SETTINGS)
    judge.store.create(GAME, RECORDED["forming"])
    (root / "status").write_text(f"{GAME:>32} standard forming\n")
    out = []
    for each in MAILS:
        judge.send(raw_mail(each["from"], each["body"]), NOW)
        out.append(headings(read_status_file(GameDir(root / GAME))[0]))
    return out


@pytest.mark.parametrize("index", range(len(MAILS)), ids=[m["body"].split()[0] + str(n) for n, m in enumerate(MAILS)])
def test_the_seats_stand_in_dpjudges_order(seats_after_each_mail, index):
    assert seats_after_each_mail[index] == headings(MAILS[index]["status"])
