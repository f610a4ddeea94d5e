"""The IMAP poller against a real IMAP server: pymap (pure Python, in-memory), started by the test.

.ci/run installs pymap; without it these tests are skipped, saying so.
"""
from __future__ import annotations

import asyncio
import importlib.util
import socket
import subprocess
import sys

import pytest
from imapclient import IMAPClient
from imapclient.exceptions import LoginError

from judge.runtime.config import ImapSection, load_config
from judge.runtime.daemon import Daemon
from judge.runtime.imap import ImapPoller, is_loopback
from judge.runtime.spool import Spool
from tests.support.transport import LOOPBACK, free_port, wait_for

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pymap") is None,
                                reason="needs the pymap IMAP test server (pip install pymap; "
                                       ".ci/run installs it)")

USER, PASSWORD = "judge", "imap-secret"
SERVER = "from pymap.main import main; main()"


class ImapServer:
    def __init__(self, port: int):
        self.port = port
        self.process: subprocess.Popen | None = None

    def start(self) -> ImapServer:
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, "--host", LOOPBACK, "--port", str(self.port),
             "--no-service", "admin", "dict", "--demo-user", USER, "--demo-password", PASSWORD],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.listening, timeout=30, step=0.05)
        return self

    def listening(self) -> bool:
        with socket.socket() as sock:
            return sock.connect_ex((LOOPBACK, self.port)) == 0

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def client(self) -> IMAPClient:
        client = IMAPClient(LOOPBACK, port=self.port, ssl=False, timeout=10)
        client.login(USER, PASSWORD)
        return client

    def deliver(self, *subjects: str) -> None:
        with self.client() as client:
            for subject in subjects:
                client.append("INBOX", f"From: anne@players.test\r\nTo: judge@judge.test\r\n"
                                       f"Subject: {subject}\r\n\r\nA PAR - BUR\r\n".encode())


@pytest.fixture
def imap_server():
    server = ImapServer(free_port()).start()
    yield server
    server.stop()


def settings(port: int, **overrides) -> ImapSection:
    return ImapSection(**{"host": LOOPBACK, "port": port, "user": USER, "password": PASSWORD,
                          "folder": "INBOX", "interval": 1, **overrides})


def subjects_in(inbox: Spool) -> list[str]:
    return [line.split(b": ", 1)[1].decode() for item in inbox.waiting()
            for line in inbox.read(item).splitlines() if line.startswith(b"Subject: ")]


def test_poll_spools_new_mail_then_flags_it_seen(imap_server, tmp_path):
    inbox = Spool(tmp_path / "inbox")
    imap_server.deliver("orders 1", "orders 2")
    poller = ImapPoller(settings(imap_server.port), inbox)
    assert poller.poll_once() == 2
    assert subjects_in(inbox) == ["orders 1", "orders 2"]
    with imap_server.client() as client:
        client.select_folder("INBOX")
        assert client.search(["UNSEEN"]) == [] and len(client.search(["SEEN"])) == 2
    assert poller.poll_once() == 0


def test_a_lost_seen_flag_never_spools_a_mail_twice(imap_server, tmp_path):
    inbox = Spool(tmp_path / "inbox")
    imap_server.deliver("orders 1")
    poller = ImapPoller(settings(imap_server.port), inbox)
    poller.poll_once()
    with imap_server.client() as client:  # as if the connection broke before the flag was set
        client.select_folder("INBOX")
        client.remove_flags(client.search(["ALL"]), [b"\\Seen"])
    assert poller.poll_once() == 0 and len(inbox.waiting()) == 1


def test_poller_reconnects_with_backoff_until_the_server_is_up(tmp_path):
    port = free_port()
    inbox = Spool(tmp_path / "inbox")
    stored = []
    poller = ImapPoller(settings(port), inbox, stored=lambda: stored.append(1), timeout=5)
    server = ImapServer(port)

    async def scenario():
        stop = asyncio.Event()
        task = asyncio.create_task(poller.run(stop, backoff_base=0.05, backoff_cap=0.2))
        await asyncio.sleep(0.4)  # the server is down: several failed polls, the task lives on
        assert not task.done()
        await asyncio.to_thread(server.start)
        await asyncio.to_thread(server.deliver, "after the outage")
        await asyncio.to_thread(wait_for, lambda: inbox.waiting(), 30)
        stop.set()
        await asyncio.wait_for(task, 30)

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
    assert subjects_in(inbox) == ["after the outage"] and stored


def test_wrong_password_fails_the_poll_and_does_not_touch_the_mailbox(imap_server, tmp_path):
    imap_server.deliver("orders 1")
    poller = ImapPoller(settings(imap_server.port, password="wrong"), Spool(tmp_path / "inbox"))
    with pytest.raises(LoginError):
        poller.poll_once()
    with imap_server.client() as client:
        client.select_folder("INBOX")
        assert len(client.search(["UNSEEN"])) == 1


def test_tls_is_only_skipped_on_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("imap.example.org") and not is_loopback("192.0.2.1")


def test_serve_with_imap_configured_answers_mail_from_the_mailbox(imap_server, make_config,
                                                                  tmp_path):
    make_config(imap={"host": LOOPBACK, "port": imap_server.port, "user": USER, "interval": 1})
    config = load_config(tmp_path / "judge.toml", {"JUDGE_IMAP_PASSWORD": PASSWORD}, tmp_path)
    imap_server.deliver("orders by imap")
    daemon = Daemon(config)

    async def scenario():
        task = asyncio.create_task(daemon.run())
        await asyncio.to_thread(wait_for, lambda: daemon.spools.outbox.waiting(), 30)
        daemon.stop.set()
        return await task

    assert asyncio.run(scenario()) == 0
    [reply] = daemon.spools.outbox.waiting()
    assert b"Subject: Re: orders by imap" in reply.path.read_bytes()
