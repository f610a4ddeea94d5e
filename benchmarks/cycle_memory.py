"""The memory a cold cycle holds, as the daemon runs it (tracemalloc).

    python benchmarks/cycle_memory.py                  # 10,000 games, 1% due
    python benchmarks/cycle_memory.py --games 2000

A judge folder of `--games` games (gamekit.py) with no idle index yet, so the daemon's tick
(`cycle_tick`) reads every game; tracemalloc measures what the tick holds at its peak and what
is still held once it has returned (the tick's closure keeps the store, the maps, the indexes).
"""
from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gamekit import make_judge

from judge.runtime.cycle import cycle_tick


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--due", type=float, default=0.01)
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-cycle-memory"))
    args = parser.parse_args(argv)
    now = datetime.now(UTC)
    config, _ = make_judge(args.root, args.games, args.due, now=now)
    tick = cycle_tick(config)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tick(now)
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    print(f"{args.games} games: a cold cycle holds {(peak - base) / 1e6:.1f} MB at its peak, "
          f"{(held - base) / 1e6:.1f} MB once it has returned")
    return 0


if __name__ == "__main__":
    sys.exit(main())
