"""The game page's time: a standard game with 20 phases of history, its page (and one phase of its
archive with that phase's board) fetched through Starlette's test client; the median of `--repeat`
fetches, in milliseconds, wall time and CPU time (the process's, every thread: on a loaded machine
the wall time counts the waits for a core too). Run by hand: python benchmarks/web.py [--phases 20]."""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.runtime.inbox import MailHandler
from tests.web.conftest import (
    BASE,
    MASTER,
    NOW,
    Clock,
    judge_config,
    pages,
    raw_mail,
    start_game,
)


def played(root: Path, phases: int):
    """A standard game the Master has processed `phases` times (every unit holding)."""
    config = judge_config(root)
    handler = MailHandler(config)
    start_game(handler)
    for n in range(phases):
        handler(raw_mail(MASTER, "SIGNON MASTER@quiet masterpw\nPROCESS!", f"p{n}"),
                NOW + timedelta(hours=1, minutes=n))
    return config, handler


def timed(client, path: str, repeat: int) -> str:
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        assert client.get(path).status_code == 200
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return (f"{statistics.median(wall) * 1000:.1f} ms wall, "
            f"{statistics.median(cpu) * 1000:.1f} ms CPU")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phases", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config, handler = played(Path(folder), args.phases)
        with pages(config, handler, Clock(NOW + timedelta(days=1))) as client:
            client.get(BASE + "?game=quiet")  # the map read and drawn once, as a running judge has
            now = timed(client, BASE + "?game=quiet", args.repeat)
            phase = timed(client, BASE + f"?game=quiet&phase={args.phases // 2}", args.repeat)
            index = timed(client, BASE, args.repeat)
    print(f"medians of {args.repeat}")
    print(f"game page (as it stands): {now}")
    print(f"game page (phase {args.phases // 2} of the archive, its board): {phase}")
    print(f"index: {index}")


if __name__ == "__main__":
    main()
