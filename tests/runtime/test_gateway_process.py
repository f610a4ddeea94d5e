"""The SMTP gateway's own process under `judge serve`: it answers while the inbox worker is stuck,
and a killed one is started again with no accepted mail lost."""
from __future__ import annotations

import asyncio
import errno
import os
import signal
import socket
import smtplib
import sys
import threading
import time
from pathlib import Path

from judge.runtime.daemon import Daemon
from judge.runtime.gateway_process import STORED_EVERY, GatewayProcess, Lines, Settings, refusal
from tests.support.transport import LOOPBACK, run_daemon, start, wait_for

HERE = Path(__file__).parent
JUDGE = "judge@judge.test"


def mail(n: int) -> bytes:
    return (f"From: anne@players.test\r\nTo: {JUDGE}\r\nSubject: orders {n}\r\n"
            f"Message-ID: <m{n}@players.test>\r\n\r\nA PAR - BUR\r\n").encode()


def children(pid: int) -> list[int]:
    return [int(n) for n in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def gone(pid: int) -> bool:
    """The process has ended (a zombie waiting to be reaped counts)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_the_gateway_greets_and_accepts_while_the_worker_holds_the_interpreter(
        make_config, notify, tmp_path):
    config = make_config()
    argv = [sys.executable, str(HERE / "stuck_serve.py"), str(tmp_path / "judge.toml"), "8",
            str(tmp_path)]
    process = start(argv, tmp_path, notify)
    try:
        [gateway] = children(process.pid)
        with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=10) as smtp:
            smtp.sendmail("anne@players.test", [JUDGE], mail(0))
        wait_for(lambda: (tmp_path / "stuck").exists(), timeout=30)
        for n in range(1, 6):
            started = time.monotonic()
            with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=10) as smtp:
                greeted = time.monotonic() - started
                assert smtp.sendmail("anne@players.test", [JUDGE], mail(n)) == {}  # its 250
            assert greeted < 1.0, f"greeted after {greeted:.1f} s"
        assert not (tmp_path / "done").exists(), "the worker's job ended too soon to test this"
    finally:
        process.kill()
        process.communicate(timeout=30)
    wait_for(lambda: gone(gateway), timeout=10)  # the gateway's process ends with the daemon


def test_a_killed_gateway_process_is_started_again_and_no_accepted_mail_is_lost(make_config):
    config = make_config()
    handled: set[bytes] = set()

    def handle(raw: bytes, now):
        handled.add(raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0])
        return []
    daemon = Daemon(config, handle_mail=handle)
    accepted: list[bytes] = []
    stop = threading.Event()

    def client(first: int) -> None:
        n = first
        while not stop.is_set():
            try:
                with smtplib.SMTP(LOOPBACK, config.smtp_in.port, timeout=10) as smtp:
                    smtp.sendmail("anne@players.test", [JUDGE], mail(n))
                accepted.append(f"<m{n}@players.test>".encode())  # it got its 250
            except (OSError, smtplib.SMTPException):
                pass
            n += 2

    def scenario() -> None:
        assert daemon.gateway is not None
        first = daemon.gateway.pid
        assert first is not None
        clients = [threading.Thread(target=client, args=(k,)) for k in (0, 1)]
        for thread in clients:
            thread.start()
        try:
            wait_for(lambda: len(accepted) >= 10, timeout=30)
            os.kill(first, signal.SIGKILL)
            wait_for(lambda: daemon.gateway.pid not in (None, first), timeout=30)
            after = len(accepted)
            wait_for(lambda: len(accepted) >= after + 10, timeout=30)  # the new one accepts
        finally:
            stop.set()
            for thread in clients:
                thread.join(15)
        wait_for(lambda: set(accepted) <= handled, timeout=30)
    assert run_daemon(daemon, scenario) == 0
    assert set(accepted) <= handled


def test_a_gateway_process_that_cannot_be_started_stops_the_daemon_with_1(make_config, caplog,
                                                                          monkeypatch):
    config = make_config()

    async def no_process(*args, **kwargs):
        raise OSError(11, "Resource temporarily unavailable")
    monkeypatch.setattr(asyncio, "create_subprocess_exec", no_process)
    assert asyncio.run(Daemon(config).run()) == 1
    assert "the SMTP gateway process ended before it listened" in caplog.text
    with socket.create_server((LOOPBACK, config.smtp_in.port)):
        pass  # the daemon let its port go


def test_mails_stored_together_are_told_in_one_line_and_each_refusal_in_its_own():
    class Pipe:
        def __init__(self):
            self.written: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.written.append(data)

    async def tell() -> list[bytes]:
        pipe = Pipe()
        lines = Lines(pipe)
        lines.stored()
        lines.stored()
        lines.refused(OSError(errno.ENOSPC, "No space left on device"))
        lines.refused(OSError(errno.ENOSPC, "No space left on device"))
        lines.stored()
        lines.stored()
        await asyncio.sleep(STORED_EVERY * 4)
        return pipe.written
    full = b"refused %d No space left on device\n" % errno.ENOSPC
    assert asyncio.run(tell()) == [b"stored\n", full, full, b"stored\n"]  # in the order they came
    assert refusal(full).errno == errno.ENOSPC


class Stubborn(Settings):
    """A gateway's process that, told to stop, closes its end of the pipe but lives on."""

    def command(self) -> list[str]:
        return [sys.executable, "-c", "import os, signal, time\n"
                "signal.signal(signal.SIGTERM, lambda *_: os.close(1))\n"
                "print('listening', flush=True)\n"
                "while True: time.sleep(1)\n"]


def test_a_gateway_process_that_does_not_stop_is_killed(monkeypatch):
    monkeypatch.setattr("judge.runtime.gateway_process.STOP_SECONDS", 0.5)
    supervisor = GatewayProcess(Stubborn(fds=(), inbox="", address=JUDGE, domain="judge.test",
                                         max_bytes=1), stored=lambda: None,
                                refused=lambda exc: None)

    async def stopped() -> None:
        stop = asyncio.Event()
        running = asyncio.create_task(supervisor.run(stop))
        assert await supervisor.started(running)
        stop.set()
        await asyncio.wait_for(running, 30)
    asyncio.run(stopped())
