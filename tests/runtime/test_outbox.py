"""The outbox sender against a real aiosmtpd relay on loopback: delivered once, never lost."""
from __future__ import annotations

import asyncio
import errno
import smtplib
import threading
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest

from judge.runtime.config import JudgeSection, SmtpOutSection
from judge.mailout.envelope import ENVELOPE_TO, build_message
from judge.runtime.outbox import (
    Backoff,
    OutboxSender,
    Outcome,
    outbox_lines,
)
from judge.runtime.spool import Spool, outbox_id
from tests.support.transport import LOOPBACK, Relay, free_port, wait_for

JUDGE = JudgeSection(id="TEST", address="judge@judge.test", keeper="keeper@judge.test")
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def mail(to: str, key: str):
    return build_message(JUDGE, to=to, subject=f"mail {key}", body=f"body of {key}\n", now=NOW,
                         key=key)


def queue(outbox: Spool, *mails) -> None:
    for message in mails:
        outbox.put(bytes(message), outbox_id(message))


@pytest.fixture
def outbox(tmp_path):
    return Spool(tmp_path / "outbox", bad="failed").create()


def sender_for(outbox: Spool, port: int, **options) -> OutboxSender:
    options = {"backoff_base": 0.05, "backoff_cap": 0.2, "timeout": 5, **options}
    return OutboxSender(outbox, SmtpOutSection(host=LOOPBACK, port=port), JUDGE, **options)


def subjects(relay: Relay) -> list[str]:
    return [str(message_from_bytes(r.raw, policy=policy.default)["Subject"])
            for r in relay.received]


def test_waiting_mail_is_delivered_and_leaves_the_outbox(outbox, relay):
    queue(outbox, mail("a@players.test", "one"), mail("b@players.test", "two"))
    assert sender_for(outbox, relay.port).drain(0.0) == float("inf")
    assert subjects(relay) == ["mail one", "mail two"]
    assert [r.rcpt_tos for r in relay.received] == [["a@players.test"], ["b@players.test"]]
    assert relay.received[0].mail_from == "judge@judge.test"
    assert outbox.waiting() == [] and len(outbox.finished()) == 2


def test_relay_down_keeps_everything_and_backs_off(outbox):
    queue(outbox, mail("a@players.test", "one"))
    sender = sender_for(outbox, free_port(), backoff_base=1, backoff_cap=8)
    assert [sender.drain(t) for t in (0.0, 1.0, 3.0)] == [1, 2, 4]
    assert sender.drain(3.5) == 3.5  # still backing off: not even tried
    assert len(outbox.waiting()) == 1 and outbox.claimed() == []


def test_relay_down_for_a_while_then_back_nothing_lost_nothing_twice(outbox):
    port = free_port()
    relay = Relay(port)
    keys = [f"m{n}" for n in range(10)]
    queue(outbox, *(mail(f"p{n}@players.test", key) for n, key in enumerate(keys)))
    sender = sender_for(outbox, port)

    async def scenario():
        stop, wake = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(sender.run(stop, wake, poll=0.05))
        await asyncio.sleep(0.5)  # several failed attempts
        assert len(outbox.waiting()) == 10
        await asyncio.to_thread(relay.start)
        queue(outbox, mail("late@players.test", "late"))
        wake.set()
        await asyncio.to_thread(wait_for, lambda: len(relay.received) == 11)
        await asyncio.sleep(0.3)  # would anything be sent again?
        stop.set()
        await task

    try:
        asyncio.run(scenario())
    finally:
        relay.stop()
    assert sorted(subjects(relay)) == sorted(f"mail {k}" for k in keys + ["late"])
    assert outbox.waiting() == [] and outbox.claimed() == [] and len(outbox.finished()) == 11


