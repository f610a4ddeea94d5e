"""The SMTP gateway in a process of its own, which `judge serve` starts and supervises.

Accepting a mail (the envelope read, the message stored in `spool/inbox/` and fsynced, `250`)
must never wait for the work on mail: the inbox worker, the tick and the outbox share the daemon's
interpreter lock, and a long job there would keep a sending MTA waiting at the greeting. So the
gateway (`judge.runtime.gateway`) runs in a child process, run as

    python -P -m judge.runtime.gateway_process SETTINGS_JSON

The daemon binds the listening sockets and hands them down (`pass_fds`): a port that cannot be
bound is the daemon's error at its start, and the socket stays open while a dead child is
replaced, so connections made meanwhile wait in its backlog instead of being refused. The child
tells the daemon on its standard output, one line each: `listening` once it serves, `stored`
once mail is durable in the inbox (the inbox worker's wake-up, and the disk watch's news that the
disk takes writes; one line for the mails of a few milliseconds), `refused ERRNO TEXT` when the
inbox could not take one (it answered `451`). Its standard input is a pipe from the daemon it
never reads: its end means the daemon is gone, and the child stops. SIGTERM (or SIGINT) stops it
as it stopped the gateway before: `421` to new transactions, the mails half-way into the spool
finished, then exit 0.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from judge.runtime.gateway import Gateway, accepts_address_of, start_gateway
from judge.runtime.outbox import Backoff, wait_any
from judge.runtime.spool import Spool

log = logging.getLogger("judge.gateway")

MODULE = "judge.runtime.gateway_process"
LISTENING, STORED, REFUSED = b"listening", b"stored", b"refused"
BACKLOG = 1024  # connections held while the child starts or is replaced
RESTART_SECONDS = (0.5, 30.0)  # a dead child is started again after this, doubling to the cap
STOP_SECONDS = 20.0  # a child that has not stopped this long after SIGTERM is killed
STORED_EVERY = 0.005  # seconds: mails stored meanwhile are told in one `stored` line


@dataclass(frozen=True)
class Settings:
    """What the child needs: the listening sockets' descriptors and the gateway's settings."""

    fds: tuple[int, ...]
    inbox: str
    address: str
    domain: str
    max_bytes: int
    log_level: int = logging.INFO  # the daemon's, so the gateway's lines are kept as before

    def command(self) -> list[str]:
        # -P: the working folder (the judge's state folder) is not searched for modules
        return [sys.executable, "-P", "-m", MODULE, json.dumps(asdict(self))]

    @classmethod
    def parse(cls, text: str) -> Settings:
        fields = json.loads(text)
        return cls(**{**fields, "fds": tuple(fields["fds"])})


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Bound and listening: one socket per address `host` names (all of them for "")."""
    sockets: list[socket.socket] = []
    seen: set[tuple[int, object]] = set()
    try:
        for family, kind, proto, _, address in socket.getaddrinfo(
                host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE):
            if (family, address) in seen:
                continue
            seen.add((family, address))
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def refused_line(exc: OSError) -> bytes:
    text = " ".join(str(exc.strerror or exc).split())
    return b"%s %d %s\n" % (REFUSED, exc.errno or 0, text.encode("utf-8", "replace"))


def refusal(line: bytes) -> OSError:
    """The error a `refused` line tells of."""
    _, number, text = (line.rstrip(b"\n").split(b" ", 2) + [b"", b""])[:3]
    code = int(number) if number.isdigit() else errno.EIO
    return OSError(code, text.decode("utf-8", "replace"))


def heard(line: bytes, stored: Callable[[], None], refused: Callable[[OSError], None]) -> bytes:
    """A line of the child's told to `stored` or `refused`; its first word."""
    word = line.split(b" ", 1)[0].strip()
    if word == STORED:
        stored()
    elif word == REFUSED:
        refused(refusal(line))
    return word


