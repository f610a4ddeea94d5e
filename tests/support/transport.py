"""The mail transport around a judge under test: free loopback ports, a real aiosmtpd relay that
records what it accepts (the judge's outgoing server), judge.toml text, and `judge serve` run as a
process with a systemd notification socket. The fixtures over these are in tests/conftest.py."""
from __future__ import annotations

import asyncio
import fcntl
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiosmtpd.controller import Controller

from judge.runtime.cycle import LOCK_FILE

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    """A port nobody listens on now (the threaded Controller cannot bind port 0)."""
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def wait_for(condition, timeout: float = 10.0, step: float = 0.02):
    """Poll `condition` until it is truthy; its value, or AssertionError after `timeout`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {condition}")


# -- the relay ------------------------------------------------------------------------------------
@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes


@dataclass
class RelayHandler:
    """Records what it accepts; refuses `refuse[address]` for good (5xx) and defers
    `defer[address]` times (4xx) before it accepts that address."""

    received: list[Received] = field(default_factory=list)
    refuse: dict[str, str] = field(default_factory=dict)
    defer: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        if self.defer.get(address, 0) > 0:
            self.defer[address] -= 1
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos),
                                          envelope.original_content))
        return "250 OK: delivered"


class Relay:
    """The judge's outgoing server: an aiosmtpd Controller on loopback that can go down and up."""

    def __init__(self, port: int):
        self.port = port
        self.handler = RelayHandler()
        self.controller: Controller | None = None

    def start(self) -> Relay:
        self.controller = Controller(self.handler, hostname=LOOPBACK, port=self.port,
                                     enable_SMTPUTF8=True, ready_timeout=10)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    @property
    def received(self) -> list[Received]:
        with self.handler.lock:
            return list(self.handler.received)


# -- the configuration ----------------------------------------------------------------------------
def cycle_running(games: Path) -> bool:
    """Whether a cycle holds the cycle lock (taken and given back at once when free)."""
    fd = os.open(games / LOCK_FILE, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def config_text(tmp_path: Path, **sections: dict) -> str:
    """judge.toml text: loopback defaults in tmp_path, overridden per section."""
    base = {
        "judge": {"id": "TEST", "address": "judge@judge.test", "keeper": "keeper@judge.test"},
        "paths": {"games": str(tmp_path / "games"), "maps": str(tmp_path / "maps"),
                  "spool": str(tmp_path / "spool")},
        "smtp_in": {"host": LOOPBACK, "port": free_port(), "max_bytes": 64 * 1024},
        "web": {"host": LOOPBACK, "port": free_port()},
    }
    for name, values in sections.items():
        base.setdefault(name, {}).update(values)
    lines = []
    for name, values in base.items():
        lines.append(f"[{name}]")
        for key, value in values.items():
            rendered = str(value).lower() if isinstance(value, bool) else (
                value if isinstance(value, int) else f'"{value}"')
            lines.append(f"{key} = {rendered}")
    return "\n".join(lines) + "\n"


# -- `judge serve` as a process -------------------------------------------------------------------
class Notifications:
    """The systemd side of sd_notify: an abstract datagram socket collecting messages."""

    def __init__(self):
        self.name = f"@judge-test-{secrets.token_hex(6)}"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind("\0" + self.name[1:])
        self.sock.settimeout(0.1)
        self.messages: list[str] = []

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(text in m for m in self.messages):
                return
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except TimeoutError:
                pass
        raise AssertionError(f"no {text!r} from the daemon; got {self.messages}")

    def close(self) -> None:
        self.sock.close()


def start(argv: list[str], cwd: Path, notify: Notifications) -> subprocess.Popen:
    """Run `argv` as the daemon and wait for its READY=1; its output comes through a pipe."""
    env = {**os.environ, "NOTIFY_SOCKET": notify.name, "PYTHONUNBUFFERED": "1"}
    env.pop("JUDGE_CONFIG", None)
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    try:
        notify.wait_for("READY=1")
    except AssertionError:
        process.kill()
        raise AssertionError(process.communicate()[0].decode()) from None
    return process


def judge_serve(tmp_path: Path, notify: Notifications) -> subprocess.Popen:
    """`judge serve --config tmp_path/judge.toml`, started in tmp_path."""
    return start([sys.executable, "-m", "judge.cli", "serve", "--config",
                  str(tmp_path / "judge.toml")], tmp_path, notify)


def run_daemon(daemon, scenario) -> int:
    """Run the daemon (`judge.runtime.daemon.Daemon`) until its gateway listens and, in a thread,
    `scenario()`; then stop it as SIGTERM would. Its exit status."""
    async def main():
        task = asyncio.create_task(daemon.run())
        await asyncio.to_thread(wait_for, lambda: daemon.gateway and daemon.gateway.ready.is_set())
        try:
            await asyncio.to_thread(scenario)
        finally:
            daemon.stop.set()
        return await task
    return asyncio.run(main())
