"""HISTORY, SUMMARY and LIST game carry DPjudge's text: compared whole with what DPjudge itself mailed
for the same game (`tests/game/fixtures/dpjudge`), after the judge's id, URL and dates."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.game.archive import decode

DPJUDGE = Path(__file__).parent.parent / "game" / "fixtures" / "dpjudge"


def mail(sender: str, body: str, subject: str = "query") -> bytes:
    return (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\n"
            f"Message-ID: <1@example.net>\n\n{body}\n").encode()


def recorded(name: str) -> str:
    return decode((DPJUDGE / name).read_bytes())


def dpjudge_body(name: str) -> str:
    """A reply DPjudge mailed: its body."""
    return recorded(name).split("\n\n", 1)[1]


def document(text: str, command: str) -> str:
    """The document in the judge's reply: what follows the echo of `command`, up to the reply's end."""
    after = text.split(f"> {command}\n", 1)[1]
    return after.split("\nEnd of reply.\n", 1)[0].lstrip("\n")


@pytest.fixture
def hist(judge):
    judge.add("hist")
    (judge.store.root / "hist" / "results").write_bytes((DPJUDGE / "hist.results").read_bytes())
    return judge


def test_history_mails_the_archive_dpjudge_wrote(hist):
    sent = hist.send(mail("sam@example.net", "HISTORY hist"))
    assert document(sent.text, "HISTORY hist") == recorded("hist.results")


def test_history_after_a_rollback_is_dpjudge_s(hist):
    (hist.store.root / "hist" / "results").write_bytes(
        (DPJUDGE / "hist.rolled_back_to_F1901M.results").read_bytes())
    sent = hist.send(mail("sam@example.net", "HISTORY hist"))
    assert document(sent.text, "HISTORY hist") == dpjudge_body("history_after_rollback.reply")


def test_history_without_an_archive(hist):
    (hist.store.root / "hist" / "results").unlink()
    sent = hist.send(mail("sam@example.net", "HISTORY hist"))
    assert "No history available for game 'hist'." in sent.text


@pytest.mark.parametrize("body, why", [("HISTORY", "HISTORY takes the game's name"),
                                        ("HISTORY hist 1901", "HISTORY takes the game's name")])
def test_history_takes_one_game_as_dpjudge_does(hist, body, why):
    sent = hist.send(mail("sam@example.net", body))
    assert sent.failed and why in sent.text


@pytest.fixture
def blind(judge):
    judge.add("blindy", fixture="hist", rules=("BLIND",))
    (judge.store.root / "blindy" / "results").write_bytes((DPJUDGE / "blindy.results").read_bytes())
    return judge


def test_a_blind_history_needs_a_signon(blind):
    sent = blind.send(mail("sam@example.net", "HISTORY blindy"))
    assert sent.failed and "SIGNON first" in sent.text and "Austria" not in sent.text


def test_a_blind_history_shows_a_power_its_own_parts(blind):
    sent = blind.send(mail("anna@example.at", "SIGNON Ablindy pa\nHISTORY\nSIGNOFF"))
    assert document(sent.text, "HISTORY").split("\n> SIGNOFF")[0] == \
        dpjudge_body("history_blind_austria.reply")
