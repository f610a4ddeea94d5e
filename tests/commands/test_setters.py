"""SET ADDRESS, PASSWORD, WAIT / NOWAIT, ABSENCE, ZONE / NOZONE, DEADLINE, LISTED, and VOTE."""
from __future__ import annotations

import pytest

from judge.notices import AbsenceSet, ZoneChanged
from judge.events import DeadlineSet
from judge.passwords import verify
from judge.status.model import Vote, VoteKind
from tests.support.commands import LATE, eml


def test_set_address(vienna):
    sent = vienna.send("set_address.eml")
    assert "Mail for FRANCE now goes to chloe@new.example.fr, chloe@work.example.fr." in sent.text
    assert vienna.status("vienna").power("FRANCE").address == ("chloe@new.example.fr",
                                                               "chloe@work.example.fr")


@pytest.mark.parametrize("document", [b"LIST vienna"])  # SUMMARY's roster is LIST's
def test_list_and_summary_show_the_address_set(vienna, document):
    sent = vienna.send(eml("set_address.eml", (b"chloe@new.example.fr,chloe@work.example.fr",
                                               b"chloe@new.example.fr\r\n" + document)))
    shown = sent.text.split("> " + document.decode())[1]
    assert "chloe@new.example.fr" in shown and "chloe@example.fr" not in shown


def test_set_address_without_one_takes_the_sender(vienna):
    vienna.send("set_address_sender.eml")
    assert vienna.status("vienna").power("FRANCE").address == ("chloe@example.fr",)


def test_set_address_refuses_what_is_not_an_address(vienna):
    before = vienna.text("vienna")
    assert "'not-an-address' is not an e-mail address" in vienna.send("set_address_bad.eml").text
    assert vienna.text("vienna") == before


def test_the_master_sets_his_address(vienna):
    vienna.send("set_address_master.eml")
    assert vienna.status("vienna").master.email == "joe@new.example.com"


def test_set_password(vienna):
    sent = vienna.send("set_password.eml")
    assert "SET PASSWORD ***" in sent.text and "lyon9" not in sent.text
    assert verify("lyon9", vienna.status("vienna").power("FRANCE").password)
    assert not vienna.send(eml("orders_status.eml", (b"paris7", b"lyon9"))).failed


def test_the_master_sets_his_password(vienna):
    vienna.send("set_password_master.eml")
    assert verify("kraken2", vienna.status("vienna").password)


def test_a_password_has_no_angle_brackets(vienna):
    assert "without <, > or |" in vienna.send("set_password_bad.eml").text
    assert vienna.status("vienna").power("FRANCE").password == "paris7"


def test_set_wait_and_nowait(vienna):
    assert "ENGLAND will wait for the deadline." in vienna.send("set_wait.eml").text
    assert vienna.status("vienna").power("ENGLAND").wait
    vienna.send("set_nowait.eml")
    assert not vienna.status("vienna").power("FRANCE").wait


@pytest.mark.parametrize("eml_name, now, rules, reason", [
    ("set_wait_master.eml", None, (), "the Master has no such setting"),
    ("set_wait.eml", LATE, (), "the deadline has passed"),
    ("set_wait.eml", None, ("REAL_TIME",), "REAL_TIME game never waits"),
])
def test_set_wait_refused(judge, eml_name, now, rules, reason):
    judge.add("vienna", rules=rules)
    sent = judge.send(eml_name, **({"now": now} if now else {}))
    assert sent.failed and reason in sent.text
    assert not judge.status("vienna").power("ENGLAND").wait


def test_set_absence(vienna):
    sent = vienna.send("set_absence.eml")
    assert "No deadline will be set from Friday 14 February 2025 to\n    Sunday 16 February 2025." in sent.text
    assert vienna.status("vienna").timing.endswith("NOT 20250214-20250216")
    absence = sent.events_of(AbsenceSet)[0]
    assert absence.by == "FRANCE" and not absence.master_only


