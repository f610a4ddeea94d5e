"""The daemon in-process: the inbox worker, the injected callables, the scheduler, a clean stop."""
from __future__ import annotations

import asyncio
import errno
import os
import re
import smtplib
import threading
import time
from datetime import UTC, datetime
from email import message_from_bytes, policy

import pytest
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from judge.commands.session import Settings
from judge.runtime.daemon import MISFIRE_GRACE_SECONDS, Daemon, build_scheduler
from judge.runtime.inbox import MailHandler
from judge.runtime.sender_history import HISTORY_FOLDER, ReplyHistory, history_name
from judge.mailout.envelope import build_message
from judge.runtime.spool import SpoolError
from tests.support.durability import folder_syncs
from tests.support.transport import LOOPBACK, run_daemon, wait_for

NOW = datetime(2026, 3, 1, tzinfo=UTC)
ORDERS = (b"From: anne@players.test\r\nTo: judge@judge.test\r\nSubject: orders\r\n"
          b"Message-ID: <o1@players.test>\r\n\r\nA PAR - BUR\r\n")


def parsed(raw: bytes):
    return message_from_bytes(raw, policy=policy.default)


def spooled(headers: str) -> bytes:
    return (f"Return-Path: <anne@players.test>\r\n{headers}From: anne@players.test\r\n"
            "Subject: x\r\n\r\nbody\r\n").encode()


@pytest.mark.parametrize("raw, reason", [
    (spooled(""), ""),
    (spooled("Auto-Submitted: no\r\n"), ""),
    (b"Return-Path: <>\r\nFrom: anne@players.test\r\n\r\nbounce\r\n", "a bounce"),
    (b"From: MAILER-DAEMON@x.test\r\nSubject: failure\r\n\r\nbounce\r\n", "a bounce"),
    (b"From: anne@players.test\r\nSubject: by IMAP\r\n\r\norders\r\n", ""),
    (spooled("Auto-Submitted: auto-replied\r\n"), "Auto-Submitted: auto-replied"),
    (spooled("Precedence: bulk\r\n"), "Precedence: bulk"),
    (spooled("Precedence: junk\r\n"), "Precedence: junk"),
    (spooled("Precedence: list\r\n"), "Precedence: list"),
    (spooled("List-Id: <players.lists.test>\r\n"), "mailing-list mail"),
    (spooled("X-Loop: judge@judge.test\r\n"), "our own mail (X-Loop)"),
    (b"Return-Path: <judge@judge.test>\r\nFrom: Judge TEST <judge@judge.test>\r\n\r\nx\r\n",
     "from the judge itself"),
], ids=["player", "auto-submitted-no", "bounce", "mailer-daemon", "no-return-path",
        "auto-replied", "bulk", "junk", "list", "list-id", "x-loop", "ourselves"])
def test_the_default_handler_is_the_command_layer_and_never_answers_robots(make_config, raw,
                                                                           reason):
    daemon = Daemon(make_config())
    assert isinstance(daemon.handle_mail, MailHandler)
    replies = daemon.handle_mail(raw, NOW)
    assert len(replies) == (0 if reason else 1), reason


def test_default_reply_threads_and_is_deterministic(make_config):
    handle_mail = Daemon(make_config()).handle_mail
    raw = b"Return-Path: <anne@players.test>\r\n" + ORDERS
    [one] = handle_mail(raw, NOW)
    [two] = handle_mail(raw, NOW.replace(day=2))
    assert one["To"] == "anne@players.test" and one["In-Reply-To"] == "<o1@players.test>"
    assert one["Auto-Submitted"] == "auto-replied" and one["Message-ID"] == two["Message-ID"]
    assert "SIGNON" in one.get_content()  # orders without a sign-on: the command layer says so


