"""How long an orders mail waits while `judge serve` reads every game (its first tick with no idle
index, as after an upgrade or an outage).

    python benchmarks/mail_during_tick.py                      # 10,000 games, a mail every 0.5 s
    python benchmarks/mail_during_tick.py --games 2000 --every 0.2

A real `judge serve` (serve_bench.py, its tick a second after the start) over a judge folder of
`--games` idle games with no idle index: its first tick opens every game. From the moment that
tick holds the cycle lock until it ends (`.cycle.json` written), one player's SIGNON and orders are
sent through the gateway every `--every` seconds, each from another game; the outgoing relay (an
aiosmtpd sink on loopback) notes when each reply comes. Printed: the read's wall time, the mails
sent during it, how many were answered before it ended, and the wait from a mail's `250` to its
reply (median and longest).
"""
from __future__ import annotations

import argparse
import os
import smtplib
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' support

from aiosmtpd.controller import Controller
from gamekit import JUDGE_ADDRESS, make_judge
from mail import Sink, free_port, message_id, orders_mails

from tests.support.transport import cycle_running

HERE = Path(__file__).resolve().parent


def wait(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--every", type=float, default=0.5, help="seconds between two mails")
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-mail-during-tick"))
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    port, relay_port = free_port(), free_port()
    sink = Sink()
    relay = Controller(sink, hostname="127.0.0.1", port=relay_port)
    relay.start()
    config, _ = make_judge(args.root, args.games, port=port, relay=relay_port)
    games = Path(config.paths.games)
    # one mail a game, each game's first player: a mail never waits for another's game lock
    mails, seen = [], set()
    for sender, raw in orders_mails(games, min(args.games, 2000), 0):
        game = sender.split(".")[0]
        if game not in seen:
            seen.add(game)
            mails.append((sender, raw))
    process = subprocess.Popen([sys.executable, str(HERE / "serve_bench.py"),
                                str(args.root / "judge.toml"), "--tick-seconds", "1"],
                               env={**os.environ, "PYTHONPATH": str(HERE.parent)})
    try:
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        wait(lambda: cycle_running(games), 120, "the first tick")
        started = time.perf_counter()
        sent: dict[str, float] = {}
        with smtplib.SMTP("127.0.0.1", port, timeout=600) as smtp:
            for sender, raw in mails:
                if (games / ".cycle.json").exists():
                    break
                smtp.sendmail(sender, [JUDGE_ADDRESS], raw)
                sent[message_id(raw)] = time.perf_counter()
                time.sleep(args.every)
        wait(lambda: (games / ".cycle.json").exists(), 3600, "the end of the first tick")
        ended = time.perf_counter()
        wait(lambda: len(sink.arrived) >= len(sent), 600, "the replies")
        waits = [sink.arrived[m] - at for m, at in sent.items()]
        during = sum(sink.arrived[m] < ended for m in sent)
        print(f"the first tick read {args.games} games in {ended - started:.1f} s (wall); "
              f"{len(sent)} orders mails sent during it, {during} answered before it ended")
        print(f"wait for a reply: median {statistics.median(waits):.2f} s, longest "
              f"{max(waits):.2f} s")
    finally:
        process.terminate()
        process.wait(timeout=120)
        relay.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
