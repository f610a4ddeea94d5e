"""The gateway is never a relay: every recipient that is not the judge's own address is refused
over SMTP, however it is dressed up, and nothing for it is stored."""
from __future__ import annotations

import smtplib

import pytest
from aiosmtpd.controller import Controller

from judge.runtime.config import JudgeSection
from judge.runtime.gateway import Gateway, GatewaySMTP, accepts_address
from judge.runtime.spool import Spool
from tests.support.transport import LOOPBACK, free_port

pytestmark = pytest.mark.security

JUDGE = JudgeSection(id="TEST", address="judge@judge.test")
MAIL = b"From: anne@players.test\r\nSubject: hello\r\n\r\nLIST\r\n"
FOREIGN = [
    "victim@elsewhere.test",
    "judge@judge.test@elsewhere.test",
    '"judge@judge.test"@elsewhere.test',
    "@judge.test:victim@elsewhere.test",
    "victim%elsewhere.test@judge.test",
    "victim!elsewhere.test@judge.test",
    "elsewhere.test!victim@judge.test",
    "judge@judge.test.elsewhere.test",
    "judge@elsewhere.judge.test",
    "judge+x@elsewhere.test",
    "judgex@judge.test",
    "postmaster",
    "judge",
]


class GatewayController(Controller):
    def factory(self):
        return GatewaySMTP(self.handler, **self.SMTP_kwargs)


@pytest.fixture
def gateway(tmp_path):
    inbox = Spool(tmp_path / "inbox")
    port = free_port()
    controller = GatewayController(Gateway(inbox, accepts_address(JUDGE), 65536), hostname=LOOPBACK,
                                   port=port, enable_SMTPUTF8=True, decode_data=False)
    controller.start()
    yield port, inbox
    controller.stop()


@pytest.mark.parametrize("recipient", FOREIGN)
def test_a_foreign_recipient_is_refused_and_nothing_is_stored(gateway, recipient):
    port, inbox = gateway
    with smtplib.SMTP(LOOPBACK, port, timeout=10) as client:
        client.ehlo("spammer.test")
        client.mail("spammer@spam.test")
        code, _ = client.rcpt(recipient)
        assert code >= 500
        code, _ = client.docmd("DATA")
        assert code >= 500  # no valid recipient: no data taken
    assert inbox.waiting() == []


def test_one_foreign_recipient_among_ours_is_dropped(gateway):
    port, inbox = gateway
    with smtplib.SMTP(LOOPBACK, port, timeout=10) as client:
        refused = client.sendmail("anne@players.test", ["judge@judge.test", "victim@elsewhere.test"], MAIL)
    assert list(refused) == ["victim@elsewhere.test"]
    stored = Spool.read(inbox.waiting()[0])
    assert b"X-Original-To: judge@judge.test" in stored and b"victim@" not in stored


def test_auth_and_etrn_and_vrfy_give_nothing_away(gateway):
    port, _ = gateway
    with smtplib.SMTP(LOOPBACK, port, timeout=10) as client:
        client.ehlo("spammer.test")
        assert not client.has_extn("auth")
        assert client.docmd("VRFY", "judge")[0] != 250
        assert client.docmd("ETRN", "elsewhere.test")[0] >= 500
