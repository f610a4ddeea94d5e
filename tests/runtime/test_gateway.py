"""The SMTP gateway, spoken to with smtplib: never a relay, a size cap, and 250 only once stored."""
from __future__ import annotations

import smtplib
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller

from judge.runtime.config import JudgeSection
from judge.runtime.gateway import (
    CANNOT_STORE,
    NOT_OURS,
    SHUTTING_DOWN,
    Gateway,
    GatewaySMTP,
    accepts_address,
    delivery_headers,
)
from judge.mailin.message import envelope_sender
from judge.runtime.spool import Spool
from tests.support.transport import LOOPBACK, free_port

JUDGE = JudgeSection(id="TEST", address="judge@judge.test")
MAIL = b"From: anne@players.test\r\nTo: judge@judge.test\r\nSubject: orders\r\n\r\nA PAR - BUR\r\n"
MAX_BYTES = 4096


class GatewayController(Controller):
    """aiosmtpd's threaded test controller, serving the judge's own SMTP class."""

    def factory(self):
        return GatewaySMTP(self.handler, **self.SMTP_kwargs)


class Running:
    def __init__(self, gateway: Gateway):
        self.gateway = gateway
        self.port = free_port()
        self.controller = GatewayController(gateway, hostname=LOOPBACK, port=self.port,
                                            data_size_limit=MAX_BYTES, enable_SMTPUTF8=True,
                                            decode_data=False)

    def client(self) -> smtplib.SMTP:
        return smtplib.SMTP(LOOPBACK, self.port, timeout=10)


@pytest.fixture
def gateway_at(tmp_path):
    started = []

    def start(spool_root=None) -> Running:
        inbox = Spool(spool_root or tmp_path / "spool" / "inbox")
        running = Running(Gateway(inbox, accepts_address(JUDGE), MAX_BYTES))
        running.controller.start()
        started.append(running)
        return running
    yield start
    for running in started:
        running.controller.stop()


def status(exc: smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused) -> int:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return next(iter(exc.recipients.values()))[0]
    return exc.smtp_code


def test_250_only_after_the_mail_is_in_the_inbox_spool(gateway_at):
    running = gateway_at()
    with running.client() as smtp:
        assert smtp.sendmail("anne@players.test", ["judge@judge.test"], MAIL) == {}
    [item] = running.gateway.inbox.waiting()
    assert running.gateway.inbox.read(item) == (
        b"Return-Path: <anne@players.test>\r\nX-Original-To: judge@judge.test\r\n" + MAIL)


def test_mail_without_helo_is_accepted_and_relaying_still_refused(gateway_at):
    running = gateway_at()
    with running.client() as smtp:
        assert smtp.mail("anne@players.test")[0] == 250
        assert smtp.rcpt("victim@elsewhere.test")[0] == 550
        assert smtp.rcpt("judge@judge.test")[0] == 250


def test_foreign_recipient_gets_550_never_relayed(gateway_at):
    running = gateway_at()
    with running.client() as smtp, pytest.raises(smtplib.SMTPRecipientsRefused) as caught:
        smtp.sendmail("spammer@evil.test", ["victim@elsewhere.test"], MAIL)
    assert status(caught.value) == 550 and NOT_OURS.startswith("550")
    assert running.gateway.inbox.waiting() == []


@pytest.mark.parametrize("address", ["judge@judge.test", "JUDGE@Judge.Test",
                                     "judge+game1@judge.test"])
def test_the_judges_address_and_sub_addresses_are_accepted(address):
    assert accepts_address(JUDGE)(address)


@pytest.mark.parametrize("address", ["judge@judge.test.evil", "judgex@judge.test",
                                     "judge@evil.test", "judge", "keeper@judge.test"])
def test_look_alike_addresses_are_refused(address):
    assert not accepts_address(JUDGE)(address)


def test_mixed_recipients_deliver_only_to_the_judge(gateway_at):
    running = gateway_at()
    with running.client() as smtp:
        refused = smtp.sendmail("anne@players.test", ["judge@judge.test", "x@elsewhere.test"], MAIL)
    assert list(refused) == ["x@elsewhere.test"]
    [item] = running.gateway.inbox.waiting()
    assert b"X-Original-To: x@elsewhere.test" not in running.gateway.inbox.read(item)


def test_oversize_mail_gets_552_and_is_not_stored(gateway_at):
    running = gateway_at()
    big = MAIL + b"x" * 70 + b"\r\n" * 0 + (b"y" * 70 + b"\r\n") * 100
    with running.client() as smtp, pytest.raises(smtplib.SMTPResponseException) as caught:
        smtp.sendmail("anne@players.test", ["judge@judge.test"], big)
    assert status(caught.value) == 552
    assert running.gateway.inbox.waiting() == []


def test_unwritable_spool_gets_451_so_the_sender_retries(gateway_at, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    running = gateway_at(spool_root=tmp_path / "a-file" / "inbox")
    with running.client() as smtp, pytest.raises(smtplib.SMTPDataError) as caught:
        smtp.sendmail("anne@players.test", ["judge@judge.test"], MAIL)
    assert caught.value.smtp_code == 451 and CANNOT_STORE.startswith("451")


def test_bounces_are_stored_with_an_empty_return_path(gateway_at):
    running = gateway_at()
    with running.client() as smtp:
        smtp.sendmail("", ["judge@judge.test"], MAIL)
    [item] = running.gateway.inbox.waiting()
    assert running.gateway.inbox.read(item).startswith(b"Return-Path: <>\r\n")


def test_smtputf8_and_8bitmime_are_offered_and_work(gateway_at):
    running = gateway_at()
    mail = "From: zoë@joueurs.test\r\nSubject: ordres\r\n\r\nA Munich - Bohême\r\n".encode()
    with running.client() as smtp:
        smtp.ehlo()
        assert smtp.has_extn("smtputf8") and smtp.has_extn("8bitmime")
        smtp.sendmail("zoë@joueurs.test", ["judge@judge.test"], mail,
                      mail_options=["SMTPUTF8", "BODY=8BITMIME"])
    [item] = running.gateway.inbox.waiting()
    assert running.gateway.inbox.read(item).endswith("Bohême\r\n".encode())


def test_a_closing_gateway_answers_421(gateway_at):
    running = gateway_at()
    running.gateway.closing = True
    with running.client() as smtp, pytest.raises(smtplib.SMTPSenderRefused) as caught:
        smtp.sendmail("anne@players.test", ["judge@judge.test"], MAIL)
    assert caught.value.smtp_code == 421 and SHUTTING_DOWN.startswith("421")


@pytest.mark.parametrize("raw, sender", [
    (b"Return-Path: <a@x.test>\r\nX-Original-To: judge@j.test\r\n\r\n", "a@x.test"),
    (b"Return-Path: <>\r\n\r\n", ""),
    (b"From: a@x.test\r\n\r\n", None),
], ids=["player", "bounce", "unknown"])
def test_envelope_sender_reads_back_what_the_gateway_wrote(raw, sender):
    assert envelope_sender(message_from_bytes(raw, policy=policy.default)) == sender


def test_delivery_headers_name_envelope_sender_and_recipients():
    assert delivery_headers("a@x.test", ["judge@j.test"]) == (
        b"Return-Path: <a@x.test>\r\nX-Original-To: judge@j.test\r\n")
    assert delivery_headers(None, []) == b"Return-Path: <>\r\n"
