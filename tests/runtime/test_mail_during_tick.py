"""A tick that reads every game (the first after an upgrade, or after an outage) lets the mail
through between two games, on its own turn under the work lock: the mail does not wait for the
end of the read."""
from __future__ import annotations

import fcntl
import os
import smtplib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from apscheduler.triggers.interval import IntervalTrigger

from judge.runtime import daemon as daemon_module
from judge.runtime.commit import new_game
from judge.runtime.cycle import STATE_FILE
from judge.runtime.daemon import Daemon
from judge.runtime.store import LOCK, GameStore
from tests.support.transport import LOOPBACK, cycle_running, run_daemon, wait_for

GAMES = 30
HELP = (b"From: anne@players.test\r\nTo: judge@judge.test\r\nSubject: help\r\n"
        b"Message-ID: <help1@players.test>\r\n\r\nHELP\r\n")


@contextmanager
def flocked(path: Path) -> Iterator[None]:
    """Hold `path`'s flock as another process would: whoever else locks it waits."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def test_mail_is_answered_while_the_first_tick_reads_every_game(make_config, relay,
                                                                  monkeypatch):
    monkeypatch.setattr(daemon_module, "MAIL_DURING_TICK_SECONDS", 0.0)
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port})
    games = Path(config.paths.games)
    store = GameStore(games)
    names = [f"game{n:02d}" for n in range(GAMES)]
    for name in names:
        new_game(store, name, "standard", "gm@players.test", "pw")
    daemon = Daemon(config, tick_trigger=IntervalTrigger(seconds=0.2))
    # no idle index yet: the first tick opens every game, in name order; two of them are held
    # by "another process", the last so that the read cannot end while the test looks
    middle, last = games / names[GAMES // 2] / LOCK, games / names[-1] / LOCK

    def scenario():
        with flocked(last):
            with flocked(middle):
                wait_for(lambda: cycle_running(games))  # past the inbox pass before the tick
                with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=10) as smtp:
                    smtp.sendmail("anne@players.test", ["judge@judge.test"], HELP)
            wait_for(lambda: relay.received, timeout=30)
            assert cycle_running(games) and not (games / STATE_FILE).exists()
        wait_for(lambda: (games / STATE_FILE).exists(), timeout=30)

    assert run_daemon(daemon, scenario) == 0
    [reply] = relay.received
    assert reply.rcpt_tos == ["anne@players.test"]
