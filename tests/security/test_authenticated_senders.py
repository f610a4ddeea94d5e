"""Forged wrong passwords "from" a player's address do not pause his own mail when the judge's MTA
authenticated it (its `Authentication-Results:` names the `[judge] authserv_id`): such mail is
counted apart, by its sender, and so are its own wrong passwords."""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from judge.commands.throttle import Policy
from judge.runtime.inbox import MailHandler
from tests.support.commands import GAMES, NOW
from tests.support.mail import mail, texts

pytestmark = pytest.mark.security

CHLOE = "chloe@example.fr"  # FRANCE, password paris7
MTA = "mx.judge.test"
PASSED = f"Authentication-Results: {MTA}; dkim=pass header.d=example.fr; " \
         "dmarc=pass (p=reject) header.from=example.fr"
SECOND = timedelta(seconds=1)
FREE = Policy().free


@pytest.fixture
def trusting(config) -> MailHandler:
    """The judge behind an MTA that writes Authentication-Results as `mx.judge.test`."""
    handler = MailHandler(replace(config, judge=replace(config.judge, authserv_id=MTA)))
    handler.store.create("vienna", (GAMES / "vienna.status").read_text())
    return handler


def forged_wrong_signons(handler: MailHandler, *headers: str) -> list:
    sent = []
    for n in range(FREE):
        sent += handler(mail(CHLOE, f"SIGNON Fvienna guess{n}x", number=100 + n,
                             headers=headers), NOW + n * SECOND)
    assert any("password checks paused" in m["Subject"] for m in sent)
    return sent


def orders(handler: MailHandler, *headers: str, number: int = 200) -> str:
    return texts(handler(mail(CHLOE, "SIGNON Fvienna paris7", "A PAR - PIC", number=number,
                              headers=headers), NOW + 10 * SECOND))


def test_forged_wrong_signons_do_not_pause_the_players_authenticated_mail(trusting):
    forged_wrong_signons(trusting)
    assert "Current orders for France" in orders(trusting, PASSED)
    assert trusting.read("vienna").power("FRANCE").orders == ("A PAR - PIC",)


def test_forgeries_claiming_to_pass_do_not_pause_it_either(trusting):
    forged_wrong_signons(trusting, f"Authentication-Results: {MTA}; dmarc=fail "
                                   "header.from=example.fr")
    assert "Current orders for France" in orders(trusting, PASSED)


def test_unauthenticated_mail_stays_paused(trusting):
    forged_wrong_signons(trusting)
    assert "are paused until" in orders(trusting)
    below = f"Authentication-Results: {MTA}; dmarc=fail header.from=example.fr"
    assert "are paused until" in orders(trusting, below, PASSED, number=201)  # topmost only


def test_without_an_authserv_id_no_header_is_trusted(handler):
    forged_wrong_signons(handler)
    assert "are paused until" in orders(handler, PASSED)


def test_an_authenticated_senders_own_wrong_passwords_pause_his_own_checks(trusting):
    forged_wrong_signons(trusting, PASSED)
    assert "are paused until" in orders(trusting, PASSED)
    assert "are paused until" not in orders(trusting, number=201)  # not the others'
