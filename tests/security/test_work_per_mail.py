"""One mail cannot make the judge work without end: it may set or check a few passwords (each a
costly hash on purpose) and carry a bounded number of commands; past either, the rest of the mail
is refused, not done. One sender cannot hold many games that have not started."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.passwords import verify
from tests.support.commands import NOW
from tests.support.mail import mail

pytestmark = pytest.mark.security


def test_a_mail_sets_a_few_passwords_not_thousands(vienna):
    """3,500 `SET PASSWORD` lines after one SIGNON cost 3,500 scrypt hashes (179 s of CPU)."""
    lines = [f"SET PASSWORD new{n}" for n in range(40)]
    sent = vienna.send(mail("chloe@example.fr", "SIGNON Fvienna paris7", *lines))
    assert sent.failed and "at most 10 passwords" in sent.prose
    stored = vienna.status("vienna").power("FRANCE").password
    assert verify("new8", stored)  # the SIGNON's check and nine hashes; the tenth SET refused


def test_a_mail_carries_a_bounded_number_of_commands(vienna):
    sent = vienna.send(mail("chloe@example.fr", *["LIST vienna"] * 301))
    assert sent.failed and "at most 300 commands" in sent.prose
    assert sent.reply is not None and len([o for o in sent.reply.outcomes if o.ok]) == 300


def test_a_sender_has_a_bounded_number_of_games_not_started(vienna):
    """25 `CREATE flN pw` from one sender made 25 games."""
    for n in range(5):
        assert not vienna.send(mail("gm@example.org", f"CREATE fl{n} pw", number=n)).failed
    sent = vienna.send(mail("gm@example.org", "CREATE fl5 pw", number=5))
    assert sent.failed and "Master of 5 games not yet started" in sent.prose
    assert not vienna.store.exists("fl5")
    assert not vienna.send(mail("other@example.org", "CREATE fl5 pw", "FORM", number=6)).failed
    assert not vienna.send(mail("gm@example.org", "PURGE fl0 pw", number=7)).failed
    assert not vienna.send(mail("gm@example.org", "CREATE fl6 pw", number=8)).failed


def test_create_and_purge_in_a_loop_makes_a_bounded_number_of_games_a_day(vienna):
    """CREATE then PURGE, again and again, never holds five games at once but made as many as
    the sender wrote; a day later he may create again."""
    for n in range(10):
        assert not vienna.send(mail("gm@example.org", f"CREATE lp{n} pw", number=2 * n)).failed
        assert not vienna.send(mail("gm@example.org", f"PURGE lp{n} pw", number=2 * n + 1)).failed
    sent = vienna.send(mail("gm@example.org", "CREATE lp10 pw", number=20))
    assert sent.failed and "created 10 games in the last 24 hours" in sent.prose
    assert not vienna.store.exists("lp10")
    assert not vienna.send(mail("other@example.org", "CREATE lp10 pw", number=21)).failed
    later = NOW + timedelta(hours=24, seconds=1)
    assert not vienna.send(mail("gm@example.org", "CREATE lp11 pw", number=22), later).failed
