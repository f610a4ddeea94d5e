"""`judge serve` as a process on loopback ports: readiness, mail in and out, SIGTERM, SIGKILL."""
from __future__ import annotations

import signal
import smtplib
import subprocess
import sys
import threading
from email import message_from_bytes, policy
from pathlib import Path

from judge.runtime.spool import Spool
from tests.support.transport import LOOPBACK, judge_serve, start, wait_for

HERE = Path(__file__).parent


def mail(n: int, sender: str = "anne@players.test", extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: judge@judge.test\r\nSubject: orders {n}\r\n"
            f"Message-ID: <m{n}@players.test>\r\n{extra}\r\nA PAR - BUR\r\n").encode()


def test_serve_answers_through_the_relay_and_stops_cleanly_on_sigterm(make_config, relay, notify,
                                                                      tmp_path):
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port})
    process = judge_serve(tmp_path, notify)
    try:
        with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=10) as smtp:
            smtp.sendmail("anne@players.test", ["judge@judge.test"], mail(1))
            smtp.sendmail("", ["judge@judge.test"], mail(2, "MAILER-DAEMON@players.test"))
            smtp.sendmail("bot@players.test", ["judge@judge.test"],
                          mail(3, "bot@players.test", "Auto-Submitted: auto-replied\r\n"))
        wait_for(lambda: relay.received, timeout=30)
        wait_for(lambda: len(Spool(config.paths.spool / "inbox").finished()) == 3, timeout=30)
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=30)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, output
    notify.wait_for("STOPPING=1")
    [reply] = relay.received  # the bounce and the auto-reply got no answer
    message = message_from_bytes(reply.raw, policy=policy.default)
    assert reply.rcpt_tos == ["anne@players.test"]
    assert message["In-Reply-To"] == "<m1@players.test>" and message["Subject"] == "Re: orders 1"
    assert message["From"] == "Judge TEST <judge@judge.test>"
    assert message["Auto-Submitted"] == "auto-replied" and message["X-Loop"] == "judge@judge.test"
    assert "stopped" in output


def test_without_a_relay_replies_wait_in_the_outbox_and_judge_outbox_lists_them(make_config,
                                                                               notify, tmp_path):
    config = make_config()
    process = judge_serve(tmp_path, notify)
    try:
        with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=10) as smtp:
            smtp.sendmail("anne@players.test", ["judge@judge.test"], mail(1))
        wait_for(lambda: Spool(config.paths.spool / "outbox").waiting(), timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    listing = subprocess.run([sys.executable, "-m", "judge.cli", "--config",
                              str(tmp_path / "judge.toml"), "outbox"], check=False,
                             capture_output=True,
                             text=True, timeout=60)
    assert listing.returncode == 0
    assert "waiting  reply-" in listing.stdout and "to anne@players.test: Re: orders 1" in \
        listing.stdout
    assert listing.stdout.splitlines()[-1].startswith("1 waiting, 0 failed")


def test_sigkill_while_mail_arrives_loses_no_accepted_mail(make_config, notify, tmp_path):
    config = make_config()
    argv = [sys.executable, str(HERE / "slow_serve.py"), str(tmp_path / "judge.toml"), "0.02"]
    process = start(argv, tmp_path, notify)
    accepted: list[int] = []
    stop = threading.Event()

    def client(first: int) -> None:
        n = first
        while not stop.is_set():
            sender = f"player{n}@players.test"  # one each: the judge limits replies per sender
            try:
                with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=5) as smtp:
                    smtp.sendmail(sender, ["judge@judge.test"], mail(n, sender))
                accepted.append(n)  # it got its 250
            except (OSError, smtplib.SMTPException):
                pass
            n += 2
    clients = [threading.Thread(target=client, args=(k,)) for k in (0, 1)]
    for thread in clients:
        thread.start()
    try:
        wait_for(lambda: len(accepted) >= 40, timeout=30)
    finally:
        process.kill()  # SIGKILL, with mail arriving and a backlog in the inbox
        process.communicate(timeout=30)
        stop.set()
        for thread in clients:
            thread.join(10)
    inbox = Spool(config.paths.spool / "inbox")
    backlog = len(inbox.waiting()) + len(inbox.claimed())
    assert backlog > 0, "the kill came too late to test anything"

    notify.messages.clear()
    process = start(argv, tmp_path, notify)
    try:
        wait_for(lambda: not inbox.waiting() and not inbox.claimed(), timeout=60)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert inbox.failed() == []
    outbox = Spool(config.paths.spool / "outbox")
    answered = set()
    for item in outbox.waiting() + outbox.finished():
        reply = message_from_bytes(item.path.read_bytes(), policy=policy.default)
        answered.add(str(reply["In-Reply-To"]))
    assert {f"<m{n}@players.test>" for n in accepted} <= answered
