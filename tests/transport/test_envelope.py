"""The headers around every outgoing mail."""
from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy

import pytest

from judge.config import JudgeSection
from judge.mailout.envelope import (
    build_message,
    message_id,
    outbox_id,
    raw_key,
    reply_fields,
)

JUDGE = JudgeSection(id="USDP", address="judge@judge.test", keeper="keeper@judge.test")
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def sent(msg):
    """What the relay will see, parsed back."""
    return message_from_bytes(bytes(msg), policy=policy.default)


def test_results_mail_has_every_header_a_robot_sender_needs():
    msg = sent(build_message(JUDGE, to="france@players.test",
                             subject="Diplomacy results game S1901M",
                             body="Movement results for Spring of 1901.\n", now=NOW,
                             key="game-S1901M-results-FRANCE"))
    assert msg["From"] == "Judge USDP <judge@judge.test>"
    assert msg["To"] == "france@players.test"
    assert msg["Subject"] == "Diplomacy results game S1901M"
    assert msg["Date"] == "Sun, 01 Mar 2026 12:00:00 +0000"
    assert msg["Message-ID"] == "<game-S1901M-results-FRANCE.usdp@judge.test>"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Loop"] == "judge@judge.test"
    assert msg["In-Reply-To"] is None
    assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"


def test_same_key_same_message_id_so_the_outbox_takes_it_once():
    one = build_message(JUDGE, to="a@x.test", subject="s", body="b\n", now=NOW, key="k")
    two = build_message(JUDGE, to="a@x.test", subject="s", body="b\n", now=NOW.replace(hour=13),
                        key="k")
    assert outbox_id(one) == outbox_id(two) == "k.usdp@judge.test"


def test_without_a_key_every_message_id_is_new():
    assert message_id(JUDGE) != message_id(JUDGE)


def test_a_long_key_is_shortened_but_stays_distinct():
    a, b = message_id(JUDGE, "x" * 200 + "a"), message_id(JUDGE, "x" * 200 + "b")
    assert a != b and len(a) < 120


def test_reply_threads_under_the_players_mail_and_says_auto_replied():
    incoming = message_from_bytes(
        b"From: Anne <anne@players.test>\r\nSubject: orders\r\nMessage-ID: <m2@players.test>\r\n"
        b"References: <m1@players.test>\r\n\r\nF BRE - MAO\r\n", policy=policy.default)
    fields = reply_fields(incoming)
    msg = sent(build_message(JUDGE, body="Orders received.\n", now=NOW, **fields))
    assert msg["To"] == "Anne <anne@players.test>" and msg["Subject"] == "Re: orders"
    assert msg["In-Reply-To"] == "<m2@players.test>"
    assert msg["References"] == "<m1@players.test> <m2@players.test>"
    assert msg["Auto-Submitted"] == "auto-replied"


def test_reply_goes_to_reply_to_and_does_not_stack_re():
    incoming = message_from_bytes(
        b"From: a@x.test\r\nReply-To: b@x.test\r\nSubject: Re: hi\r\n\r\n", policy=policy.default)
    assert reply_fields(incoming)["to"] == "b@x.test"
    assert reply_fields(incoming)["subject"] == "Re: hi"


def test_utf8_text_survives_any_relay():
    body = "Café au lait: A MUN - BOH, F Kiel Holds, Ünited ☃\n"
    msg = build_message(JUDGE, to="a@x.test", subject="Résultats", body=body, now=NOW)
    assert bytes(msg).isascii()  # quoted-printable: no 8BITMIME needed downstream
    assert sent(msg).get_content() == body and sent(msg)["Subject"] == "Résultats"


def test_header_injection_through_a_subject_is_impossible():
    msg = build_message(JUDGE, to="a@x.test", subject="hi\r\nBcc: victim@x.test", body="b\n",
                        now=NOW)
    assert sent(msg)["Bcc"] is None


def test_header_injection_through_an_address_is_refused():
    with pytest.raises(ValueError):
        build_message(JUDGE, to="a@x.test\r\nBcc: victim@x.test", subject="s", body="b\n", now=NOW)


def test_raw_key_depends_only_on_the_mail():
    assert raw_key(b"mail", "received") == raw_key(b"mail", "received")
    assert raw_key(b"mail", "received") != raw_key(b"other", "received")
