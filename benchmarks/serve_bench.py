"""`judge serve` for the benchmarks: the real daemon (gateway, inbox worker, outbox sender, the
deadline cycle as its tick), with the tick every `--tick-seconds` instead of at :00, :20 and :40
when asked, so that a benchmark need not wait for the clock.

    python benchmarks/serve_bench.py JUDGE_TOML [--tick-seconds 10]
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from apscheduler.triggers.interval import IntervalTrigger

from judge.runtime.config import load_config
from judge.runtime.daemon import Daemon


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("config")
    parser.add_argument("--tick-seconds", type=float, default=None)
    args = parser.parse_args(argv)
    config = load_config(args.config)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    trigger = IntervalTrigger(seconds=args.tick_seconds) if args.tick_seconds else None
    return asyncio.run(Daemon(config, tick_trigger=trigger).run())


if __name__ == "__main__":
    sys.exit(main())