class GatewayProcess:
    """The daemon's side: starts the child with `settings`, hears its lines (`stored` and
    `refused` call back on the loop), starts it again if it dies, and stops it on `stop`."""

    def __init__(self, settings: Settings, stored: Callable[[], None],
                 refused: Callable[[OSError], None]):
        self.settings = settings
        self.stored = stored
        self.refused = refused
        self.ready = asyncio.Event()  # the first child serves
        self.pid: int | None = None  # the child serving now, once it serves
        self.restarts = Backoff(*RESTART_SECONDS)

    async def started(self, running: asyncio.Task) -> bool:
        """Whether the first child came to serve (False: it ended before, `running` with it)."""
        ready = asyncio.ensure_future(self.ready.wait())
        try:
            await asyncio.wait({ready, running}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ready.cancel()
        return self.ready.is_set()

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop`: a child serving. One that ends before it first serves is not restarted
        (the daemon cannot start); a later one is, after a pause that grows while they keep
        dying young."""
        while not stop.is_set():
            try:
                code = await self.serve_once(stop)
            except OSError as exc:  # no process could be made (out of processes, memory)
                code = str(exc)
            if stop.is_set():
                return
            if not self.ready.is_set():
                log.error("the SMTP gateway process ended before it listened (%s)", code)
                return
            delay = self.restarts.next_delay()
            log.error("the SMTP gateway process ended (%s); starting it again in %.1f s",
                      code, delay)
            await wait_any(stop, asyncio.Event(), delay)

    async def serve_once(self, stop: asyncio.Event) -> str:
        process = await asyncio.create_subprocess_exec(
            *self.settings.command(), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, pass_fds=self.settings.fds)
        assert process.stdout is not None
        stopper = asyncio.create_task(self.stop_when(stop, process))
        try:
            while line := await process.stdout.readline():
                self.heard(line, process.pid)
        finally:
            self.pid = None
            if not stop.is_set():
                stopper.cancel()
        if stop.is_set():
            await stopper  # a child slow to stop is killed in time
        return f"exit {await process.wait()}"

    def heard(self, line: bytes, pid: int) -> None:
        word = heard(line, self.stored, self.refused)
        if word == STORED:
            self.restarts.reset()
        elif word == LISTENING:
            self.pid = pid
            self.ready.set()
            log.info("the SMTP gateway process %d listens", pid)

    @staticmethod
    async def stop_when(stop: asyncio.Event, process: asyncio.subprocess.Process) -> None:
        await stop.wait()
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                log.error("the SMTP gateway process %d did not stop; killed", process.pid)
                process.kill()


# -- the child ---------------------------------------------------------------------------------
class Reporter(asyncio.Protocol):
    """The daemon's end of the pipes: lines written without ever blocking the gateway, and the
    stop called when the daemon's end of standard input closes (the daemon is gone)."""

    def __init__(self, gone: Callable[[], None] = lambda: None):
        self.gone = gone

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone()


class Lines:
    """The child's lines to the daemon. `stored` says only that mail came (the worker reads the
    inbox), so the mails stored within `STORED_EVERY` share one line and one wake-up of the
    daemon; each `refused` counts a `451`, so each has its own, after any `stored` owed."""

    def __init__(self, out: asyncio.WriteTransport):
        self.out = out
        self.owed: asyncio.TimerHandle | None = None

    def stored(self) -> None:
        if self.owed is None:
            self.owed = asyncio.get_running_loop().call_later(STORED_EVERY, self.flush)

    def refused(self, exc: OSError) -> None:
        self.flush()
        self.out.write(refused_line(exc))

    def flush(self) -> None:
        if self.owed is not None:
            self.owed.cancel()
            self.owed = None
            self.out.write(STORED + b"\n")


async def child(settings: Settings) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    out, _ = await loop.connect_write_pipe(Reporter, sys.stdout.buffer)
    await loop.connect_read_pipe(lambda: Reporter(stop.set), sys.stdin.buffer)
    lines = Lines(out)
    gateway = Gateway(Spool(Path(settings.inbox)), accepts_address_of(settings.address),
                      settings.max_bytes, stored=lines.stored, refused=lines.refused)
    servers = [await start_gateway(gateway, socket.socket(fileno=fd), settings.domain)
               for fd in settings.fds]
    out.write(LISTENING + b"\n")
    await stop.wait()
    gateway.closing = True
    for server in servers:
        server.close()
    await gateway.settled()
    lines.flush()
    return 0


def main(argv: list[str]) -> int:
    settings = Settings.parse(argv[0])
    logging.basicConfig(stream=sys.stderr, level=settings.log_level,
                        format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("mail.log").setLevel(max(logging.WARNING, settings.log_level))
    return asyncio.run(child(settings))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