def test_tick_runs_at_00_20_40_utc_late_ticks_run_and_missed_ones_coalesce():
    async def check():
        scheduler = build_scheduler(lambda: None)
        job = scheduler.get_job("tick")
        assert isinstance(job.trigger, CronTrigger)
        assert job.coalesce is True and job.max_instances == 1
        assert job.misfire_grace_time == MISFIRE_GRACE_SECONDS >= 600
        at = datetime(2026, 3, 29, 0, 59, 30, tzinfo=UTC)
        times = []
        for _ in range(4):
            at = job.trigger.get_next_fire_time(None, at)
            times.append(at.strftime("%H:%M"))
            at = at.replace(second=1)
        assert times == ["01:00", "01:20", "01:40", "02:00"]
    asyncio.run(check())


def send(port: int, raw: bytes, sender: str = "anne@players.test") -> None:
    with smtplib.SMTP(LOOPBACK, port, timeout=10) as smtp:
        smtp.sendmail(sender, ["judge@judge.test"], raw)


def test_mail_in_reply_out_through_the_relay(make_config, relay):
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port})
    daemon = Daemon(config)

    def scenario():
        send(config.smtp_in.port, ORDERS)
        wait_for(lambda: relay.received)
    assert run_daemon(daemon, scenario) == 0
    [reply] = relay.received
    assert reply.rcpt_tos == ["anne@players.test"]
    assert parsed(reply.raw)["In-Reply-To"] == "<o1@players.test>"
    assert daemon.spools.inbox.waiting() == [] and len(daemon.spools.inbox.finished()) == 1


def test_mail_handler_and_tick_are_injected_and_never_overlap(make_config, relay):
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port})
    busy = threading.Lock()
    seen = {"mail": [], "tick": [], "overlap": 0}

    def exclusive(kind, value):
        if not busy.acquire(blocking=False):
            seen["overlap"] += 1
            return
        try:
            seen[kind].append(value)
            time.sleep(0.05)
        finally:
            busy.release()

    def handle_mail(raw, now):
        exclusive("mail", raw)
        return [build_message(config.judge, to="anne@players.test", subject="handled",
                              body="ok\n", now=now, key=f"handled-{len(seen['mail'])}")]

    def tick(now):
        exclusive("tick", now)
        return [build_message(config.judge, to="master@players.test", subject="tick",
                              body="tick\n", now=now, key="tick-once")]

    daemon = Daemon(config, handle_mail=handle_mail, tick=tick,
                    tick_trigger=IntervalTrigger(seconds=0.1))

    def scenario():
        for n in range(5):
            send(config.smtp_in.port, ORDERS.replace(b"o1@", f"o{n}@".encode()))
        wait_for(lambda: len(seen["mail"]) == 5 and len(seen["tick"]) >= 2)
        wait_for(lambda: len(relay.received) >= 6)
    assert run_daemon(daemon, scenario) == 0
    assert seen["overlap"] == 0
    assert all(raw.startswith(b"Return-Path: <anne@players.test>\r\n") for raw in seen["mail"])
    assert all(isinstance(now, datetime) and now.tzinfo is not None for now in seen["tick"])
    subjects = [str(parsed(r.raw)["Subject"]) for r in relay.received]
    assert subjects.count("handled") == 5 and subjects.count("tick") == 1  # one id, sent once


def test_a_mail_failing_three_times_goes_to_bad_and_the_keeper_is_told(make_config):
    config = make_config()
    calls = []

    def broken(raw, now):
        calls.append(raw)
        raise RuntimeError("the command layer has a bug")
    daemon = Daemon(config, handle_mail=broken)

    def scenario():
        send(config.smtp_in.port, ORDERS)
        wait_for(lambda: daemon.spools.inbox.failed())
    assert run_daemon(daemon, scenario) == 0
    assert len(calls) == 3 and daemon.spools.inbox.waiting() == []
    [alert] = daemon.spools.outbox.waiting()  # no relay configured: it waits in the outbox
    message = parsed(alert.path.read_bytes())
    assert message["To"] == "keeper@judge.test" and "the command layer has a bug" in \
        message.get_content()
    assert message["Subject"] == "Judge TEST: mail not processed"  # templates/mail_not_processed
    folder = re.search(r"^Folder:\s+(\S+)$", message.get_content(), re.MULTILINE)
    assert folder and folder.group(1) == str(daemon.spools.inbox.bad_dir)  # whole, however long


