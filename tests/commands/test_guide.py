"""HELP: the player's guide, with examples in the forms players write."""
from __future__ import annotations

import re
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
                    "VOTE 3WAY", "LIST GAME", "Crystal Ball", "A list takes no proxy order"):
        assert example in sent.text, example
    assert all(len(line) < 78 for line in sent.text.splitlines())


@pytest.mark.parametrize("body", [b"HELP MASTER", b"help master", b"SIGNON Mvienna kr4k3n\r\nHELP MASTER"])
def test_help_master_answers_with_the_masters_guide(vienna, body):
    sent = vienna.send(eml("list_all.eml", (b"LIST", body)))
    assert not sent.failed
    for example in ("CREATE GAME PASSWORD", "FORM", "ACTIVATE", "PROCESS!", "PREVIEW",
                    "ROLLBACK S1902M RESTORE", "ROLLFORWARD", "MORPH ... END MORPH",
                    "SET DEADLINE FRI 18:00", "SET ABSENCE", "RESIGN FRANCE", "DUMMY FRANCE",
                    "TERMINATE", "TAKEOVER MASTER@GAME PASSWORD", "XTALBALL", "RULE PUBLIC_LISTS",
                    "RULE LIMIT_LISTS"):
        assert example in sent.text, example
    assert "A PAR - BUR" not in sent.text  # the player's guide is HELP's
    assert all(len(line) < 78 for line in sent.text.splitlines())


def test_help_of_anything_else_is_refused_with_its_forms(vienna):
    sent = vienna.send(eml("list_all.eml", (b"LIST", b"HELP ME")))
    assert sent.failed and "HELP MASTER: the Master's guide" in sent.prose


def test_a_mail_of_nothing_known_points_to_help(vienna):
    assert "HELP mails a guide" in vienna.send(eml("list_all.eml", (b"LIST", b"HELLO THERE"))).prose


# -- wording: DPjudge's "centers", each fact said once ---------------------------------------------------
def test_list_of_a_completed_game_says_completed_once(judge):
    judge.add("vienna", phase=GameStage.COMPLETED, result=GameResult("S1902M", ("FRANCE",)))
    text = judge.send("list_game.eml").prose
    assert text.count("completed") == 1 and "Game 'vienna' is completed." in text



def test_no_template_says_centres():
    templates = Path(__file__).parents[2] / "templates"
    def words(text: str) -> str:  # what a reader sees: the text outside Jinja's tags
        return re.sub(r"{{.*?}}|{%.*?%}|{#.*?#}", "", text, flags=re.S).lower()
    assert not [p.name for p in templates.glob("*.txt") if "centre" in words(p.read_text())]
