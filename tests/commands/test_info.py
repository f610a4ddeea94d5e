"""LIST, SUMMARY, HISTORY and MAP."""
from __future__ import annotations

from tests.support.commands import eml


def test_list_shows_games_to_join_or_waiting(judge):
    judge.add("vienna")
    judge.add("forming")
    judge.add("fall")
    sent = judge.send("list_all.eml")
    text = "\n".join(sent.outcome("LIST").lines)
    assert "forming" in text and "6 seats open" in text
    assert "vienna" in text and "needs ITALY" in text
    assert "fall " not in text  # running, nobody needed


def test_list_of_a_game(vienna):
    lines = vienna.send("list_game.eml").outcome("LIST").lines
    text = "\n".join(lines)
    assert "Game 'vienna' on the standard map: waiting, SPRING 1902 MOVEMENT." in text
    assert "Deadline: Monday 10 February 2025 18:00 CET." in text
    assert "FRANCE: played, 5 centres; A BUR A SPA F MAO F BRE A PAR" in text
    assert "@" not in text  # no addresses


def test_list_of_a_game_without_deadlines_shows_none(judge):
    judge.add("vienna", rules=("NO_DEADLINE",))  # its DEADLINE line is not in force
    text = judge.send("list_game.eml").text
    assert "SPRING 1902 MOVEMENT" in text and "Deadline:" not in text


def test_list_of_a_blind_game_hides_the_board(judge):
    judge.add("vienna", rules=("BLIND",))
    text = judge.send("list_game.eml").text
    assert "  FRANCE: played" in text and "A BUR" not in text


def test_after_signon_list_is_for_that_game_only(vienna):
    vienna.add("forming")
    sent = vienna.send("list_other_after_signon.eml")
    assert sent.failed and "only for game 'vienna'" in sent.text


def test_summary_hides_addresses_until_the_end(vienna):
    sent = vienna.send("summary.eml")
    text = "\n".join(sent.outcome("SUMMARY").lines)
    assert "ITALY: resigned, since S1902M; before: a player" in text
    assert "@" not in text and "now        5    5    5    5    4    6    4" in text


def test_history_of_a_game_without_results(vienna):
    sent = vienna.send("history.eml")
    assert "No phase of game 'vienna' has been processed yet." in sent.text


def test_history_quotes_the_results_log(vienna):
    (vienna.store.root / "vienna" / "results").write_text("Spring 1901 results\nA PAR - BUR\n")
    sent = vienna.send("history.eml")
    assert sent.outcome("HISTORY").quoted == ("Spring 1901 results", "A PAR - BUR")


def test_map_is_not_drawn_but_the_mail_goes_on(vienna):
    sent = vienna.send("map.eml")
    assert "draws no maps" in sent.text and not sent.failed
    assert sent.outcome("LIST").ok


def test_a_path_is_not_a_game(vienna):
    (vienna.store.root.parent / "status").write_text("GAME secret\nPHASE FORMING\n")
    sent = vienna.send(eml("list_game.eml", (b"LIST vienna", b"LIST ../")))
    assert sent.failed and "there is no game '../'" in sent.text
    sent = vienna.send(eml("list_game.eml", (b"LIST vienna", b"SUMMARY ..")))
    assert sent.failed and "secret" not in sent.text
