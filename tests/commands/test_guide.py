"""HELP: the player's guide, with examples in the forms players write."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.status.model import GameResult, GameStage
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


# -- wording: DPjudge's "centers", each fact said once ---------------------------------------------------
def test_list_of_a_completed_game_says_completed_once(judge):
    judge.add("vienna", phase=GameStage.COMPLETED, result=GameResult("S1902M", ("FRANCE",)))
    text = judge.send("list_game.eml").prose
    assert "Game 'vienna' on the standard map: completed." in text and "completed, completed" not in text


def test_the_map_reply_says_centers(vienna):
    assert "units and centers." in vienna.send(eml("list_all.eml", (b"LIST", b"MAP vienna"))).prose


def test_no_template_says_centres():
    templates = Path(__file__).parents[2] / "templates"
    assert not [p.name for p in templates.glob("*.txt") if "centre" in p.read_text().lower()]
