"""The gateway and the mail path end to end, against a real `judge serve` on loopback.

    python benchmarks/mail.py                        # 2,000 mails to the gateway, 100 games' orders
    python benchmarks/mail.py --accept 5000 --clients 8 --games 200 --repeat 3 --hashed

- accepted: mails per second the gateway answers 250 to (each stored and fsynced in the inbox
  before the answer), sent by `--clients` SMTP connections in parallel, each mail in its own
  transaction. The mails are robots' (Auto-Submitted), which the inbox worker drops at once, so the
  figure is the gateway's own. `--worker asleep` keeps the inbox worker idle (its first mail
  never ends), `--worker holding` keeps it holding the interpreter lock a second a mail; either
  measures the gateway alone, with no orders rounds after it.
- orders: SIGNON and a power's orders by mail from every player of `--games` games (seven mails a
  game), counted from the first mail sent to the last reply received by the outgoing relay (an
  aiosmtpd sink on loopback): gateway, inbox spool, the command layer (the orders read, checked
  and saved), the reply rendered, queued in the outbox and sent. Each repetition sends every
  player's orders again, other orders each time (every unit holds, then moves, then holds...),
  so that every mail changes its game; the first is "cold" (each player's first sign-on), the
  others "warm".
  With `--hashed` the games' passwords are stored as the judge stores those it sets (scrypt): a
  first sign-on then costs up to two hashes (the Master's password is tried first), later ones are
  remembered by the daemon (judge/passwords.py's Verifier).
- The gateway's process is read apart: its CPU a mail accepted, and an orders round's CPU split
  between it and the rest of `judge serve`; each orders mail is timed from its 250 to its reply.
  `--fsyncs` counts the fsyncs a mail (strace attached to each process; its rates are lower).

Targets on 2 cores: 500 mails accepted per second, 100 orders mails processed per second.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import os
import re
import signal
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aiosmtpd.controller import Controller
from gamekit import JUDGE_ADDRESS, game_name, make_judge

from judge.maps import load_map
from judge.passwords import hash_password
from judge.status import parse_status

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Sink:
    """The judge's outgoing relay: when each reply (by the Message-ID it answers) arrived."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        for line in envelope.original_content.split(b"\r\n"):
            if line.lower().startswith(b"in-reply-to:"):
                with self.lock:
                    self.arrived.setdefault(line.split(b":", 1)[1].strip().decode(),
                                            time.perf_counter())
        return "250 OK"

    @property
    def replies(self) -> int:
        """Orders mails answered (each by one mail naming it, its confirmation, as DPjudge's)."""
        with self.lock:
            return sum(answered.startswith("<o") for answered in self.arrived)


def serve(config_path: Path, port: int, worker: str = "real") -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, str(HERE / "serve_bench.py"), str(config_path),
                                "--worker", worker],
                               env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("judge serve did not start listening")


def send_all(port: int, mails: list[tuple[str, bytes]], clients: int,
             acked: dict[str, float] | None = None) -> float:
    """Send the mails over `clients` connections; seconds until the last 250. `acked`: when
    each mail's 250 came, by its Message-ID."""
    chunks = [mails[i::clients] for i in range(clients)]

    def client(chunk: list[tuple[str, bytes]]) -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=120) as smtp:
            smtp.ehlo("bench.test")
            for sender, raw in chunk:
                smtp.sendmail(sender, [JUDGE_ADDRESS], raw)
                if acked is not None:
                    acked[message_id(raw)] = time.perf_counter()

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, chunks))
    return time.perf_counter() - started


def message_id(raw: bytes) -> str:
    return raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode()


def robot_mails(count: int) -> list[tuple[str, bytes]]:
    body = "LIST\r\n" + "x" * 900 + "\r\n"
    return [("robot@bench.test", (f"From: robot@bench.test\r\nTo: {JUDGE_ADDRESS}\r\nSubject: n {n}\r\n"
                                  f"Auto-Submitted: auto-generated\r\nMessage-ID: <r{n}@bench.test>\r\n\r\n"
                                  f"{body}").encode()) for n in range(count)]


