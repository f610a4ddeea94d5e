"""Resident size of `judge serve` over a realistic judge through an hour of its traffic.

    nice python benchmarks/serve_memory.py --games 100000 --root /var/tmp/judge-serve-memory --reuse
    python benchmarks/serve_memory.py --games 1000 --ticks 2 --due 30 --mails 200

The judge folder is scale.py's realistic mix (41% active standard, 8% modern, 8% youngstown, 5%
ancmed, 5% 1900, 10% forming, 5% waiting, 18% completed; deadlines 2 to 9 days after the build),
made with the judge's own functions; `--reuse` keeps a folder an earlier run built for as many
games (building 100,000 takes several minutes). The real daemon (serve_bench.py: gateway child,
inbox worker, outbox sender, its tick every `--tick-seconds`) runs over it on loopback, its
outgoing relay an aiosmtpd sink here. After its first cycle, each of `--ticks` rounds stands for
one 20-minute tick of the issue's traffic: `--due` standard games made due (their deadline passed,
orders left to the default, so the cycle processes them and the sender draws their pictures) and
`--mails` orders mails (SIGNON and one power's orders, each from another standard game) over four
SMTP connections; the round ends when the inbox and outbox are empty after a cycle has run. Three
rounds are an hour.

Printed: the resident size of `judge serve` (VmRSS from /proc, with RssAnon) after the first
cycle and after each round, its peak (VmHWM), and the peak of its children (the gateway and the
picture child) sampled every half second. Target: under 200 MB for `judge serve`.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import smtplib
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aiosmtpd.controller import Controller
from gamekit import JUDGE_ADDRESS, write_config
from mail import free_port
from memory import cycles_done, memory, wait_for_cycle
from scale import game_name, kinds, make_judge, orders_mail, personal, templates

HERE = Path(__file__).resolve().parent
BUILT = ".built"  # the number of games a finished build holds


class Sink:
    """The judge's outgoing relay: counts what it receives."""

    def __init__(self) -> None:
        self.received = 0

    async def handle_DATA(self, server, session, envelope):
        self.received += 1
        return "250 OK"


def built(root: Path, games: int, now: datetime) -> list[str]:
    """The standard games' names of a judge of `games` games at `root`, built unless a finished
    build of as many games is there."""
    marker = root / BUILT
    if not (marker.exists() and marker.read_text() == str(games)):
        started = time.perf_counter()
        make_judge(root, games, now)
        marker.write_text(str(games))
        print(f"built {games} games in {time.perf_counter() - started:.0f} s")
    return [game_name(n) for n, kind in enumerate(kinds(games)) if kind == "standard"]


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


class Sampler(threading.Thread):
    """The largest resident size of the daemon's children, every half second."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.5):
            try:
                sizes = [memory(child)["VmRSS"] for child in children(self.pid)]
            except (OSError, KeyError):
                continue
            self.peak = max([self.peak, *sizes])


def megabytes(pid: int) -> str:
    found = memory(pid)
    return f"{found['VmRSS'] / 1000:.1f} MB resident ({found['RssAnon'] / 1000:.1f} MB anonymous)"


def send(port: int, mails: list[tuple[str, bytes]], clients: int = 4) -> None:
    def one(share: list[tuple[str, bytes]]) -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=300) as smtp:
            for sender, raw in share:
                smtp.sendmail(sender, [JUDGE_ADDRESS], raw)
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(one, [mails[n::clients] for n in range(clients)]))


def waiting(folder: Path) -> bool:
    return any(folder.glob("*.eml")) or any(folder.glob("*.bak"))


def settled(root: Path, timeout: float) -> None:
    """Wait for a cycle to end with the inbox and the outbox empty."""
    spool, games = root / "spool", root / "games"
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        last = json.loads((games / ".cycle.json").read_text())["last_run"]
        wait_for_cycle(games, last, timeout)
        if not waiting(spool / "inbox") and not waiting(spool / "outbox"):
            return
    raise SystemExit("the traffic was not handled in time")


def one_round(root: Path, port: int, standard: list[str], round_: int, due: int, mails: int,
              due_text: str) -> None:
    start = round_ * (due + mails)
    for name in standard[start:start + due]:
        (root / "games" / name / "status").write_text(personal(due_text, name), encoding="utf-8")
    senders = standard[start + due:start + due + mails]
    send(port, [(f"{name}@bench.test", orders_mail(root, name, round_)) for name in senders])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--ticks", type=int, default=3, help="rounds of traffic (3: an hour)")
    parser.add_argument("--due", type=int, default=330, help="games made due a round")
    parser.add_argument("--mails", type=int, default=2300, help="orders mails a round")
    parser.add_argument("--tick-seconds", type=float, default=10.0)
    parser.add_argument("--reuse", action="store_true", help="keep a finished build of as many games")
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-serve-memory"))
    parser.add_argument("--trace", type=Path,
                        help="run the daemon under tracemalloc and write what it holds after the "
                             "first cycle and each round to this file (slower, and more memory)")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    now = datetime.now(UTC)
    if not args.reuse:
        (args.root / BUILT).unlink(missing_ok=True)
    standard = built(args.root, args.games, now)
    if len(standard) < args.ticks * (args.due + args.mails):
        raise SystemExit("too few standard games for that traffic")
    _, due_text = templates(args.root, now)
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=free_port())
    relay.start()
    port = free_port()
    write_config(args.root, port, relay.port)
    before = cycles_done(args.root / "games")
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    traced = ["--trace", str(args.trace)] if args.trace else []
    process = subprocess.Popen([sys.executable, str(HERE / "serve_bench.py"), str(args.root / "judge.toml"),
                                "--tick-seconds", str(args.tick_seconds), *traced],
                               env={**os.environ, "PYTHONPATH": str(HERE.parent)})
    sampler = Sampler(process.pid)
    sampler.start()
    try:
        started = time.perf_counter()
        wait_for_cycle(args.root / "games", before, timeout=7200)
        print(f"first cycle done in {time.perf_counter() - started:.0f} s: {megabytes(process.pid)}")
        if args.trace:
            process.send_signal(signal.SIGUSR1)
        for round_ in range(args.ticks):
            started = time.perf_counter()
            one_round(args.root, port, standard, round_, args.due, args.mails, due_text)
            settled(args.root, timeout=7200)
            print(f"round {round_ + 1} ({args.due} due games, {args.mails} mails; "
                  f"{sink.received} mails relayed so far) done in {time.perf_counter() - started:.0f} s: "
                  f"{megabytes(process.pid)}")
            if args.trace:
                process.send_signal(signal.SIGUSR1)
        peak = memory(process.pid)["VmHWM"] / 1000
        print(f"peak resident size of judge serve with {args.games} games: {peak:.1f} MB "
              f"({peak / 200:.2f} of the 200 MB target); its children's peak "
              f"{sampler.peak / 1000:.1f} MB")
    finally:
        sampler.stopped.set()
        process.terminate()
        process.wait(timeout=120)
        relay.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
