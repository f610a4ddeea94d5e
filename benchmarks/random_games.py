"""Random games played through the judge's real doors (the inbox runner and the cycle), every
invariant of `tests/support/random_games.py` checked after every step: how many games a second,
and every violation found, with the steps that led to it.

    python benchmarks/random_games.py --games 10000 --jobs 2 --root /dev/shm
    python benchmarks/random_games.py --games 50 --seed 1000 --steps 60

Each game is played in a judge folder of its own under `--root` (tmpfs spares the disk), removed
after it. The exit status is 1 when any invariant broke.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.random_games import Violation, play


def play_range(root: str, seeds: range, steps: int) -> tuple[int, list[Violation]]:
    """Games `seeds`, each in a fresh folder under `root`: how many played, what broke."""
    found: list[Violation] = []
    for seed in seeds:
        folder = Path(tempfile.mkdtemp(prefix=f"game{seed}-", dir=root))
        try:
            found += play(folder, seed, steps)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return len(seeds), found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--steps", type=int, default=30, help="actions in a game at most")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    parser.add_argument("--root", default=tempfile.gettempdir())
    parser.add_argument("--chunk", type=int, default=20, help="games handed to a job at once")
    args = parser.parse_args()
    Path(args.root).mkdir(parents=True, exist_ok=True)  # a folder of its own, made if missing
    seeds = range(args.seed, args.seed + args.games)
    chunks = [seeds[i:i + args.chunk] for i in range(0, len(seeds), args.chunk)]
    start, played, violations = time.perf_counter(), 0, []
    with ProcessPoolExecutor(args.jobs) as pool:
        for count, found in pool.map(play_range, [args.root] * len(chunks), chunks,
                                     [args.steps] * len(chunks)):
            played += count
            violations += found
            for violation in found:
                print(violation, flush=True)
            print(f"{played} games, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    wall = time.perf_counter() - start
    cpu = sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
              for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(f"{played} games of up to {args.steps} actions, seeds {seeds.start}-{seeds.stop - 1}, "
          f"{args.jobs} job(s): {wall:.1f} s, {played / wall:.2f} games/s; "
          f"CPU {cpu:.1f} s, {cpu / max(played, 1) * 1000:.0f} ms a game; "
          f"{len(violations)} violation(s) in {len({v.seed for v in violations})} game(s)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