def orders_mails(games_dir: Path, games: int, round_: int) -> list[tuple[str, bytes]]:
    """Every player's SIGNON and orders: each unit holds in even rounds and moves to its first
    neighbour in odd ones, so that every round's orders change what the game holds."""
    mails = []
    standard = load_map("standard")
    for g in range(games):
        name = game_name(g)
        status = parse_status((games_dir / name / "status").read_text(encoding="utf-8"))
        for block in status.powers:
            if not block.units:
                continue
            email = block.player.current.email
            n = re.search(r"player(\d+)@", email).group(1)  # its password is pwN
            orders = "\r\n".join(
                f"{unit} H" if round_ % 2 == 0 else
                f"{unit} - {standard.moves(unit.type, unit.location)[0]}" for unit in block.units)
            raw = (f"From: {email}\r\nTo: {JUDGE_ADDRESS}\r\nSubject: orders\r\n"
                   f"Message-ID: <o{round_}.{name}.{n}@bench.test>\r\n\r\n"
                   f"SIGNON {block.name[0]}{name} pw{n}\r\n{orders}\r\n")
            mails.append((email, raw.encode()))
    return mails


def hash_passwords(games_dir: Path, games: int) -> None:
    """Store every password as the judge stores the ones it sets (a fresh salt each)."""
    def one(name: str) -> None:
        path = games_dir / name / "status"
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"^PASSWORD (\S+)$", lambda m: f"PASSWORD {hash_password(m.group(1))}",
                               text, flags=re.MULTILINE), encoding="utf-8")
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        list(pool.map(one, [game_name(g) for g in range(games)]))


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process and its children (the gateway's process) have
    used so far."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return own_cpu_seconds(pid) + sum(own_cpu_seconds(int(child)) for child in children)


def gateway_pid(pid: int) -> int:
    """The gateway's process: the one child `judge serve` keeps serving SMTP."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    if len(children) != 1:
        raise SystemExit(f"judge serve has {len(children)} child processes, not its gateway alone")
    return int(children[0])


def own_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Fsyncs:
    """The fsync and fdatasync calls of process `pid` (all its threads) while in the `with`,
    counted by strace (attached for the count only: the rates measured meanwhile are lower)."""

    def __init__(self, pid: int):
        self.pid = pid
        self.calls = 0

    def __enter__(self) -> Fsyncs:
        self.out = tempfile.NamedTemporaryFile(mode="r", suffix=".strace")
        self.tracer = subprocess.Popen(
            ["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", self.out.name,
             "-p", str(self.pid)], stderr=subprocess.PIPE, text=True)
        assert self.tracer.stderr is not None
        if "attached" not in self.tracer.stderr.readline():
            raise SystemExit(f"strace could not attach to process {self.pid}")
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.tracer.send_signal(signal.SIGINT)
        self.tracer.wait(timeout=60)
        rows = [line.split() for line in self.out.read().splitlines()]
        self.calls = sum(int(row[3]) for row in rows if row and row[-1] in ("fsync", "fdatasync"))
        self.out.close()


def fsyncs_of(pid: int, count: bool) -> contextlib.AbstractContextManager[Fsyncs | None]:
    return Fsyncs(pid) if count else contextlib.nullcontext()


def wait_empty(inbox: Path, timeout: float = 300) -> None:
    end = time.monotonic() + timeout
    while any(inbox.glob("*.eml")) or any(inbox.glob("*.bak")):
        if time.monotonic() > end:
            raise SystemExit("the inbox worker did not work through the inbox in time")
        time.sleep(0.05)


def wait_replies(sink: Sink, expected: int, timeout: float = 900) -> None:
    end = time.monotonic() + timeout
    while sink.replies < expected:
        if time.monotonic() > end:
            raise SystemExit(f"only {sink.replies} of {expected} replies arrived")
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--accept", type=int, default=2000, help="mails for the gateway figure")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3, help="rounds of orders (the first: cold)")
    parser.add_argument("--hashed", action="store_true", help="passwords stored hashed")
    parser.add_argument("--worker", choices=("real", "asleep", "holding"), default="real",
                        help="the inbox worker as it is, idle, or holding the interpreter lock")
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-mail"))
    parser.add_argument("--fsyncs", action="store_true",
                        help="count the fsyncs a mail with strace (the rates are then lower)")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)

    port, relay_port = free_port(), free_port()
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=relay_port)
    relay.start()
    config, _ = make_judge(args.root, args.games, port=port, relay=relay_port)
    games_dir = Path(config.paths.games)
    if args.hashed:
        hash_passwords(games_dir, args.games)
    process = serve(args.root / "judge.toml", port, args.worker)
    try:
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        robots = robot_mails(args.accept)
        gateway = gateway_pid(process.pid)
        cpu, gateway_cpu = cpu_seconds(process.pid), own_cpu_seconds(gateway)
        with fsyncs_of(gateway, args.fsyncs) as fsyncs:
            seconds = send_all(port, robots, args.clients)
        gateway_ms = (own_cpu_seconds(gateway) - gateway_cpu) / len(robots) * 1000
        accepted = len(robots) / seconds
        print(f"gateway: {len(robots)} mails accepted in {seconds:.2f} s by {args.clients} clients: "
              f"{accepted:.0f}/s ({accepted / 500:.2f} of the 500/s target)")
        print(f"  the gateway's process alone: {gateway_ms:.3f} ms of CPU a mail "
              f"({1000 / gateway_ms:.0f} mails a second on one core's worth)")
        if fsyncs:
            print(f"  the gateway's fsyncs: {fsyncs.calls / len(robots):.2f} a mail")
        if args.worker != "real":
            print(f"  judge serve CPU: {(cpu_seconds(process.pid) - cpu) / len(robots) * 1000:.2f} "
                  f"ms a mail (gateway)")
            return 0
        wait_empty(Path(config.paths.spool) / "inbox")  # the inbox worker drops the robots' mail
        print(f"  judge serve CPU: {(cpu_seconds(process.pid) - cpu) / len(robots) * 1000:.2f} ms a "
              f"mail (gateway and inbox worker)")
        rates = []
        for round_ in range(args.repeat):
            mails = orders_mails(games_dir, args.games, round_)
            before, acked = sink.replies, {}
            cpu, gateway_cpu = cpu_seconds(process.pid), own_cpu_seconds(gateway)
            started = time.perf_counter()
            with fsyncs_of(gateway, args.fsyncs) as at_gateway, \
                    fsyncs_of(process.pid, args.fsyncs) as at_daemon:
                send_all(port, mails, args.clients, acked)
                wait_replies(sink, before + len(mails))
            seconds = time.perf_counter() - started
            rates.append(len(mails) / seconds)
            waits = [sink.arrived[answered] - at for answered, at in acked.items()]
            total_ms = (cpu_seconds(process.pid) - cpu) / len(mails) * 1000
            gateway_ms = (own_cpu_seconds(gateway) - gateway_cpu) / len(mails) * 1000
            print(f"orders round {round_ + 1} ({'cold' if round_ == 0 else 'warm'}): {len(mails)} mails "
                  f"replied to in {seconds:.2f} s: {rates[-1]:.1f}/s ({rates[-1] / 100:.2f} of the "
                  f"100/s target); judge serve CPU {total_ms:.1f} ms a mail (its gateway "
                  f"{gateway_ms:.1f}, the rest {total_ms - gateway_ms:.1f})")
            print(f"  from a mail's 250 to its reply at the relay: median "
                  f"{statistics.median(waits):.2f} s, longest {max(waits):.2f} s")
            if at_gateway and at_daemon:
                print(f"  fsyncs a mail: the gateway {at_gateway.calls / len(mails):.2f}, the rest "
                      f"of judge serve {at_daemon.calls / len(mails):.2f}")
        if len(rates) > 1:
            warm = statistics.median(rates[1:])
            print(f"orders, warm median: {warm:.1f}/s ({warm / 100:.2f} of the target)")
    finally:
        if args.worker == "real":
            process.terminate()
        else:  # its worker never finishes the mail in hand
            process.kill()
        process.wait(timeout=60)
        relay.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
