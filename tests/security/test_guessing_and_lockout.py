"""Guessing a power's password from ever new sender addresses, and locking a player out by
writing in his name: wrong passwords pause the power's checks whoever sent them, with growing
pauses; the player is told once a pause, with a code only his mailbox gets; a mail that gives a
right password is answered whatever strangers sent "from" its address."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from judge.notices import PasswordsPaused
from judge.commands.throttle import Policy, pause_for
from tests.support.commands import NOW
from tests.support.mail import mail, minutes, texts

pytestmark = pytest.mark.security

CHLOE = "chloe@example.fr"  # FRANCE, password paris7 (ADDRESS chloe@example.fr)
ANNA = "anna@example.at"  # AUSTRIA, password wien1
POLICY = Policy()  # the defaults: 5 free, then 1 minute, doubling up to a day
SECOND = timedelta(seconds=1)


def stranger(n: int) -> str:
    return f"guesser{n}@botnet{n % 7}.example"


def signon(judge, sender, password, *more, target="Fvienna", now=NOW, number=0, unlock=None):
    lines = ([f"UNLOCK {unlock}"] if unlock else []) + [f"SIGNON {target} {password}", *more]
    return judge.send(mail(sender, *lines, number=number), now)


def paused(sent) -> bool:
    return sent.failed and "are paused until" in sent.prose


def guesses(judge, count, *, start=NOW, sender=stranger, target="Fvienna", number=0):
    """`count` wrong passwords, a second apart, each from `sender(n)`; the mails sent back."""
    return [signon(judge, sender(n), f"guess{n}x", target=target, now=start + n * SECOND,
                   number=number + n) for n in range(count)]


# -- guessing from rotating addresses ------------------------------------------------------------
def test_rotating_sender_addresses_is_paused_after_the_free_failures(vienna):
    sent = guesses(vienna, POLICY.free)
    assert all(s.failed and not paused(s) for s in sent)
    fresh = signon(vienna, "newcomer@elsewhere.example", "paris7", now=NOW + 10 * SECOND, number=99)
    assert paused(fresh) and "Signed on" not in fresh.text


def test_an_hour_of_guessing_from_new_addresses_checks_a_handful_of_passwords(vienna):
    checked = 0
    for n in range(360):  # one guess every ten seconds, each from a new address
        sent = signon(vienna, stranger(n), f"guess{n}x", now=NOW + 10 * n * SECOND, number=n)
        assert sent.failed
        checked += not paused(sent)
    # 5 free, then one after each pause of 1, 2, 4, 8 and 16 minutes (the next outlasts the hour)
    assert checked == POLICY.free + 5


def test_the_paused_refusal_says_nothing_of_the_password(vienna):
    guesses(vienna, POLICY.free)
    right = signon(vienna, stranger(50), "paris7", now=NOW + 20 * SECOND, number=50)
    wrong = signon(vienna, stranger(51), "paris8", now=NOW + 20 * SECOND, number=51)
    assert paused(right) and paused(wrong)
    assert right.reply.outcomes == wrong.reply.outcomes


def test_pauses_double_up_to_the_maximum(vienna):
    lengths, now = [], NOW
    for n in range(POLICY.free + 4):
        sent = signon(vienna, stranger(n), f"guess{n}x", now=now, number=n)
        assert not paused(sent)  # each guess waits for the pause before it to end
        notices = sent.events_of(PasswordsPaused)
        lengths += [notices[0].until - now] if notices else []
        now = notices[0].until if notices else now + SECOND
    assert lengths == [minutes(1), minutes(2), minutes(4), minutes(8), minutes(16)]
    capped = Policy(max_pause=minutes(4))
    assert [pause_for(n, capped) for n in range(4, 10)] == [
        timedelta(0), minutes(1), minutes(2), minutes(4), minutes(4), minutes(4)]


def test_a_quiet_window_after_the_pause_forgets_the_failures(vienna):
    guesses(vienna, POLICY.free)
    later = NOW + POLICY.first_pause + POLICY.window + 10 * SECOND
    sent = guesses(vienna, POLICY.free - 1, start=later, number=20)
    assert not any(s.events_of(PasswordsPaused) for s in sent)
    assert not signon(vienna, CHLOE, "paris7", now=later + minutes(1), number=40).failed


def test_a_right_password_does_not_reset_a_guessers_count(vienna):
    guesses(vienna, POLICY.free - 1)
    assert not signon(vienna, CHLOE, "paris7", now=NOW + minutes(1), number=90).failed
    [sent] = guesses(vienna, 1, start=NOW + minutes(2), number=10)
    assert sent.events_of(PasswordsPaused)


# -- the owner is told, once a pause ---------------------------------------------------------------
def test_the_owner_gets_exactly_one_notice_per_pause_without_the_guesses(handler):
    mails = []
    for n in range(POLICY.free + 3):  # the last three fall in the first pause: refused unchecked
        mails += handler(mail(stranger(n), f"SIGNON Fvienna Secret{n}Guess", number=n),
                         NOW + n * SECOND)
    notices = [m for m in mails if "password checks paused" in m["Subject"]]
    assert len(notices) == 1
    [notice] = notices
    assert [a.addr_spec for a in notice["To"].addresses] == [CHLOE]
    body = notice.get_content()
    assert "5 wrong passwords" in body and "from 5 sender addresses" in body
    assert re.search(r"Until .* 13:01 CET", body) and re.search(r"UNLOCK \w{4}-\w{4}", body)
    everything = texts(mails)
    assert not re.search(r"(?i)secret\dguess", everything)
    assert not any(stranger(n) in texts([notice]) for n in range(10))
    later = handler(mail(stranger(9), "SIGNON Fvienna Secret9Guess", number=9),
                    NOW + POLICY.first_pause + minutes(1))
    assert len([m for m in later if "password checks paused" in m["Subject"]]) == 1  # a new pause


def test_the_code_is_kept_only_hashed(vienna):
    [*_, last] = guesses(vienna, POLICY.free)
    [notice] = last.events_of(PasswordsPaused)
    kept = (vienna.store.root / "vienna" / ".password-failures").read_text()
    assert notice.code not in kept and notice.code.replace("-", "") not in kept


def test_a_power_nobody_plays_has_its_master_told(vienna):
    [*_, last] = guesses(vienna, POLICY.free, target="Ivienna")
    [notice] = last.events_of(PasswordsPaused)
    assert notice.role == "ITALY" and notice.addresses == ("joe@blow.com",)


# -- locking a player out by writing in his name --------------------------------------------------
def code_in(mails) -> str:
    [notice] = [m for m in mails if "password checks paused" in m["Subject"]]
    return re.search(r"UNLOCK (\S+)", notice.get_content()).group(1)


def test_forged_lists_and_wrong_signons_leave_the_player_his_orders_and_replies(handler):
    """Item 4: 20 forged LISTs and 5 forged wrong SIGNONs "from" the player's address."""
    sent = []
    for n in range(handler.settings.replies_per_window):
        sent += handler(mail(CHLOE, "LIST", number=n), NOW + n * SECOND)
    for n in range(POLICY.free):
        sent += handler(mail(CHLOE, f"SIGNON Fvienna guess{n}x", number=100 + n),
                        NOW + minutes(1) + n * SECOND)
    to_chloe = [m for m in sent if "password checks paused" in m["Subject"]]
    assert [a.addr_spec for a in to_chloe[0]["To"].addresses] == [CHLOE]
    code = code_in(sent)
    orders = handler(mail(CHLOE, f"UNLOCK {code}", "SIGNON Fvienna paris7", "A PAR - PIC",
                          number=200), NOW + minutes(2))
    assert orders and "Signed on as FRANCE" in texts(orders)
    assert "UNLOCK ***" in texts(orders) and code not in texts(orders)
    assert handler.read("vienna").power("FRANCE").orders == ("A PAR - PIC",)


