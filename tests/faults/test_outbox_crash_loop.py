"""`judge serve` killed (SIGKILL) again and again while it sends a mail to a relay that stalls: a
crash never counts against the mail. Once the relay answers, every mail is delivered exactly once,
none is moved to `failed/`, and the judgekeeper is told of nothing."""
from __future__ import annotations

import asyncio
import signal
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from judge.mailout.envelope import build_message
from judge.runtime.spool import open_spools, outbox_entries, queue_mails
from tests.support.transport import LOOPBACK, Relay, RelayHandler, judge_serve, wait_for

pytestmark = pytest.mark.faults

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
KILLS = 4  # more than the MAX_FAILURES that move a mail to failed/: a crash while sending is not one


@dataclass
class StallingHandler(RelayHandler):
    """While `stalled` is set, a mail's DATA is never answered (nor kept): the relay hangs."""

    stalled: threading.Event = field(default_factory=threading.Event)
    hung: int = 0  # DATA commands left hanging

    async def handle_DATA(self, server, session, envelope):
        if self.stalled.is_set():
            with self.lock:
                self.hung += 1
            while self.stalled.is_set():
                await asyncio.sleep(0.05)
            return "421 4.3.0 closing"
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def stalling_relay():
    from tests.support.transport import free_port
    relay = Relay(free_port())
    relay.handler = StallingHandler()
    relay.start()
    yield relay
    relay.handler.stalled.clear()
    relay.stop()


def test_sigkill_while_a_mail_is_sent_to_a_stalled_relay_neither_loses_nor_doubles_it(
        make_config, stalling_relay, notify, tmp_path):
    relay = stalling_relay
    handler = relay.handler
    assert isinstance(handler, StallingHandler)
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port})
    outbox = open_spools(config).outbox
    mails = [build_message(config.judge, to=f"p{n}@players.test", subject=f"results {n}",
                           body=f"results of power {n}\n", now=NOW, key=f"results-{n}")
             for n in (1, 2)]
    queue_mails(outbox, outbox_entries(mails))
    handler.stalled.set()
    for kill in range(KILLS):
        process = judge_serve(tmp_path, notify)
        try:
            wait_for(lambda: handler.hung > kill, timeout=60)  # noqa: B023 (read at once)
            assert outbox.claimed(), "the mail is being sent"
        finally:
            process.kill()
            process.communicate(timeout=30)
        notify.messages.clear()
    assert outbox.failed() == []
    handler.stalled.clear()
    process = judge_serve(tmp_path, notify)
    try:
        wait_for(lambda: len(outbox.finished()) == 2, timeout=60)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert sorted(r.rcpt_tos[0] for r in relay.received) == ["p1@players.test", "p2@players.test"]
    assert outbox.failed() == [] and outbox.waiting() == [] and outbox.claimed() == []
