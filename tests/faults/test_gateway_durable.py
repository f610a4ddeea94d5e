"""No mail is acknowledged before it is durable: the gateway's process killed between storing a
mail and answering it gives no `250`, and a mail made durable before the kill stays in the inbox."""
from __future__ import annotations

import smtplib
import subprocess
import sys
from pathlib import Path

import pytest

from judge.runtime.gateway_process import LISTENING, Settings, listening_sockets
from judge.runtime.spool import Spool
from tests.support.transport import LOOPBACK

CHILD = Path(__file__).parent / "gateway_child.py"
JUDGE = "judge@judge.test"
MAIL = (f"From: anne@players.test\r\nTo: {JUDGE}\r\nSubject: orders\r\n"
        "Message-ID: <m1@players.test>\r\n\r\nA PAR - BUR\r\n").encode()


@pytest.mark.parametrize("point, kept", [("before-sync", None), ("after-put", 1)])
def test_a_gateway_killed_before_it_answers_gives_no_250(tmp_path, point, kept):
    inbox = Spool(tmp_path / "inbox").create()
    [sock] = listening_sockets(LOOPBACK, 0)
    settings = Settings(fds=(sock.fileno(),), inbox=str(inbox.root), address=JUDGE,
                        domain="judge.test", max_bytes=100_000)
    with sock:
        process = subprocess.Popen([sys.executable, str(CHILD), point, settings.command()[-1]],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   pass_fds=settings.fds)
        try:
            assert process.stdout is not None
            assert process.stdout.readline() == LISTENING + b"\n"
            with pytest.raises(smtplib.SMTPServerDisconnected):
                with smtplib.SMTP(LOOPBACK, sock.getsockname()[1], timeout=10) as smtp:
                    smtp.sendmail("anne@players.test", [JUDGE], MAIL)
            assert process.wait(timeout=30) == -9
        finally:
            process.kill()
            process.communicate(timeout=30)
    if kept:  # durable before the kill: it waits in the inbox, and the MTA's retry comes too
        [item] = inbox.waiting()
        assert inbox.read(item).endswith(MAIL)