def test_relay_stopping_mid_batch_loses_nothing(outbox, relay):
    queue(outbox, *(mail("a@players.test", f"m{n}") for n in range(5)))
    sender = sender_for(outbox, relay.port)
    original = sender.submit
    calls = []

    def submit_then_die(smtp, raw):
        calls.append(1)
        if len(calls) == 3:
            smtp.close()  # the connection breaks under the third mail
        return original(smtp, raw)
    sender.submit = submit_then_die
    sender.drain(0.0)
    assert len(relay.received) == 2 and len(outbox.waiting()) == 3 and outbox.claimed() == []
    sender.submit = original
    sender.drain(10.0)
    assert sorted(subjects(relay)) == [f"mail m{n}" for n in range(5)]


def test_permanent_failure_goes_to_failed_and_the_keeper_is_told(outbox, relay):
    relay.handler.refuse["gone@players.test"] = "550 5.1.1 no such user"
    queue(outbox, mail("gone@players.test", "lost"), mail("a@players.test", "fine"))
    sender = sender_for(outbox, relay.port)
    sender.drain(0.0)
    [failed] = outbox.failed()
    assert failed.id == "lost.test@judge.test"
    sender.drain(1.0)  # the alert was queued meanwhile; the next drain sends it
    assert subjects(relay) == ["mail fine", "Judge TEST: mail not delivered"]
    alert = message_from_bytes(relay.received[1].raw, policy=policy.default)
    assert relay.received[1].rcpt_tos == ["keeper@judge.test"]
    assert "gone@players.test" in alert.get_content() and "550 5.1.1" in alert.get_content()
    assert outbox.waiting() == []


def test_an_undeliverable_alert_is_not_alerted_about(outbox, relay):
    relay.handler.refuse["gone@players.test"] = "550 5.1.1 no such user"
    relay.handler.refuse["keeper@judge.test"] = "550 5.1.1 no such user"
    queue(outbox, mail("gone@players.test", "lost"))
    sender = sender_for(outbox, relay.port)
    sender.drain(0.0)
    sender.drain(1.0)
    assert len(outbox.failed()) == 2 and outbox.waiting() == [] and relay.received == []


def full_outbox(monkeypatch, outbox: Spool) -> None:
    """The outbox's disk full: nothing more can be put in it."""
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(outbox, "put", full)
    monkeypatch.setattr(outbox, "put_many", full)


def test_an_alert_the_full_disk_refuses_is_sent_once_there_is_room(outbox, relay, monkeypatch):
    relay.handler.refuse["gone@players.test"] = "550 5.1.1 no such user"
    queue(outbox, mail("gone@players.test", "lost"))
    sender = sender_for(outbox, relay.port)
    full_outbox(monkeypatch, outbox)
    sender.drain(0.0)  # the mail fails for good; its alert cannot be written
    sender.drain(1.0)
    assert len(outbox.failed()) == 1 and outbox.waiting() == [] and relay.received == []
    monkeypatch.undo()
    sender.drain(2.0)
    sender.drain(3.0)
    sender_for(outbox, relay.port).drain(4.0)  # a restart: told already, not again
    assert subjects(relay) == ["Judge TEST: mail not delivered"]
    assert "550 5.1.1" in message_from_bytes(relay.received[0].raw,
                                             policy=policy.default).get_content()


def test_the_keeper_is_told_after_a_restart_of_a_mail_the_relay_refused_before(outbox, relay,
                                                                               monkeypatch):
    relay.handler.refuse["gone@players.test"] = "550 5.1.1 no such user"
    queue(outbox, mail("gone@players.test", "lost"))
    full_outbox(monkeypatch, outbox)
    sender_for(outbox, relay.port).drain(0.0)
    monkeypatch.undo()
    restarted = sender_for(outbox, relay.port)  # the relay's words were kept beside the mail
    restarted.drain(1.0)
    restarted.drain(2.0)
    assert subjects(relay) == ["Judge TEST: mail not delivered"]
    alert = message_from_bytes(relay.received[0].raw, policy=policy.default).get_content()
    assert "refused a mail for good" in alert and "550 5.1.1 no such user" in alert


