"""`judge serve` for the benchmarks: the real daemon (gateway, inbox worker, outbox sender, the
deadline cycle as its tick), with the tick every `--tick-seconds` instead of at :00, :20 and :40
when asked, so that a benchmark need not wait for the clock. With `--worker asleep` the inbox
worker's first mail never ends (the worker idle, in a sleep), with `--worker holding` each mail
keeps the interpreter lock for a second (a long computation in C): the gateway's figures alone.
With `--trace FILE`, tracemalloc follows the daemon's Python memory, and each SIGUSR1 appends to
FILE what is held then, by the line that allocated it (the largest first).

    python benchmarks/serve_bench.py JUDGE_TOML [--tick-seconds 10] [--worker asleep|holding]
"""
from __future__ import annotations

import argparse
import asyncio
import ctypes
import logging
import signal
import sys
import time
import tracemalloc
from pathlib import Path

from apscheduler.triggers.interval import IntervalTrigger

from judge.runtime.config import load_config
from judge.runtime.daemon import Daemon

HOLDING_THE_LOCK = ctypes.PyDLL(None)  # its calls keep the interpreter lock


def asleep(raw: bytes, now):
    time.sleep(86400)
    return []


def holding(raw: bytes, now):
    HOLDING_THE_LOCK.usleep(ctypes.c_uint(1_000_000))
    return []


WORKERS = {"real": None, "asleep": asleep, "holding": holding}


def traced(out: Path, frames: int = 4, top: int = 25) -> None:
    tracemalloc.start(frames)

    def held(signum, frame) -> None:
        snapshot = tracemalloc.take_snapshot()
        stats = snapshot.statistics("traceback")
        total = sum(stat.size for stat in stats)
        lines = [f"held {total / 1e6:.1f} MB in {len(stats)} places; "
                 f"peak {tracemalloc.get_traced_memory()[1] / 1e6:.1f} MB"]
        for stat in stats[:top]:
            lines.append(f"{stat.size / 1e6:8.2f} MB {stat.count:8d} blocks")
            lines += [f"        {line.strip()}" for line in stat.traceback.format()]
        with out.open("a") as file:
            file.write("\n".join(lines) + "\n\n")
    signal.signal(signal.SIGUSR1, held)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("config")
    parser.add_argument("--tick-seconds", type=float, default=None)
    parser.add_argument("--worker", choices=sorted(WORKERS), default="real")
    parser.add_argument("--trace", type=Path, help="tracemalloc's findings, at each SIGUSR1")
    args = parser.parse_args(argv)
    if args.trace:
        traced(args.trace)
    config = load_config(args.config)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    trigger = IntervalTrigger(seconds=args.tick_seconds) if args.tick_seconds else None
    daemon = Daemon(config, handle_mail=WORKERS[args.worker], tick_trigger=trigger)
    return asyncio.run(daemon.run())


if __name__ == "__main__":
    sys.exit(main())
