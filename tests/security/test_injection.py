"""Player text is data: no header of any mail the judge sends can be smuggled in through SET ADDRESS,
a subject, a sender or press, and no template is ever made of player text."""
from __future__ import annotations

from email import message_from_bytes, policy

import pytest

from judge.mailin.message import plain_address
from judge.mailout.envelope import ENVELOPE_TO
from tests.support.commands import GAMES, NOW
from tests.support.mail import mail, texts

pytestmark = pytest.mark.security

HEADERS = {"From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
           "Auto-Submitted", "X-Loop", "Content-Type", "Content-Transfer-Encoding", "MIME-Version",
           ENVELOPE_TO}
CHLOE, BEN = "chloe@example.fr", "ben@example.co.uk"  # FRANCE paris7, ENGLAND lond0n


def well_formed(mails) -> None:
    """Every mail has only the judge's headers, each once, one plain recipient, and reads back
    as it was written."""
    for sent in mails:
        raw = bytes(sent)
        head = raw.split(b"\n\n", 1)[0]
        again = message_from_bytes(raw, policy=policy.default)
        assert set(again.keys()) <= HEADERS and len(again.keys()) == len(set(again.keys()))
        assert "\r" not in str(again["Subject"]) and "\n" not in str(again["Subject"])
        assert len(again["To"].addresses) == 1 and b"\x00" not in raw and b"\x1b" not in raw
        assert b"\nbcc:" not in head.lower() and not head.lower().startswith(b"bcc:")


def press_to_france(handler, number: int):
    return handler(mail(BEN, "SIGNON Evienna lond0n", "PRESS TO F", "Hello France.", "ENDPRESS",
                        number=number), NOW)


@pytest.mark.parametrize("address", [
    "mallory@evil.example\r\nBcc: all@evil.example",
    "=?utf-8?q?m=0D=0ABcc:_all?=@evil.example",
    "=?utf-8?q?m?=@evil.example",
    "m\x00@evil.example",
    "m@evil.example\x1b[2J",
    '"m\\r\\nbcc: x"@evil.example',
    "m(comment)@evil.example",
    "m@evil.example;bcc=x@evil.example",
    "m@evil.example,Bcc:x@evil.example",
    "m@evil.example\u2028Bcc: x@evil.example",
    "m@evil.example\x85Bcc: x@evil.example",
    "m@evil.example\x0bBcc: x@evil.example",
])
def test_set_address_smuggles_no_header(handler, address):
    replies = handler(mail(CHLOE, "SIGNON Fvienna paris7", f"SET ADDRESS {address}"), NOW)
    well_formed(replies)
    stored = handler.read("vienna").power("FRANCE").address
    assert all(a.isprintable() and "bcc" not in a and "=?" not in a for a in stored)
    mails = press_to_france(handler, 1)
    well_formed(mails)
    assert any("Hello France." in m.get_content() for m in mails)


@pytest.mark.parametrize("subject", [
    "=?utf-8?q?orders=0D=0ABcc:_all@evil.example?=",
    "orders\r\n Bcc: all@evil.example",
    "=?utf-8?b?" + "b3JkZXJzDQpCY2M6IGFsbEBldmlsLmV4YW1wbGU=" + "?=",
    "x" * 2000,
])
def test_a_subject_smuggles_no_header_into_the_reply(handler, subject):
    replies = handler(mail(CHLOE, "SIGNON Fvienna paris7", subject=subject), NOW)
    assert replies
    well_formed(replies)


@pytest.mark.parametrize("sender_headers", [
    ("Reply-To: =?utf-8?q?x=0D=0ABcc:_y@evil.example?= <x@evil.example>",),
    ("Reply-To: <x\x00@evil.example>",),
    ("Reply-To: x@evil.example,\r\n\tbcc@evil.example",),
])
def test_a_reply_to_smuggles_no_header(handler, sender_headers):
    well_formed(handler(mail(CHLOE, "LIST", headers=sender_headers), NOW))


@pytest.mark.parametrize("sender", ["x\x1b@evil.example", "x\x00y@evil.example", "x\ty@evil.example",
                                    "=?utf-8?q?x=00?=@evil.example", "x;y@evil.example"])
def test_a_sender_is_kept_only_as_a_plain_address(handler, sender):
    handler.store.create("forming", (GAMES / "forming.status").read_text())
    well_formed(handler(mail(sender, "JOIN forming pw"), NOW))
    status = handler.read("forming")
    kept = [a for b in status.powers for a in b.address] + \
        [b.player.current.email for b in status.powers if b.player and b.player.current]
    assert all(plain_address(a) for a in kept)


PRESS_LINES = ["Bcc: all@evil.example", "To: everyone@evil.example", "Subject: you lost",
               ".", "From judge@example.org", "Content-Type: text/html", "\x00nul\x07bell",
               "=?utf-8?q?=0D=0ABcc:_x@evil.example?="]


def test_press_text_stays_in_the_body(handler):
    mails = handler(mail(BEN, "SIGNON Evienna lond0n", "PRESS TO F", *PRESS_LINES, "ENDPRESS"), NOW)
    well_formed(mails)
    france = [m for m in mails if m["To"].addresses[0].addr_spec == CHLOE]
    assert france and "Subject: you lost" in france[0].get_content()


# -- templates --------------------------------------------------------------------------------
TEMPLATE_TEXT = ["{{ 7*7 }}", "{% include 'press.txt' %}", "{{ self.__init__.__globals__ }}",
                 "{{ config }}{{ lipsum.__globals__ }}", "{% for x in range(99999999) %}x{% endfor %}",
                 "{# comment #}", "{% raw %}", "${7*7}", "#{7*7}"]


def test_press_text_is_never_a_template(handler):
    mails = handler(mail(BEN, "SIGNON Evienna lond0n", "PRESS TO F", *TEMPLATE_TEXT, "ENDPRESS"), NOW)
    france = next(m for m in mails if m["To"].addresses[0].addr_spec == CHLOE).get_content()
    flat = " ".join(france.split())
    for text in TEMPLATE_TEXT:
        assert text in flat
    assert "49" not in flat


def test_the_masters_official_subject_is_never_a_template(handler):
    mails = handler(mail("joe@blow.com", "SIGNON Mvienna kr4k3n", "OFFICIAL {{ 7*7 }}",
                         "BROADCAST", "{{ 7*7 }}", "ENDBROADCAST"), NOW)
    notices = [m for m in mails if m["Subject"] == "{{ 7*7 }} (vienna)"]
    assert notices and all("{{ 7*7 }}" in m.get_content() for m in notices)
    assert "49" not in texts(mails)


def test_order_lines_and_subjects_are_quoted_never_rendered(handler):
    mails = handler(mail(CHLOE, "SIGNON Fvienna paris7", "A PAR - {{ 7*7 }}",
                         subject="{% include 'press.txt' %}"), NOW)
    reply = mails[0]
    assert reply["Subject"] == "Re: {% include 'press.txt' %}"
    assert "{{ 7*7 }}" in reply.get_content() and "49" not in reply.get_content()


def test_names_with_template_text_are_refused_or_kept_as_text(handler):
    refused = handler(mail("x@example.org", "OBSERVE {{7*7}}@vienna pw"), NOW)
    assert "cannot be a player's name" in refused[0].get_content()
    answered = handler(mail("x{{7*7}}@example.org", "LIST vienna", number=1), NOW)
    assert answered[0]["To"] == "x{{7*7}}@example.org" and "49" not in texts(answered)