def test_temporary_refusal_is_retried_with_backoff_then_delivered(outbox, relay):
    relay.handler.defer["slow@players.test"] = 2
    queue(outbox, mail("slow@players.test", "slow"))
    sender = sender_for(outbox, relay.port, backoff_base=1, backoff_cap=10)
    assert sender.drain(0.0) == 1  # deferred once: next try in 1 s
    assert sender.drain(0.5) == 0.5  # not due yet, not tried
    assert sender.drain(1.0) == 2  # deferred again
    assert sender.drain(3.0) == float("inf")
    assert subjects(relay) == ["mail slow"] and outbox.waiting() == []


def test_temporary_refusal_for_too_long_becomes_a_failure(outbox, relay):
    relay.handler.defer["slow@players.test"] = 100
    queue(outbox, mail("slow@players.test", "slow"))
    later = datetime.now(UTC) + timedelta(days=6)
    sender = sender_for(outbox, relay.port, clock=lambda: later)
    sender.drain(0.0)
    assert [item.id for item in outbox.failed()] == ["slow.test@judge.test"]
    sender.drain(1.0)  # the keeper is told the true reason: deferred, never refused
    alert = message_from_bytes(relay.received[0].raw, policy=policy.default).get_content()
    assert "deferred a mail again and again" in alert and "refused" not in alert
    assert "451 4.3.0 try again later" in alert


def test_a_mail_left_claimed_by_a_crash_is_put_back_with_no_failure_counted(tmp_path, relay):
    from judge.runtime.config import Config, PathsSection
    from judge.runtime.spool import open_spools
    config = Config(paths=PathsSection(spool=str(tmp_path / "spool")))
    outbox = open_spools(config).outbox
    queue(outbox, mail("a@players.test", "a"))
    for _ in range(5):  # claimed, then the judge killed, five times
        outbox.claim(outbox.waiting()[0])
        open_spools(config).outbox.recover()
    assert [item.failures for item in outbox.waiting()] == [0] and outbox.failed() == []
    sender_for(outbox, relay.port).drain(0.0)
    assert subjects(relay) == ["mail a"]


def test_the_same_mail_queued_twice_is_sent_once(outbox, relay):
    queue(outbox, mail("a@players.test", "once"), mail("a@players.test", "once"))
    sender = sender_for(outbox, relay.port)
    sender.drain(0.0)
    queue(outbox, mail("a@players.test", "once"))  # a retried step, after delivery
    sender.drain(1.0)
    assert subjects(relay) == ["mail once"]


