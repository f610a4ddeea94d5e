"""Orders DPjudge refuses, refused alike and in its words: each mail of `dpjudge/refusals/` was sent
to DPjudge with the game's status file as it stands there, and `<mail>.reply` is what DPjudge
answered. The judge refuses the same lines, each with DPjudge's words (DPjudge names the order or
the unit after them; the judge quotes the line as written before them)."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.status import parse_status
from tests.support.commands import Judge

HERE = Path(__file__).parent / "dpjudge" / "refusals"
GAMES = {"austria": "refused", "france": "refused", "italy": "refused", "builds": "builds"}


def dpjudges_words(reply: str) -> list[str]:
    """The words of each error DPjudge's reply lists before its `Erroneous orders:`."""
    errors = reply.split("\n\nErroneous orders:")[0]
    return [line.split(": ")[0] for line in errors.splitlines()]


@pytest.mark.parametrize("mail", sorted(GAMES))
def test_refused_in_dpjudges_words(mail, tmp_path):
    game = GAMES[mail]
    judge = Judge(tmp_path)
    judge.store.create(game, (HERE / f"{game}.status").read_text())
    sent = judge.send((HERE / f"{mail}.eml").read_bytes())
    refused = [outcome for outcome in sent.reply.outcomes if not outcome.ok]
    assert len(refused) == 1, sent.text
    reasons = [line.rsplit(": ", 1)[1] for line in refused[0].lines[1:]]
    assert reasons == dpjudges_words((HERE / f"{mail}.reply").read_text())
    assert parse_status(judge.text(game)) == parse_status((HERE / f"{game}.status").read_text())

