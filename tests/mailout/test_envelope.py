"""The headers around every outgoing mail."""
from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from judge.runtime.config import JudgeSection
from judge.mailout.envelope import (
    DOT_ATOM_ID,
    MessageIdField,
    build_message,
    envelopes,
    from_field,
    header_text,
    message_id,
    raw_key,
)
from judge.mailout.audience import Mailing
from judge.mailout.render import Rendered
from judge.runtime.spool import outbox_id

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


def test_a_mailing_becomes_one_mail_per_recipient_naming_only_its_reader():
    players = ("austria@players.test", "england@players.test", "France@Players.test")
    mailing = Mailing(players, Rendered("Diplomacy game g join notice", "POWER#3 has joined.\n"))
    mails = [sent(m) for m in envelopes(JUDGE, mailing, now=NOW, key="event0")]
    assert [m["To"] for m in mails] == list(players)
    for mail, reader in zip(mails, players, strict=True):
        others = [p for p in players if p != reader]
        assert not any(other.lower() in bytes(mail).decode().lower() for other in others)
        assert mail["Subject"] == "Diplomacy game g join notice"
        assert mail.get_content() == "POWER#3 has joined.\n"
    ids = [m["Message-ID"] for m in mails]
    assert len(set(ids)) == 3 and all("event0" in i for i in ids)
    assert "france_players.test" in ids[2]  # the key holds the recipient, lower case
    again = envelopes(JUDGE, mailing, now=NOW.replace(hour=13), key="event0")
    assert [m["Message-ID"] for m in again] == ids  # a retried step: the same mails


def test_a_reply_to_several_readers_threads_every_copy():
    mailing = Mailing(("anne@players.test", "anne.home@players.test"), Rendered("Re: x", "ok\n"))
    mails = envelopes(JUDGE, mailing, now=NOW, key="reply-1", in_reply_to="<m1@players.test>")
    assert [m["To"] for m in mails] == ["anne@players.test", "anne.home@players.test"]
    assert all(m["In-Reply-To"] == "<m1@players.test>" for m in mails)
    assert all(m["Auto-Submitted"] == "auto-replied" for m in mails)


def test_without_a_key_every_message_id_is_new():
    assert message_id(JUDGE) != message_id(JUDGE)


def test_a_long_key_is_shortened_but_stays_distinct():
    a, b = message_id(JUDGE, "x" * 200 + "a"), message_id(JUDGE, "x" * 200 + "b")
    assert a != b and len(a) < 120


def test_reply_threads_under_the_players_mail_and_says_auto_replied():
    msg = sent(build_message(JUDGE, body="Orders received.\n", now=NOW, to="anne@players.test",
                             subject="Re: orders", in_reply_to="<m2@players.test>",
                             references="<m1@players.test> <m2@players.test>"))
    assert msg["To"] == "anne@players.test" and msg["Subject"] == "Re: orders"
    assert msg["In-Reply-To"] == "<m2@players.test>"
    assert msg["References"] == "<m1@players.test> <m2@players.test>"
    assert msg["Auto-Submitted"] == "auto-replied"


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


@settings(max_examples=200, deadline=None)
@given(subject=st.text(st.characters(min_codepoint=32, max_codepoint=126) | st.sampled_from("éßñ€"),
                       min_size=1, max_size=200),
       name=st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=20),
       threads=st.lists(st.from_regex(r"<[a-z0-9.]{1,30}@[a-z]{1,10}\.test>", fullmatch=True), max_size=12))
def test_each_header_is_written_as_its_parse_would_write_it(subject, name, threads):
    """Headers kept as written (not parsed when set) are written exactly as the parsed header
    would be, folded alike: the mail is the same, only cheaper to make."""
    judge = JudgeSection(id=name, address="judge@judge.test", keeper="keeper@judge.test")
    msg = build_message(judge, to="player@example.org", subject=subject, body="Orders.\n", now=NOW,
                        key="k", in_reply_to=threads[-1] if threads else "",
                        references=" ".join(threads[:-1]))
    for header, value in msg.items():
        parsed = policy.default.header_factory(header, str(value))
        assert str(value) == str(parsed)
        assert policy.default.fold_binary(header, value) == policy.default.fold_binary(header, parsed)


@settings(max_examples=300, deadline=None)
@given(body=st.lists(st.characters(max_codepoint=127) | st.sampled_from(["\r\n", "x" * 999]),
                    max_size=300).map("".join))
