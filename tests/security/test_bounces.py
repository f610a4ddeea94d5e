"""A bounce is never answered, however it comes in: its envelope sender is read from the MTA's
argument (`judge mail --sender`, Postfix's ${sender}), the mbox `From ` line, or the header block
the final delivery wrote, never from its body, where a bounce quotes the headers of the mail it
returns (a `Return-Path:` of a player among them)."""
from __future__ import annotations

from email import message_from_bytes, policy

import pytest

from judge.runtime.inbox import pipe_mail
from judge.runtime.gateway import delivery_headers
from tests.support.commands import NOW
from tests.support.mail import JUDGE_ADDRESS, mail

pytestmark = pytest.mark.security

QUOTED = mail("chloe@example.fr", "LIST", subject="orders").decode()
BOUNCE = ("From: Mail Delivery System <bounces@relay.example.net>\r\n"
          f"To: {JUDGE_ADDRESS}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
          "Message-ID: <bounce1@relay.example.net>\r\n"
          "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n"
          "This is the mail system at host relay.example.net.\r\n"
          "Your message could not be delivered; it follows.\r\n\r\n" + QUOTED).encode()


def outbox(config) -> list:
    folder = config.paths.spool / "outbox"
    return [message_from_bytes(p.read_bytes(), policy=policy.default)
            for p in sorted(folder.glob("*.eml"))] if folder.is_dir() else []


def test_the_bounce_quotes_a_return_path_in_its_first_4_kb():
    assert BOUNCE.index(b"\r\nReturn-Path: <chloe@example.fr>") < 4096


@pytest.mark.parametrize("sender", ["MAILER-DAEMON", "", "<>", "mailer-daemon"])
def test_judge_mail_answers_no_bounce_named_by_the_mta(config, handler, sender):
    assert pipe_mail(config, BOUNCE, sender, NOW, handler=handler) == 0
    assert outbox(config) == []


def test_judge_mail_answers_no_bounce_named_by_the_mbox_line(config, handler):
    raw = b"From MAILER-DAEMON Sun Feb  9 12:00:00 2025\n" + BOUNCE
    assert pipe_mail(config, raw, None, NOW, handler=handler) == 0
    assert outbox(config) == []


def test_the_mta_argument_is_the_envelope_even_over_a_return_path_header(config, handler):
    raw = b"Return-Path: <chloe@example.fr>\r\n" + BOUNCE
    assert pipe_mail(config, raw, "MAILER-DAEMON", NOW, handler=handler) == 0
    assert outbox(config) == []


def test_a_players_mail_quoting_a_bounce_is_still_answered(config, handler):
    raw = mail("chloe@example.fr", "LIST", "", "> Return-Path: <>", "> MAILER-DAEMON said no")
    assert pipe_mail(config, raw, "chloe@example.fr", NOW, handler=handler) == 0
    assert [str(m["To"]) for m in outbox(config)] == ["chloe@example.fr"]


def test_the_gateway_spools_a_bounce_so_that_it_is_not_answered(handler):
    assert handler(delivery_headers("<>", [JUDGE_ADDRESS]) + BOUNCE, NOW) == []


def test_imap_mail_with_the_providers_null_return_path_is_not_answered(handler):
    assert handler(b"Return-Path: <>\r\n" + BOUNCE, NOW) == []


def test_a_delivery_report_without_an_envelope_is_not_answered(handler):
    """IMAP mail may carry no Return-Path at all: a delivery report (RFC 6522) says what it is."""
    report = (f"From: postbote@relay.example.net\r\nTo: {JUDGE_ADDRESS}\r\n"
              "Subject: Returned mail\r\nMessage-ID: <dsn1@relay.example.net>\r\nMIME-Version: 1.0\r\n"
              'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
              "--b\r\nContent-Type: text/plain\r\n\r\nLIST\r\n"
              "--b\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n"
              "--b\r\nContent-Type: message/rfc822\r\n\r\n" + QUOTED + "--b--\r\n").encode()
    assert handler(report, NOW) == []