def test_a_player_absence_is_at_most_two_weeks(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("set_absence_long.eml")
    assert sent.failed and "longer than 14 days" in sent.text
    assert vienna.text("vienna") == before


def test_the_master_sets_any_absence(vienna):
    assert not vienna.send("set_absence_master.eml").failed
    assert vienna.status("vienna").timing.endswith("NOT 20251224-20260106")


def test_absences_silent_hidden_and_forbidden(judge):
    judge.add("vienna", rules=("SILENT_ABSENCES", "HIDE_ABSENTEES"))
    absence = judge.send("set_absence.eml").events_of(AbsenceSet)[0]
    assert absence.master_only and absence.by is None and absence.by_for_master == "FRANCE"
    judge.add("noabs", fixture="vienna", rules=("NO_ABSENCES",))
    sent = judge.send(eml("set_absence.eml", (b"Fvienna", b"Fnoabs")))
    assert sent.failed and "only the Master sets absences" in sent.text


def test_set_absence_refuses_what_is_not_a_date(vienna):
    assert "'SOMEDAY' is not a weekday" in vienna.send("set_absence_bad.eml").text


def test_the_master_sets_the_zone_and_the_deadline_keeps_its_moment(vienna):
    sent = vienna.send("set_zone_master.eml")
    status = vienna.status("vienna")
    assert status.zone == "America/New_York" and status.deadline == "202502101200"
    assert sent.events_of(ZoneChanged)[0].zone == "America/New_York"
    vienna.send("set_nozone.eml")
    assert vienna.status("vienna").zone is None
    assert vienna.status("vienna").deadline == "202502101700"


def test_set_zone_refuses_an_unknown_zone(vienna):
    assert "unknown time zone 'Mars/Olympus'" in vienna.send("set_zone_bad.eml").text


def test_players_have_no_zone_of_their_own(vienna):
    sent = vienna.send("set_zone_player.eml")
    assert sent.failed and "players' own time zones" in sent.prose


def test_the_master_sets_the_deadline(vienna):
    sent = vienna.send("set_deadline_master.eml")
    assert "The deadline is now Friday 14 February 2025 18:00 CET." in sent.text
    assert vienna.status("vienna").deadline == "202502141800"
    assert sent.events_of(DeadlineSet)[0].by == "MASTER"


def test_the_master_may_shorten_the_deadline(vienna):
    assert not vienna.send("set_deadline_earlier.eml").failed
    assert vienna.status("vienna").deadline == "202502092000"


def test_players_set_the_deadline_only_under_player_deadlines(judge):
    judge.add("vienna")
    assert "no PLAYER_DEADLINES" in judge.send("set_deadline_player.eml").text
    judge.add("pd", fixture="vienna", rules=("PLAYER_DEADLINES",))
    later = judge.send(eml("set_deadline_player.eml", (b"Fvienna", b"Fpd")))
    assert later.events_of(DeadlineSet)[0].by == "FRANCE"
    assert judge.status("pd").deadline == "202502121800"
    earlier = judge.send(eml("set_deadline_player_earlier.eml", (b"Fvienna", b"Fpd")))
    assert earlier.failed and "only the Master may move a deadline earlier" in earlier.text


def test_no_deadline_to_set(judge):
    judge.add("vienna", rules=("NO_DEADLINE",))
    assert "no deadline to set" in judge.send("set_deadline_master.eml").text
    judge.add("forming")
    sent = judge.send(eml("set_deadline_master.eml", (b"Mvienna kr4k3n", b"Mforming gmpass")))
    assert "is forming: it has no deadline" in sent.text


def test_set_deadline_refuses_what_is_not_a_date(vienna):
    assert "'NEXT' is not a weekday" in vienna.send("set_deadline_bad.eml").text


def test_vote(vienna):
    assert "The vote of FRANCE is now SOLO." in vienna.send("vote_solo.eml").text
    assert vienna.status("vienna").power("FRANCE").vote == Vote(VoteKind.SOLO)
    vienna.send("vote_draw.eml")
    assert vienna.status("vienna").power("FRANCE").vote == Vote(VoteKind.DRAW, 6)


@pytest.mark.parametrize("rules, says", [
    ((), "A draw here includes every surviving power (DIAS), yours too: this vote agrees to such "
         "a draw, or to a concession to a power voting SOLO."),
    (("NO_DIAS",), "It agrees to any result without your power: a draw of the others, or a "
                   "concession to one of them (NO_DIAS)."),
])
def test_a_loss_vote_is_told_what_the_draw_rule_makes_of_it(judge, rules, says):
    judge.add("vienna", rules=rules)
    sent = judge.send(eml("vote_solo.eml", (b"VOTE SOLO", b"VOTE LOSS")))
    assert "The vote of FRANCE is now LOSS." in sent.text and says in sent.prose


def test_vote_refusals(judge):
    judge.add("vienna", rules=("NO_DRAW",))
    assert "no draws in this game" in judge.send("vote_draw.eml").text
    assert "VOTE MAYBE" in judge.send("vote_bad.eml").text
    assert "only the powers vote" in judge.send("vote_observer.eml").text
    assert judge.status("vienna").power("FRANCE").vote is None


@pytest.mark.parametrize("vote", [b"VOTE DRAW", b"VOTE", b"VOTE MAYBE"])
def test_a_vote_not_understood_is_refused_with_the_forms_accepted(vienna, vote):
    sent = vienna.send(eml("vote_draw.eml", (b"VOTE 6WAY", vote)))
    assert sent.failed and "Write VOTE 3WAY (a draw of at most three powers), VOTE SOLO, " \
        "VOTE LOSS or VOTE NONE." in sent.prose
    assert vienna.status("vienna").power("FRANCE").vote is None


@pytest.mark.parametrize("word, kept", [(b"pdf", "PDF"), (b"NONE", "NONE"), (b"Svg", "SVG")])
def test_set_map_chooses_the_picture_results_carry(vienna, word, kept):
    sent = vienna.send(eml("set_address.eml", (b"SET ADDRESS chloe@new.example.fr,chloe@work.example.fr",
                                               b"SET MAP " + word)))
    assert not sent.failed
    assert vienna.status("vienna").power("FRANCE").picture == kept
    assert "PICTURE " + kept in vienna.text("vienna")


def test_set_map_refuses_an_unknown_format(vienna):
    before = vienna.text("vienna")
    sent = vienna.send(eml("set_address.eml", (b"SET ADDRESS chloe@new.example.fr,chloe@work.example.fr",
                                               b"SET MAP gif")))
    assert sent.failed and "SET MAP takes one of PNG, PDF, SVG, NONE" in sent.text
    assert vienna.text("vienna") == before
