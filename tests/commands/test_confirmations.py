"""The order confirmation of a seat that controls other powers, as DPjudge sends it
(`fixtures/dpjudge_confirmations.json`, recorded by `tests/support/record_confirmations.py`): the
signed-on seat's own orders ("(None)" when it has none), then those of every power it controls
(the Master signed on as the Master: every power on the board), whichever power's orders the mail
gave; mailed to the sender and the seat's own ADDRESS only, never to a controlled power's player."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.mailout.mailings import Mailer
from judge.notices import OrdersStored
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameDir
from tests.game.test_dpjudge_games import NOW, SETTINGS, URL, normalised, raw_mail
from tests.support.commands import MAPS, TEMPLATES, Judge

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "dpjudge_confirmations.json").read_text())
GAME = RECORDED["game"]
CASES = [(name, index) for name, game in RECORDED["games"].items() for index in range(len(game["mails"]))]


def confirmations(judge: Judge, sender: str, body: str) -> list[dict]:
    """The order confirmations the judge sends for a mail (the sender's copy goes with the reply)."""
    events = judge.send(raw_mail(sender, body), NOW).events
    status = read_status_file(GameDir(judge.store.root / GAME))[1]
    mailer = Mailer(TEMPLATES, status, MAPS.get(status.map_name), judge=SETTINGS.judge_id, url=URL,
                    replied=(sender,))
    return [{"to": sorted(m.recipients), "subject": m.rendered.subject, "body": normalised(m.rendered.body)}
            for e in events if isinstance(e, OrdersStored) for m in mailer.for_events([e])]


@pytest.mark.parametrize(("name", "index"), CASES, ids=[f"{name}-{index}" for name, index in CASES])
def test_the_confirmation_is_dpjudges(name, index, tmp_path):
    """Each mail of the game in turn; the one checked is the last."""
    game = RECORDED["games"][name]
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(GAME, game["opening"])
    (tmp_path / "status").write_text(f"{GAME:>32} {game['variant']} active\n")
    for each in game["mails"][:index]:
        judge.send(raw_mail(each["from"], each["body"]), NOW)
    mail = game["mails"][index]
    assert confirmations(judge, mail["from"], mail["body"]) == [
        {**c, "body": normalised(c["body"])} for c in mail["confirmations"]]
