"""SIGNON in every form, password levels, and mail that must change nothing."""
from __future__ import annotations

import pytest


def test_signon_with_the_power_initial(vienna):
    sent = vienna.send("signon_initial.eml")
    assert "Signed on as FRANCE in game 'vienna'." in sent.outcome("SIGNON").lines
    assert "SIGNON Fvienna ***" in sent.text and "paris7" not in sent.text
    assert "A PAR - BUR" in "\n".join(sent.outcome("STATUS").quoted)


def test_signon_with_the_full_name_in_any_case(vienna):
    sent = vienna.send("signon_full_name.eml")
    assert not sent.failed
    assert sent.outcome("signon").lines[0] == "Signed on as FRANCE in game 'vienna'."


def test_signon_as_master_sees_every_power(vienna):
    sent = vienna.send("signon_master.eml")
    assert sent.outcome("SIGNON").lines[0] == "Signed on as MASTER in game 'vienna'."
    status = "\n".join(sent.outcome("STATUS").quoted)
    assert "TURKEY:" in status and "AUSTRIA:" in status


def test_signon_as_judgekeeper(vienna):
    sent = vienna.send("signon_keeper.eml")
    assert sent.outcome("SIGNON").lines[0] == "Signed on as JUDGEKEEPER in game 'vienna'."


def test_judgekeeper_password_serves_as_master(vienna):
    sent = vienna.send("signon_keeper_as_master.eml")
    assert "with the judgekeeper's password" in sent.outcome("SIGNON").lines[0]
    assert not sent.failed and vienna.status("vienna").deadline == "202502142000"


def test_signon_as_observer_by_name(vienna):
    sent = vienna.send("signon_observer.eml")
    assert sent.outcome("SIGNON").lines[0] == "Signed on as KIBITZ in game 'vienna'."


def test_observer_cannot_use_the_initial_form(vienna):
    sent = vienna.send("signon_observer_initial.eml")
    assert sent.failed and "observers sign on as name@game" in sent.prose


def test_signon_with_a_seat_number_before_the_start(judge):
    judge.add("forming")
    sent = judge.send("signon_seat_number.eml")
    assert sent.outcome("SIGNON").lines[0] == "Signed on as POWER#1 in game 'forming'."
    assert sent.outcome("PRESS").lines[0] == "Press sent to MASTER."


@pytest.mark.parametrize("eml", ["signon_wrong_password.eml", "signon_forged.eml"])
def test_wrong_password_changes_nothing(vienna, eml):
    before = vienna.text("vienna")
    sent = vienna.send(eml)
    assert sent.failed and "wrong password for FRANCE" in sent.text
    assert "Unprocessed portion of message follows:" in sent.text
    assert vienna.text("vienna") == before
    assert sent.events == []


def test_right_password_from_another_address_copies_the_player(vienna):
    sent = vienna.send("signon_other_address.eml")
    assert sent.reply.to == ("mallory@evil.example",)
    assert sent.reply.cc == ("chloe@example.fr",)
    assert vienna.status("vienna").power("FRANCE").wait is False


def test_omniscient_password_is_read_only(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("signon_omniscient.eml")
    assert "read-only" in sent.outcome("SIGNON").lines[0]
    assert sent.outcome("STATUS").ok
    assert sent.failed and "read-only access" in sent.text
    assert vienna.text("vienna") == before


def test_unknown_game(vienna):
    sent = vienna.send("signon_no_game.eml")
    assert sent.failed and "there is no game 'nosuchgame'" in sent.text


def test_one_signon_per_mail(vienna):
    sent = vienna.send("signon_twice.eml")
    assert sent.failed and "SIGNON is not used after a SIGNON" in sent.text


def test_a_resigned_player_cannot_sign_on(vienna):
    sent = vienna.send("signon_resigned.eml")
    assert sent.failed and "wrong password for ITALY" in sent.text


def test_a_mail_without_a_command(vienna):
    sent = vienna.send("nothing_understood.eml")
    assert sent.failed and sent.text.count("Expected SIGNON, JOIN, CREATE") == 1
    assert "  LIST" in sent.text  # the unprocessed rest


def test_an_empty_mail_gets_a_short_reply(vienna):
    sent = vienna.send("empty_body.eml")
    assert "Your mail held no commands." in sent.text


def _mail(sender: str, body: str) -> bytes:
    return (f"From: {sender}\nTo: judge@example.org\nSubject: orders\n"
            f"Message-ID: <1@example.net>\n\n{body}\n").encode()


def test_signon_with_a_digit_that_is_the_maps_letter(judge):
    """Chaos gives Tunis the letter 6 (DPjudge signs Ben on as TUNIS with `SIGNON 6chaotic`); the
    game is DPjudge's own status file, its powers named as DPjudge names them (STPETERSBURG)."""
    judge.add("chaotic")
    sent = judge.send(_mail("ben@example.co.uk", "SIGNON 6chaotic tunis6\nLIST"))
    assert sent.outcome("SIGNON").lines[0] == "Signed on as TUNIS in game 'chaotic'."
    assert "StPetersburg: St Petersburg." in sent.text  # its owner read from the file


def test_signon_with_the_name_letter_where_the_adjective_starts_otherwise(judge):
    """1900's Turkey (OTTOMAN) is T, as DPjudge has it: the map gives no letter, so the name's first."""
    judge.add("ottoman", fixture="vienna", map_name="1900")
    sent = judge.send(_mail("turk@example.net", "SIGNON Tottoman pw\n"))
    assert "wrong password for TURKEY in game 'ottoman'" in sent.prose