def test_stop_finishes_the_tick_in_hand(make_config):
    config = make_config()
    started, finished = threading.Event(), threading.Event()

    def slow_tick(now):
        started.set()
        time.sleep(0.5)
        finished.set()
        return [build_message(config.judge, to="m@players.test", subject="results", body="r\n",
                              now=now, key="results")]
    daemon = Daemon(config, tick=slow_tick, tick_trigger=IntervalTrigger(seconds=0.05))
    assert run_daemon(daemon, lambda: started.wait(10)) == 0
    assert finished.is_set()
    assert [item.id for item in daemon.spools.outbox.waiting()] == ["results.test@judge.test"]


def test_stop_finishes_the_mail_in_hand(make_config):
    config = make_config()
    started, finished = threading.Event(), threading.Event()

    def slow_mail(raw, now):
        started.set()
        time.sleep(0.5)
        finished.set()
        return []
    daemon = Daemon(config, handle_mail=slow_mail)
    assert run_daemon(daemon, lambda: (send(config.smtp_in.port, ORDERS), started.wait(10))) == 0
    assert finished.is_set() and len(daemon.spools.inbox.finished()) == 1
    assert daemon.spools.inbox.claimed() == []


def test_a_busy_port_makes_serve_fail_with_1(make_config):
    config = make_config()
    import socket
    with socket.socket() as taken:
        taken.bind((LOOPBACK, config.smtp_in.port))
        taken.listen()
        assert asyncio.run(Daemon(config).run()) == 1


def test_prune_forgets_the_reply_history_of_senders_not_answered_lately(make_config):
    config = make_config()
    history = ReplyHistory(config.paths.spool / HISTORY_FOLDER, Settings.from_config(config))
    history.allow("anne@players.test", NOW)
    history.allow("bert@players.test", NOW)
    stale = (NOW - history.window).timestamp() - 1
    os.utime(history.folder / history_name("anne@players.test"), (stale, stale))
    os.utime(history.folder / history_name("bert@players.test"), (stale + 2, stale + 2))
    Daemon(config, clock=lambda: NOW).prune()
    assert [p.name for p in history.folder.iterdir()] == [history_name("bert@players.test")]


def spooled_orders(daemon: Daemon, count: int) -> None:
    for n in range(count):
        daemon.spools.inbox.put(b"Return-Path: <anne@players.test>\r\n" +
                                ORDERS.replace(b"o1@", f"o{n}@".encode()))


def answering(config, seen: list[bytes], broken: int | None = None):
    """A mail handler answering each mail once (the mail number `broken` raises)."""
    def handle_mail(raw, now):
        seen.append(raw)
        if len(seen) == broken:
            raise RuntimeError("the command layer has a bug")
        return [build_message(config.judge, to="anne@players.test", subject=f"reply {len(seen)}",
                              body="ok\n", now=now, key=f"reply-{len(seen)}")]
    return handle_mail


def test_a_batch_of_mails_is_handled_in_order_then_queued_and_done_durably_once(make_config,
                                                                                monkeypatch):
    config = make_config()
    seen: list[bytes] = []
    daemon = Daemon(config, handle_mail=answering(config, seen))
    spooled_orders(daemon, 5)
    daemon.spools.outbox.put_many([])  # the markers' folder
    synced = folder_syncs(monkeypatch, daemon.spools.inbox.root.parent)
    asyncio.run(daemon.process_batch(daemon.spools.inbox.waiting()))
    assert [re.search(rb"<(o\d)@", raw).group(1) for raw in seen] == [b"o0", b"o1", b"o2", b"o3", b"o4"]
    assert [str(parsed(item.path.read_bytes())["Subject"]) for item in daemon.spools.outbox.waiting()] \
        == [f"reply {n}" for n in range(1, 6)]
    assert daemon.spools.inbox.waiting() == daemon.spools.inbox.claimed() == []
    assert len(daemon.spools.inbox.finished()) == 5
    assert synced == [".ids", "outbox", "done", "inbox"]


