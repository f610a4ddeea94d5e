"""A sender whose mail cost more than his share of CPU in the last hour waits behind everyone
else's mail; his mail is still all processed, and the inbox runner measures what each mail cost."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from judge.mailin.message import parse, sender_of
from judge.mailout.envelope import build_message
from judge.runtime.daemon import Daemon
from judge.runtime.sender_history import cpu_seconds, cpu_use, record_cpu

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HOG, BEA = "hog@players.test", "bea@players.test"


def mail_from(sender: str, n: int) -> bytes:
    return (f"Return-Path: <{sender}>\r\nFrom: {sender}\r\nTo: judge@judge.test\r\n"
            f"Subject: m{n}\r\nMessage-ID: <m{n}@players.test>\r\n\r\nLIST\r\n").encode()


def judge_with(make_config, costs: dict[str, float]):
    """A daemon whose handler notes the order it is given mail in, each mail costing its
    sender `costs[sender]` seconds of CPU."""
    config = make_config(limits={"cpu_seconds_per_sender_per_hour": 60})
    taken: list[str] = []
    use = cpu_use(config.paths.spool)

    def handle_mail(raw, now):
        sender = sender_of(parse(raw))
        taken.append(f"{sender.split('@')[0]}{parse(raw)['Subject'][1:]}")
        record_cpu(use, sender, now, costs.get(sender, 0.01))
        return [build_message(config.judge, to=sender, subject="ok", body="ok\n", now=now,
                              key=f"reply-{len(taken)}")]
    return Daemon(config, handle_mail=handle_mail, clock=lambda: NOW), taken, use


def test_a_sender_over_his_share_waits_behind_mail_that_came_later(make_config):
    daemon, taken, use = judge_with(make_config, {})
    record_cpu(use, HOG, NOW - timedelta(minutes=10), 61)  # his earlier mail
    daemon.spools.inbox.put(mail_from(HOG, 1))
    daemon.spools.inbox.put(mail_from(BEA, 2))
    asyncio.run(daemon.inbox_pass())
    assert taken == ["bea2", "hog1"]  # his mail too: nothing is lost
    assert daemon.spools.inbox.waiting() == [] and len(daemon.spools.inbox.finished()) == 2


def test_a_sender_going_over_his_share_in_a_pass_lets_the_others_go_first(make_config):
    daemon, taken, _ = judge_with(make_config, {HOG: 70})
    for n, sender in enumerate([HOG, HOG, BEA, HOG, BEA], start=1):
        daemon.spools.inbox.put(mail_from(sender, n))
    asyncio.run(daemon.inbox_pass())
    assert taken == ["hog1", "bea3", "bea5", "hog2", "hog4"]


def test_a_share_spent_an_hour_ago_is_whole_again(make_config):
    daemon, taken, use = judge_with(make_config, {})
    record_cpu(use, HOG, NOW - timedelta(minutes=61), 600)
    daemon.spools.inbox.put(mail_from(HOG, 1))
    daemon.spools.inbox.put(mail_from(BEA, 2))
    asyncio.run(daemon.inbox_pass())
    assert taken == ["hog1", "bea2"]


def test_the_inbox_runner_counts_the_cpu_a_mail_cost_against_its_sender(make_config):
    config = make_config()
    daemon = Daemon(config, clock=lambda: NOW)
    daemon.handle_mail(mail_from(BEA, 1), NOW)
    [(at, milliseconds)] = cpu_use(config.paths.spool).read(BEA, NOW)
    assert at == NOW and int(milliseconds) > 0
    assert cpu_seconds(cpu_use(config.paths.spool), HOG, NOW) == 0


def test_a_mail_that_cost_no_millisecond_adds_nothing_to_its_senders_file(make_config):
    use = cpu_use(make_config().paths.spool)
    record_cpu(use, HOG, NOW - timedelta(minutes=5), 0.002)
    for _ in range(3):
        record_cpu(use, HOG, NOW, 0.0004)
    assert [int(ms) for _, ms in use.read(HOG, NOW)] == [2]
    assert cpu_seconds(use, HOG, NOW) == 0.002
