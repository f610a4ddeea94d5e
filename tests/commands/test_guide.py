"""HELP: the player's guide, with examples in the forms players write."""
from __future__ import annotations

import pytest

from tests.support.commands import eml


# -- HELP: the player's guide -------------------------------------------------------------------------
@pytest.mark.parametrize("body", [b"HELP", b"SIGNON Fvienna paris7\r\nHELP"])
def test_help_answers_with_the_players_guide(vienna, body):
    sent = vienna.send(eml("list_all.eml", (b"LIST", body)))
    assert not sent.failed
    for example in ("JOIN GAME PASSWORD", "SIGNON FGAME PASSWORD", "A PAR - BUR", "PRESS TO EI",
                    "VOTE 3WAY", "LIST GAME"):
        assert example in sent.text, example
    assert all(len(line) < 78 for line in sent.text.splitlines())


def test_a_mail_of_nothing_known_points_to_help(vienna):
    assert "HELP mails a guide" in vienna.send(eml("list_all.eml", (b"LIST", b"HELLO THERE"))).prose