def test_forged_lists_cannot_silence_a_players_signed_on_mail(handler):
    for n in range(handler.settings.replies_per_window + 5):
        handler(mail(CHLOE, "LIST", number=n), NOW + n * SECOND)
    assert handler(mail(CHLOE, "LIST", number=50), NOW + minutes(1)) == []
    answered = handler(mail(CHLOE, "SIGNON Fvienna paris7", "A PAR - PIC", number=51),
                       NOW + minutes(1))
    assert answered and "Current orders for France:" in texts(answered)  # the confirmation answers


def test_a_forger_without_the_code_stays_paused(vienna):
    [*_, last] = guesses(vienna, POLICY.free, sender=lambda n: CHLOE)
    until = last.events_of(PasswordsPaused)[0].until
    for n, code in enumerate([None, "AAAA-AAAA", "unlock"]):
        sent = signon(vienna, CHLOE, "paris7", now=until - SECOND, number=50 + n, unlock=code)
        assert paused(sent)
    assert not signon(vienna, CHLOE, "paris7", now=until, number=60).failed


def test_the_code_opens_the_pause_to_the_right_password_only(vienna):
    [*_, last] = guesses(vienna, POLICY.free, sender=lambda n: CHLOE)
    [notice] = last.events_of(PasswordsPaused)
    code = notice.code.lower().replace("-", "")  # as a player may type it
    wrong = signon(vienna, CHLOE, "paris8", now=NOW + 30 * SECOND, number=50, unlock=code)
    assert wrong.failed and "wrong password" in wrong.text
    [again] = wrong.events_of(PasswordsPaused)  # it counts: a longer pause, a new code
    assert again.until == NOW + 30 * SECOND + minutes(2) and again.code != notice.code
    old = signon(vienna, CHLOE, "paris7", now=NOW + 40 * SECOND, number=51, unlock=notice.code)
    assert paused(old)
    new = signon(vienna, CHLOE, "paris7", now=NOW + 40 * SECOND, number=52, unlock=again.code)
    assert not new.failed and "Signed on as FRANCE" in new.text


def test_a_code_expires_with_its_pause(vienna):
    [*_, last] = guesses(vienna, POLICY.free)
    [notice] = last.events_of(PasswordsPaused)
    [after] = guesses(vienna, 1, start=notice.until, number=20)  # the next pause, its own code
    [second] = after.events_of(PasswordsPaused)
    stale = signon(vienna, CHLOE, "paris7", now=second.until - SECOND, number=30,
                   unlock=notice.code)
    assert paused(stale)


# -- nothing else is paused ----------------------------------------------------------------------
def test_failures_in_a_players_name_never_block_his_other_powers_or_games(vienna):
    vienna.add("paris", fixture="vienna")
    guesses(vienna, POLICY.free + 2, sender=lambda n: ANNA)  # against FRANCE, "from" Anna
    assert not signon(vienna, ANNA, "wien1", target="Avienna", now=NOW + 10 * SECOND,
                      number=50).failed
    assert not signon(vienna, CHLOE, "paris7", target="Fparis", now=NOW + 10 * SECOND,
                      number=51).failed
    assert not signon(vienna, "joe@blow.com", "kr4k3n", target="Mvienna", now=NOW + 10 * SECOND,
                      number=52).failed
    assert paused(signon(vienna, CHLOE, "paris7", now=NOW + 10 * SECOND, number=53))
