"""A picture that is long to draw never stalls the judge: `judge serve` greets every SMTP client
in under a second while the outbox sender has a large picture drawn (in a child process), and the
mail goes without the picture once its time is up."""
from __future__ import annotations

import signal
import smtplib
import time
from datetime import UTC, datetime

from judge.drawing.pictures import Picture
from judge.mailout.envelope import PictureLater, build_message, part_for_later
from judge.runtime.spool import open_spools, outbox_entries, queue_mails
from tests.runtime.test_picture_process import blurred
from tests.support.transport import LOOPBACK, judge_serve, wait_for

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
DRAWING_SECONDS = 6  # the picture takes far longer: the child is stopped after this


def greeting_seconds(port: int) -> float:
    started = time.monotonic()
    with smtplib.SMTP(LOOPBACK, port, timeout=30) as smtp:  # returns once greeted
        took = time.monotonic() - started
        smtp.noop()
    return took


def test_the_gateway_greets_within_a_second_while_a_large_picture_is_drawn(make_config, relay,
                                                                          notify, tmp_path):
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port},
                         limits={"picture_seconds": DRAWING_SECONDS})
    message = build_message(config.judge, to="anne@players.test", subject="results",
                            body="the results\n", now=NOW, key="results", made_as=PictureLater)
    assert isinstance(message, PictureLater)
    message.later = bytes(part_for_later(Picture(blurred(200), "big-S1901M"), "png"))
    outbox = open_spools(config).outbox
    queue_mails(outbox, outbox_entries([message]))
    process = judge_serve(tmp_path, notify)
    try:
        wait_for(outbox.claimed, timeout=30)  # being sent: its picture is being drawn
        greetings = []
        while outbox.claimed() and len(greetings) < 8:
            greetings.append(greeting_seconds(config.smtp_in.port))
            time.sleep(0.2)
        assert len(greetings) >= 3, "the picture was drawn too fast to test anything"
        [sent] = wait_for(lambda: relay.received, timeout=60)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    assert max(greetings) < 1, greetings
    assert b"the results" in sent.raw and b"image/png" not in sent.raw  # sent without it
