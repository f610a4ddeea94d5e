"""HISTORY, SUMMARY and LIST game carry DPjudge's text: compared whole with what DPjudge itself mailed
for the same game (`tests/game/fixtures/dpjudge`), after the judge's id, URL and dates."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from judge.status import write_status
from judge.status.model import Dislodged
from judge.status.parser import decode_status
from judge.types import Phase
from tests.support.games import unit

DPJUDGE = Path(__file__).parent.parent / "game" / "fixtures" / "dpjudge"


def mail(sender: str, body: str, subject: str = "query") -> bytes:
    return (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\n"
            f"Message-ID: <1@example.net>\n\n{body}\n").encode()


def recorded(name: str) -> str:
    return decode_status((DPJUDGE / name).read_bytes())[0]


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


def normalised(text: str) -> str:
    """DPjudge's text with this judge's id, and the variant without DPjudge's constant ", Gunboat"
    (it writes it for every game, press or not: see docs/dpjudge.md)."""
    return text.replace("DPJT", "TEST").replace("Standard, Gunboat.", "Standard.")


def test_summary_is_dpjudge_s(hist):
    sent = hist.send(mail("sam@example.net", "SUMMARY hist"))
    assert document(sent.text, "SUMMARY hist") == normalised(dpjudge_body("summary.reply"))


def test_a_blind_summary_shows_a_power_what_it_saw(blind):
    sent = blind.send(mail("anna@example.at", "SIGNON Ablindy pa\nSUMMARY\nSIGNOFF"))
    assert document(sent.text, "SUMMARY").split("\n> SIGNOFF")[0] == \
        normalised(dpjudge_body("summary_blind_austria.reply"))


def test_a_blind_summary_needs_a_signon(blind):
    sent = blind.send(mail("sam@example.net", "SUMMARY blindy"))
    assert sent.failed and "SIGNON first" in sent.text


def test_the_master_sees_the_players(hist):
    sent = hist.send(mail("master@example.org", "SIGNON Mhist m4ster\nSUMMARY\nSIGNOFF"))
    assert "  Austria:        Anna Berg              anna@example.at" in sent.text
    assert "  France:         Chloé Martin           chloe@example.fr" in sent.text


def test_a_summary_says_who_won_and_who_drew(hist):
    hist.add("drawn", fixture="hist", phase=_completed(), result=_result("S1903M", "AUSTRIA", "ITALY"),
             start="Mon Nov 30 2026", finish="Sun Jan 10 2027")
    (hist.store.root / "drawn" / "results").write_bytes((DPJUDGE / "hist.results").read_bytes())
    sent = hist.send(mail("sam@example.net", "SUMMARY drawn"))
    assert "The parameters for 'drawn' were as follows:" in sent.text
    assert "Game started: Mon Nov 30 2026\nGame ended:   Sun Jan 10 2027\n\n" \
           "The game was declared a draw between Austria and Italy.\n" in sent.text
    assert "  Austria:        Anna Berg              anna@example.at" in sent.text
    assert "a player" not in sent.text


def test_a_summary_before_any_ownership_table(hist):
    (hist.store.root / "hist" / "results").unlink()
    sent = hist.send(mail("sam@example.net", "SUMMARY hist"))
    assert "No summary information is available for game hist." in sent.text


def _completed():
    from judge.status.model import GameStage
    return GameStage.COMPLETED


def _result(phase, *victors):
    from judge.status.model import GameResult
    return GameResult(phase, victors)


def listing_as_this_judge_writes_it(text: str) -> str:
    """DPjudge's LIST, less what this judge leaves to others: the `:: URL:` line (the judge's URL)
    and the orders it appends for a signed-on power (this judge's STATUS gives them)."""
    text = re.sub(r":: URL: \S+\n", "", normalised(text))
    return text.split("Current orders for ")[0]


@pytest.mark.parametrize("sender, body, command, recorded_as", [
    ("sam@example.net", "LIST hist", "LIST hist", "list_outsider.reply"),
    ("anna@example.at", "SIGNON Ahist pa\nLIST\nSIGNOFF", "LIST", "list_austria.reply"),
])
def test_list_of_a_game_is_dpjudge_s(hist, sender, body, command, recorded_as):
    sent = hist.send(mail(sender, body))
    assert document(sent.text, command).split("\n> SIGNOFF")[0] == \
        listing_as_this_judge_writes_it(dpjudge_body(recorded_as))


def test_list_of_a_retreat_phase_gives_the_retreats(judge):
    status = judge.add("hist", phase=Phase("SPRING", 1902, "RETREATS"))
    austria = status.power("AUSTRIA")
    retreating = replace(austria, units=austria.units[1:],
                         dislodged=(Dislodged(unit("A SER"), ("ALB", "RUM")),))
    (judge.store.root / "hist" / "status").write_text(write_status(status.with_power(retreating)))
    text = judge.send(mail("sam@example.net", "LIST hist")).text
    assert "Status of the Retreat phase for Spring of 1902.  (hist.S1902R)" in text
    assert "Austria: Army Vienna.\nAustria: Army Serbia can retreat to Albania or Rumania.\n" in text


def test_history_reads_a_latin1_archive(hist):
    text = recorded("hist.results").replace("Movement results for", "R\u00e9sultats: Movement results for")
    (hist.store.root / "hist" / "results").write_bytes(text.encode("latin-1"))
    sent = hist.send(mail("sam@example.net", "HISTORY hist"))
    assert document(sent.text, "HISTORY hist") == text
