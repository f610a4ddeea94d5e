"""Who may sign on as whom: forged sign-ons, wrong passwords throttled per game and role, and
passwords the judge sets stored hashed while hand-written plain ones keep working."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from judge.commands import throttle
from judge.passwords import Verifier, hash_password, is_hashed, verify
from judge.status import parse_status, write_status
from tests.support.commands import NOW
from tests.support.mail import mail, minutes

pytestmark = pytest.mark.security

CHLOE = "chloe@example.fr"  # FRANCE, password paris7
MALLORY = "mallory@evil.example"


def signon(judge, sender, target, password, *more, now=NOW, number=0):
    return judge.send(mail(sender, f"SIGNON {target} {password}", *more, number=number), now)


# -- forged sign-ons ----------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["Gvienna", "germany@vienna", "Avienna", "Mvienna",
                                    "master@vienna", "JK@vienna", "judgekeeper@vienna"])
def test_a_players_own_password_opens_no_other_role(vienna, target):
    before = vienna.text("vienna")
    sent = signon(vienna, CHLOE, target, "paris7", "CLEAR", "SET ADDRESS mallory@evil.example")
    assert sent.failed and "wrong password" in sent.text
    assert vienna.text("vienna") == before


def test_the_masters_password_does_not_reach_the_judgekeeper(vienna):
    sent = signon(vienna, "joe@blow.com", "JK@vienna", "kr4k3n")
    assert sent.failed and "wrong password for JUDGEKEEPER" in sent.text


def test_writing_from_the_masters_address_proves_nothing(vienna):
    before = vienna.text("vienna")
    sent = signon(vienna, "joe@blow.com", "Mvienna", "guess", "PROCESS")
    assert sent.failed and vienna.text("vienna") == before


def test_an_omniscient_password_reads_but_never_writes(vienna):
    before = vienna.text("vienna")
    sent = signon(vienna, "kibitz@example.org", "Fvienna", "w4tch", "A PAR - BUR")
    assert "read-only" in sent.text and sent.failed
    assert vienna.text("vienna") == before


def test_a_hashed_password_given_as_it_stands_in_the_file_is_wrong(vienna):
    signon(vienna, CHLOE, "Fvienna", "paris7", "SET PASSWORD lyon9")
    stored = vienna.status("vienna").power("FRANCE").password
    assert is_hashed(stored)
    assert signon(vienna, CHLOE, "Fvienna", stored, number=1).failed


# -- wrong passwords, throttled (and tests/security/test_guessing_and_lockout.py) ---------------
POLICY = throttle.Policy()


def guess(judge, sender, times, target="Fvienna", start=NOW):
    for n in range(times):
        sent = signon(judge, sender, target, f"guess{n}", now=start + timedelta(seconds=n), number=n)
        assert sent.failed


def test_after_five_wrong_passwords_even_the_right_one_is_refused(vienna):
    guess(vienna, MALLORY, POLICY.free)
    sent = signon(vienna, MALLORY, "Fvienna", "paris7", now=NOW + minutes(1), number=99)
    assert sent.failed and "are paused until" in sent.text
    assert "paris7" not in sent.text and "Signed on" not in sent.text


def test_the_throttle_is_per_game(vienna):
    vienna.add("paris", fixture="vienna")
    guess(vienna, CHLOE, POLICY.free)
    assert not signon(vienna, CHLOE, "Fparis", "paris7", now=NOW + minutes(1)).failed
    assert signon(vienna, CHLOE, "Fvienna", "paris7", now=NOW + minutes(1)).failed


def test_the_throttle_is_per_role(vienna):
    guess(vienna, MALLORY, POLICY.free)
    assert not signon(vienna, "dieter@example.de", "Gvienna", "ber1in", now=NOW + minutes(1)).failed


def test_the_throttle_ends_with_its_pause(vienna):
    guess(vienna, MALLORY, POLICY.free)
    later = NOW + timedelta(seconds=POLICY.free - 1) + POLICY.first_pause
    assert not signon(vienna, MALLORY, "Fvienna", "paris7", now=later).failed


@pytest.mark.parametrize("line, then", [
    ("PURGE vienna {pw}", "SIGNON Mvienna kr4k3n"),
    ("RENAME vienna paris {pw}", "SIGNON Mvienna kr4k3n"),
    ("TAKEOVER master@vienna {pw}", "SIGNON Mvienna kr4k3n"),
    ("RESIGN Fvienna {pw}", "SIGNON Fvienna paris7")])
def test_every_password_check_counts_and_is_throttled(vienna, line, then):
    for n in range(POLICY.free):
        vienna.send(mail(MALLORY, line.format(pw=f"guess{n}"), number=n), NOW)
    sent = vienna.send(mail(MALLORY, then, number=50), NOW + timedelta(seconds=30))
    assert sent.failed and "are paused until" in sent.text


def test_a_damaged_failures_file_is_no_failure():
    assert throttle.from_json("{not json") == {}
    assert throttle.from_json('{"roles": {"FRANCE": {"failures": [["2025-01-01T00:00:00", "a@b"], '
                              '"x", ["2025-01-01T00:00:00+00:00", "c@d"]]}, "ITALY": 3}}') == {
        "FRANCE": throttle.Record((throttle.Failure(datetime(2025, 1, 1, tzinfo=UTC), "c@d"),))}


def test_a_failures_file_of_the_earlier_form_is_read_as_none():
    assert throttle.from_json('{"a@b": ["2025-01-01T00:00:00+00:00"]}') == {}


def test_the_failures_file_round_trips():
    record = throttle.with_code(throttle.after_failure(throttle.Record(), "a@b", NOW, POLICY),
                                "K7QM-4XPD", NOW + minutes(1))
    table = throttle.from_json(throttle.to_json({"FRANCE": record}))
    assert table == {"FRANCE": record} and throttle.admits(table["FRANCE"], "k7qm4xpd", NOW)


def test_a_streak_is_ended_by_a_quiet_window_after_its_pause():
    def at(*seconds):
        return [throttle.Failure(NOW + timedelta(seconds=s), "a@b") for s in seconds]
    five = at(0, 1, 2, 3, 4)  # the fifth earns a minute's pause, to NOW + 64 s
    assert throttle.streak(five, POLICY) == (five, NOW + timedelta(seconds=64))
    late = at(64 + 1800)
    assert throttle.streak(five + late, POLICY) == (late, late[0].at)
    table = throttle.pruned({"FRANCE": throttle.Record(tuple(five))}, NOW + timedelta(seconds=64)
                            + POLICY.window, POLICY)
    assert table == {}


# -- passwords stored hashed ----------------------------------------------------------------------
def test_set_password_stores_a_salted_slow_hash_that_signs_on(vienna):
    signon(vienna, CHLOE, "Fvienna", "paris7", "SET PASSWORD lyon9")
    text = vienna.text("vienna")
    assert "lyon9" not in text and "PASSWORD $scrypt$ln=14,r=8,p=1$" in text
    assert not signon(vienna, CHLOE, "Fvienna", "LYON9", number=1, now=NOW + minutes(1)).failed
    assert signon(vienna, CHLOE, "Fvienna", "paris7", number=2, now=NOW + minutes(2)).failed


def test_hand_written_plain_passwords_keep_working(vienna):
    assert "PASSWORD paris7" in vienna.text("vienna")
    assert not signon(vienna, CHLOE, "Fvienna", "paris7").failed
    assert not signon(vienna, "joe@blow.com", "Mvienna", "kr4k3n").failed


@pytest.mark.parametrize("eml_name, game, block, password", [
    ("create.eml", "mygame", None, "masterPw"),
    ("join.eml", "forming", "POWER#2", "s3cret"),
    ("observe.eml", "vienna", "LOUDMOUTH", "shh"),
])
def test_every_password_the_judge_sets_is_hashed(vienna, eml_name, game, block, password):
    vienna.add("forming")
    assert not vienna.send(eml_name).failed
    status = vienna.status(game)
    stored = status.password if block is None else status.power(block).password
    assert is_hashed(stored) and verify(password, stored) and password not in vienna.text(game)


def test_a_hashed_password_survives_the_status_file():
    stored = hash_password("pw")
    status = parse_status(f"GAME g\nPHASE FORMING\nMAP standard\nPASSWORD {stored}\n")
    assert status.password == stored and f"PASSWORD {stored}" in write_status(status)


def test_hashes_are_salted_case_blind_and_never_raise():
    first, second = hash_password("Secret"), hash_password("Secret")
    assert first != second and verify("sECRET", first) and verify("secret", second)
    assert not verify("secret!", first) and not verify("", first) and not verify("x", None)
    damaged = [first[:-3], first.replace("ln=14", "ln=99"), "$scrypt$", "$scrypt$ln=1,r=1,p=1$!!$!!",
               first.replace("$", "$$", 3)]
    assert not any(verify("Secret", d) for d in damaged)


def test_the_verifier_remembers_answers_but_not_passwords():
    stored = hash_password("Secret", cost=10)
    check = Verifier(size=2)
    assert check("secret", stored) and not check("wrong", stored) and check("SECRET", stored)
    assert all("ecret" not in repr(key) for key in check._answers)
    assert len(check._answers) <= 2
