"""The memory the daemon's idle index takes at 1,000 / 10,000 / 100,000 games: its entries and its
heap of due times, loaded from an index file like the daemon's (each game with a status and a state
file, read in the last hour, next due 2 to 9 days ahead).

    python benchmarks/idle_memory.py                  # 1,000 / 10,000 / 100,000 games
    python benchmarks/idle_memory.py --games 100000
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

from judge.runtime import idle_index as idle

NOW = datetime(2026, 1, 5, 12, tzinfo=UTC)


def index_file(root: Path, games: int) -> str:
    """An index of `games` games written in `root`; its signature."""
    index = idle.Index("bench")
    base = 1_767_000_000 * 10**9
    for n in range(games):
        stamp = (12_000_000 + 2 * n, 2_900 + n % 700, base + n * 10**6, base + n * 10**6 + 5,
                 12_000_001 + 2 * n, 40 + n % 20, base + n * 10**6)
        quiet = NOW + timedelta(days=2 + n % 8, hours=n % 24)
        index.note(f"game{n}", idle.Entry.of(stamp, NOW - timedelta(minutes=n % 60), quiet))
    idle.save_index(root, index)
    return index.signature


def measure(games: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        signature = index_file(root, games)
        tracemalloc.start()
        index = idle.load_index(root, signature)
        loaded, _ = tracemalloc.get_traced_memory()
        kept = idle.KeptIndex(watch=False)
        kept.looked_all = True
        kept.save(root, index, NOW)
        total, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert len(index.entries) == games
    return loaded / 1e6, total / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args(argv)
    for games in args.games:
        loaded, total = measure(games)
        print(f"{games:>7} games: index {loaded:.1f} MB, with the heap of due times {total:.1f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
