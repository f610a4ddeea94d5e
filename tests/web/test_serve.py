"""`judge serve` serves the pages on its own loop, at the path of `[judge] url`, beside the mail."""
from __future__ import annotations

import asyncio
import signal
import socket
import urllib.request

from judge.runtime.daemon import Daemon
from judge.web.app import daemon_pages
from tests.support.transport import LOOPBACK, free_port, judge_serve, wait_for


def test_serve_answers_the_url_the_mails_print(make_config, notify, tmp_path):
    port = free_port()
    make_config(judge={"url": f"http://{LOOPBACK}:{port}/games"}, web={"port": port})
    process = judge_serve(tmp_path, notify)
    try:
        with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/games", timeout=10) as answer:
            page = answer.read().decode()
            policy = answer.headers["Content-Security-Policy"]
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=30)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert "The games of TEST" in page and "default-src 'none'" in policy
    assert process.returncode == 0, output


def started_and_stopped(config) -> Daemon:
    """A daemon with the pages, run until its gateway listens, then stopped (it exits 0)."""
    daemon = Daemon(config, pages=daemon_pages(config))

    async def main() -> int:
        task = asyncio.create_task(daemon.run())
        await asyncio.to_thread(wait_for, lambda: daemon.gateway and daemon.gateway.ready.is_set())
        daemon.stop.set()
        return await task
    assert asyncio.run(main()) == 0
    return daemon


def test_a_busy_web_port_leaves_the_judge_serving_mail(make_config, caplog):
    with socket.create_server((LOOPBACK, 0)) as busy:
        daemon = started_and_stopped(make_config(web={"port": busy.getsockname()[1]}))
    assert daemon.web is None
    assert "the web pages are not served" in caplog.text


def test_pages_can_be_turned_off(make_config):
    assert started_and_stopped(make_config(web={"enabled": False})).web is None