def test_a_mail_failing_in_a_batch_is_tried_again_and_the_others_are_done(make_config):
    config = make_config()
    seen: list[bytes] = []
    daemon = Daemon(config, handle_mail=answering(config, seen, broken=2))
    spooled_orders(daemon, 3)
    asyncio.run(daemon.process_batch(daemon.spools.inbox.waiting()))
    [again] = daemon.spools.inbox.waiting()
    assert again.failures == 1 and b"<o1@" in again.path.read_bytes()
    assert len(daemon.spools.inbox.finished()) == 2 and len(daemon.spools.outbox.waiting()) == 2


@pytest.mark.parametrize("error, failures", [
    (OSError(errno.ENOSPC, "No space left on device"), 0),  # the disk's: not counted, a rest
    (SpoolError("not a usable spool id"), 1),  # a bug: counted towards bad/
])
def test_a_batch_whose_mails_cannot_be_queued_is_tried_again(make_config, monkeypatch, error,
                                                           failures):
    config = make_config()
    seen: list[bytes] = []
    daemon = Daemon(config, handle_mail=answering(config, seen), monotonic=lambda: 100.0)
    spooled_orders(daemon, 3)

    def cannot(entries):
        raise error
    monkeypatch.setattr(daemon.spools.outbox, "put_many", cannot)
    asyncio.run(daemon.process_batch(daemon.spools.inbox.waiting()))
    assert [item.failures for item in daemon.spools.inbox.waiting()] == [failures] * 3
    assert daemon.spools.inbox.finished() == [] and daemon.spools.inbox.claimed() == []
    assert daemon.resting() == (failures == 0)


def test_the_inbox_is_listed_claimed_and_read_off_the_gateways_loop(make_config, monkeypatch):
    config = make_config()
    seen: list[bytes] = []
    daemon = Daemon(config, handle_mail=answering(config, seen))
    spooled_orders(daemon, 2)
    threads = []
    for name in ("waiting", "claim", "read"):
        real = getattr(daemon.spools.inbox, name)

        def recorded(*args, real=real, name=name):
            threads.append((name, threading.current_thread() is threading.main_thread()))
            return real(*args)
        monkeypatch.setattr(daemon.spools.inbox, name, recorded)

    async def work():
        task = asyncio.create_task(daemon.inbox_worker())
        await asyncio.to_thread(wait_for, lambda: len(seen) == 2)
        daemon.stop.set()
        await task
    asyncio.run(work())
    assert {name for name, _ in threads} == {"waiting", "claim", "read"}
    assert not any(on_main for _, on_main in threads)


def keepers_alert(daemon: Daemon) -> str:
    [alert] = daemon.spools.outbox.waiting()
    return parsed(alert.path.read_bytes()).get_content()


def test_the_alert_of_a_mail_put_aside_says_why_after_a_restart_too(make_config):
    config = make_config()
    inbox = Daemon(config).spools.inbox
    item = inbox.put(ORDERS)
    for _ in range(inbox.max_failures):
        item = inbox.retry(inbox.claim(item), "RuntimeError('the command layer has a bug')")
    assert item.path.parent == inbox.bad_dir
    restarted = Daemon(config, clock=lambda: NOW)
    assert restarted.catch_up()
    assert "RuntimeError('the command layer has a bug')" in keepers_alert(restarted)


def test_the_alert_of_a_mail_that_stopped_the_judge_three_times_says_so(make_config):
    config = make_config()
    inbox = Daemon(config).spools.inbox
    inbox.put(ORDERS)
    for _ in range(inbox.max_failures):
        inbox.claim(inbox.waiting()[0])
        inbox.recover()  # the judge started again with the mail claimed
    restarted = Daemon(config, clock=lambda: NOW)
    assert restarted.catch_up()
    assert "the judge stopped while it was being processed" in \
        " ".join(keepers_alert(restarted).split())