def test_an_ascii_body_is_written_as_the_email_package_writes_it(body):
    """An ASCII text body is set without the email package's parsing of the fields it sets, to
    the byte what its set_content writes: the same fields, order, line ends and reading back."""
    from email.message import EmailMessage

    msg = build_message(JUDGE, to="player@example.org", subject="s", body=body, now=NOW, key="k")
    expected = EmailMessage()
    for header, value in msg.items():
        if not header.lower().startswith(("content-", "mime-")):
            expected.set_raw(header, value)
    expected.set_content(body, charset="utf-8",
                         cte="7bit" if all(len(x) <= 998 for x in body.splitlines())
                         else "quoted-printable")
    assert bytes(msg) == bytes(expected)
    assert sent(msg).get_content() == sent(expected).get_content()


@settings(max_examples=300, deadline=None)
@given(value=st.text(st.characters(max_codepoint=0x3000) | st.sampled_from(" \t\r\n\x85\xa0\u2028"),
                     max_size=80))
def test_a_header_value_keeps_only_printable_characters_and_single_spaces(value):
    text = header_text(value)
    assert text.isprintable() and "  " not in text and text == text.strip() and "=?" not in text
    shown = "".join(c if c.isprintable() else " " for c in value)
    assert text == " ".join(shown.split()).replace("=?", "= ?").rstrip()


@pytest.mark.parametrize("writer", [policy.default, policy.SMTP, policy.default.clone(max_line_length=20)],
                         ids=["default", "smtp", "narrow"])
def test_fields_shared_by_many_mails_are_written_as_fresh_ones_under_any_policy(writer):
    """The MIME fields and the From field are folded once a policy for all the mails that carry
    them: each mail, written under any policy and again, is what fresh fields would write."""
    from email.message import EmailMessage

    for _ in range(2):
        msg = build_message(JUDGE, to="a@x.test", subject="s", body="b\n", now=NOW, key="k",
                            author=from_field(JUDGE))
        fresh = EmailMessage()
        for header, value in msg.items():
            fresh[header] = str(value)
        fresh.set_payload(msg.get_payload())
        assert msg.as_bytes(policy=writer) == fresh.as_bytes(policy=writer)


def test_each_judge_s_mails_come_from_that_judge():
    other = JudgeSection(id="EUDP", address="judge@other.test", keeper="keeper@other.test")
    for judge in (JUDGE, other, JUDGE):
        msg = sent(build_message(judge, to="a@x.test", subject="s", body="b\n", now=NOW, key="k"))
        mailing = Mailing(("a@x.test", "b@x.test"), Rendered("s", "b\n"))
        assert {str(m["From"]) for m in envelopes(judge, mailing, now=NOW, key="k")} \
            == {str(msg["From"])} == {f"Judge {judge.id} <{judge.address}>"}



ATEXT = "abcXYZ019!#$%&'*+/=?^_`{|}~.-"
WRITERS = [policy.default, policy.SMTP, policy.SMTPUTF8, policy.default.clone(max_line_length=40),
           policy.default.clone(max_line_length=None)]


@settings(max_examples=1000, deadline=None)
@given(left=st.text(st.sampled_from(ATEXT), min_size=1, max_size=120),
       right=st.text(st.sampled_from(ATEXT), min_size=1, max_size=120),
       writer=st.sampled_from(WRITERS))
def test_a_message_id_set_unparsed_is_written_as_its_parse_would_write_it(left, right, writer):
    """A Message-ID kept unparsed (any id of dot-atoms) is written as the parsed field would
    be, folded alike under any policy however long the id, and reads as the id."""
    value = f"<{left}@{right}>"
    assume(DOT_ATOM_ID.fullmatch(value))
    field = MessageIdField(value)
    parsed = writer.header_factory("Message-ID", value)
    assert writer.fold("Message-ID", field) == writer.fold("Message-ID", parsed)
    assert writer.fold_binary("Message-ID", field) == writer.fold_binary("Message-ID", parsed)
    assert str(field) == str(parsed)


@pytest.mark.parametrize("key", ["k", "reply-0123456789abcdef01234567-new1@players.test",
                                 "cycle-g-202612030305-bf50319c1485e65c0228-a.very.long.name@x.test",
                                 "x" * 300])
def test_a_judge_s_message_id_is_written_as_the_email_package_writes_it(key):
    msg = build_message(JUDGE, to="a@x.test", subject="s", body="b\n", now=NOW, key=key)
    fresh = EmailMessage()
    for header, value in msg.items():
        fresh[header] = str(value)
    fresh.set_payload(msg.get_payload())
    for writer in WRITERS:
        assert msg.as_bytes(policy=writer) == fresh.as_bytes(policy=writer)
    assert sent(msg)["Message-ID"] == msg["Message-ID"] == message_id(JUDGE, key)
    assert outbox_id(msg) == outbox_id(sent(msg))
