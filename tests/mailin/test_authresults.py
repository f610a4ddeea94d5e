"""The MTA's Authentication-Results (RFC 8601): only the judge's own, only the topmost, and the From
domain authenticated by DMARC, or by DKIM or SPF of that very domain."""
from __future__ import annotations

import pytest

from judge.mailin.authresults import from_authenticated, results_of
from judge.mailin.message import read_message

MTA = "mx.judge.test"
FROM = "chloe@example.fr"


@pytest.mark.parametrize("header", [
    "mx.judge.test; dmarc=pass (p=reject dis=none) header.from=example.fr",
    "MX.Judge.Test 1; dkim=pass (2048-bit key) header.d=example.fr header.s=s1 header.b=AbCd",
    "mx.judge.test; dkim=pass header.i=@example.fr; spf=fail smtp.mailfrom=x@y.test",
    "mx.judge.test;\r\n spf=pass (sender SPF authorized) smtp.mailfrom=chloe@example.fr",
    "mx.judge.test; dkim=fail header.d=example.fr; dmarc=pass header.from=\"example.fr\"",
])
def test_a_pass_for_the_from_domain_by_the_judges_mta_authenticates(header):
    assert from_authenticated([header], MTA, FROM)


@pytest.mark.parametrize("header", [
    "mx.judge.test; dmarc=fail header.from=example.fr",
    "mx.judge.test; dmarc=pass header.from=other.fr",
    "mx.judge.test; dkim=pass header.d=mail.example.fr",  # not aligned strictly
    "mx.judge.test; dkim=pass header.d=fr",
    "mx.judge.test; spf=pass smtp.mailfrom=bounce@evil.test",
    "mx.judge.test; none",
    "evil.test; dmarc=pass header.from=example.fr",  # another server's words
    "mx.judge.test.evil.test; dmarc=pass header.from=example.fr",
    "mx.judge.test; dmarc=pass (header.from=example.fr) header.from=evil.test",
])
def test_anything_else_does_not(header):
    assert not from_authenticated([header], MTA, FROM)


def test_only_the_topmost_header_of_the_judges_mta_is_read():
    ours = "mx.judge.test; dmarc=fail header.from=example.fr"
    forged = "mx.judge.test; dmarc=pass header.from=example.fr"
    assert not from_authenticated([ours, forged], MTA, FROM)
    assert from_authenticated(["other.test; dmarc=fail", forged, ours], MTA, FROM)


def test_no_authserv_id_trusts_nothing():
    assert results_of(["mx.judge.test; dmarc=pass header.from=example.fr"], "") == []
    assert not from_authenticated(["; dmarc=pass header.from=example.fr"], "", FROM)


def mail(*headers: str) -> bytes:
    return ("\r\n".join([f"From: {FROM}", "To: judge@judge.test", "Subject: x", *headers])
            + "\r\n\r\nLIST\r\n").encode()


def test_a_read_mail_is_authenticated_only_when_its_sender_is_the_from_address():
    passed = "Authentication-Results: mx.judge.test; dmarc=pass header.from=example.fr"
    assert read_message(mail(passed), authserv_id=MTA).authenticated
    assert not read_message(mail(passed)).authenticated  # the default trusts no header
    assert not read_message(mail(passed, "Reply-To: mallory@evil.test"),
                            authserv_id=MTA).authenticated
    assert read_message(mail(passed, f"Reply-To: {FROM}"), authserv_id=MTA).authenticated
