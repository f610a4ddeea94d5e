"""Peak resident size of `judge serve` holding 10,000 games.

    python benchmarks/memory.py                 # 10,000 games, 1% due, three ticks, 500 mails
    python benchmarks/memory.py --games 2000 --ticks 2 --mails 100

The real daemon (serve_bench.py: `judge serve` with its tick every few seconds) runs over a judge
folder of `--games` games (gamekit.py), of which `--due` have work at the first tick. It is watched
through a cold first cycle (every game read; no index yet), then idle ones, then `--mails` orders
mails through the gateway; the peak resident size (VmHWM in /proc/PID/status) is read at the end,
and the resident size after each step. Target: under 200 MB.
"""
from __future__ import annotations

import argparse
import json
import os
import smtplib
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gamekit import JUDGE_ADDRESS, make_judge
from mail import orders_mails

HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def memory(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM, RssAnon and RssFile (the libraries mapped) of the process, in kB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            found[key] = int(value.split()[0])
    return found


def cycles_done(games: Path) -> str | None:
    try:
        return json.loads((games / ".cycle.json").read_text())["last_run"]
    except (OSError, ValueError, KeyError):
        return None


def wait_for_cycle(games: Path, previous: str | None, timeout: float) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        current = cycles_done(games)
        if current is not None and current != previous:
            return current
        time.sleep(0.2)
    raise SystemExit("no cycle finished in time")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--due", type=float, default=0.01)
    parser.add_argument("--ticks", type=int, default=3)
    parser.add_argument("--tick-seconds", type=float, default=5.0)
    parser.add_argument("--mails", type=int, default=500)
    parser.add_argument("--late", action="store_true",
                        help="every game's deadline passed a day ago, orders missing: the first "
                             "cycle sends late notices for all of them (the busiest tick)")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds waited after the inbox emptied, for the worker's pass to end")
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-memory"))
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    port = free_port()
    start = datetime.now(UTC) - (timedelta(days=31) if args.late else timedelta())
    config, _ = make_judge(args.root, args.games, args.due, port=port, now=start)
    games = Path(config.paths.games)
    process = subprocess.Popen([sys.executable, str(HERE / "serve_bench.py"), str(args.root / "judge.toml"),
                                "--tick-seconds", str(args.tick_seconds)],
                               env={**os.environ, "PYTHONPATH": str(HERE.parent)})
    try:
        time.sleep(2)
        print(f"started: {memory(process.pid)}")
        last = None
        for tick in range(args.ticks):
            started = time.perf_counter()
            last = wait_for_cycle(games, last, timeout=3600)
            print(f"cycle {tick + 1} done (waited {time.perf_counter() - started:.1f} s): "
                  f"{memory(process.pid)}")
        mails = orders_mails(games, min(args.games, max(1, args.mails // 7)), 0)[:args.mails]
        with smtplib.SMTP("127.0.0.1", port, timeout=120) as smtp:
            for sender, raw in mails:
                smtp.sendmail(sender, [JUDGE_ADDRESS], raw)
        inbox = Path(config.paths.spool) / "inbox"
        end = time.monotonic() + 600
        while any(inbox.glob("*.eml")) and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(args.settle)
        print(f"{len(mails)} mails processed: {memory(process.pid)}")
        peak = memory(process.pid)["VmHWM"] / 1024
        print(f"peak resident size of judge serve with {args.games} games: {peak:.0f} MB "
              f"({peak / 200:.2f} of the 200 MB target)")
    finally:
        process.terminate()
        process.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