def test_two_senders_never_send_one_mail_twice(outbox, relay):
    queue(outbox, *(mail("a@players.test", f"m{n}") for n in range(30)))
    senders = [sender_for(outbox, relay.port) for _ in range(2)]
    threads = [threading.Thread(target=s.drain, args=(0.0,)) for s in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(subjects(relay)) == sorted(f"mail m{n}" for n in range(30))


def test_outbox_lines_list_waiting_and_failed_mail(outbox):
    queue(outbox, mail("a@players.test", "one"), mail("b@players.test", "two"))
    outbox.fail(outbox.claim(outbox.waiting()[1]))
    lines = outbox_lines(outbox)
    assert "waiting  one.test@judge.test  to a@players.test: mail one" in lines[0]
    assert "FAILED   two.test@judge.test  to b@players.test: mail two" in lines[1]
    assert lines[2].startswith("1 waiting, 1 failed")


def test_backoff_doubles_up_to_its_cap():
    backoff = Backoff(base=30, cap=100)
    assert [backoff.next_delay() for _ in range(4)] == [30, 60, 100, 100]
    backoff.reset()
    assert backoff.next_delay() == 30


def test_outcomes_are_named():
    assert {o.value for o in Outcome} == {"sent", "retry", "failed"}


class Recording(smtplib.SMTP):
    """An SMTP client that records what it would hand the relay (no connection)."""

    def __init__(self):
        super().__init__()
        self.sent: list[tuple[str, list[str], bytes]] = []

    def ehlo_or_helo_if_needed(self) -> None:
        pass

    def sendmail(self, from_addr, to_addrs, msg, mail_options=(), rcpt_options=()):
        self.sent.append((from_addr, list(to_addrs), msg if isinstance(msg, bytes) else msg.encode()))
        return {}


JUDGE_MAILS = {
    "plain": build_message(JUDGE, to="a@players.test", subject="Re: orders", body="A PAR - BUR\n" * 30,
                           now=NOW, key="plain", in_reply_to="<x@players.test>"),
    "accented": build_message(JUDGE, to="zoe@players.test", subject="Résultats de l'été " * 6,
                              body="Les ordres de la France : F BRE - MAO.\n" * 10, now=NOW, key="fr"),
    "long lines": build_message(JUDGE, to="b@players.test", subject="press", now=NOW, key="long",
                                body=".a line starting with a dot\n" + "x" * 300 + "\n"),
}


@pytest.mark.parametrize("name", sorted(JUDGE_MAILS))
def test_a_stored_mail_goes_to_its_recorded_recipient_as_send_message_would_send_it(name, outbox):
    message = JUDGE_MAILS[name]
    stored, parsed = Recording(), Recording()
    sender = sender_for(outbox, 25)
    assert sender.submit(stored, bytes(message)) == (Outcome.SENT, "")
    without_record = message_from_bytes(bytes(message), policy=policy.SMTP)
    del without_record[ENVELOPE_TO]
    parsed.send_message(without_record, from_addr=JUDGE.address)
    assert stored.sent == parsed.sent
    assert stored.sent[0][1] == [message[ENVELOPE_TO]] == [message["To"]]


@pytest.mark.parametrize("extra", ["Bcc: c@players.test", "Resent-To: c@players.test",
                                   "Cc: Zoé <zoé@players.test>", "To: c@players.test",
                                   "cc: c@players.test,\n d@players.test"])
def test_a_recipient_in_the_stored_headers_is_never_sent_to(extra, outbox):
    raw = f"{extra}\n".encode() + bytes(JUDGE_MAILS["plain"])
    stored = Recording()
    assert sender_for(outbox, 25).submit(stored, raw)[0] is Outcome.SENT
    [(_, recipients, sent)] = stored.sent
    assert recipients == ["a@players.test"]
    assert b"Bcc:" not in sent and b"Resent-" not in sent and b"d@players" not in sent
    assert ENVELOPE_TO.encode() not in sent


@pytest.mark.parametrize("extra, record_kept", [
    ("X-Judge-Envelope-To: c@players.test\n", True),  # two records
    ("X-Judge-Envelope-To: zoé@players.test\n", False),
    ("To: c@players.test\n", False),  # no record, two To
    ("To: Zoé <zoé@players.test>\n", False)])
def test_a_mail_without_one_plain_recorded_recipient_fails_unsent(extra, record_kept, outbox):
    raw = bytes(JUDGE_MAILS["plain"])
    raw = extra.encode() + (raw if record_kept else without_record(raw))
    if extra.startswith("To:"):
        raw = raw.replace(b"To: a@players.test\n", b"", 1) if "Zo" in extra else raw
    stored = Recording()
    assert sender_for(outbox, 25).submit(stored, raw)[0] is Outcome.FAILED
    assert stored.sent == []


def test_a_mail_queued_before_recipients_were_recorded_goes_to_its_one_to(outbox):
    raw = without_record(bytes(JUDGE_MAILS["plain"]))
    stored = Recording()
    assert sender_for(outbox, 25).submit(stored, raw)[0] is Outcome.SENT
    assert [recipients for _, recipients, _ in stored.sent] == [["a@players.test"]]


def without_record(raw: bytes) -> bytes:
    return b"".join(line for line in raw.splitlines(keepends=True)
                    if not line.startswith(ENVELOPE_TO.encode()))
